"""Money as the front-ends show it: a group's balances and pots (/balance and its settle-up
page, a table's chips on the page), a person's balance in each group, and the pot a stopping
table leaves waiting. Sums over the ledger (``storage``); who pays whom is
``tables.settle_up``'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.database_chats import Chats
from storage.database_games import Games
from storage.database_money import History, Ledger, Statistics
from tables.games import Catalogue
from tables.records import Loaded, is_practice
from tables.stopping import large_pot


@dataclass(frozen=True, slots=True)
class GroupMoney:
    """A group's balances by user (every player of its table, zeros included), the chat's pot
    and the pots of its open games; ``has_pot``: whether the chat has a pot of its own to name
    (it holds chips, or the chat plays a game that plays for it)."""

    balances: dict[int, int]
    pot: int
    game_pot: int
    has_pot: bool = True


class Money:
    """The balances and pots of every chat, read from the ledger."""

    def __init__(
        self,
        ledger: Ledger,
        games: Games,
        history: History,
        stats: Statistics,
        chats: Chats,
        catalogue: Catalogue,
    ) -> None:
        self._ledger = ledger
        self._games = games
        self._history = history
        self._stats = stats
        self._chats = chats
        self._catalogue = catalogue

    async def chips(self, chat_id: int, users: Sequence[int]) -> list[int]:
        """Each of ``users``' balance in ``chat_id`` (0 for one who never paid or received)."""
        balances = (await self._ledger.balances(chat_id)).players
        return [balances.get(user, 0) for user in users]

    async def group(self, chat_id: int) -> GroupMoney:
        """Everyone who ever paid or received in the chat, and everyone at its tables now (one
        per forum topic; or, with no table open, at its last deal), a player with no money yet
        as 0."""
        money = await self._ledger.balances(chat_id)
        balances = dict(money.players)
        open_games = await self._games.chat_open_games(chat_id)
        if open_games:
            seated = [user for game in open_games for user in game.seats]
        else:
            last = await self._history.last_deals(chat_id, 1)
            seated = [player.user_id for player in last[0].players] if last else []
        for user in seated:
            balances.setdefault(user, 0)
        kinds = {*await self._stats.kinds_played(chat_id), *(game.kind for game in open_games)}
        has_pot = bool(money.pot) or any(
            kind in self._catalogue and self._catalogue.of(kind).rules.chat_pot for kind in kinds
        )
        return GroupMoney(balances, money.pot, sum(money.game_pots.values()), has_pot)

    async def own(self, user_id: int) -> list[tuple[str | None, int]]:
        """(group title, balance) for each group where ``user_id`` has paid or received, the
        groups with the largest balances first (his practice table's chips are not a
        group's)."""
        balances = await self._ledger.user_balances(user_id)
        items: list[tuple[str | None, int]] = []
        for chat_id, amount in sorted(balances.items(), key=lambda item: (-item[1], item[0])):
            if is_practice(chat_id):
                continue
            chat = await self._chats.chat(chat_id)
            items.append((chat.title if chat else None, amount))
        return items

    async def waiting_pot(self, loaded: Loaded) -> int | None:
        """The chat's pot, if it is large and waits on a table stopped after its deal (it
        offers to play on)."""
        meta, game = loaded.meta, loaded.game
        if not meta.stop or meta.autoplay or game.status != "active":
            return None
        pot = (await self._ledger.balances(game.chat_id)).pot
        return pot if large_pot(loaded.plugin, game.options, pot) else None
