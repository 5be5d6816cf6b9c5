"""The presenter: what every change of a table shows, and where each button press goes.

The screens are by audience (``bot/screens``): the group's table and its results
(``table``), the lobby (``lobby``), each player's hand message (``hand_messages``), the menus
(``menus``) and people (``people``: languages, names, reachability). The presenter wires them:
``took`` takes every record the table service publishes (``tables.events.Stream``: a change
made by a press here, a move on the page, a timeout or a computer's move of the service's
runner, to every screen it changes; a game's results still due after a restart), ``press``
sends a decoded button to the screen it belongs to, and the lifecycle (a restart, a blocked
user, a group lost or moved) is here. Rendering is
``bot.render`` and ``bot.keyboards``; the rules are reached only through ``TableService`` and
``game.registry``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar

from bot import callback as cb
from bot.games import ChatGames
from bot.launch import Launch
from bot.messenger import Messenger
from bot.pacing import Coalescer, no_wait
from bot.render import chat as chat_render
from bot.screens.hand_messages import Hands
from bot.screens.lobby import Lobby
from bot.screens.menus import Menus
from bot.screens.table import GroupTable
from storage.chat_display import ChatDisplay
from tables import Game, Refused, TableService, is_practice, result_from_due
from tables.arguments import linked_game
from tables.commands import Look
from tables.events import Record, ResultsDue, TableEvent
from tables.listener import TableListener

log = logging.getLogger(__name__)

#: the message a «▶️ Новая партия» press came from, while the press makes the new table: its
#: button comes off before the new table shows (``_show``, in the press's own task)
_again_from: ContextVar[tuple[int, int] | None] = ContextVar("again_from", default=None)


class Presenter(TableListener):
    """Shows the table service's changes and answers button presses."""

    def __init__(
        self,
        *,
        display: ChatDisplay,
        tables: TableService,
        games: ChatGames,
        messenger: Messenger,
        coalescer: Coalescer,
        bot_username: str = "",
        launch: Launch | None = None,
    ) -> None:
        self.tables = tables
        #: the games the chat shows
        self.games = games
        self.messenger = messenger
        self.coalescer = coalescer
        #: the bot's @username, for the links that open its private chat
        self.bot_username = bot_username
        launch = launch or Launch()
        #: the chat's own display storage: the message ids it shows tables with
        self.display = display
        people = tables.people
        self.menus = Menus(self.display, tables, games, messenger, people, self._refresh_chat)
        self.lobby = Lobby(tables, people, bot_username)
        self.table = GroupTable(
            self.display,
            tables,
            games,
            messenger,
            coalescer,
            people,
            self.lobby,
            self._closed,
            launch,
        )
        self.hands = Hands(
            self.display,
            tables,
            games,
            messenger,
            coalescer,
            people,
            self.table.recent_notices,
            launch,
        )
        #: the games whose results are still due after a restart (``ResultsDue``)
        self._due: dict[int, Game] = {}
        # a player who looked at his table on the page and looks away: his hand catches up
        tables.presence.looked_away.append(self.hands.refresh)

    def _closed(self, game_id: int) -> None:
        """A closed game's last group message is out: its hands forget it."""
        self.hands.forget_game(game_id)

    async def _refresh_chat(self, chat_id: int) -> None:
        """Show a chat's open tables again, the group's messages and every hand (its display
        settings changed)."""
        for game in await self.tables.store.open_games(chat_id):
            if game.status == "active":
                self.table.refresh(game.game_id)
                for user in game.seats:
                    self.hands.refresh(game.game_id, user)

    # ------------------------------------------------------------------ showing replies

    async def took(self, record: Record) -> None:
        """A record the table service publishes: a change of a table is shown
        (``_show``), a game's results still due after a restart kept for ``resume``; the
        evenings are ``EveningPosts``'s."""
        if isinstance(record, TableEvent):
            await self._show(record)
        elif isinstance(record, ResultsDue):
            # posted by ``resume``, once the old hand messages have become their outcomes
            self._due[record.game.game_id] = record.game

    async def _show(self, event: TableEvent) -> None:
        """Bring the group and the players' private chats up to date with ``event`` (every
        change the table service publishes): the hands it concerns (``TableEvent.hands``)
        and the group's table.

        Only the notices and the results to show are settled before this returns.
        The messages go out in the background, the private ones at once and the group's one
        request per slot of its pace (``GroupTable.refresh``), so neither the answer to a press nor
        any other group waits for a slow or throttled group.
        """
        if event.lost:
            await self._lost(event, event.lost)  # the table's group is gone
            return
        game = event.game
        pressed = _again_from.get()
        if pressed is not None:  # the «▶️ Новая партия» pressed comes off first
            _again_from.set(None)
            await self.messenger.drop_buttons(*pressed, answer=True)
        if any(notice.key == "unreachable" for notice in event.notices):
            # a player the bot cannot write to: the group hears what to do, then who plays
            lang = await self.tables.people.chat_language(game.chat_id)
            await self.messenger.send(
                game.chat_id,
                chat_render.private_hint_text(lang, self.bot_username),
                thread=game.thread_id,
            )
        # the presser's own hand first: its request goes out before the others'
        hands = event.hands
        # the commit that ended a deal made its hand messages old: each becomes its outcome
        # (the next deal, if any, gets new hand messages)
        await self.hands.retire_old(game.game_id, event.results)
        if event.closed and not event.results:
            await self.hands.table_stopped(game.game_id)
        practice = is_practice(game.chat_id)
        if not practice:
            for user in hands:
                self.hands.refresh(game.game_id, user)
        await self.table.took(event)
        if practice:  # its hand shows the table's notices: rendered once they are in
            for user in hands:
                self.hands.refresh(game.game_id, user)

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
        place. Raises Refused (``unknown_game`` for well-formed data of a game that does not
        exist: forged, or a wiped database)."""
        if chat_id == user_id and isinstance(
            data, cb.Act | cb.Select | cb.Look | cb.Hint | cb.Back
        ):
            self.hands.pressed(data.game_id, user_id)  # he is looking at his hand message
        if isinstance(data, cb.Act | cb.Select | cb.Look | cb.Hint):
            await self.hands.bound(data.game_id, user_id, message_id)
        match data:
            case cb.Act():
                await self.hands.press_act(data, user_id)
                return None
            case cb.Look():
                await self.tables.turns.act(data.game_id, user_id, data.version, Look())
                return None
            case cb.Select():
                return await self.hands.press_select(data, user_id)
            case cb.Hint():
                return await self.hands.press_hint(data, user_id)
            case cb.Hints():
                return await self.menus.press_hints(data, user_id, chat_id, admin, message_id)
            case cb.Lobby():
                return await self.lobby.press(data, user_id, chat_id, admin)
            case cb.NewGame():
                # a group's chooser, or a player's own in private (his practice table)
                if chat_id is None or (chat_id > 0 and chat_id != user_id):
                    raise Refused("not_allowed")
                await self.tables.lobby.new_table(chat_id, user_id, data.kind, thread=thread)
                return None
            case cb.Again():
                # a new game of an ended one, from the button under its last message
                if chat_id is None:
                    raise Refused("not_allowed")
                ended = await self.tables.store.game(data.game_id)
                reachable = await self.tables.people.reachable_of(list(ended.seats))
                pressed = _again_from.set(None if message_id is None else (chat_id, message_id))
                try:
                    await self.tables.lobby.again(
                        chat_id, user_id, data.game_id, lambda u: reachable.get(u, False)
                    )
                finally:
                    _again_from.reset(pressed)
                return None
            case cb.Back():
                await self.tables.turns.back(data.game_id, user_id)
                return None
            case cb.Settings():
                return await self.menus.press_settings(data, user_id, chat_id, admin, message_id)
            case cb.Void():
                await self.tables.stopping.vote_void(data.game_id, user_id, data.deal)
                return None
            case cb.PlayOn():
                await self.tables.stopping.play_on(data.game_id, user_id, data.deal, await admin())
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

    # ------------------------------------------------------------------ people and chats

    async def started(self, user_id: int, name: str, code: str | None, payload: str | None) -> None:
        """/start in private: the bot may now write to him; a lobby link refreshes that lobby."""
        await self.tables.people.started(user_id, name)
        lang = await self.tables.people.user_language(user_id, code)
        game_id = linked_game(payload)
        if game_id is not None:
            await self.messenger.send(user_id, chat_render.start_joined_text(lang))
            try:
                game = await self.tables.store.game(game_id)
            except Refused:
                return  # a link to a game that is gone (or never was): the welcome is enough
            if game.status == "lobby":
                self.table.refresh(game.game_id)
            return
        await self.messenger.send(
            user_id, chat_render.start_text(lang, self.bot_username, self.games.games)
        )
        # back after blocking the bot: his cards (with «I'm back») come again
        for game in await self.tables.people.games_of(user_id):
            if game.status == "active":
                self.hands.refresh(game.game_id, user_id)

    async def user_blocked(self, user_id: int) -> None:
        """He blocked the bot (a 403, or Telegram's notice): the bot plays for him at every
        table he sits at, and each group is told once. For a group (``user_id`` < 0): the bot
        was removed from it (``group_lost``)."""
        if user_id < 0:
            await self.group_lost(user_id)
            return
        await self.tables.people.blocked(user_id)
        for game in await self.tables.people.games_of(user_id):
            if game.status == "active":
                # (``_show`` tells the group what to do, once, as it shows who plays for him)
                await self.tables.turns.mark_unreachable(game.game_id, user_id)

    async def group_lost(self, chat_id: int) -> None:
        """The bot left or was removed from the group: its tables close (settled as /stop
        now would), their timers stop, nothing more is sent there, and each player's hand
        message is closed with a note (``_lost``, as the closing is published)."""
        for game in await self.tables.store.open_games(chat_id):
            await self.tables.stopping.close_lost(chat_id, game.thread_id, "bot_removed")

    async def topic_lost(self, chat_id: int, thread: int) -> None:
        """The forum topic of a table was closed (Telegram's forum_topic_closed), or cannot be
        written to any more (closed, or deleted: a send is refused): its table closes as when
        the bot leaves the group — the deal is played out by the default moves and settled,
        nothing is lost, and each player's hand says why. The group's other tables play on."""
        await self.tables.stopping.close_lost(chat_id, thread, "topic_closed")

    async def _lost(self, event: TableEvent, reason: str) -> None:
        """A table whose group cannot be shown it any more: nothing more goes to the group,
        its results count as posted, and each hand message says why it closed."""
        game = event.game
        self.table.lost(game.game_id)
        await self.tables.steps.results_posted(
            game.game_id, list(range(event.results[-1].deal + 1)) if event.results else []
        )
        for user, message_id in game.hand_messages.items():
            self.coalescer.request(
                ("hand", game.game_id, user),
                self.hands.lost(game, user, message_id, reason),
                no_wait,
            )
        for old in game.old_hands:  # those of the deal just played out, old now
            self.coalescer.request(
                ("old hand", old.user_id, old.message_id),
                self.hands.lost(game, old.user_id, old.message_id, reason),
                no_wait,
            )

    async def chat_migrated(self, old: int, new: int) -> None:
        """A group became a supergroup: its games, balances and pot follow the new id."""
        try:
            moved = await self.tables.people.chat_moved(old, new)
        except Exception:
            log.exception("migration %s → %s failed", old, new)
            return
        self.messenger.forget(old)
        self.messenger.pacer.forget(old)
        self.tables.settings.forget_chat(old)
        if not moved:
            return
        loaded = await self.tables.store.active(new)
        if loaded is not None:
            await self.display.set_table_message(loaded.game.game_id, None, now=self.tables.clock())
            self.table.refresh(loaded.game.game_id)

    # ------------------------------------------------------------------ after a restart

    async def resume(self) -> None:
        """After a restart, once the table service has resumed (frozen tables dealt on and
        shown, the results still due handed over): the old hand messages become their
        outcomes, the results due are posted, and every open table's messages are shown
        again."""
        for game in await self.display.games_with_old_hands():
            # the hand messages of a deal that ended just before the stop: each becomes its
            # outcome while the deal's result is still due (read before any is posted), else
            # it loses its buttons
            entries = game.state.get("table", {}).get("due", [])
            results = [result_from_due(dict(entry), self.tables.games)[0] for entry in entries]
            await self.hands.retire_old(game.game_id, results)
        due, self._due = self._due, {}
        for game in await self.tables.store.open_games():
            if game.status == "active":
                for user in game.seats:
                    self.hands.refresh(game.game_id, user)
            if game.game_id not in due:
                self.table.refresh(game.game_id)
        for game_id in due:
            await self.table.results_due(await self.tables.store.game(game_id))
            self.table.refresh(game_id)
