"""The seat view the page is drawn from (``web.views``), over real states of all three games:
plain JSON, exactly the seat's own cards and legal moves, and nothing the seat may not see."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from game.cards import is_card, sort_hand
from game.stukolka.rules import trick_share
from tables.people import ranks_style
from tests.game.unseen import cards_in as every_card
from tests.game.unseen import reshuffled as unseen_reshuffled
from tests.library import GAMES as LIBRARY_GAMES
from tests.library import PAGES, WORDS, seat_view
from tests.web.fixtures import GAMES, NAMES, first_state, states
from web.texts import page_texts
from web.view_parts import TableInfo

SEEDS = range(6)


def info(players: int) -> TableInfo:
    return TableInfo(names=NAMES[:players], version=7, chips=tuple(range(players)), deadline=1.5)


def every_view(game: str) -> Iterator[tuple[str, Any, int]]:
    kind, _, players = GAMES[game]
    for seed in SEEDS:
        for state in states(game, seed):
            for seat in range(players):
                yield kind, state, seat


def cards_in(value: object) -> set[str]:
    return set(every_card(value))


def reshuffled(kind: str, state: Any, seat: int, rng: random.Random) -> Any:
    return unseen_reshuffled(LIBRARY_GAMES.of(kind), state, seat, rng)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_view_is_json_and_shows_the_seats_own_cards_and_moves(game: str) -> None:
    count = 0
    for kind, state, seat in every_view(game):
        engine = state.seat_view(seat)
        players = len(engine.table.seats)
        view = seat_view(kind, state, seat, info(players))
        assert json.loads(json.dumps(view)) == view
        assert view["you"] == seat and view["version"] == 7
        assert [item["name"] for item in view["seats"]] == list(NAMES[:players])
        shown = [item["card"] for item in view["hand"]["cards"]]
        if engine.hand is None:
            assert shown == [] and view["hand"]["hidden"] == engine.hand_count
        else:
            assert shown == sort_hand(engine.hand, engine.table.trump)
            assert sorted(shown) == sorted(engine.hand)
        # every legal move is offered once, on a card, as a choice of cards, or as a control
        card_moves = {(item["verb"], item["card"]) for item in view["hand"]["cards"]}
        for entry in engine.legal:
            if entry.pick is not None:
                offered = (view["pick"] or {}).get("verb") == entry.verb or any(
                    action["verb"] == entry.verb for action in view["actions"]
                )
            elif entry.arg is not None and is_card(entry.arg) and engine.hand is None:
                # cards not looked at: the chat offers «look» first, and so does the page
                offered = view["hand"]["look"] and ("look", None) in [
                    (action["verb"], action["arg"]) for action in view["actions"]
                ]
            elif entry.arg is not None and is_card(entry.arg):
                offered = (entry.verb, entry.arg) in card_moves
            else:
                offered = any(
                    (action["verb"], action["arg"]) == (entry.verb, entry.arg)
                    for action in view["actions"]
                )
            assert offered, (entry, view)
        # and nothing else is
        legal_cards = {entry.arg for entry in engine.legal if entry.arg and is_card(entry.arg)}
        if engine.hand is not None:
            assert {card for verb, card in card_moves if verb} == legal_cards
        if not engine.legal:
            assert view["actions"] == [a for a in view["actions"] if a["verb"] == "look"]
            assert view["pick"] is None
        for action in view["actions"]:
            described(action)
        count += 1
    assert count > 100


def described(action: dict[str, Any]) -> None:
    """``action`` is a move as the schema describes it (``web.views``, "Moves"): all the
    page needs to draw it and nothing else."""
    assert set(action) == {"verb", "arg", "label", "input", "secondary"}, action
    assert isinstance(action["verb"], str) and isinstance(action["secondary"], bool)
    assert isinstance(action["label"]["key"], str)
    if action["input"] == "suit":
        assert action["arg"] in tuple("SHDC")
    else:
        assert action["input"] == "button", action
        assert action["arg"] is None or type(action["arg"]) is int, action


def test_the_view_marks_the_quieter_choices_and_draws_a_trump_as_a_suit() -> None:
    """Which moves are secondary and which are suits is the view's to say, not the page's."""
    knock = first_state("stukolka", lambda s: s.phase.value == "knock" and s.to_act is not None)
    view = seat_view("stukolka", knock, knock.to_act, info(4))
    quiet = {action["verb"]: action["secondary"] for action in view["actions"]}
    assert quiet["pass"] is True and quiet["knock"] is False
    assert quiet.get("look", True) is True
    unseen = first_state(
        "stukolka",
        lambda s: (
            s.phase.value == "purchase"
            and s.to_act is not None
            and not s.looked[s.to_act]
            and s.roles[s.to_act].value == "knock"
        ),
    )
    view = seat_view("stukolka", unseen, unseen.to_act, info(4))
    assert [a["verb"] for a in view["actions"] if a["secondary"]] == ["look"]
    named = first_state("starshina_named", lambda s: s.phase.value == "name_trump")
    view = seat_view("starshina", named, named.to_act, info(3))
    assert [(a["arg"], a["input"], a["label"]["key"]) for a in view["actions"]] == [
        (suit, "suit", f"web.suit.{suit}") for suit in "SHCD"
    ]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_view_holds_no_card_the_seat_may_not_see(game: str) -> None:
    rng = random.Random(5)
    checked = 0
    for kind, state, seat in every_view(game):
        engine = state.seat_view(seat)
        players = len(engine.table.seats)
        view = seat_view(kind, state, seat, info(players))
        assert cards_in(view) <= cards_in(engine)
        other = reshuffled(kind, state, seat, rng)
        assert seat_view(kind, other, seat, info(players)) == view
        checked += 1
    assert checked > 100


def test_the_reshuffle_moves_hidden_cards() -> None:
    """The leak test's reshuffle really changes what the other seats hold."""
    state = first_state("starshina", lambda s: s.phase.value == "play")
    other = reshuffled("starshina", state, 0, random.Random(1))
    assert other.hands[0] == state.hands[0]
    assert other.hands[1:] != state.hands[1:]


