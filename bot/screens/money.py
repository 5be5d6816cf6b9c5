"""/balance: in a group, every player of the table (zeros included) and the pots; in private,
the user's own balance in each group he plays in, and his practice table's balances apart."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games import game_for
from storage.database import Database
from tables.records import is_practice


@dataclass(frozen=True, slots=True)
class GroupMoney:
    """A group's balances by user (every player of its table, zeros included), its names, the
    chat's pot and the pots of its open games; ``has_pot``: whether the chat has a pot of its
    own to name (it holds chips, or the chat plays a game that plays for it)."""

    balances: dict[int, int]
    pot: int
    game_pot: int
    has_pot: bool = True


async def group_money(db: Database, chat_id: int) -> GroupMoney:
    """Everyone who ever paid or received in the chat, and everyone at its tables now (one per
    forum topic; or, with no table open, at its last deal), a player with no money yet as 0."""
    money = await db.balances(chat_id)
    balances = dict(money.players)
    open_games = await db.chat_open_games(chat_id)
    if open_games:
        seated = [user for game in open_games for user in game.seats]
    else:
        last = await db.last_deals(chat_id, 1)
        seated = [player.user_id for player in last[0].players] if last else []
    for user in seated:
        balances.setdefault(user, 0)
    kinds = {*await db.kinds_played(chat_id), *(game.kind for game in open_games)}
    has_pot = bool(money.pot) or any(_plays_for_pot(kind) for kind in kinds)
    return GroupMoney(balances, money.pot, sum(money.game_pots.values()), has_pot)


def _plays_for_pot(kind: str) -> bool:
    try:
        return game_for(kind).chat_pot
    except ValueError:
        return False  # a game no longer offered


async def own_balances(db: Database, user_id: int) -> list[tuple[str | None, int]]:
    """(group title, balance) for each group where ``user_id`` has paid or received, the
    groups with the largest balances first (his practice table's chips are not a group's)."""
    balances = await db.user_balances(user_id)
    items: list[tuple[str | None, int]] = []
    for chat_id, amount in sorted(balances.items(), key=lambda item: (-item[1], item[0])):
        if is_practice(chat_id):
            continue
        chat = await db.chat(chat_id)
        items.append((chat.title if chat else None, amount))
    return items
