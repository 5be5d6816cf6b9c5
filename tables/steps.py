"""The table service's steps: a rules step committed, then the steps it forces, one commit each.

``DealSteps.commit_step`` is what every move goes through: ``commit_move`` commits one rules
step (a move within the deal, or the move that ends it with its settlement, its result due and
the next deal, all in one transaction: ``end_deal`` and ``next_deal``), then ``play_forced``
makes the default moves of the seats the bot plays. ``advance`` does the same for a change of
the table's own (someone leaves or goes away, /stop now). The money of a step becomes ledger
transfers between users and the pots (``ledger_transfers``); a finished deal a ``DealRecord``
and a ``DealResult`` still to post, forgotten once posted (``results_posted``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from game.cards import shuffled_deck
from game.core import GAME_POT, POT, Action, Transfer
from game.registry import Step
from storage.records import DealPlayer, DealRecord, Game, GameStatus, LedgerEntry
from storage.records import Transfer as LedgerTransfer
from tables.autoplay import auto_action
from tables.chat_settings import ChatSettings
from tables.computers import is_computer
from tables.games import Table
from tables.records import (
    DealResult,
    Loaded,
    Notice,
    Reply,
    TableMeta,
    due_result,
    move_params,
)
from tables.store import Commit, TableStore

MAX_DUE_RESULTS = 8  # results kept to post while a group cannot be shown them
MAX_AUTO_STEPS = 500  # a safety bound on auto-play within one change (then the timer goes on)


def new_seed() -> str:
    """A fresh secret seed for one deck (never logged, never shown)."""
    return secrets.token_hex(16)


class DealSteps:
    """Moves, forced moves, deals' ends and new deals, each committed on its own."""

    def __init__(
        self, store: TableStore, settings: ChatSettings, *, seed: Callable[[], str] = new_seed
    ) -> None:
        self.store = store
        self.settings = settings
        self.seed = seed  # a fresh secret seed for each deck

    def deck(self) -> list[str]:
        """A deck shuffled from a new secret seed, for a new deal."""
        return shuffled_deck(self.seed())

    async def commit_step(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        reply: Reply,
        *,
        status: GameStatus | None = None,
    ) -> Reply:
        """Commit a rules step (``commit_move``), then the forced steps it leaves
        (``play_forced``): each is a commit of its own."""
        timeout = await self.settings.turn_timeout_of(loaded.game.chat_id)
        await self.commit_move(loaded, step, action, user_id, reply, timeout, status=status)
        await self.play_forced(loaded, reply, timeout)
        return reply

    async def commit_move(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        reply: Reply,
        timeout: float,
        *,
        status: GameStatus | None = None,
    ) -> None:
        """One rules step as one commit: a move within the deal, or the move that ends it
        together with its settlement and the next deal (``end_deal``). A move that moves no
        turn (``Step.moves_turn``: a look) leaves the turn number and the deadline as they are."""
        fresh = action is None or step.moves_turn
        if fresh:
            loaded.meta.turn += 1
        reply.saw(step.events, loaded.seats)
        transfers = ledger_transfers(step, loaded.seats, loaded.meta.deals)
        if step.deal_over:
            await self.end_deal(loaded, step, action, user_id, transfers, reply, timeout)
        else:
            spec = self.store.spec(
                loaded, action, user_id, transfers, None, timeout, status=status, fresh=fresh
            )
            await self.store.write(loaded, [spec])
        reply.game = loaded.game

    async def play_forced(self, loaded: Loaded, reply: Reply, timeout: float) -> None:
        """The default moves of the seats the bot plays (away or leaving players, or every
        seat after /stop now), one commit each, until a player must decide or the table
        closes (at most ``MAX_AUTO_STEPS``; then the turn timer goes on)."""
        for _ in range(MAX_AUTO_STEPS):
            if reply.closed:
                return
            auto = auto_action(loaded)
            if auto is None or loaded.table is None:
                return
            step = forced_move(loaded.table, loaded.seats, auto, reply)
            await self.commit_move(loaded, step, auto, None, reply, timeout)

    async def advance(self, loaded: Loaded, notices: list[Notice]) -> Reply:
        """Commit a change of the table's own (someone leaves, goes away, /stop now), then the
        forced steps it leaves if the seat to act is now played by the bot."""
        loaded.meta.turn += 1
        reply = Reply(table_changed=True, notices=notices)
        reply.game = await self.store.commit(loaded, None, None, [], None)
        timeout = await self.settings.turn_timeout_of(loaded.game.chat_id)
        await self.play_forced(loaded, reply, timeout)
        return reply

    async def end_deal(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        reply: Reply,
        timeout: float,
    ) -> None:
        """The move that ends a deal, its settlement, the result still to post and the next
        deal (or the end of the table), all in one transaction: a crash or a failed write
        leaves the table either before the move or in the next deal, never in between."""
        assert loaded.table is not None
        seats = loaded.seats
        deal_no = loaded.meta.deals
        deal = deal_record(step, seats, deal_no)
        loaded.meta.deals += 1
        ending = table_ends(loaded, step.game_over)
        closing: list[str] = []
        if deserted(loaded) and not step.game_over:
            closing.append("all_away")
        if ending and not step.game_over:
            closing.append("table_closed")
            transfers = transfers + await self.store.game_pot_returned(loaded, transfers, deal_no)
        before = await self.store.ledger.balances(loaded.game.chat_id)
        balances, pot = balances_after(before.players, before.pot, transfers)
        money = await self.deal_money(loaded.game, deal_no)
        add_money(money, transfers)
        engine = loaded.table.to_json()
        result = DealResult(
            loaded.plugin.rules.kind,
            loaded.plugin.rules.load(engine),  # the next deal may go on in the same state object
            seats,
            step.game_over,
            step.summary,
            balances=balances,
            deal=deal_no,
            money=money,
            players=tuple(step.results),
        )
        reply.results.append(result)
        # (a group that cannot be shown anything for a long while keeps only its last ones)
        loaded.meta.due = [*loaded.meta.due, due_result(result, engine, closing)]
        loaded.meta.due = loaded.meta.due[-MAX_DUE_RESULTS:]
        loaded.meta.void_votes = []
        loaded.meta.autoplay = False
        specs = [
            self.store.spec(
                loaded,
                action,
                user_id,
                transfers,
                deal,
                timeout,
                status="finished" if ending else None,
                fresh=True,
            )
        ]
        if not ending:
            specs.append(await self.next_deal(loaded, reply, pot, timeout))
        await self.store.write(loaded, specs)
        reply.game = loaded.game
        if "all_away" in closing:
            reply.notices.append(Notice("all_away"))
        if ending:
            reply.closed = True
            reply.notices.append(Notice("game_over" if step.game_over else "table_closed"))

    async def deal_money(self, game: Game, deal: int) -> dict[int, dict[str, int]]:
        """What a deal has moved so far for each player, by reason, from its ledger entries."""
        money: dict[int, dict[str, int]] = {}
        entries = await self.store.ledger.transfers(game.chat_id, game_id=game.game_id, deal=deal)
        add_money(money, entries)
        return money

    async def next_deal(self, loaded: Loaded, reply: Reply, pot: int, timeout: float) -> Commit:
        """The next deal dealt from ``loaded`` (the table as the last deal left it, with the
        chat's pot ``pot`` after it), as a commit for ``end_deal`` to make: leavers go,
        joiners sit, and the deal passes to the next player after the last dealer who stays
        (where the game's own rules do not pick the dealer)."""
        assert loaded.table is not None
        old_seats = loaded.seats
        old_dealer = loaded.table.dealer
        seats = [u for u in old_seats if u not in loaded.meta.leaving] + loaded.meta.joining
        for user in loaded.meta.leaving:
            reply.notices.append(Notice("removed", {"user": user}))
            if user in loaded.meta.away:
                loaded.meta.away.remove(user)
        loaded.meta.leaving = []
        loaded.meta.joining = []
        after_dealer = [
            old_seats[(old_dealer + k) % len(old_seats)] for k in range(1, 1 + len(old_seats))
        ]
        dealer_user = next((user for user in after_dealer if user in seats), seats[0])
        if loaded.plugin.rules.chat_pot:
            pot = await self.store.free_pot(loaded, pot)
        loaded.table, step = loaded.table.next_deal(
            self.deck(), pot=pot, players=len(seats), dealer=seats.index(dealer_user)
        )
        reply.new_deal = True
        reply.table_changed = True
        reply.hands |= set(seats)
        reply.saw(step.events, seats)
        loaded.meta.turn += 1
        transfers = ledger_transfers(step, seats, loaded.meta.deals)
        return self.store.spec(
            loaded, None, None, transfers, None, timeout, seats=seats, fresh=True
        )

    async def results_posted(
        self, game_id: int, deals: list[int], *, table_message_used: bool = False
    ) -> None:
        """The group has seen the results of ``deals``: they are no longer due. With
        ``table_message_used`` they were shown in the table message, which the game forgets
        in the same write (it shows a result now, not the table)."""
        games = self.store.games
        async with self.store.lock(await self.store.chat_of(game_id)):
            game = await games.game(game_id)
            due = list(TableMeta.from_json(game.state.get("table")).due)
            left = [entry for entry in due if entry.get("deal") not in deals]
            if len(left) != len(due) or table_message_used:
                await games.set_results_due(
                    game_id, left, forget_table_message=table_message_used, now=self.store.clock()
                )

    async def results_sending(self, game_id: int, deals: list[int], sending: bool = True) -> None:
        """The results of ``deals`` go out as a new message now (``sending``), or did not go
        out after all (not ``sending``). Stored before the send: a message cannot be sent so
        that it is certainly sent once — a kill after the send and before ``results_posted``
        would leave the results due, and the restart would post them again. Marked, they are
        not sent again after a restart (``sent_maybe``): at most once, as a send whose answer
        was lost (``Undelivered.maybe_done``); the deals stay in the history either way."""
        games = self.store.games
        async with self.store.lock(await self.store.chat_of(game_id)):
            game = await games.game(game_id)
            due = [dict(entry) for entry in TableMeta.from_json(game.state.get("table")).due]
            for entry in due:
                if entry.get("deal") in deals:
                    if sending:
                        entry["sending"] = True
                    else:
                        entry.pop("sending", None)
            await games.mark_results_sending(game_id, due, now=self.store.clock())


