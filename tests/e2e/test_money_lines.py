"""End to end: the money lines a player who lost reads — /stats, the evening's summary, a
lone knocker's private result — each checked against the ledger the bot kept, as a player
who lost would check it."""

from __future__ import annotations

import re
from pathlib import Path

from bot import callback as cb
from tables.stopping import LARGE_POT_STAKES, large_pot
from tests.library import CODEC, GAMES

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .test_games import open_table


async def _play_deals(table: Table, count: int) -> None:
    """Random presses until ``count`` more deals have ended."""
    db = table.db
    target = await db.history.deal_count(table.group.id) + count
    while await db.history.deal_count(table.group.id) < target:
        assert await table.step()


async def _deal_nets(table: Table) -> list[dict[str, int]]:
    """Each finished deal of the group, oldest first: each player's net in it, summed here
    from the ledger's rows."""
    db = table.db
    deals = await db.history.last_deals(table.group.id, 1000)
    players = await db.chats.players([user.id for user in table.users])
    result = []
    for deal in reversed(deals):
        nets: dict[str, int] = {}
        for entry in deal.transfers:
            for party, sign in ((entry.src, -1), (entry.dst, 1)):
                if isinstance(party, int):
                    name = players[party].name
                    nets[name] = nets.get(name, 0) + sign * entry.amount
        result.append(nets)
    return result


async def _press_verb(table: Table, wanted: dict[int, str]) -> bool:
    """One press: the first player with a game button presses the verb ``wanted`` names for
    his index (or else his first offered move). False when nobody has a move."""
    for index, user in enumerate(table.users):
        message = table.hand_message(user)
        if message is None:
            continue
        acts = [
            (data, decoded)
            for data in message.callback_data
            if isinstance(decoded := CODEC.decode(data), cb.Act)
        ]
        if not acts:
            continue
        verb = wanted.get(index)
        chosen = next((data for data, act in acts if act.verb == verb), acts[0][0])
        await table.press(user, message, chosen)
        return True
    return False


async def test_stats_tell_a_stukolka_player_of_stukolka_alone(tmp_path: Path) -> None:
    """Three шлейф deals: /stats names Стуколка and its figures, and never a Старшина game
    (it said «Партии Старшины: выиграно 0 из 1»)."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "shleif", 5)
        await _play_deals(table, 3)
        await table.say(table.users[1], "/stats")
        text = table.group_messages()[-1].text or ""
        assert "Стуколка" in text and "Сыграно: 3 сдачи" in text, text
        assert "Старшин" not in text and "партий" not in text.lower(), text
        await table.say(table.users[0], "/lang en")
        await table.say(table.users[1], "/stats")
        text = table.group_messages()[-1].text or ""
        assert "Stukolka" in text and "Played: 3 deals" in text, text
        assert "Starshina" not in text and "won" not in text, text
        assert not bot.handler_errors


async def _end_evening(table: Table) -> None:
    """The chat's evening ends as its gap would end it, the table still open (/evening
    during play shows the evening so far and ends nothing)."""
    assert await table.services.evenings.end_now(table.group.id)
    await table.settle()


async def test_the_evenings_biggest_win_is_the_largest_net_of_a_deal(tmp_path: Path) -> None:
    """«The biggest win» names the player with the largest net in one deal, who came out of
    it ahead, with that net — never the largest take of a player who lost the deal."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "shleif", 3)
        await _play_deals(table, 6)
        await _end_evening(table)
        text = next(
            m.text for m in reversed(table.group_messages()) if m.text and "Итоги вечера" in m.text
        )
        match = re.search(r"выигрыш за сдачу: \+(\d+) — (\S+), сдача (\d+)", text)
        assert match, text
        amount, name, deal = int(match[1]), match[2], int(match[3])
        nets = await _deal_nets(table)
        best = max(net for deal_nets in nets for net in deal_nets.values())
        assert best > 0 and amount == best
        assert nets[deal - 1][name] == amount
        assert not bot.handler_errors


