"""The replay of a finished deal shows each player only the cards he saw at the table, card by
card: the rest of a hand, or of another seat's discards, exchanges and kitty, only counted and
drawn face down; dead cards (§1.3) not even counted, to anyone but their own seat — and a
player who never looked at his hand does not read it there either."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.stukolka.state import Roles
from tables.people import ranks_style
from tests.game.unseen import cards_in as every_card
from tests.library import PAGES
from tests.web.fixtures import GAMES, NAMES, seen_cards, states
from web.endings import replay
from web.view_parts import Json, TableInfo


def _deals(game: str, seeds: range) -> Iterator[list[Any]]:
    """The first deal of each seed's random game of ``game``, all its states."""
    for seed in seeds:
        yield [state for state in states(game, seed, deals=1) if state.deal_no == 0]


def _deal(game: str, where: Any) -> list[Any]:
    for deal in _deals(game, range(400)):
        if deal[-1].deal_over and where(deal):
            return deal
    raise LookupError(f"no {game} deal found")


def _replay(game: str, deal: list[Any], you: int | None) -> Json:
    kind, _, players = GAMES[game]
    info = TableInfo(names=NAMES[:players], version=0, ranks=ranks_style("ru", None))
    return replay(PAGES.of(kind), deal, info, you)


def cards_in(value: object) -> set[str]:
    """Every card a JSON answer names, wherever it is (its keys too)."""
    return set(every_card(value))


@pytest.mark.parametrize("game", ["stukolka", "shleif", "starshina", "starshina_named"])
def test_a_replay_shows_each_player_no_card_he_did_not_see(game: str) -> None:
    players = GAMES[game][2]
    hidden = 0
    for deal in _deals(game, range(8)):
        if not deal[-1].deal_over:
            continue
        for you in range(players):
            seen = set().union(*(seen_cards(state, you) for state in deal))
            answer = _replay(game, deal, you)
            assert cards_in(answer) <= seen, (you, cards_in(answer) - seen)
            for step in answer["steps"]:
                mine = step["seats"][you]
                hidden += sum(seat["hidden"] for seat in step["seats"])
                hidden += sum(
                    group["hidden"] for seat in step["seats"] for group in seat["private"]
                )
                # his own hand is never dead to him
                assert not mine["dead"]
        # a page of no seat: only what the table showed everyone
        public = set().union(*(_played(state) for state in deal)) | _face_up(deal)
        assert cards_in(_replay(game, deal, None)) <= public
    assert hidden > 0  # the other seats' cards were there to hide


def _played(state: Any) -> set[str]:
    return {card for trick in state.played for _, card in trick} | {c for _, c in state.trick}


def _face_up(deal: list[Any]) -> set[str]:
    """The trump card everyone saw (Стуколка's, face up or shown at the deal's end)."""
    end = deal[-1]
    card = getattr(end, "trump_card", None)
    return {card} if card else set()


@pytest.mark.parametrize("game", ["stukolka", "shleif", "starshina"])
def test_each_hand_shows_the_cards_seen_where_they_were_and_counts_the_rest(game: str) -> None:
    """A hand at a step: the cards the viewer saw face up, the others as many backs, so that
    every live hand holds as many cards as it did; a dead hand, to another, nothing. Another
    seat's hand shows only cards that seat played, and only from the play on: as dealt, it is
    all backs (what it bought, passed or took from the kitty the table did not see)."""
    players = GAMES[game][2]
    for deal in _deals(game, range(6)):
        if not deal[-1].deal_over:
            continue
        played: dict[int, set[str]] = {seat: set() for seat in range(players)}
        for trick in deal[-1].played:
            for seat, card in trick:
                played[seat].add(card)
        for you in range(players):
            seen = set().union(*(seen_cards(state, you) for state in deal))
            steps = _replay(game, deal, you)["steps"]
            dealt = next(
                state for state in deal if any(state.holding(s).cards for s in range(players))
            )
            for seat, shown in enumerate(steps[0]["seats"]):
                held = dealt.holding(seat).cards
                if shown["dead"]:
                    assert seat != you and shown["hand"] == [] and shown["hidden"] == 0
                    continue
                mine = [card for card in held if card in seen] if seat == you else []
                assert sorted(shown["hand"]) == sorted(mine)
                assert shown["hidden"] == len(held) - len(mine)
            for step in steps:
                for seat, shown in enumerate(step["seats"]):
                    if seat != you:
                        assert set(shown["hand"]) <= played[seat], (step["label"], seat)
            playing = [s for s in steps if s["label"]["key"] == "web.replay.before_play"]
            for step in playing:
                for seat, shown in enumerate(step["seats"]):
                    if not shown["dead"] and seat != you:
                        assert shown["hidden"] == 0 and set(shown["hand"]) == played[seat]


def test_a_razrez_player_is_shown_and_a_passer_only_to_himself() -> None:
    deal = _deal("shleif", lambda d: Roles.RAZREZ in d[-1].roles and Roles.PASS in d[-1].roles)
    roles = deal[-1].roles
    came_back = roles.index(Roles.RAZREZ)
    passer = roles.index(Roles.PASS)
    for you in range(GAMES["shleif"][2]):
        steps = _replay("shleif", deal, you)["steps"]
        dealt = steps[0]["seats"]
        assert not dealt[came_back]["dead"]
        # the cards he came back in with were played: everyone saw them
        playing = next(s for s in steps if s["label"]["key"] == "web.replay.before_play")
        assert len(playing["seats"][came_back]["hand"]) == 3
        if you == passer:
            assert not dealt[passer]["dead"]
            assert len(dealt[passer]["hand"]) + dealt[passer]["hidden"] == 3
        else:
            assert dealt[passer]["dead"] and dealt[passer]["hand"] == []
            assert dealt[passer]["hidden"] == 0
            # his old cards, thrown in for the razrez, nobody else saw
            if you != came_back:
                assert dealt[came_back]["hidden"] == 3 and dealt[came_back]["hand"] == []


def test_a_player_who_never_looked_does_not_read_his_hand_in_the_replay() -> None:
    deal = _deal(
        "shleif",
        lambda d: any(
            role is Roles.PASS and not d[-1].looked[seat] for seat, role in enumerate(d[-1].roles)
        ),
    )
    end = deal[-1]
    blind = next(
        seat for seat, role in enumerate(end.roles) if role is Roles.PASS and not end.looked[seat]
    )
    dealt = _replay("shleif", deal, blind)["steps"][0]["seats"][blind]
    assert dealt["hand"] == [] and dealt["hidden"] == 3 and not dealt["dead"]
    assert not cards_in(_replay("shleif", deal, blind)) & set(end.dead[blind])


def test_another_seats_private_cards_are_counted_never_shown() -> None:
    """Старшина's dealer's discards and kitty, and an exchange between two others: the other
    seats read how many cards, never which — not even a card they saw played later."""
    deal = _deal("starshina", lambda d: bool(d[-1].exchanged))
    end = deal[-1]
    for you in range(GAMES["starshina"][2]):
        steps = _replay("starshina", deal, you)["steps"]
        for step in steps:
            for seat in step["seats"]:
                if seat["seat"] == you:
                    assert all(group["hidden"] == 0 for group in seat["private"])
                    continue
                for group in seat["private"]:
                    mine = {
                        card
                        for item in end.exchanged
                        if you in (item.giver, item.receiver)
                        for card in (item.card, item.returned)
                    }
                    assert set(group["cards"]) <= mine, group
        if you != end.dealer:
            last = steps[-1]["seats"][end.dealer]["private"]
            assert sum(group["hidden"] for group in last) >= 8  # his 4 discards, the kitty's 4