def forced_move(table: Table, seats: list[int], auto: Action, reply: Reply) -> Step:
    """Apply a default move made for a player, announced to the table."""
    user = seats[auto.seat]
    reply.notices.append(Notice("auto_move", move_params(user, auto)))
    reply.hands.add(user)
    return table.apply(auto)


def table_ends(loaded: Loaded, game_over: bool) -> bool:
    """Whether the table ends with the deal that just ended: the game is over, a stop was
    asked for, everyone is away, or too few players remain for another deal."""
    return game_over or loaded.meta.stop or deserted(loaded) or not seats_after_deal(loaded)


def deserted(loaded: Loaded) -> bool:
    """Every person who would play the next deal is away (computers do not count): the bot
    would only play itself, so the table ends with the deal instead of dealing to an empty
    room for ever."""
    staying = [u for u in loaded.seats if u not in loaded.meta.leaving and not is_computer(u)]
    return all(u in loaded.meta.away for u in staying + loaded.meta.joining)


def seats_after_deal(loaded: Loaded) -> bool:
    """Whether enough players remain for another deal once leavers go and joiners sit (a game
    whose seats never change goes on only if nobody leaves)."""
    if not loaded.plugin.rules.seats_between_deals:
        return not loaded.meta.leaving
    remaining = [u for u in loaded.seats if u not in loaded.meta.leaving]
    return len(remaining) + len(loaded.meta.joining) >= loaded.plugin.rules.min_players


