"""What the players see: the lobby, the group's table message, the private hand messages,
the deal results, /balance, /history, /settings, and every button press.

The presenter renders from the stored game at the moment it sends (so coalesced refreshes
always show the latest state), edits messages in place, and arms the turn timer. Rendering
itself is ``bot.render`` and ``bot.keyboards``; the rules are reached only through
``TableService`` and ``game.registry``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot import callback as cb
from bot import keyboards
from bot.bounded import Locks
from bot.computers import is_computer
from bot.evenings import Evenings
from bot.messenger import Messenger, Rows, Shown, Undelivered
from bot.pacing import Coalescer, Pacer
from bot.render import chat as chat_render
from bot.render import starshina as starshina_render
from bot.render import stukolka as stukolka_render
from bot.render.common import display_kind, esc, use_ranks
from bot.screens import hand as hand_screen
from bot.screens.menus import Menus
from bot.screens.people import People
from bot.service import (
    DealResult,
    Loaded,
    Notice,
    Refused,
    Reply,
    TableService,
    result_from_due,
)
from bot.timers import Timers
from game.core import Action
from game.registry import rules_for
from game.starshina.options import StarshinaOptions
from game.stukolka.options import StukolkaOptions
from locales import t
from storage.database import Database
from storage.errors import GameNotFound
from storage.records import Game

log = logging.getLogger(__name__)

RECENT_NOTICES = 3
#: notices of a table that closes with a deal's end, shown under that deal's result
CLOSING_NOTICES = frozenset({"all_away", "table_closed", "stop_now"})
#: notices about moves, which end with their deal
DEAL_NOTICES = frozenset({"timeout_move", "auto_move"}) | CLOSING_NOTICES
#: results of deals that ended while the group waited for its pace go in one message
RESULTS_JOINER = "\n\n· · ·\n\n"
MAX_MESSAGE = 4000  # Telegram takes 4096 characters


class Presenter:
    """Shows replies of the table service and answers button presses."""

    def __init__(
        self,
        *,
        db: Database,
        tables: TableService,
        messenger: Messenger,
        timers: Timers,
        coalescer: Coalescer,
        default_language: str,
    ) -> None:
        self.db = db
        self.tables = tables
        self.messenger = messenger
        self.timers = timers
        self.coalescer = coalescer
        self.default_language = default_language
        self.bot_username = ""
        self.people = People(db, tables, default_language)
        self.menus = Menus(db, tables, messenger, self.people, self._refresh_chat)
        #: per open game, forgotten with it (``_forget_game``): the latest notices under the
        #: table, the cards a player has marked for a discard (game, user) → (turn, mask)
        self._notices: dict[int, deque[str]] = {}
        self._masks: dict[tuple[int, int], tuple[int, int]] = {}
        self._display: Locks[int] = Locks()
        #: the rendered results waiting to be shown (each is stored as due with the move that
        #: ended its deal, and rendered again from there after a restart)
        self._results: dict[int, list[tuple[int, str]]] = {}
        #: told of every deal's end and every stopped table (bot.context wires it)
        self.evenings: Evenings | None = None
        #: private hand messages of players who are not to act are edited at most once every
        #: ``HAND_SPACING`` seconds each (the one to act gets his at once); off when the
        #: groups are not paced either (tests, a local Bot API server)
        group_pacer = getattr(messenger, "pacer", None)
        paced = group_pacer is not None and group_pacer.spacing > 0
        spacing = hand_screen.HAND_SPACING if paced else 0.0
        self.hand_pacer = Pacer(spacing, per_window=hand_screen.HAND_PER_MINUTE)
        #: a turn that comes after this many seconds of waiting comes as a new hand message
        #: (which notifies) in place of the old one
        self.ping_after = hand_screen.PING_AFTER
        #: (game, user) → when his wait began (he is not to act), or None while he is to act;
        #: lost on a restart, which only means one turn is not pinged
        self._waiting: dict[tuple[int, int], float | None] = {}

    async def _refresh_chat(self, chat_id: int) -> None:
        """Show a chat's open tables again, the group's messages and every hand (its display
        settings changed)."""
        for game in await self.db.chat_open_games(chat_id):
            if game.status == "active":
                self._refresh_group(game.game_id)
                for user in game.seats:
                    self._refresh_hand(game.game_id, user)

    # ------------------------------------------------------------------ showing replies

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._display(game_id)

    async def show(self, reply: Reply) -> None:
        """Bring the group and the players' private chats up to date with ``reply``.

        Only the timer, the notices and the results to show are settled before this returns.
        The messages go out in the background, the private ones at once and the group's one
        request per slot of its pace (``_group_step``), so neither the answer to a press nor
        any other group waits for a slow or throttled group.
        """
        game = reply.game
        if game is None:
            return
        if reply.closed:
            self.timers.cancel(game.game_id)
        else:
            await self._arm(game.game_id)
        hands = set(reply.hands)
        if reply.results:
            await self._end_hands(game.game_id, reply.results[0])
        elif reply.closed:
            await self._stop_hands(game.game_id)
        if reply.new_deal:
            await self._forget_hands(game.game_id)
        if reply.table_changed and not reply.closed and game.status == "active":
            # a move can change a waiting player's hand too (the tricks he has won, the phase,
            # the pot): each is rendered again, and the messenger skips the edits that change
            # nothing. (Rendering hands was 14% of the bot's main thread under bench/load.py;
            # knowing which hands a move can change would save part of it.)
            hands |= set(game.seats)
        for user in hands:
            self._refresh_hand(game.game_id, user)
        lang = await self.people.chat_language(game.chat_id)
        use_ranks(lang, await self.people.chat_ranks(game.chat_id))
        carried = reply.notices
        if reply.results:
            # the moves of a finished deal go with it; news about people carry on
            self._notices.pop(game.game_id, None)
            carried = [n for n in reply.notices if n.key not in DEAL_NOTICES]
            pending = self._results.setdefault(game.game_id, [])
            for number, result in enumerate(reply.results, 1):
                closing = reply.closed and number == len(reply.results)
                footer = [
                    await self._notice_text(lang, notice)
                    for notice in reply.notices
                    if closing and notice.key in CLOSING_NOTICES
                ]
                pending.append((result.deal, await self._result_text(game, lang, result, footer)))
        elif reply.new_deal:
            # the first deal: its table is a new message; the lobby loses its buttons in the
            # first of the group's slots that the table does not need (``_group_step``)
            await self.db.retire_lobby_message(game.game_id)
        await self._remember(game, lang, carried)
        if reply.lobby_changed or reply.table_changed or reply.results or reply.closed:
            self._refresh_group(game.game_id)
        if self.evenings is not None:
            if reply.results:
                await self.evenings.deal_ended(game.chat_id)
            if reply.closed and _stopped(game):
                # the evening is the group's: it ends with the last of its topics' tables
                others = await self.db.chat_open_games(game.chat_id)
                if not any(other.game_id != game.game_id for other in others):
                    await self.evenings.end_now(game.chat_id, after_game=game.game_id)

    async def _arm(self, game_id: int) -> None:
        game = await self.db.game(game_id)
        turn = (await self.tables.snapshot(game)).meta.turn
        self.timers.arm(game_id, turn, game.turn_deadline if game.status == "active" else None)

    async def _remember(self, game: Game, lang: str, notices: list[Notice]) -> None:
        recent = self._notices.setdefault(game.game_id, deque(maxlen=RECENT_NOTICES))
        for notice in notices:
            text = await self._notice_text(lang, notice)
            if text:
                recent.append(text)

    async def _notice_text(self, lang: str, notice: Notice) -> str:
        user = notice.params.get("user")
        name = (await self.people.names([user]))[0] if isinstance(user, int) else ""
        action = None
        if "verb" in notice.params:
            arg: Any = notice.params.get("arg")
            if "count" in notice.params:
                arg = ("??",) * int(notice.params["count"])
            action = Action(0, str(notice.params["verb"]), arg)
        match notice.key:
            case "timeout_move" if action is not None:
                return chat_render.timeout_text(lang, name, action)
            case "auto_move" if action is not None:
                return t(
                    lang,
                    "announce.auto_move",
                    name=esc(name),
                    move=chat_render.move_text(lang, action),
                )
            case "now_away" if notice.params.get("computer"):
                return t(lang, "announce.away_computer", name=esc(name))
            case "now_away":
                return chat_render.away_text(lang, name)
            case "is_back":
                return chat_render.back_text(lang, name)
            case "leaves":
                return chat_render.left_text(lang, name, mid_deal=True)
            case "removed":
                return chat_render.left_text(lang, name)
            case "stays":
                return chat_render.stays_text(lang, name)
            case "joins_next_deal":
                return chat_render.joined_text(lang, name)
            case "void_vote":
                return t(lang, "announce.void_vote", name=esc(name))
            case "unreachable" if notice.params.get("computer"):
                return t(lang, "announce.unreachable_computer", name=esc(name))
            case "unreachable":
                return t(lang, "announce.unreachable", name=esc(name))
            case "computer_joins":
                return t(lang, "announce.computer_joins", name=esc(name))
            case _:
                return t(lang, f"announce.{notice.key}")

    # ------------------------------------------------------------------ the table message

    def _refresh_group(self, game_id: int) -> None:
        """Let the group's messages of a game catch up: one request each time the group's
        slot is due, rendered then, so it shows the latest state (see ``_group_step``)."""

        async def slot_due() -> None:
            await self.messenger.pacer.ready((await self.db.game(game_id)).chat_id)

        async def job() -> None:
            async with self._lock(game_id):
                await slot_due()
                more = await self._group_step(game_id)
            if more:
                self._refresh_group(game_id)
            elif not (await self.db.game(game_id)).is_open:
                self._forget_game(game_id)

        self.coalescer.request(("group", game_id), job, slot_due)

    async def _group_step(self, game_id: int) -> bool:
        """One request to bring the group up to date; True if there is more to do.

        First the results of finished deals: the deal's table message becomes its result. When
        deals end faster than the group's pace, the results waiting are shown together, in one
        message, so the group never falls behind by more than one deal. Then the current
        deal's table: a new message for a new deal, else an edit of the table message.
        """
        game = await self.db.game(game_id)
        pending = self._results.get(game_id)
        if pending:
            first = pending[0][0]
            texts: list[str] = []
            for _, text in pending:
                if texts and len(RESULTS_JOINER.join([*texts, text])) > MAX_MESSAGE:
                    break
                texts.append(text)
            shows = game.display.table_deal
            known = (first if shows is None else shows) == first
            message_id = game.table_message_id if known else None
            try:
                shown = await self.messenger.show(
                    game.chat_id,
                    message_id,
                    RESULTS_JOINER.join(texts),
                    None,
                    strict=True,
                    thread=game.thread_id,
                )
                self.messenger.done_with(game.chat_id, shown)
            except Undelivered as error:
                if message_id is not None or not error.maybe_done:
                    raise  # nothing was sent twice: try again in a moment
                log.warning("results of game %s may not have been shown: %s", game_id, error)
            posted = [deal for deal, _ in pending[: len(texts)]]
            del pending[: len(texts)]
            if not pending:
                del self._results[game_id]
            # one write: a crash between the two would take the result shown in the table
            # message for the next deal's table and edit it away
            await self.tables.results_posted(
                game_id, posted, table_message_used=message_id is not None
            )
            return True
        display = game.display
        if display.table_message_id is None and (
            display.table_unknown or game.status in ("finished", "stopped")
        ):
            return False
        deal = (await self.tables.snapshot(game)).meta.deals
        shows = deal if display.table_deal is None else display.table_deal
        if game.status == "active" and shows != deal:
            return False  # the deal has ended: its result is on its way here
        lobby = display.lobby_message_id
        if lobby is not None and display.table_message_id is not None:
            text, rows = await self._table_content(game)
            current = self.messenger.shown(game.chat_id, display.table_message_id)
            if current is not None and _same_but_countdown(current, text, rows):
                await self.messenger.drop_buttons(game.chat_id, lobby)
                await self.db.set_lobby_message(game_id, None)
                return False
        await self._show_table_now(game_id)
        return lobby is not None  # come back for the lobby's buttons

    @staticmethod
    async def _no_wait() -> None:
        return None

    def _forget_game(self, game_id: int) -> None:
        """A closed game's last group message is out: what memory held for it goes (its
        hands' last edits need none of it)."""
        self._notices.pop(game_id, None)
        if not self._results.get(game_id):
            self._results.pop(game_id, None)
        for key in [key for key in self._masks if key[0] == game_id]:
            del self._masks[key]
        for key in [key for key in self._waiting if key[0] == game_id]:
            del self._waiting[key]

    async def _table_content(self, game: Game) -> tuple[str, Rows | None]:
        lang = await self.people.chat_language(game.chat_id)
        loaded = await self.tables.snapshot(game)
        names = await self.people.names(loaded.seats)
        kind = display_kind(game.kind, game.options)
        if game.status == "lobby" or loaded.engine is None:
            players = await self.db.players(loaded.seats)
            lobby = [
                chat_render.LobbyPlayer(
                    name=names[i],
                    reachable=is_computer(u) or bool(players.get(u) and players[u].started),
                    start_payload=f"g{game.game_id}",
                )
                for i, u in enumerate(loaded.seats)
            ]
            creator = (await self.people.names([game.created_by]))[0] if game.created_by else ""
            text = chat_render.lobby_text(
                lang,
                kind,
                _options(game),
                lobby,
                creator,
                self.bot_username,
            )
            if game.status != "lobby":
                return t(lang, "announce.table_cancelled") + "\n\n" + text, None
            rules = rules_for(game.kind)
            can_begin = rules.min_players <= len(loaded.seats) <= rules.max_players and all(
                lobby_player.reachable for lobby_player in lobby
            )
            room = len(loaded.seats) < rules.max_players
            return text, keyboards.lobby_keyboard(
                lang, game.game_id, can_begin=can_begin, room=room
            )
        assert loaded.rules is not None
        view = loaded.rules.public_view(loaded.engine)
        if game.status != "active":
            view = dataclasses.replace(view, to_act=None)  # nobody's turn at a closed table
        away = {loaded.seats.index(u) for u in loaded.meta.away if u in loaded.seats}
        seconds = _seconds_left(game)
        renderer = _renderer(game.kind)
        text = renderer.table_text(lang, view, names, seconds=seconds, away=away, kind=kind)
        recent = self._notices.get(game.game_id)
        if recent:
            text += "\n\n" + "\n".join(recent)
        rows: Rows | None = None
        if loaded.meta.away and game.status == "active":
            rows = keyboards.back_keyboard(lang, game.game_id)
        if loaded.meta.stop and game.status == "active":
            votes = len(set(loaded.meta.void_votes) & set(loaded.seats))
            void = keyboards.void_keyboard(
                lang, game.game_id, loaded.meta.deals, votes, len(loaded.seats)
            )
            rows = [*(rows or []), *void]
        if game.status in ("finished", "stopped"):
            text += "\n\n" + chat_render.stopped_text(lang)
            rows = None
        return text, rows

    async def _show_table_now(self, game_id: int) -> None:
        """Edit the table message to the game as it is now, or send it if there is none yet
        (unless one may have been sent already: see ``Display.table_unknown``)."""
        game = await self.db.game(game_id)
        deal = (await self.tables.snapshot(game)).meta.deals
        use_ranks(
            await self.people.chat_language(game.chat_id),
            await self.people.chat_ranks(game.chat_id),
        )
        text, rows = await self._table_content(game)
        try:
            message_id = await self.messenger.show(
                game.chat_id, game.table_message_id, text, rows, strict=True, thread=game.thread_id
            )
        except Undelivered as error:
            if game.table_message_id is None and error.maybe_done:
                await self.db.set_table_unknown(game_id)
                return
            raise
        if message_id is not None and message_id != game.table_message_id:
            await self.db.set_table_message(game_id, message_id, deal=deal)

    async def _result_text(
        self, game: Game, lang: str, result: DealResult, footer: Sequence[str] = ()
    ) -> str:
        """A finished deal's result, shown in place of its table message."""
        names = await self.people.names(result.seats)
        balances = {seat: result.balances.get(user, 0) for seat, user in enumerate(result.seats)}
        money = {seat: result.money.get(user, {}) for seat, user in enumerate(result.seats)}
        kind = display_kind(game.kind, game.options)
        renderer = _renderer(result.kind)
        text: str = renderer.result_text(lang, result.view, names, balances, kind=kind, money=money)
        if footer:
            text += "\n\n" + "\n".join(footer)
        return text

    async def _end_hands(self, game_id: int, result: DealResult) -> None:
        """A deal ended: each player's hand message of it becomes his outcome, without buttons
        (the next deal, if any, gets new hand messages)."""
        game = await self.db.game(game_id)
        shown = [
            (user, message_id) for user, message_id in game.hand_messages.items() if message_id
        ]
        names = await self.people.names(result.seats)
        renderer = _renderer(result.kind)
        kind = display_kind(game.kind, game.options)
        jobs = []
        for user, message_id in shown:
            if user not in result.seats:
                continue
            seat = result.seats.index(user)
            lang = await self.people.chat_language(user)
            use_ranks(lang, await self.people.chat_ranks(game.chat_id))
            played = next((p for p in result.players if p.seat == seat), None)
            text = hand_screen.outcome_text(
                lang,
                renderer,
                result.view,
                names,
                seat,
                kind=kind,
                tricks=played.tricks if played is not None and played.active else None,
                money=result.money.get(user, {}),
                balance=result.balances.get(user, 0),
            )
            jobs.append((user, message_id, text))
        await asyncio.gather(*(self.db.set_hand_message(game_id, u, None) for u, _, _ in jobs))
        for user, message_id, text in jobs:
            self._waiting.pop((game_id, user), None)
            self.coalescer.request(
                ("old hand", user, message_id),
                self._final_edit(user, message_id, text),
                self._no_wait,
            )

    async def _stop_hands(self, game_id: int) -> None:
        """A table closed without a result (/stop now): each hand message keeps its cards,
        loses its prompt and buttons, and says the table is closed."""
        game = await self.db.game(game_id)
        loaded = await self.tables.snapshot(game)
        jobs = []
        for user, message_id in game.hand_messages.items():
            if not message_id:
                continue
            lang = await self.people.chat_language(user)
            use_ranks(lang, await self.people.chat_ranks(game.chat_id))
            text, _ = await self._hand_content(loaded, user)
            jobs.append((user, message_id, hand_screen.stopped_text(lang, text)))
        await asyncio.gather(*(self.db.set_hand_message(game_id, u, None) for u, _, _ in jobs))
        for user, message_id, text in jobs:
            self._waiting.pop((game_id, user), None)
            self.coalescer.request(
                ("old hand", user, message_id),
                self._final_edit(user, message_id, text),
                self._no_wait,
            )

    def _final_edit(
        self, chat_id: int, message_id: int, text: str
    ) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            if await self.messenger.edit(chat_id, message_id, text, None):
                self.messenger.done_with(chat_id, message_id)
            else:
                await self.messenger.drop_buttons(chat_id, message_id)

        return job

    async def _forget_hands(self, game_id: int) -> None:
        """A new deal: each player gets a new hand message; the old ones lose their buttons."""
        game = await self.db.game(game_id)
        old = [(user, message_id) for user, message_id in game.hand_messages.items() if message_id]
        # one batch of writes (see storage's group commit), not one commit after another
        await asyncio.gather(*(self.db.set_hand_message(game_id, user, None) for user, _ in old))
        for user, message_id in old:
            self.coalescer.request(
                ("old hand", user, message_id),
                self._buttons_dropper(user, message_id),
                self._no_wait,
            )

    def _buttons_dropper(self, chat_id: int, message_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            await self.messenger.drop_buttons(chat_id, message_id)

        return job

    # ------------------------------------------------------------------ hand messages

    def _refresh_hand(self, game_id: int, user_id: int) -> None:
        """Bring a hand message up to date: at once for the player to act and for one whose
        buttons are out of date, else at his chat's pace (``hand_pacer``), rendered when it is
        sent so it shows the latest state. A computer has none."""
        if is_computer(user_id):
            return

        async def slot_due() -> None:
            if self.hand_pacer.spacing <= 0 or await self._at_once(game_id, user_id):
                return
            await self.hand_pacer.ready(user_id)

        async def job() -> None:
            await self._show_hand_now(game_id, user_id)

        self.coalescer.request(("hand", game_id, user_id), job, slot_due)

    async def _at_once(self, game_id: int, user_id: int) -> bool:
        """Whether his hand message must change now: he is to act, or it shows buttons (he
        has just acted: they no longer work)."""
        game = await self.db.game(game_id)
        message_id = game.hand_messages.get(user_id)
        if message_id is not None:
            shown = self.messenger.shown(user_id, message_id)
            if shown is None or shown.rows:
                return True
        loaded = await self.tables.snapshot(game)
        if loaded.rules is None or loaded.engine is None:
            return False
        seat = loaded.rules.to_act(loaded.engine)
        return seat is not None and loaded.seats[seat] == user_id

    async def _hand_content(self, loaded: Loaded, user_id: int) -> tuple[str, Rows | None]:
        game = loaded.game
        lang = await self.people.chat_language(user_id)
        seat = loaded.seat_of(user_id)
        if seat is None or loaded.engine is None or loaded.rules is None:
            return t(lang, "announce.table_closed"), None
        names = await self.people.names(loaded.seats)
        view = loaded.rules.seat_view(loaded.engine, seat)
        kind = display_kind(game.kind, game.options)
        seconds = _seconds_left(game) if loaded.rules.to_act(loaded.engine) == seat else None
        renderer = _renderer(game.kind)
        if game.status != "active":
            # nothing to decide at a closed table: no prompt, nobody's turn
            table = dataclasses.replace(view.table, to_act=None)
            view = dataclasses.replace(view, legal=(), table=table)
            return renderer.hand_text(lang, view, names, kind=kind), None
        text = renderer.hand_text(lang, view, names, kind=kind, seconds=seconds)
        turn = loaded.meta.turn
        saved = self._masks.get((game.game_id, user_id))
        mask = saved[1] if saved and saved[0] == turn else 0
        if user_id in loaded.meta.away:
            return text, keyboards.back_keyboard(lang, game.game_id)
        if game.kind == "starshina":
            rows = keyboards.starshina_keyboard(lang, view, game.game_id, turn, mask)
        else:
            rows = keyboards.stukolka_keyboard(lang, view, game.game_id, turn, mask)
        return text, rows

    async def _show_hand_now(
        self, game_id: int, user_id: int, mask_message: int | None = None
    ) -> None:
        game = await self.db.game(game_id)
        loaded = await self.tables.snapshot(game)
        if user_id not in loaded.seats or loaded.engine is None:
            return  # a lobby has no hands to show
        if user_id in loaded.meta.away and not await self.people.is_reachable(user_id):
            return  # he blocked the bot: nothing to write until he starts it again
        message_id = game.hand_messages.get(user_id)
        if message_id is None and game.status != "active":
            return  # a closed table's hands were written for the last time as it closed
        use_ranks(
            await self.people.chat_language(user_id), await self.people.chat_ranks(game.chat_id)
        )
        text, rows = await self._hand_content(loaded, user_id)
        key = (game_id, user_id)
        seat = loaded.rules.to_act(loaded.engine) if loaded.rules and loaded.engine else None
        to_act = seat is not None and loaded.seats[seat] == user_id and game.status == "active"
        now = time.monotonic()
        since = self._waiting.get(key, now)
        replaced = None
        waited = since is not None and now - since >= self.ping_after
        if to_act and waited and message_id is not None:
            # his turn after a wait: a new message, which notifies, in place of the old
            replaced, message_id = message_id, None
        shown = await self.messenger.show(user_id, message_id, text, rows, strict=True)
        self.hand_pacer.record(user_id)
        if shown is None:
            await self._unreachable(game_id, user_id)
            return
        self._waiting[key] = None if to_act else (since if since is not None else now)
        if shown != message_id:
            await self.db.set_hand_message(game_id, user_id, shown)
        if replaced is not None:
            await self.messenger.delete(user_id, replaced)

    # ------------------------------------------------------------------ presses

    async def press(
        self,
        data: cb.Callback,
        user_id: int,
        chat_id: int | None,
        admin: Callable[[], Awaitable[bool]],
        message_id: int | None = None,
        thread: int | None = None,
    ) -> str | None:
        """Handle a decoded button press on ``message_id`` (in the forum topic ``thread``, if
        any); the short answer text (or None). Menus (settings, balance pages) are edited in
        place. Raises Refused."""
        try:
            return await self._press(data, user_id, chat_id, admin, message_id, thread)
        except GameNotFound:
            # well-formed data for a game that does not exist (forged, or a wiped database)
            raise Refused("unknown_game") from None

    async def _press(
        self,
        data: cb.Callback,
        user_id: int,
        chat_id: int | None,
        admin: Callable[[], Awaitable[bool]],
        message_id: int | None,
        thread: int | None = None,
    ) -> str | None:
        if isinstance(data, cb.Act | cb.Select | cb.Look):
            await self._bound_hand(data.game_id, user_id, message_id)
        match data:
            case cb.Act():
                return await self._press_act(data, user_id)
            case cb.Look():
                reply = await self.tables.act(data.game_id, user_id, data.version, "look", None)
                await self.show(reply)
                return None
            case cb.Select():
                return await self._press_select(data, user_id)
            case cb.Lobby():
                return await self._press_lobby(data, user_id, chat_id, admin)
            case cb.NewGame():
                if chat_id is None or chat_id > 0:
                    raise Refused("not_allowed")
                await self.show(
                    await self.tables.new_table(chat_id, user_id, data.kind, thread=thread)
                )
                return None
            case cb.Back():
                reply = await self.tables.back(data.game_id, user_id)
                await self.show(reply)
                return None
            case cb.Settings():
                return await self.menus.press_settings(data, user_id, chat_id, admin, message_id)
            case cb.Void():
                await self.show(await self.tables.vote_void(data.game_id, user_id, data.deal))
                return None
            case cb.Page():
                await self.menus.press_page(data, user_id, chat_id, message_id)
                return None
            case cb.CardRanks():
                return await self.menus.press_ranks(data, user_id, chat_id, admin, message_id)
            case cb.EveningGap():
                return await self.menus.press_gap(data, user_id, chat_id, admin, message_id)
            case cb.AwayPlay():
                return await self.menus.press_away_play(data, user_id, chat_id, admin, message_id)
            case cb.RulesOf():
                await self.menus.press_rules(data, chat_id, message_id)
                return None
        raise Refused("unknown_button")

    async def _bound_hand(self, game_id: int, user_id: int, message_id: int | None) -> None:
        """A hand is bound to one message: a press on another copy (a send that timed out
        but was delivered all the same) is refused as outdated, and that copy is closed."""
        bound = (await self.db.game(game_id)).hand_messages.get(user_id)
        if message_id is None or bound is None or bound == message_id:
            return
        self.coalescer.request(
            ("old hand", user_id, message_id),
            self._buttons_dropper(user_id, message_id),
            self._no_wait,
        )
        raise Refused("outdated")

    async def _press_act(self, data: cb.Act, user_id: int) -> str | None:
        arg: Any = data.arg
        if data.verb in cb.MASK_VERBS:
            mask = int(data.arg or 0)

            def resolve(state: Any, seat: int) -> tuple[str, ...]:
                hand = state.hands[seat]
                looked = bool(getattr(state, "looked", [True] * 8)[seat])
                return keyboards.selected_cards(hand, state.trump, mask, looked=looked)

            arg = resolve
        reply = await self.tables.act(data.game_id, user_id, data.version, data.verb, arg)
        self._masks.pop((data.game_id, user_id), None)
        await self.show(reply)
        return None

    async def _press_select(self, data: cb.Select, user_id: int) -> str | None:
        game = await self.db.game(data.game_id)
        loaded = await self.tables.snapshot(game)
        if user_id not in loaded.seats:
            raise Refused("not_at_table")
        if loaded.meta.turn != data.version or game.status != "active":
            raise Refused("outdated")
        self._masks[(data.game_id, user_id)] = (data.version, data.mask)
        await self._show_hand_now(data.game_id, user_id)
        return None

    async def _press_lobby(
        self,
        data: cb.Lobby,
        user_id: int,
        chat_id: int | None,
        admin: Callable[[], Awaitable[bool]],
    ) -> str | None:
        game = await self.db.game(data.game_id)
        if chat_id != game.chat_id:
            raise Refused("not_at_table")
        if game.status != "lobby":
            # an old lobby's buttons: /join, /leave and /stop still work while it runs
            raise Refused("game_running" if game.status == "active" else "game_over")
        lang = await self.people.user_language(user_id, None)
        chat, thread = game.chat_id, game.thread_id
        match data.action:
            case "join":
                await self.show(await self.tables.join(chat, user_id, thread=thread))
                return chat_render.answer_text(lang, "joined")
            case "leave":
                await self.show(await self.tables.leave(chat, user_id, thread=thread))
                return chat_render.answer_text(lang, "left")
            case "begin":
                reachable = await self.people.reachable_map(chat, thread)
                await self.show(
                    await self.tables.begin(
                        chat, user_id, lambda u: reachable.get(u, False), thread=thread
                    )
                )
                return None
            case "cancel":
                await self.show(await self.tables.stop(chat, user_id, await admin(), thread=thread))
                return None
            case "computer" | "novice":
                level = "strong" if data.action == "computer" else "easy"
                await self.show(await self.tables.add_computer(chat, user_id, level, thread=thread))
                return chat_render.answer_text(lang, "computer_seated")
        raise Refused("unknown_button")

    # ------------------------------------------------------------------ people and chats

    async def started(self, user_id: int, name: str, code: str | None, payload: str | None) -> None:
        """/start in private: the bot may now write to him; a lobby link refreshes that lobby."""
        await self.db.upsert_player(user_id, name, started=True)
        lang = await self.people.user_language(user_id, code)
        if payload and payload.startswith("g") and payload[1:].isdigit():
            await self.messenger.send(user_id, chat_render.start_joined_text(lang))
            try:
                game = await self.db.game(int(payload[1:]))
            except Exception:
                return
            if game.status == "lobby":
                self._refresh_group(game.game_id)
            return
        await self.messenger.send(user_id, chat_render.start_text(lang, self.bot_username))
        # back after blocking the bot: his cards (with «I'm back») come again
        for game in await self.people.games_of(user_id):
            if game.status == "active":
                self._refresh_hand(game.game_id, user_id)

    async def user_blocked(self, user_id: int) -> None:
        """He blocked the bot (a 403, or Telegram's notice): the bot plays for him at every
        table he sits at, and each group is told once. For a group (``user_id`` < 0): the bot
        was removed from it (``group_lost``)."""
        if user_id < 0:
            await self.group_lost(user_id)
            return
        players = await self.db.players([user_id])
        if user_id in players:
            await self.db.upsert_player(user_id, players[user_id].name, started=False)
        for game in await self.people.games_of(user_id):
            if game.status == "active":
                await self._unreachable(game.game_id, user_id)

    async def group_lost(self, chat_id: int) -> None:
        """The bot left or was removed from the group: its tables close (settled as /stop
        now would), their timers stop, nothing more is sent there, and each player's hand
        message is closed with a note."""
        for game in await self.db.chat_open_games(chat_id):
            await self._table_lost(chat_id, game.thread_id, "bot_removed")

    async def topic_lost(self, chat_id: int, thread: int) -> None:
        """The forum topic of a table was closed (Telegram's forum_topic_closed), or cannot be
        written to any more (closed, or deleted: a send is refused): its table closes as when
        the bot leaves the group — the deal is played out by the default moves and settled,
        nothing is lost, and each player's hand says why. The group's other tables play on."""
        await self._table_lost(chat_id, thread, "topic_closed")

    async def _table_lost(self, chat_id: int, thread: int | None, reason: str) -> None:
        reply = await self.tables.close_lost(chat_id, thread, reason)
        if reply is None or reply.game is None:
            return
        game = reply.game
        self.timers.cancel(game.game_id)
        self._results.pop(game.game_id, None)
        self._notices.pop(game.game_id, None)
        await self.tables.results_posted(
            game.game_id, list(range(reply.results[-1].deal + 1)) if reply.results else []
        )
        for user, message_id in game.hand_messages.items():
            if message_id:
                self.coalescer.request(
                    ("hand", game.game_id, user),
                    self._lost_hand(game, user, message_id, reason),
                    self._no_wait,
                )

    def _lost_hand(
        self, game: Game, user: int, message_id: int, reason: str
    ) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            loaded = await self.tables.snapshot(game)
            text, _ = await self._hand_content(loaded, user)
            lang = await self.people.chat_language(user)
            note = t(lang, f"announce.{reason}")
            await self.messenger.show(user, message_id, f"{text}\n\n{note}", None)

        return job

    async def _unreachable(self, game_id: int, user_id: int) -> None:
        reply = await self.tables.mark_unreachable(game_id, user_id)
        if reply is None or reply.game is None:
            return  # already played for
        lang = await self.people.chat_language(reply.game.chat_id)
        await self.messenger.send(
            reply.game.chat_id,
            chat_render.private_hint_text(lang, self.bot_username),
            thread=reply.game.thread_id,
        )
        await self.show(reply)

    async def chat_migrated(self, old: int, new: int) -> None:
        """A group became a supergroup: its games, balances and pot follow the new id."""
        try:
            moved = await self.db.migrate_chat(old, new)
        except Exception:
            log.exception("migration %s → %s failed", old, new)
            return
        self.messenger.forget(old)
        self.messenger.pacer.forget(old)
        self.tables.forget_chat(old)
        self.people.forget_chat(old)
        if not moved:
            return
        loaded = await self.tables.active(new)
        if loaded is not None:
            await self.db.set_table_message(loaded.game.game_id, None)
            self._refresh_group(loaded.game.game_id)

    async def turn_timed_out(self, game_id: int, turn: int) -> None:
        reply = await self.tables.timeout(game_id, turn)
        if reply is not None:
            await self.show(reply)

    async def resume_all(self) -> None:
        """After a restart: re-arm every timer with the time that was left, post the results
        that were still due, refresh messages."""
        unfrozen: set[int] = set()
        for game in await self.db.open_games():
            if game.status == "active" and game.turn_deadline is None:
                # frozen by an older version between a deal's end and the next deal: its
                # result goes in its table message, then the next deal is shown
                reply = await self.tables.unfreeze(game.game_id)
                if reply is not None and reply.results:
                    unfrozen.add(game.game_id)
                    await self.db.set_table_message(
                        game.game_id, game.table_message_id, deal=reply.results[0].deal
                    )
                    await self.show(reply)
        due = {
            game.game_id: game
            for game in await self.db.games_with_results_due()
            if game.game_id not in unfrozen
        }
        for game in await self.db.open_games():
            if game.game_id in unfrozen:
                continue
            if game.status == "active":
                await self._arm(game.game_id)
                for user in game.seats:
                    self._refresh_hand(game.game_id, user)
            if game.game_id not in due:
                self._refresh_group(game.game_id)
        for game in due.values():
            await self._results_due(game)
            self._refresh_group(game.game_id)

    async def _results_due(self, game: Game) -> None:
        """The results of a game stored as not yet posted go out (its table message, if
        any, is the first one's: it becomes that result)."""
        lang = await self.people.chat_language(game.chat_id)
        pending = self._results.setdefault(game.game_id, [])
        entries = list(game.state.get("table", {}).get("due", []))
        for entry in entries:
            result, closing = result_from_due(entry)
            footer = [await self._notice_text(lang, Notice(key)) for key in closing]
            pending.append((result.deal, await self._result_text(game, lang, result, footer)))
        if entries and game.table_message_id is not None and game.table_deal is None:
            # stored before the display state knew its deal: it is the first result's table
            await self.db.set_table_message(
                game.game_id, game.table_message_id, deal=int(entries[0]["deal"])
            )

    async def drain(self) -> None:
        """Wait until every message that is due has gone out (tests, shutdown)."""
        await self.coalescer.drain()


def _stopped(game: Game) -> bool:
    """The table ended by /stop (at once, or after its deal), not by a game's own end."""
    return game.status == "stopped" or bool(game.state.get("table", {}).get("stop"))


_COUNTDOWN = re.compile(r"⏳\s*\d+")


def _same_but_countdown(shown: Shown, text: str, rows: Rows | None) -> bool:
    """Whether a message shows ``text`` and ``rows`` but for the turn's countdown (which
    alone is not worth a group's request)."""
    if shown.rows != tuple(tuple(row) for row in rows or ()):
        return False
    return _COUNTDOWN.sub("⏳", shown.text) == _COUNTDOWN.sub("⏳", text)


def _renderer(kind: str) -> Any:
    return starshina_render if kind == "starshina" else stukolka_render


def _options(game: Game) -> Any:
    if game.kind == "starshina":
        return StarshinaOptions.from_json(dict(game.options))
    return StukolkaOptions.from_json(dict(game.options))


def _seconds_left(game: Game) -> int | None:
    """Whole seconds left for the decision now due, rounded up (a turn of 0.4 s shows 1 s)."""
    if game.turn_deadline is None:
        return None
    return max(0, math.ceil(game.turn_deadline - time.time()))
