"""A game's own /stats figures (``StatField``s of its plugin), counted from one commit.

The table service counts them from the very transfers and deal record it commits and hands
the counts to storage with them (``Database.games.commit_action``'s ``figures``), so they are
kept in the same transaction as the move they come from, by storage that does not know the game. An
evening's summary counts them over its deals the same way (``deal_figures``).
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.records import DealRecord, Transfer
from tables.games import Catalogue
from tables.games.plugin import StatField


def counted(
    fields: Sequence[StatField], transfers: Sequence[Transfer], deal: DealRecord | None
) -> dict[int, dict[str, int]]:
    """Each player's share of ``fields`` in one commit (user → name → value; zeros left out)."""
    figures: dict[int, dict[str, int]] = {}

    def add(user: int, name: str, value: int) -> None:
        if value:
            row = figures.setdefault(user, {})
            row[name] = row.get(name, 0) + value

    for item in fields:
        if item.deal is not None:
            if deal is None:
                continue
            for player in deal.players:
                if player.active if item.deal == "played" else player.user_id == deal.winner:
                    add(player.user_id, item.name, 1)
            continue
        if item.summary is not None:
            values = None if deal is None else deal.summary.get(item.summary)
            if deal is None or not isinstance(values, list):
                continue
            for player in deal.players:
                value = values[player.seat] if player.seat < len(values) else None
                if isinstance(value, int) and not isinstance(value, bool):
                    add(player.user_id, item.name, value)
            continue
        for transfer in transfers:
            party = transfer.src if item.side == "paid" else transfer.dst
            if transfer.reason in item.reasons and isinstance(party, int):
                add(party, item.name, 1 if item.measure == "count" else transfer.amount)
    return figures


def deal_figures(
    games: Catalogue, kind: str, transfers: Sequence[Transfer], deal: DealRecord
) -> dict[int, dict[str, int]]:
    """A finished deal's figures of its game's own (none for a game no longer offered): the
    ``Count`` an evening's summary is read with."""
    return counted(games.of(kind).stat_fields, transfers, deal) if kind in games else {}