def ledger_transfers(step: Step, seats: list[int], deal: int) -> list[LedgerTransfer]:
    """A rules step's transfers between seats and pots, as ledger rows between users."""

    def party(value: Any) -> Any:
        if value in (POT, GAME_POT):
            return value
        return seats[value]

    return [
        LedgerTransfer(party(t.src), party(t.dst), t.amount, t.reason, deal)
        for t in step.transfers
        if isinstance(t, Transfer)
    ]


def deal_record(step: Step, seats: list[int], deal: int) -> DealRecord:
    """A finished deal as stored for the history: who played, their tricks, the winner."""
    winner = step.summary.get("winner") if step.game_over else None
    return DealRecord(
        deal=deal,
        players=tuple(DealPlayer(seats[r.seat], r.seat, r.tricks, r.active) for r in step.results),
        summary=step.summary,
        winner=seats[winner] if isinstance(winner, int) else None,
    )


def add_money(
    money: dict[int, dict[str, int]], entries: Iterable[LedgerTransfer | LedgerEntry]
) -> None:
    """Add what ``entries`` move for each user to ``money`` (user → reason → chips)."""
    for entry in entries:
        for party, sign in ((entry.src, -1), (entry.dst, 1)):
            if isinstance(party, int):
                parts = money.setdefault(party, {})
                parts[entry.reason] = parts.get(entry.reason, 0) + sign * entry.amount


def balances_after(
    players: Mapping[int, int], pot: int, transfers: list[LedgerTransfer]
) -> tuple[dict[int, int], int]:
    """Players' balances and the chat's pot once ``transfers`` are committed."""
    after = dict(players)
    for entry in transfers:
        for party, sign in ((entry.src, -1), (entry.dst, 1)):
            if party == POT:
                pot += sign * entry.amount
            elif isinstance(party, int):
                after[party] = after.get(party, 0) + sign * entry.amount
    return after, pot
