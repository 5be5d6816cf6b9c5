"""Ending a table before its game is over: /stop (after the deal, or at once with the default
moves), a table that can no longer be shown (the bot removed, its forum topic closed), a deal
voided when every player agrees, and a table an older version left frozen between two deals
(docs/rules.md §5 "Stopping"). A game closed without a winner gives its own pot back
(``TableStore.game_pot_returned``)."""

from __future__ import annotations

from collections.abc import Mapping

from storage.records import Transfer as LedgerTransfer
from tables.chat_settings import ChatSettings
from tables.computers import is_computer
from tables.events import Stream, recorded
from tables.games import Plugin
from tables.records import DealResult, Loaded, Notice, NoticeParam, Refused, Reply, due_result
from tables.steps import DealSteps, balances_after, table_ends
from tables.store import TableStore

LARGE_POT_STAKES = 4
"""A chat's pot is large from this many stakes on: a fresh deal plays for one stake (its
tricks pay a third of it each), so a pot of four more makes each trick of the next deal pay
at least five times that — chips a group stopping for the night would leave on the table."""


def large_pot(plugin: Plugin, options: Mapping[str, object], pot: int) -> bool:
    """Whether the chat's ``pot`` is large for a table of ``plugin`` at ``options``' stake
    (only a game that plays for the chat's pot has one)."""
    stake = options.get("stake")
    if not plugin.rules.chat_pot or not isinstance(stake, int) or stake <= 0:
        return False
    return pot >= LARGE_POT_STAKES * stake


def void_voters(loaded: Loaded) -> set[int]:
    """Who decides whether the deal in progress is voided: the people at the table who are
    present. A computer, and a player the autopilot plays for (away), never votes: they agree
    with whatever the people decide."""
    away = set(loaded.meta.away)
    return {user for user in loaded.seats if not is_computer(user) and user not in away}


def void_tally(loaded: Loaded) -> tuple[int, int]:
    """The vote to void as its button shows it: the voters who agreed, and how many vote."""
    voters = void_voters(loaded)
    return len(voters & set(loaded.meta.void_votes)), len(voters)