def test_a_view_shows_another_hand_if_the_engine_leaks_it() -> None:
    """The leak test fails where a view shows a card the seat may not see."""
    state = first_state("starshina", lambda s: s.phase.value == "play")
    view = seat_view("starshina", state, 0, info(3))
    leaked = dict(view, private=[*view["private"], {"cards": [state.hands[1][0]]}])
    assert not cards_in(leaked) <= cards_in(state.seat_view(0))


def test_starshina_sixteen_cards_with_the_legal_ones_playable() -> None:
    state = first_state(
        "starshina",
        lambda s: s.phase.value == "play" and len(s.hands[s.to_act]) == 16 and not s.trick,
    )
    view = seat_view("starshina", state, state.to_act, info(3))
    cards = view["hand"]["cards"]
    assert len(cards) == 16
    assert all(item["verb"] == "play" for item in cards)  # a lead: any card
    assert view["prompt"] == {"key": "prompt.play", "params": {}}
    assert view["pot"]["key"] == "web.pot.game"
    assert [seat["note"]["key"] for seat in view["seats"]] == ["starshina.tricks_of"] * 3


def test_starshina_kitty_is_a_choice_of_four() -> None:
    state = first_state("starshina", lambda s: s.phase.value == "kitty")
    view = seat_view("starshina", state, state.to_act, info(3))
    assert view["pick"] == {
        "verb": "kitty",
        "min": 4,
        "max": 4,
        "confirm": {"key": "btn.confirm_kitty", "params": {}},
        "none": None,
    }
    assert all(item["verb"] is None for item in view["hand"]["cards"])


def test_starshina_exchange_names_the_receiver_and_shows_only_ones_own_exchange() -> None:
    state = first_state("starshina", lambda s: s.phase.value == "ring_return")
    seat = state.to_act
    view = seat_view("starshina", state, seat, info(3))
    assert view["prompt"]["key"] in ("starshina.prompt.return", "starshina.prompt.return_any")
    assert view["private"], view
    for item in view["private"]:
        assert item["label"]["key"] in ("web.private.to", "web.private.from")
        assert item["label"]["params"]["name"]["seat"] != seat


def test_stukolka_unseen_hand_is_face_down_with_look_and_blind_purchase() -> None:
    state = first_state(
        "stukolka",
        lambda s: (
            s.phase.value == "purchase"
            and s.to_act is not None
            and not s.looked[s.to_act]
            and s.roles[s.to_act].value == "knock"
        ),
    )
    seat = state.to_act
    view = seat_view("stukolka", state, seat, info(4))
    assert view["hand"]["cards"] == []
    assert view["hand"]["hidden"] == 3 and view["hand"]["look"] is True
    verbs = [(action["verb"], action["arg"]) for action in view["actions"]]
    assert ("discard", 0) in verbs and ("look", None) in verbs
    assert view["pick"] is None
    labels = {action["arg"]: action["label"]["key"] for action in view["actions"]}
    assert labels[0] == "btn.keep" and labels[1] == "btn.buy"


