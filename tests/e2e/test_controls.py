"""End to end: no control that misleads. Played against the fake Bot API with the buttons the
bot really sent:

- Старшина's kitty: «Отмечено: n из 4» stands where «Снести 4» will be; a 5th mark is refused
  with a word and changes nothing; a turn that runs out with cards marked discards them (the
  lowest of the rest complete them);
- the dark purchase asks how many of his cards a dark player discards, and its buttons answer
  exactly that.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.render.common import label, ranks_shown
from game.cards import LOW_ORDER
from game.starshina import Phase as StarshinaPhase
from game.stukolka.state import Phase, Role
from tables.records import Loaded
from tests.library import CODEC, WORDS

from .fake_telegram import FakeTelegram, Message
from .players import Table, start_bot_for
from .test_games import open_table


def engine_state(loaded: Loaded) -> Any:
    """The rules' state of a table that is being played (either game's)."""
    assert loaded.table is not None
    return loaded.table


def _selects(message: Message) -> dict[str, str]:
    """The card toggles of a hand message: the button's text → its callback data."""
    found = {}
    for row in message.buttons:
        for text, data in row:
            if data and isinstance(CODEC.decode(data), cb.Select):
                found[text] = data
    return found


def _button(message: Message, text: str) -> str | None:
    return next((data for row in message.buttons for shown, data in row if shown == text), None)


async def _press(table: Table, user: object, message: Message, data: str) -> str | None:
    """Press a button; the text the bot answered the press with."""
    query = table.fake.user_presses(user, message, data)  # type: ignore[arg-type]
    await table.settle()
    assert query.answer is not None
    return query.answer.text


async def _starshina_kitty(table: Table) -> tuple[object, int]:
    """Play the exchange out (the first offered card each time) up to the dealer's kitty:
    the dealer, and the game's id."""
    db = table.db
    for _ in range(40):
        game = await db.games.active_game(table.group.id)
        assert game is not None
        loaded = await table.services.tables.store.snapshot(game)
        state = engine_state(loaded)
        if state.phase is StarshinaPhase.KITTY:
            return table.fake.world.users[loaded.seats[state.to_act]], game.game_id
        user, message, data = table.actionable((cb.Act,))[0]
        await table.press(
            user, message, next(d for d in data if isinstance(CODEC.decode(d), cb.Act))
        )
    raise AssertionError("no kitty")


