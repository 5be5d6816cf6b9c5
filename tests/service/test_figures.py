"""A game's own /stats figures as the table service counts them from one commit
(``tables.figures.counted``), and what a declaration may say (``StatField``)."""

from __future__ import annotations

import pytest

from storage.records import GAME_POT, POT, DealPlayer, DealRecord, Transfer
from tables.figures import counted, deal_figures
from tables.games import StatField
from tables.games.starshina import PLUGIN as STARSHINA
from tables.games.stukolka import PLUGIN as STUKOLKA
from tests.library import GAMES

A, B, C = 11, 12, 13


def test_ledger_fields_count_or_sum_what_a_player_paid_or_received_for_their_reasons() -> None:
    fields = (
        StatField("fines", ("fine",), "paid", "count"),
        StatField("fined", ("fine",), "paid", "sum"),
        StatField("wins", ("win", "bonus"), "received", "sum"),
    )
    transfers = [
        Transfer(A, POT, 3, "fine", 0),
        Transfer(A, B, 2, "fine", 0),  # B received a fine: not his to count
        Transfer(POT, B, 5, "win", 0),
        Transfer(GAME_POT, B, 1, "bonus", 0),
        Transfer(C, POT, 4, "ante", 0),  # no field's reason
    ]
    assert counted(fields, transfers, None) == {A: {"fines": 2, "fined": 5}, B: {"wins": 6}}


def test_a_summary_field_reads_each_seats_number_off_the_deals_summary() -> None:
    fields = (StatField("leads", summary="leads"),)
    record = DealRecord(
        0, (DealPlayer(A, 0, 1), DealPlayer(B, 1, 0), DealPlayer(C, 2, 1)), {"leads": [2, 0, 1]}
    )
    assert counted(fields, [], record) == {A: {"leads": 2}, C: {"leads": 1}}
    assert counted(fields, [], None) == {}  # a move that ends no deal
    odd = DealRecord(0, (DealPlayer(A, 0, 0), DealPlayer(B, 3, 0)), {"leads": [True, 1]})
    assert counted(fields, [], odd) == {}  # no number for a seat, or not a number: nothing


def test_a_deal_field_counts_the_deals_played_or_the_game_won_off_the_deals_record() -> None:
    """What player_stats' columns of one game's figures held, now declared by that game: the
    deals a player played rather than sat out, the games he won."""
    fields = (StatField("played", deal="played"), StatField("won", deal="won"))
    sat_out = DealPlayer(C, 2, 0, active=False)
    record = DealRecord(0, (DealPlayer(A, 0, 3), DealPlayer(B, 1, 2), sat_out), winner=B)
    assert counted(fields, [], record) == {A: {"played": 1}, B: {"played": 1, "won": 1}}
    no_winner = DealRecord(1, (DealPlayer(A, 0, 3), sat_out))
    assert counted(fields, [], no_winner) == {A: {"played": 1}}
    assert counted(fields, [Transfer(A, POT, 3, "ante", 0)], None) == {}  # no deal ended


def test_a_field_counts_off_one_source_only() -> None:
    with pytest.raises(ValueError):
        StatField("both", ("fine",), summary="fines")
    with pytest.raises(ValueError):
        StatField("also both", summary="fines", deal="won")
    with pytest.raises(ValueError):
        StatField("neither")


def test_stukolkas_remizes_and_pots_are_its_own_declared_fields() -> None:
    """What player_stats' columns held, now Стуколка's declaration: a remiz paid counted and
    summed, a pot taken without play counted and summed."""
    transfers = [Transfer(A, POT, 6, "remiz", 1), Transfer(POT, B, 9, "pot_taken", 1)]
    assert counted(STUKOLKA.stat_fields, transfers, None) == {
        A: {"remizes": 1, "remiz_paid": 6},
        B: {"pots_taken": 1, "pot_chips": 9},
    }
    record = DealRecord(1, (DealPlayer(A, 0, 0), DealPlayer(B, 1, 0)))
    assert deal_figures(GAMES, "stukolka", transfers, record) == counted(
        STUKOLKA.stat_fields, transfers, record
    )
    assert deal_figures(GAMES, "no such game", transfers, record) == {}


def test_each_game_declares_the_play_figures_it_has() -> None:
    """The deals played are Стуколка's (a player may pass), the games won Старшина's (a game
    of several deals ends with one winner): neither is kept for the other game."""
    assert [(f.name, f.deal) for f in STUKOLKA.stat_fields if f.deal] == [
        ("deals_active", "played")
    ]
    assert [(f.name, f.deal) for f in STARSHINA.stat_fields if f.deal] == [("games_won", "won")]
