"""The lobby and the seats: opening a table, joining and leaving it, seating a computer,
dealing the first deal, and removing a player. A seat taken or left during a game takes effect
when the deal ends (``DealSteps.next_deal``); in the lobby at once."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from storage.database_chats import Chats
from storage.database_money import History
from storage.errors import ActiveGameExists
from tables.chat_settings import ChatSettings
from tables.computers import EASY_IDS, STRONG_IDS, computer_name, is_computer
from tables.events import Stream, TableEvent, recorded
from tables.games import Plugin
from tables.records import Loaded, Notice, Refused, Reply, TableMeta, is_practice
from tables.steps import DealSteps
from tables.store import TableStore


def seated_in_lobby(loaded: Loaded, user_id: int) -> Loaded:
    """``loaded``, a lobby ``user_id`` sits at; Refused (``game_running``, ``not_at_table``)
    if it is not."""
    if loaded.game.status != "lobby":
        raise Refused("game_running")
    if user_id not in loaded.game.seats:
        raise Refused("not_at_table")
    return loaded


class Lobby:
    """/new, /join, /leave, «🤖 Добавить компьютер», /begin and /kick."""

    def __init__(
        self,
        store: TableStore,
        steps: DealSteps,
        settings: ChatSettings,
        chats: Chats,
        history: History,
        stream: Stream,
    ) -> None:
        self.store = store
        #: where its changes go out (``events.recorded``)
        self.stream = stream
        self.steps = steps
        self.settings = settings
        self.chats = chats
        self.history = history

    @recorded
    async def new_table(
        self, chat_id: int, user_id: int, game_choice: str, *, thread: int | None = None
    ) -> Reply:
        """/new: open a lobby with the creator seated, in the forum topic ``thread`` if the
        command came from one (each topic holds a table of its own). In a player's private
        chat it is his practice table (``is_practice``): that chat is its own in storage, so
        its chips never meet a group's."""
        chosen = self.settings.catalogue.choice(game_choice)
        if chosen is None:
            raise Refused("unknown_game")
        plugin, item = chosen
        kind, preset = plugin.rules.kind, item.preset
        if is_practice(chat_id) and not plugin.has_computers:
            raise Refused("no_computers")  # nobody to practise against
        async with self.store.lock(chat_id):
            options = await self.settings.chat_options(chat_id, kind)
            options.update(preset)
            options = plugin.rules.check_options(options)
            if is_practice(chat_id):
                await self.chats.upsert_chat(chat_id, now=self.store.clock())
            meta = TableMeta(away_play=await self.settings.away_play_of(chat_id))
            try:
                game = await self.store.games.create_game(
                    chat_id,
                    kind,
                    {"engine": None, "table": meta.to_json()},
                    created_by=user_id,
                    seats=[user_id],
                    options=options,
                    status="lobby",
                    thread_id=thread,
                    now=self.store.clock(),
                )
            except ActiveGameExists:
                raise Refused(exists_reason(chat_id)) from None
            self.store.changed(game)
            if preset:
                await self.settings.choose_options(chat_id, kind, preset)
            return Reply(game=game, lobby_changed=True)

    async def again(
        self,
        chat_id: int,
        user_id: int,
        game_id: int,
        reachable: Callable[[int], bool],
    ) -> TableEvent:
        """«▶️ Новая партия» under an ended table (its game won, or the table stopped): a new
        table of the same game, its options and players (computers included) in the same
        place, opened by one of those players and begun at once. If it cannot begin (someone
        cannot be written to), it stays a lobby with everyone seated, which says why."""
        old = await self.store.game_or_refuse(game_id)
        game = old.game
        if game.chat_id != chat_id:
            raise Refused("not_at_table")
        if game.is_open or old.table is None:
            raise Refused("outdated")  # a lobby cancelled has no game to play again
        if user_id not in game.seats:
            raise Refused("not_at_table")
        async with self.store.lock(chat_id):
            meta = TableMeta(away_play=await self.settings.away_play_of(chat_id))
            try:
                created = await self.store.games.create_game(
                    chat_id,
                    game.kind,
                    {"engine": None, "table": meta.to_json()},
                    created_by=user_id,
                    seats=list(game.seats),
                    options=dict(game.options),
                    status="lobby",
                    thread_id=game.thread_id,
                    now=self.store.clock(),
                )
            except ActiveGameExists:
                raise Refused(exists_reason(chat_id)) from None
            self.store.changed(created)
        try:
            return await self.begin(chat_id, user_id, reachable, thread=game.thread_id)
        except Refused:
            lobby = TableEvent.of(Reply(game=created, lobby_changed=True))
            await self.stream.publish(lobby)
            return lobby

    @recorded
    async def join(
        self, chat_id: int, user_id: int, *, reachable: bool = True, thread: int | None = None
    ) -> Reply:
        """/join: a seat in the lobby, or (Стуколка) at the next deal — only for a player the
        bot can write to, who would otherwise be auto-played without seeing his cards."""
        store = self.store
        async with store.lock(chat_id):
            loaded = await store.require_active(chat_id, thread)
            plugin = loaded.plugin
            seats = loaded.seats
            if user_id in seats:
                if user_id in loaded.meta.leaving:
                    loaded.meta.leaving.remove(user_id)
                    return await store.commit_meta(
                        loaded, seats, Notice("stays", {"user": user_id})
                    )
                raise Refused("already_seated")
            if loaded.game.status == "lobby":
                if len(seats) < plugin.rules.max_players:
                    return await store.commit_meta(loaded, [*seats, user_id])
                # a full lobby: a person takes the seat of the last computer, if any sits
                computers = [user for user in seats if is_computer(user)]
                if not computers:
                    raise Refused("table_full")
                return await store.commit_meta(
                    loaded,
                    [user_id if user == computers[-1] else user for user in seats],
                    Notice("takes_computer_seat", {"user": user_id, "computer": computers[-1]}),
                )
            if not plugin.rules.seats_between_deals:
                raise Refused("game_running")
            if not reachable:
                raise Refused("start_bot_first")
            if user_id in loaded.meta.joining:
                raise Refused("already_seated")
            if len(seats) + len(loaded.meta.joining) >= plugin.rules.max_players:
                raise Refused("table_full")
            loaded.meta.joining.append(user_id)
            return await store.commit_meta(
                loaded, seats, Notice("joins_next_deal", {"user": user_id})
            )

    @recorded
    async def leave(self, chat_id: int, user_id: int, *, thread: int | None = None) -> Reply:
        store = self.store
        async with store.lock(chat_id):
            loaded = await store.require_active(chat_id, thread)
            seats = loaded.seats
            if user_id in loaded.meta.joining:
                loaded.meta.joining.remove(user_id)
                return await store.commit_meta(loaded, seats)
            if user_id not in seats:
                raise Refused("not_at_table")
            if loaded.game.status == "lobby":
                seats.remove(user_id)
                if all(is_computer(user) for user in seats):  # a table needs one person
                    return await store.close(loaded, "stopped", Notice("table_cancelled"))
                return await store.commit_meta(loaded, seats)
            if user_id not in loaded.meta.leaving:
                loaded.meta.leaving.append(user_id)
            return await self.steps.advance(loaded, [Notice("leaves", {"user": user_id})])

    @recorded
    async def add_computer(
        self, chat_id: int, user_id: int, level: str, *, thread: int | None = None
    ) -> Reply:
        """«🤖 Добавить компьютер»: a player at the lobby seats a computer of ``level``."""
        async with self.store.lock(chat_id):
            loaded = seated_in_lobby(await self.store.require_active(chat_id, thread), user_id)
            if not loaded.plugin.has_computers:
                raise Refused("no_computers")  # the lobby offers none: a forged press
            seats = loaded.seats
            if len(seats) >= loaded.plugin.rules.max_players:
                raise Refused("table_full")
            ids = STRONG_IDS if level == "strong" else EASY_IDS
            computer = next(user for user in ids if user not in seats)
            await self.chats.upsert_player(
                computer, computer_name(computer), now=self.store.clock()
            )
            return await self.store.commit_meta(
                loaded, [*seats, computer], Notice("computer_joins", {"user": computer})
            )

    @recorded
    async def remove_computer(
        self, chat_id: int, user_id: int, *, thread: int | None = None
    ) -> Reply:
        """«Убрать компьютер»: a player at the lobby takes the last computer seated off the
        table (a practice table has no /kick: its lobby's button is the way)."""
        async with self.store.lock(chat_id):
            loaded = seated_in_lobby(await self.store.require_active(chat_id, thread), user_id)
            computers = [user for user in loaded.seats if is_computer(user)]
            if not computers:
                raise Refused("no_computer_seated")
            seats = [user for user in loaded.seats if user != computers[-1]]
            return await self.store.commit_meta(
                loaded, seats, Notice("removed", {"user": computers[-1]})
            )

    @recorded
    async def begin(
        self,
        chat_id: int,
        user_id: int,
        reachable: Callable[[int], bool],
        *,
        thread: int | None = None,
    ) -> Reply:
        """/begin: deal the first deal when the count fits and everyone can get his cards."""
        async with self.store.lock(chat_id):
            loaded = await self.store.require_active(chat_id, thread)
            plugin = loaded.plugin
            if loaded.game.status != "lobby":
                raise Refused("game_running")
            if user_id not in loaded.game.seats:
                raise Refused("not_at_table")
            seats = loaded.seats
            if not plugin.rules.min_players <= len(seats) <= plugin.rules.max_players:
                raise Refused("not_enough_players")
            unreached = [seat for seat in seats if not is_computer(seat) and not reachable(seat)]
            if unreached:
                raise Refused("start_bot_first", unreached)
            pot = 0
            if plugin.rules.chat_pot:
                chat_pot = (await self.store.ledger.balances(chat_id)).pot
                pot = await self.store.free_pot(loaded, chat_pot)
            dealer = await self.first_dealer(chat_id, plugin, seats)
            loaded.table, step = plugin.rules.start(
                dict(loaded.game.options), len(seats), self.steps.deck(), dealer=dealer, pot=pot
            )
            reply = Reply(new_deal=True, table_changed=True, hands=set(seats))
            return await self.steps.commit_step(loaded, step, None, None, reply, status="active")

    async def first_dealer(self, chat_id: int, plugin: Plugin, seats: list[int]) -> int:
        """Random (docs/rules.md §4.4), unless the game names the first dealer after the chat's
        previous game of it (Старшина's ``next_dealer``: its winner or loser), and he sits at
        the new table."""
        last = await self.history.last_deals(chat_id, 1)
        if last and last[0].kind == plugin.rules.kind:
            previous = await self.store.load(await self.store.games.game(last[0].game_id))
            if previous.table is not None and previous.table.game_over:
                seat = previous.table.next_game_dealer()
                if seat is not None and previous.seats[seat] in seats:
                    return seats.index(previous.seats[seat])
        return secrets.randbelow(len(seats))

    @recorded
    async def remove_player(
        self,
        chat_id: int,
        by_user: int,
        is_admin: bool,
        user_id: int,
        *,
        reachable: bool = True,
        thread: int | None = None,
    ) -> Reply:
        """The creator or an admin removes a player: from the lobby one the bot cannot write
        to (he never started it), at once; during a game an away player, after the deal."""
        store = self.store
        async with store.lock(chat_id):
            loaded = await store.require_active(chat_id, thread)
            if not is_admin and by_user != loaded.game.created_by:
                raise Refused("creator_or_admin_only")
            if loaded.game.status == "lobby":
                if user_id not in loaded.game.seats:
                    raise Refused("not_at_table")
                if reachable and not is_computer(user_id):
                    raise Refused("kick_not_away")
                seats = [user for user in loaded.seats if user != user_id]
                if not seats:
                    return await store.close(loaded, "stopped", Notice("table_cancelled"))
                return await store.commit_meta(loaded, seats, Notice("removed", {"user": user_id}))
            if user_id not in loaded.meta.away and not (
                is_computer(user_id) and user_id in loaded.game.seats
            ):
                raise Refused("kick_not_away")
            if user_id not in loaded.meta.leaving:
                loaded.meta.leaving.append(user_id)
            return await store.commit_meta(
                loaded, loaded.seats, Notice("leaves", {"user": user_id})
            )


def exists_reason(chat_id: int) -> str:
    """Why /new is refused where a table is open: a group holds one table at a time (one per
    forum topic); a player's private chat his practice table, already there above."""
    return "practice_table_exists" if is_practice(chat_id) else "table_exists"