async def test_the_kitty_takes_four_marks_and_says_so(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", 31)
        dealer, _ = await _starshina_kitty(table)
        hand = table.hand_message(dealer)  # type: ignore[arg-type]
        assert hand is not None
        # nothing marked: the place of «Снести 4» says how far the choice is, and asks for more
        status = _button(hand, WORDS.t("ru", "btn.marked", n=0, of=4))
        assert status is not None and _button(hand, WORDS.t("ru", "btn.confirm_kitty", n=4)) is None
        answer = await _press(table, dealer, hand, status)
        assert answer == WORDS.tn("ru", "answer.mark_more", 4) == "Отметьте ещё 4 карты."
        marked: list[str] = []
        for _ in range(4):
            hand = table.hand_message(dealer)  # type: ignore[arg-type]
            assert hand is not None
            text, data = next((x, d) for x, d in _selects(hand).items() if not x.startswith("✓"))
            assert await _press(table, dealer, hand, data) is None
            marked.append(text)
            hand = table.hand_message(dealer)  # type: ignore[arg-type]
            assert hand is not None
            if len(marked) < 4:
                assert _button(hand, WORDS.t("ru", "btn.marked", n=len(marked), of=4)) is not None
        hand = table.hand_message(dealer)  # type: ignore[arg-type]
        assert hand is not None
        confirm = _button(hand, WORDS.t("ru", "btn.confirm_kitty", n=4))
        assert confirm is not None
        # a fifth mark: refused with a word; the four stay marked and «Снести 4» stays
        before = hand.text
        fifth = next(d for x, d in _selects(hand).items() if not x.startswith("✓"))
        answer = await _press(table, dealer, hand, fifth)
        assert answer == WORDS.tn("ru", "answer.marked_enough", 4)
        assert answer is not None and len(answer) <= 200 and "4 карты" in answer
        hand = table.hand_message(dealer)  # type: ignore[arg-type]
        assert hand is not None and hand.text == before
        assert sorted(x for x in _selects(hand) if x.startswith("✓")) == sorted(
            f"✓ {x}" for x in marked
        )
        assert _button(hand, WORDS.t("ru", "btn.confirm_kitty", n=4)) == confirm
        assert not bot.handler_errors


async def test_a_kitty_timeout_discards_the_marked_cards(tmp_path: Path) -> None:
    """docs/rules.md §5 gives the 4 lowest as the kitty's default move. A card the dealer marked is
    his choice, made in time, and the default is never a penalty: so the turn that runs out
    discards what he marked, and only the cards he left to choose are the lowest — of the rest.
    Marks he never made (none) give the plain default."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", 32)
        dealer, game_id = await _starshina_kitty(table)
        db = table.db
        game = await db.games.game(game_id)
        loaded = await table.services.tables.store.snapshot(game)
        state = engine_state(loaded)
        hand_cards = list(state.hands[state.to_act])
        by_low = sorted(hand_cards, key=LOW_ORDER.__getitem__)
        # two high cards marked, none of the four lowest
        wanted = by_low[-2:]
        with ranks_shown("ru", None):
            wanted_labels = {label(card) for card in wanted}
        for card_label in wanted_labels:
            hand = table.hand_message(dealer)  # type: ignore[arg-type]
            assert hand is not None
            await _press(table, dealer, hand, _selects(hand)[card_label])
        # the turn runs out
        table.services.timers.arm(game_id, loaded.meta.turn, time.time())
        for _ in range(100):
            await table.settle()
            state = engine_state(
                await table.services.tables.store.snapshot(await db.games.game(game_id))
            )
            if state.phase is not StarshinaPhase.KITTY:
                break
        assert state.phase is not StarshinaPhase.KITTY
        assert sorted(state.discards) == sorted([*wanted, *by_low[:2]])
        assert not bot.handler_errors


async def test_the_dark_purchase_asks_how_many_to_discard(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "shleif", 23)
        db = table.db
        chat_id = table.group.id
        for _ in range(400):
            game = await db.games.active_game(chat_id)
            assert game is not None
            loaded = await table.services.tables.store.snapshot(game)
            state = engine_state(loaded)
            seat = state.to_act
            if (
                seat is not None
                and state.phase is Phase.PURCHASE
                and state.roles[seat] is Role.DARK
            ):
                break
            user, message, data = table.rng.choice(table.actionable((cb.Act,)))
            darks = [d for d in data if getattr(CODEC.decode(d), "verb", None) == "dark"]
            await table.press(user, message, darks[0] if darks else table.rng.choice(data))
        else:
            raise AssertionError("nobody played dark")
        user = fake.world.users[loaded.seats[seat]]
        hand = table.hand_message(user)
        assert hand is not None and hand.text is not None
        # one question: how many of his own cards to discard unseen; the buttons say it
        assert WORDS.t("ru", "prompt.purchase_dark") in hand.text
        assert "сколько своих карт сбросить" in hand.text
        labels = [text for row in hand.buttons for text, _ in row]
        assert labels == ["Не сбрасывать", "Сбросить 1", "Сбросить 2", "Сбросить 3"], labels
        assert not any("Купить" in text for text in labels)
        await table.press(user, hand, _button(hand, "Сбросить 2") or "")
        state = engine_state(
            await table.services.tables.store.snapshot(await db.games.game(game.game_id))
        )
        # two of his own discarded, three drawn (docs/rules.md §3): the table says «покупка: 3»
        assert len(state.discards[seat]) == 2
        assert state.bought[seat] == 3
        assert not bot.handler_errors