def test_stukolka_knock_shows_knock_and_pass_and_the_pot() -> None:
    state = first_state("stukolka", lambda s: s.phase.value == "knock")
    view = seat_view("stukolka", state, state.to_act, info(4))
    verbs = [action["verb"] for action in view["actions"]]
    assert "knock" in verbs and "pass" in verbs
    share = str(trick_share(state.pot, 0))
    assert view["pot"] == {
        "key": "web.pot.remiz",
        "params": {"pot": state.pot, "share": share, "remiz": state.pot},
    }
    assert view["pot_gloss"] == {"key": "gloss.remiz", "params": {}}
    assert view["deadline"] == 1.5


def test_shleif_dealer_chooses_and_sees_the_shleif_card_alone() -> None:
    choose = first_state("shleif", lambda s: s.phase.value == "choose")
    view = seat_view("stukolka", choose, choose.to_act, info(4))
    assert {action["verb"] for action in view["actions"]} == {"shleif", "open"}
    state = first_state(
        "shleif", lambda s: s.shleif is True and s.shleif_card_held and s.phase.value == "knock"
    )
    dealer = seat_view("stukolka", state, state.dealer, info(4))
    assert dealer["private"][0]["cards"] == [state.trump_card]
    for seat in range(4):
        if seat != state.dealer:
            view = seat_view("stukolka", state, seat, info(4))
            assert state.trump_card not in cards_in(view)
            assert view["trump_card"] is None


def test_a_finished_deal_shows_each_players_net() -> None:
    state = first_state(
        "stukolka", lambda s: s.phase.value == "deal_over" and s.outcome.value == "played"
    )
    view = seat_view("stukolka", state, 0, info(4))
    assert view["result"]["label"]["key"] == "web.outcome.played"
    nets = view["result"]["nets"]
    assert sum(nets) == state.pot_in - state.pot_after  # the chips are conserved
    assert any(nets)
    assert view["to_act"] is None and view["deadline"] is None


def test_cards_read_as_the_chat_writes_them() -> None:
    assert ranks_style("en", "russian") == "latin"
    assert ranks_style("ru", None) == "russian"
    assert ranks_style("ru", "latin") == "latin"


def test_a_purchase_shows_how_many_cards_each_seat_bought_in_the_chats_words() -> None:
    state = first_state("stukolka", lambda s: any(n for n in s.bought if n) and 0 in s.bought)
    view = seat_view("stukolka", state, 0, info(4))
    kept = 0
    for seat, bought, role in zip(view["seats"], state.bought, state.roles, strict=True):
        if bought is None or role.value == "razrez":
            assert seat["note"] is None
        elif bought:
            assert seat["note"] == {"key": "seat.bought", "params": {}, "n": bought}
        else:
            # «без покупки», as the chat says it, not «покупка 0»
            assert seat["note"] == {"key": "seat.kept", "params": {}}
            kept += 1
    assert kept
    served = page_texts("ru", PAGES)["texts"]
    assert served["seat.kept"] == WORDS.t("ru", "seat.kept") == "без покупки"
    assert "seat.bought" in served


@pytest.mark.parametrize("game", ["stukolka", "shleif"])
def test_tricks_count_once_the_play_has_begun_and_a_passers_dead_cards_are_not_drawn(
    game: str,
) -> None:
    kind, _, players = GAMES[game]
    phases: set[str] = set()
    for state in states(game, 0):
        for seat in range(players):
            view = seat_view(kind, state, seat, info(players))
            phase = view["phase"]
            phases.add(phase)
            for item, role in zip(view["seats"], state.roles, strict=True):
                playing = phase in ("play", "deal_over") and role.value not in ("none", "pass")
                lone = state.outcome is not None and state.outcome.value == "lone"
                assert (item["tricks"] is not None) == (playing and not lone), (phase, role)
                if role.value == "pass":
                    # dead, never shown (docs/rules.md §1.3): no backs for them either
                    assert item["cards"] == 0
                else:
                    assert item["cards"] == len(state.hands[item["seat"]])
    assert {"knock", "purchase", "play"} <= phases


def test_starshina_seats_show_their_target_alone_before_the_play() -> None:
    for state in states("starshina", 0):
        view = seat_view("starshina", state, 0, info(3))
        for item in view["seats"]:
            if view["phase"] in ("exchange_give", "ring_return", "name_trump", "kitty"):
                assert item["note"]["key"] == "web.target" and item["tricks"] is None
                assert not item["tricks_in_note"]
            else:
                assert item["note"]["key"].startswith("starshina.") and item["tricks_in_note"]