async def test_a_lone_knocker_reads_in_private_that_he_takes_the_pot_without_play(
    tmp_path: Path,
) -> None:
    """Only one player knocks: the group says he takes the pot without play, and so does his
    private result — no «0 взяток» of a deal nobody played."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 1)
        db = table.db
        # whoever speaks: the second player knocks, the others pass
        while await db.history.deal_count(table.group.id) < 1:
            assert await _press_verb(table, {0: "pass", 1: "knock", 2: "pass"})
        await table.settle()
        result = next(
            m.text for m in reversed(table.group_messages()) if m.text and "окончена" in m.text
        )
        knocker = table.users[1].first_name
        assert f"Единственный игрок — {knocker} — забирает кон без игры" in result, result
        private = fake.messages(fake.private_chat(table.users[1]), from_bot=True)
        outcome = next(m.text for m in reversed(private) if m.text and "Ваш итог" in m.text)
        assert "Кроме вас, никто не играет: кон ваш без игры, +3." in outcome, outcome
        assert "взят" not in outcome.split("Ваш итог")[1], outcome
        other = fake.messages(fake.private_chat(table.users[2]), from_bot=True)
        outcome = next(m.text for m in reversed(other) if m.text and "Ваш итог" in m.text)
        assert f"Единственный игрок — {knocker} — забирает кон без игры: +3." in outcome
        assert not bot.handler_errors


def _signed(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


async def test_a_starshina_result_says_shortfalls_in_words_and_each_players_chips_once(
    tmp_path: Path,
) -> None:
    """A Старшина game to its end: the group's result gives each player's tricks against his
    target in words, no signed trick difference beside the chips, one name for the pot
    («банк партии»), and each player's chips once, their parts adding up to them and to the
    ledger's figure for the game."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", 2, options={"max_deals": 1})
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None
        while (await db.games.game(game.game_id)).status == "active":
            assert await table.step(look_chance=0.0)
        await table.settle()
        result = next(
            m.text for m in reversed(table.group_messages()) if m.text and "окончена" in m.text
        )
        head, money = result.split("Итог партии:")
        money = money.split("Балансы:")[0]  # the chat's balances: all time, not this game
        assert "при норме" in head and not re.search(r"\([+−]\d+\)", head), head
        assert re.search(r"не хватило \d+|\d+ сверх нормы", head), head
        assert "банк игры" not in result and "банк партии +3" in money, money
        ledger: dict[int, int] = {}
        for entry in await db.ledger.transfers(table.group.id, game_id=game.game_id):
            for party, sign in ((entry.src, -1), (entry.dst, 1)):
                if isinstance(party, int):
                    ledger[party] = ledger.get(party, 0) + sign * entry.amount
        for user in table.users:
            line = next(x for x in money.splitlines() if x.startswith(f"{user.first_name}: "))
            found = re.fullmatch(r"[^:]+: ([+−]?\d+)(?: \((.*)\))?", line)
            assert found is not None, line
            net, parts = found.groups()
            assert _signed(net) == ledger.get(user.id, 0), (line, ledger)
            assert sum(_signed(x) for x in re.findall(r"[+−]\d+", parts or net)) == _signed(net)
            assert money.count(f"{user.first_name}: ") == 1
        for user in table.users:
            private = fake.messages(fake.private_chat(user), from_bot=True)
            outcome = next(m.text for m in reversed(private) if m.text and "Ваш итог" in m.text)
            assert "банк игры" not in outcome and "недобор +" not in outcome, outcome
            assert not re.search(r"за партию [+−]\d", outcome), outcome
        assert not bot.handler_errors


def _named_amounts(text: str, names: list[str]) -> dict[str, int]:
    """``Name: +3`` (or ``Name +3``) for each name found in ``text``."""
    found = {}
    for name in names:
        match = re.search(rf"{re.escape(name)}:? ([+−]?\d+)", text)
        if match:
            found[name] = _signed(match[1])
    return found