class Stopping:
    """/stop, a lost table, the vote to void a deal, and the frozen tables of old versions."""

    def __init__(
        self, store: TableStore, steps: DealSteps, settings: ChatSettings, stream: Stream
    ) -> None:
        self.store = store
        #: where its changes go out (``events.recorded``)
        self.stream = stream
        self.steps = steps
        self.settings = settings

    @recorded
    async def stop(
        self,
        chat_id: int,
        user_id: int,
        is_admin: bool,
        *,
        now: bool = False,
        thread: int | None = None,
    ) -> Reply:
        """/stop by the creator or an admin (docs/rules.md §5 "Stopping"): a deal in progress is
        played out and settled — by the players, or with ``now`` at once by the default moves —
        and the table ends with it. The deal is voided only when every player agrees
        (``vote_void``). Asked again, it is refused (``already_stopping``), but for /stop now
        after a /stop."""
        async with self.store.lock(chat_id):
            loaded = await self.store.require_active(chat_id, thread)
            if not is_admin and user_id != loaded.game.created_by:
                raise Refused("creator_or_admin_only")
            if loaded.game.status == "lobby" or loaded.table is None:
                return await self.store.close(loaded, "stopped", Notice("table_cancelled"))
            # said once, and kept above the notices (``bot.screens.table``)
            if loaded.meta.autoplay:
                raise Refused("already_stopping_now")
            if loaded.meta.stop and not now:
                raise Refused("already_stopping")
            loaded.meta.stop = True
            if now:
                loaded.meta.autoplay = True
                return await self.steps.advance(loaded, [Notice("stop_now")])
            pot = (await self.store.ledger.balances(chat_id)).pot
            # a large pot stays on the table when the game stops: the table offers to play on
            params: dict[str, NoticeParam] = (
                {"pot": pot} if large_pot(loaded.plugin, loaded.game.options, pot) else {}
            )
            return await self.store.commit_meta(
                loaded, loaded.seats, Notice("stop_after_deal", params)
            )

    @recorded
    async def play_on(self, game_id: int, user_id: int, deal: int, is_admin: bool) -> Reply:
        """A table stopped after its deal in progress plays on after all (offered when the pot
        is large): by the creator or an admin, as /stop, while that deal goes on."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            if loaded.game.status != "active" or loaded.table is None:
                raise Refused("game_over")
            meta = loaded.meta
            if not meta.stop or meta.autoplay or deal != meta.deals:
                raise Refused("outdated")
            if not is_admin and user_id != loaded.game.created_by:
                raise Refused("creator_or_admin_only")
            meta.stop = False
            meta.void_votes = []
            return await self.store.commit_meta(
                loaded, loaded.seats, Notice("play_on", {"user": user_id})
            )

    @recorded
    async def close_lost(
        self, chat_id: int, thread: int | None = None, reason: str = "bot_removed"
    ) -> Reply | None:
        """The table can no longer be shown — the bot is no longer in the group
        (``bot_removed``), or the table's forum topic was closed or deleted
        (``topic_closed``): it closes as ``/stop now`` would close it (a lobby is cancelled; a
        deal in progress is played out by the default moves and settled; a Старшина game gives
        its pot back). None if there is no open table there. Its reply says the table is
        ``lost``, and why (``reason``): no front-end shows it in the group, and no evening
        takes it."""
        store = self.store
        async with store.lock(chat_id):
            loaded = await store.active(chat_id, thread)
            if loaded is None:
                return None
            if loaded.game.status == "lobby" or loaded.table is None:
                reply = await store.close(loaded, "stopped", Notice(reason))
                reply.lost = reason
                return reply
            loaded.meta.stop = True
            loaded.meta.autoplay = True
            reply = await self.steps.advance(loaded, [Notice(reason)])
            if not reply.closed:  # (the auto-play bound was reached: close it as it stands)
                current = await store.load(await store.games.game(loaded.game.game_id))
                reply = await store.close(current, "stopped", Notice(reason))
            reply.lost = reason
            return reply

    @recorded
    async def vote_void(self, game_id: int, user_id: int, deal: int) -> Reply:
        """A player agrees to void the deal in progress of a stopped table; when every person
        present at the table has agreed (``void_voters``: computers and away players agree with
        the people), every chip of the deal goes back and the table ends."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            if loaded.game.status != "active" or loaded.table is None:
                raise Refused("game_over")
            if user_id not in loaded.game.seats:
                raise Refused("not_at_table")
            if not loaded.meta.stop or deal != loaded.meta.deals:
                raise Refused("outdated")
            votes = loaded.meta.void_votes
            if user_id in votes:
                # the others who had not voted went away since: the vote is complete now
                if void_voters(loaded) <= set(votes):
                    return await self.void_deal(loaded)
                raise Refused("already_voted")
            votes.append(user_id)
            if void_voters(loaded) <= set(votes):
                return await self.void_deal(loaded)
            return await self.store.commit_meta(
                loaded, loaded.seats, Notice("void_vote", {"user": user_id})
            )

    async def void_deal(self, loaded: Loaded) -> Reply:
        """Every player agreed: the deal in progress is void; every chip it moved goes back
        (and a Старшина game's own pot with it: the game ends without a winner)."""
        deal_no = loaded.meta.deals
        moved = await self.store.ledger.transfers(
            loaded.game.chat_id, game_id=loaded.game.game_id, deal=deal_no
        )
        refunds = [
            LedgerTransfer(entry.dst, entry.src, entry.amount, "void", deal_no) for entry in moved
        ]
        game = await self.store.commit(loaded, None, None, refunds, None, status="stopped")
        return Reply(game=game, table_changed=True, closed=True, notices=[Notice("deal_voided")])

    @recorded
    async def unfreeze(self, game_id: int) -> Reply | None:
        """A table an older version left frozen between a deal's end and the next deal (the
        two were separate commits): its result is posted and the next deal dealt, or the
        table ends, as if the deal had just ended. None if the game is not in that state."""
        store = self.store
        async with store.lock(await store.chat_of(game_id)):
            loaded = await store.game_or_refuse(game_id)
            table = loaded.table
            if loaded.game.status != "active" or table is None or table.to_act is not None:
                return None
            timeout = await self.settings.turn_timeout_of(loaded.game.chat_id)
            game_over = table.game_over
            ending = table_ends(loaded, game_over)
            ended = max(loaded.meta.deals - 1, 0)  # the deal whose end was committed
            reply = Reply(table_changed=True)
            transfers: list[LedgerTransfer] = []
            if ending and not game_over:
                transfers = await store.game_pot_returned(loaded, [], ended)
                reply.notices.append(Notice("table_closed"))
            before = await store.ledger.balances(loaded.game.chat_id)
            balances, pot = balances_after(before.players, before.pot, transfers)
            engine = table.to_json()
            result = DealResult(
                loaded.plugin.rules.kind,
                loaded.plugin.rules.load(engine),
                loaded.seats,
                game_over,
                {},
                balances=balances,
                deal=ended,
            )
            reply.results.append(result)
            closing = [] if game_over or not ending else ["table_closed"]
            loaded.meta.due = [*loaded.meta.due, due_result(result, engine, closing)]
            if ending:
                spec = store.spec(
                    loaded, None, None, transfers, None, timeout, status="finished", fresh=True
                )
                await store.write(loaded, [spec])
                reply.closed = True
            else:
                await store.write(loaded, [await self.steps.next_deal(loaded, reply, pot, timeout)])
            reply.game = loaded.game
            return reply