def test_the_face_up_trump_shows_on_the_stock_only_while_it_lies_there() -> None:
    """As the chat drops «— открыт на колоде» once the card is drawn."""
    lying = first_state("stukolka", lambda s: s.phase.value == "knock" and s.trump_card in s.stock)
    view = seat_view("stukolka", lying, 0, info(4))
    assert view["trump_card_on_stock"] is True
    assert view["trump_line"] == {
        "key": "stukolka.trump.on_stock",
        "params": {"card": {"card": lying.trump_card}},
    }
    drawn = first_state(
        "stukolka",
        lambda s: (
            s.phase.value == "play" and s.trump_card is not None and s.trump_card not in s.stock
        ),
    )
    view = seat_view("stukolka", drawn, 0, info(4))
    assert view["trump_card_on_stock"] is False
    assert view["trump_line"] == {
        "key": "stukolka.trump.card",
        "params": {"card": {"card": drawn.trump_card}},
    }


def test_an_opened_shleif_deal_says_the_trump_lies_open() -> None:
    state = first_state(
        "shleif",
        lambda s: s.shleif is False and s.phase.value == "knock" and s.trump_card in s.stock,
    )
    view = seat_view("stukolka", state, 0, info(4))
    assert view["choice"] == "shleif"
    assert view["trump_line"]["key"] == "stukolka.trump.on_stock"
    shleif = first_state("shleif", lambda s: s.shleif is True and s.phase.value == "knock")
    view = seat_view("stukolka", shleif, (shleif.dealer + 1) % 4, info(4))
    assert view["trump_line"] == {
        "key": "stukolka.trump.shleif",
        "params": {"suit": {"suit": shleif.trump}},
    }


def test_a_finished_stukolka_deal_breaks_each_net_down_and_says_what_stays_in_the_pot() -> None:
    state = first_state(
        "stukolka",
        lambda s: (
            s.phase.value == "deal_over"
            and s.outcome.value == "played"
            and any(t.reason == "remiz" for t in s.transfers)
            and s.pot_after
        ),
    )
    view = seat_view("stukolka", state, 0, info(4))
    result = view["result"]
    remizes = {t.src for t in state.transfers if t.reason == "remiz"}
    for seat in remizes:
        keys = [part["key"] for part in result["parts"][seat]]
        assert "money.remiz" in keys
        amounts = [
            int(part["params"]["amount"].replace("−", "-")) for part in result["parts"][seat]
        ]
        assert sum(amounts) == result["nets"][seat]
    assert result["notes"] == [{"key": "result.pot_carried", "params": {"pot": state.pot_after}}]


def test_a_starshina_deal_ends_in_the_chats_words_and_the_game_goes_on() -> None:
    state = first_state("starshina", lambda s: s.phase.value == "deal_over")
    view = seat_view("starshina", state, 0, info(3))
    record = state.history[-1]
    for seat in view["seats"]:
        note = seat["note"]
        assert note["key"] == "starshina.result_tricks"
        assert note["params"]["tricks"]["n"] == record.tricks[seat["seat"]]
        diff = record.diffs[seat["seat"]]
        words = note["params"]["diff"]
        assert words["key"] == (
            "starshina.short" if diff < 0 else "starshina.over" if diff else "starshina.on_target"
        )
        assert words.get("n", 0) == abs(diff)
    result = view["result"]
    assert result["label"]["key"] == "web.deal_over"
    # the antes went into the game pot at the start: this deal moved nothing
    assert result["nets"] is None
    assert result["notes"][-1] == {
        "key": "web.game_goes_on",
        "params": {"deals": 1, "most": state.options.max_deals},
    }