async def test_an_evening_summed_mid_deal_says_what_balance_counts_and_it_does_not(
    tmp_path: Path,
) -> None:
    """A deal being played: its antes are in the ledger, and so in /balance, not in the
    evening's nets. /evening (the evening so far) and a summary that ends the evening mid-deal
    (its gap passed) say so, with each player's chips of that deal, so that the nets and
    those chips add up to /balance (the chat's first evening); the next evening, which the
    deal ends in, counts them."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 7)
        names = [user.first_name for user in table.users]
        await _play_deals(table, 2)  # the third deal is dealt: its dealer has anted
        await table.say(table.users[0], "/balance")
        balance = _named_amounts(table.group_messages()[-1].text or "", names)
        await table.say(table.users[0], "/evening")
        so_far = table.group_messages()[-1].text or ""
        assert so_far.startswith("🌙 Вечер пока · 2 сдачи"), so_far
        nets = _named_amounts(so_far.split("Итог на сейчас")[1].split("\n\n")[0], names)
        assert "⏳ Идёт сдача: её ставки уже в /balance, а сюда войдут, когда она закончится" in (
            so_far
        )
        in_play = _named_amounts(so_far.split("закончится — ")[1].split(".\n")[0], names)
        assert in_play and all(amount < 0 for amount in in_play.values()), so_far
        assert {name: nets[name] + in_play.get(name, 0) for name in names} == balance
        await _end_evening(table)
        summary = next(
            m.text for m in reversed(table.group_messages()) if m.text and "Итоги вечера" in m.text
        )
        nets = _named_amounts(summary.split("Итог вечера")[1].split("\n\n")[0], names)
        assert "⏳ Ещё идёт сдача: её ставки уже в /balance, а в эти итоги не вошли" in summary
        in_play = _named_amounts(summary.split("не вошли — ")[1].split(". Они")[0], names)
        assert in_play and all(amount < 0 for amount in in_play.values()), summary
        assert {name: nets[name] + in_play.get(name, 0) for name in names} == balance
        # the deal ends in the next evening, which counts its antes
        await _play_deals(table, 1)
        await _end_evening(table)
        second = next(
            m.text for m in reversed(table.group_messages()) if m.text and "Итоги вечера" in m.text
        )
        assert second != summary and "1 сдача" in second
        assert not bot.handler_errors


def _button(message: object, text: str) -> str | None:
    for row in message.buttons:  # type: ignore[attr-defined]
        for label, data in row:
            if label == text:
                return str(data)
    return None


async def test_a_stop_with_a_large_pot_offers_to_play_on(tmp_path: Path) -> None:
    """/stop while the chat's pot holds four stakes or more (12 chips at the stake of 3:
    ``LARGE_POT_STAKES``) says what the pot holds and that nobody pays it, and offers
    «▶️ Играть дальше» under the table: the creator's press keeps the table open, another
    player's is refused."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 11)
        db = table.db
        group = table.group.id
        game = await db.games.active_game(group)
        assert game is not None
        while (await db.ledger.balances(group)).pot < 12:
            await _play_deals(table, 1)
        await table.settle()
        pot = (await db.ledger.balances(group)).pot
        await table.say(table.users[0], "/stop")
        board_id = (await db.games.game(game.game_id)).table_message_id
        assert board_id is not None
        board = fake.message(table.group, board_id)
        text = board.text or ""
        assert f"⏹ Игра остановится после этой сдачи. В кону {pot} фиш" in text, text
        assert "никто не платит" in text
        play_on = _button(board, "▶️ Играть дальше")
        assert play_on is not None and _button(board, "✋ Отменить сдачу (0/3)") is not None
        fake.user_presses(table.users[1], board, play_on)
        await table.settle()
        assert (
            await table.services.tables.store.snapshot(await db.games.game(game.game_id))
        ).meta.stop
        fake.user_presses(table.users[0], board, play_on)
        await table.settle()
        board = fake.message(table.group, board.message_id)
        assert "▶️ Игрок0: играем дальше" in (board.text or ""), board.text
        assert _button(board, "▶️ Играть дальше") is None
        deals = await db.history.deal_count(group)
        await _play_deals(table, 1)
        assert (await db.games.game(game.game_id)).status == "active"  # the table plays on
        assert await db.history.deal_count(group) == deals + 1
        assert not bot.handler_errors


def test_a_large_pot_is_four_stakes_of_a_game_that_plays_for_the_chats_pot() -> None:
    """What «large» means: four stakes or more in the chat's pot (a fresh deal plays for one
    stake, so each trick of the next deal pays five times as much or more); a game with no
    chat pot (Старшина) never has one."""
    assert LARGE_POT_STAKES == 4
    for stake in (3, 6, 30):
        assert not large_pot(GAMES.of("stukolka"), {"stake": stake}, 4 * stake - 1)
        assert large_pot(GAMES.of("stukolka"), {"stake": stake}, 4 * stake)
    assert not large_pot(GAMES.of("starshina"), {"stake": 1}, 100)


async def test_the_evenings_who_pays_whom_accounts_for_every_chip_a_loser_lost(
    tmp_path: Path,
) -> None:
    """An evening whose remizes left chips in the pot: «кто кому платит» says how many lie in
    the pot, whose they are and that the pot carries to the next deal, so that each loser's
    net is what he pays plus what of his lies in the pot, and each winner's what he is paid
    (it read «Алиса → Dmitri: 4» for Алиса at −20, the other 16 unexplained)."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 4)
        names = [user.first_name for user in table.users]
        db = table.db
        while True:
            await _play_deals(table, 1)
            evening = await db.evenings.open_evening(table.group.id)
            assert evening is not None
            summary = await db.evenings.evening_summary(evening)
            if summary.pot_change > 0 and any(net > 0 for net in summary.nets.values()):
                break
        await _end_evening(table)
        text = next(
            m.text for m in reversed(table.group_messages()) if m.text and "Итоги вечера" in m.text
        )
        nets = _named_amounts(text.split("Итог вечера")[1].split("\n\n")[0], names)
        settle = text.split("Кто кому платит за вечер")[1]
        paid = {name: 0 for name in names}
        for payer, payee, amount in re.findall(r"(\S+) → (\S+): (\d+)", settle):
            paid[payer] -= int(amount)
            paid[payee] += int(amount)
        match = re.search(r"Ещё (\d+) фиш\w* — в кону: ремизы и ставки, [^(]+\((.+?)\)\.", settle)
        assert match, settle
        assert int(match[1]) == summary.pot_change
        assert "Их никто никому не платит: кон переходит в следующую сдачу." in settle
        in_pot = {name: int(amount) for name, amount in re.findall(r"(\S+) (\d+)", match[2])}
        assert sum(in_pot.values()) == summary.pot_change
        for name in names:
            assert nets[name] == paid[name] - in_pot.get(name, 0), (name, text)
        assert not bot.handler_errors