def test_the_purchase_prompt_names_the_button_shown_with_nothing_marked() -> None:
    state = first_state(
        "shleif",
        lambda s: s.phase.value == "purchase" and s.to_act is not None and s.looked[s.to_act],
    )
    seat = state.to_act
    view = seat_view("stukolka", state, seat, info(4))
    assert view["pick"]["none"] == {"key": "btn.keep", "params": {}}
    prompt = view["prompt"]
    if prompt["key"] == "prompt.purchase_shleif":  # the шлейф dealer's says what comes next
        prompt = prompt["params"]["prompt"]
    assert prompt["key"] == "prompt.purchase"
    assert prompt["params"]["keep"] == view["pick"]["none"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_page_asks_each_seat_in_the_chats_words(lang: str) -> None:
    """Every seat's prompt on the page, said in full as the page says a text, is the chat's
    own line for it (the page once left out what the шлейф dealer does after buying)."""
    from bot.render.common import label, said
    from tables.games import starshina, stukolka

    def page_said(text: dict[str, Any]) -> str:
        def value(param: Any) -> Any:
            if isinstance(param, dict):
                if "seat" in param:
                    return NAMES[param["seat"]]
                return label(param["card"]) if "card" in param else page_said(param)
            return param

        params = {name: value(param) for name, param in text["params"].items()}
        if "n" in text:
            return WORDS.tn(lang, text["key"], text["n"], **params)
        return WORDS.t(lang, text["key"], **params)

    told, shleif_dealer = 0, 0
    for game in ("shleif", "stukolka", "starshina"):
        kind = GAMES[game][0]
        table_side: Any = stukolka if kind == "stukolka" else starshina
        for state in states(game, 11):
            seat = state.to_act
            if seat is None:
                continue
            view = seat_view(kind, state, seat, info(state.players))
            words = table_side.prompt(state.seat_view(seat))
            assert (view["prompt"] is None) == (words is None)
            if words is None:
                continue
            assert page_said(view["prompt"]) == said(LIBRARY_GAMES.words, lang, words, NAMES), view[
                "prompt"
            ]
            told += 1
            if words.key == "prompt.purchase_shleif":
                shleif_dealer += 1
                assert WORDS.t(lang, "prompt.purchase_shleif", prompt="") in page_said(
                    view["prompt"]
                )
    assert told > 60 and shleif_dealer


def test_the_money_reads_as_the_chats_breakdown() -> None:
    from bot.games.starshina.render import last_deal_transfers
    from bot.render import common
    from locales import signed
    from web import view_parts
    from web.games import starshina as view_starshina

    assert view_parts.MONEY_REASONS == common.MONEY_REASONS
    # one way to write chips for both (locales.signed), with a true minus sign
    assert [signed(n) for n in (3, -12, 0)] == ["+3", "\u221212", "0"]
    for state in states("starshina", 3, deals=3):
        if state.phase.value == "deal_over":
            table = state.seat_view(0).table
            diffs = [x for x in last_deal_transfers(table) if x.reason == "diff"]
            assert view_starshina._deal_diffs(table) == diffs


@pytest.mark.parametrize("game", list(GAMES))
def test_a_view_says_what_its_face_down_cards_are_and_whose_note_counts_tricks(game: str) -> None:
    """The page reads these off the view (it used to test the game's kind and its note's key:
    the same answers)."""
    from web.texts import page_texts

    served = page_texts("ru", PAGES)["texts"]
    for kind, state, seat in every_view(game):
        view = seat_view(kind, state, seat, info(len(state.seat_view(seat).table.seats)))
        assert view["stock_label"] == ("web.kitty" if kind == "starshina" else "web.stock")
        assert view["stock_label"] in served
        for item in view["seats"]:
            note = item["note"]
            assert item["tricks_in_note"] == (
                note is not None and note["key"].startswith("starshina.")
            )


@pytest.mark.parametrize("game", ["stukolka", "shleif", "starshina_per_trick", "starshina_one"])
def test_a_result_breaks_each_net_down_where_the_chat_does(game: str) -> None:
    """A seat's parts are the chat's breakdown (``money_text``) where the chat says one beside
    the net, and none where it says the net alone (a lone part the net says: the tricks')."""
    from bot.render.common import money_text
    from locales import signed
    from web.games.starshina import _deal_diffs

    kind, _, players = GAMES[game]
    said = unsaid = 0
    for seed in SEEDS:
        for state in states(game, seed, deals=3):
            view = seat_view(kind, state, 0, info(players))
            result = view["result"]
            if result is None or result["nets"] is None:
                continue
            table = state.seat_view(0).table
            deal_only = kind == "starshina" and table.winner is None
            transfers = _deal_diffs(table) if deal_only else table.transfers
            for seat, parts in enumerate(result["parts"]):
                sums: dict[str, int] = {}
                for item in transfers:
                    for who, amount in ((item.src, -item.amount), (item.dst, item.amount)):
                        if who == seat:
                            sums[item.reason] = sums.get(item.reason, 0) + amount
                chat = money_text("ru", sums)
                net = WORDS.t("ru", "money.net", amount=signed(sum(sums.values())))
                if parts:
                    words = " · ".join(
                        WORDS.t("ru", part["key"], **part["params"]) for part in parts
                    )
                    assert chat == f"{net} {WORDS.t('ru', 'money.parts', parts=words)}"
                    said += 1
                else:
                    assert chat == net
                    unsaid += 1
    assert said or unsaid
    if game == "starshina_per_trick":
        assert unsaid  # a deal's money per trick alone: the net says it
    else:
        assert said
