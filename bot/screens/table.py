"""The group's table: one message per deal, edited in place as the deal goes on, that becomes
the deal's result when it ends; the latest notices under it (who timed out, who is away).

A group gets at most ~20 messages or edits a minute, so the table is never pushed: each change
asks for a refresh (``refresh``), and when the group's slot comes (``bot.pacing``), one request
brings it up to date, rendered from the stored game at that moment. What the group has on
screen is the game's stored ``Display`` record (the table message and the deal it shows, the
results still to post), so a restart shows exactly what it should, once.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from bot import keyboards
from bot.games import ChatGames
from bot.launch import Launch
from bot.messenger import Messenger, Rows, Undelivered
from bot.pacing import Coalescer
from bot.render import chat as chat_render
from bot.render.common import Deadline, esc, use_ranks
from bot.render.stats import trick_lines
from bot.screens.lobby import Lobby
from bot.screens.stopping import STOPPING_NOTICES, offers_play_on, stop_line
from game.core import Action
from locales import t
from storage.chat_display import ChatDisplay
from tables import DealResult, Game, Notice, TableService, is_practice, result_from_due, sent_maybe
from tables.bounded import Locks
from tables.computers import is_computer
from tables.events import TableEvent
from tables.people import People
from tables.stopping import void_tally

log = logging.getLogger(__name__)

RECENT_NOTICES = 3
#: notices of a table that closes with a deal's end, shown under that deal's result
CLOSING_NOTICES = frozenset({"all_away", "table_closed", "stop_now"})
#: notices whose text under the result of their deal is in the past tense (``…_done``)
PAST_TENSE = frozenset({"stop_now"})
#: notices about moves, which end with their deal
DEAL_NOTICES = frozenset({"timeout_move", "auto_move"}) | CLOSING_NOTICES
#: results of deals that ended while the group waited for its pace go in one message
RESULTS_JOINER = "\n\n· · ·\n\n"
MAX_MESSAGE = 4000  # Telegram takes 4096 characters


class GroupTable:
    """Each open game's table message in its group, its notices and its results."""

    def __init__(
        self,
        display: ChatDisplay,
        tables: TableService,
        games: ChatGames,
        messenger: Messenger,
        coalescer: Coalescer,
        people: People,
        lobby: Lobby,
        closed: Callable[[int], None],
        launch: Launch,
    ) -> None:
        self.display = display
        self.tables = tables
        self.games = games
        self.messenger = messenger
        self.coalescer = coalescer
        self.people = people
        self.lobby = lobby
        #: told when a closed game's last group message is out (the other screens forget it)
        self.closed = closed
        #: the Mini App's link (none without WEBAPP_URL and WEBAPP_SHORT_NAME)
        self.launch = launch
        #: per open game, forgotten with it: the latest notices under the table, and the
        #: rendered results waiting to be shown (each is stored as due with the move that
        #: ended its deal, and rendered again from there after a restart)
        self._notices: dict[int, deque[str]] = {}
        self._results: dict[int, list[tuple[int, str]]] = {}
        #: one group request of a game at a time
        self._locks: Locks[int] = Locks()

    async def took(self, event: TableEvent) -> None:
        """Take in a change of the table (``event``): its notices, its deals' results (ready
        to post, in the order they ended); then ask for the group's refresh."""
        game = event.game
        lang = await self.people.chat_language(game.chat_id)
        use_ranks(lang, await self.people.chat_ranks(game.chat_id))
        carried: Sequence[Notice] = event.notices
        if event.results:
            # the moves of a finished deal go with it; news about people carry on
            self._notices.pop(game.game_id, None)
            carried = [n for n in event.notices if n.key not in DEAL_NOTICES]
            pending = self._results.setdefault(game.game_id, [])
            for number, result in enumerate(event.results, 1):
                closing = event.closed and number == len(event.results)
                ends = [n for n in event.notices if closing and n.key in CLOSING_NOTICES]
                footer = [await self.notice_text(lang, notice, done=True) for notice in ends]
                # after /stop now the bot played the deal out: the table shows every trick
                played_out = any(notice.key == "stop_now" for notice in ends)
                text = await self.result_text(game, lang, result, footer, tricks=played_out)
                pending.append((result.deal, text))
        elif event.new_deal:
            # the first deal: its table is a new message (the commit that began the game moved
            # the lobby's aside, to lose its buttons: ``_step``). The lobby's news (who sat
            # down) stays in the lobby: the deal's table starts afresh
            self._notices.pop(game.game_id, None)
        await self.remember(game, lang, carried)
        if event.lobby_changed or event.table_changed or event.results or event.closed:
            self.refresh(game.game_id)

    def lost(self, game_id: int) -> None:
        """The group is gone (the bot removed, the topic closed): nothing more goes there."""
        self._results.pop(game_id, None)
        self._notices.pop(game_id, None)

    async def remember(self, game: Game, lang: str, notices: Sequence[Notice]) -> None:
        recent = self._notices.setdefault(game.game_id, deque(maxlen=RECENT_NOTICES))
        for notice in notices:
            if notice.key in STOPPING_NOTICES:
                continue
            text = await self.notice_text(lang, notice)
            if text:
                recent.append(text)

    async def notice_text(self, lang: str, notice: Notice, *, done: bool = False) -> str:
        """A notice under the table; ``done``: under the result of the deal it was about,
        in the past tense where it has one («бот доигрывает» becomes «бот доиграл»)."""
        if done and notice.key in PAST_TENSE:
            return t(lang, f"announce.{notice.key}_done")
        user = notice.params.get("user")
        name = (await self.people.names([user], lang))[0] if isinstance(user, int) else ""
        action = None
        if "verb" in notice.params:
            arg: Any = notice.params.get("arg")
            if "count" in notice.params:
                arg = ("??",) * int(notice.params["count"])
            action = Action(0, str(notice.params["verb"]), arg)
        match notice.key:
            case "timeout_move" if action is not None:
                return chat_render.timeout_text(self.games.games.words, lang, name, action)
            case "auto_move" if action is not None:
                return t(
                    lang,
                    "announce.auto_move",
                    name=esc(name),
                    move=chat_render.move_text(self.games.games.words, lang, action),
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
            case "play_on":
                return t(lang, "announce.play_on", name=esc(name))
            case "unreachable" if notice.params.get("computer"):
                return t(lang, "announce.unreachable_computer", name=esc(name))
            case "unreachable":
                return t(lang, "announce.unreachable", name=esc(name))
            case "computer_joins":
                return t(lang, "announce.computer_joins", name=esc(name))
            case "takes_computer_seat":
                computer = (await self.people.names([int(notice.params["computer"])], lang))[0]
                return t(
                    lang, "announce.takes_computer_seat", name=esc(name), computer=esc(computer)
                )
            case _:
                return t(lang, f"announce.{notice.key}")

    def refresh(self, game_id: int) -> None:
        """Let the group's messages of a game catch up: one request each time the group's
        slot is due, rendered then, so it shows the latest state (see ``_step``)."""

        async def slot_due() -> None:
            await self.messenger.pacer.ready((await self.tables.store.game(game_id)).chat_id)

        async def job() -> None:
            async with self._locks(game_id):
                await slot_due()
                more = await self._step(game_id)
            if more:
                self.refresh(game_id)
            elif not (await self.tables.store.game(game_id)).is_open:
                self._forget_game(game_id)

        self.coalescer.request(("group", game_id), job, slot_due)

    async def _step(self, game_id: int) -> bool:
        """One request to bring the group up to date; True if there is more to do.

        First the results of finished deals: the deal's table message becomes its result. When
        deals end faster than the group's pace, the results waiting are shown together, in one
        message, so the group never falls behind by more than one deal. Then the current
        deal's table: a new message for a new deal, else an edit of the table message.
        """
        game = await self.tables.store.game(game_id)
        if is_practice(game.chat_id):
            return await self._practice_step(game)
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
            table_message_used = message_id is not None  # edited, or gone (a new message)
            text = RESULTS_JOINER.join(texts)
            posted = [deal for deal, _ in pending[: len(texts)]]
            # a closed table's last result is the chat's last word on it, unless the
            # evening's summary follows (which then offers the game again)
            rows = await self.again_rows(game) if len(texts) == len(pending) else None
            edited = message_id is not None and await self.messenger.edit(
                game.chat_id, message_id, text, rows
            )
            if edited:
                self.messenger.done_with(game.chat_id, message_id)
            else:
                # a new message: marked as going out first, so that a kill after the send
                # and before the bookkeeping below cannot post it again (``results_sending``)
                await self.tables.steps.results_sending(game_id, posted)
                try:
                    shown = await self.messenger.send(
                        game.chat_id, text, rows, strict=True, thread=game.thread_id
                    )
                    self.messenger.done_with(game.chat_id, shown)
                except Undelivered as error:
                    if not error.maybe_done:
                        await self.tables.steps.results_sending(game_id, posted, sending=False)
                        raise  # nothing was sent: try again in a moment
                    log.warning("results of game %s may not have been shown: %s", game_id, error)
            del pending[: len(texts)]
            if not pending:
                del self._results[game_id]
            # one write: a crash between the two would take the result shown in the table
            # message for the next deal's table and edit it away
            used = table_message_used
            await self.tables.steps.results_posted(game_id, posted, table_message_used=used)
            return True
        display = game.display
        if display.table_message_id is None and (
            display.table_unknown or game.status in ("finished", "stopped")
        ):
            return False
        deal = (await self.tables.store.snapshot(game)).meta.deals
        shows = deal if display.table_deal is None else display.table_deal
        if game.status == "active" and shows != deal:
            return False  # the deal has ended: its result is on its way here
        lobby = display.lobby_message_id
        if lobby is not None:
            # the game has begun: the lobby says so and loses its buttons in one request, the
            # answer to «Начать», so that nobody presses «Сесть за стол» under the deal's
            # table; the first table follows as part of that answer (``bot.pacing``: a second
            # later, not a slot)
            await self._lobby_started(game, lobby)
        await self._show_now(game_id, answer=lobby is not None)
        return False

    async def _practice_step(self, game: Game) -> bool:
        """A practice table, in its player's private chat: his hand message carries the table
        and, once a deal ends, the deal's result for every seat (``Hands``), so a table message
        beside it would say everything twice. The chat gets only the lobby, which loses its
        buttons when the game begins; the results are seen where they are written."""
        pending = self._results.pop(game.game_id, None)
        if pending:
            await self.tables.steps.results_posted(game.game_id, [deal for deal, _ in pending])
        loaded = await self.tables.store.snapshot(game)
        if game.status == "lobby" or loaded.table is None:
            if game.status == "lobby" or game.table_message_id is not None:
                await self._show_now(game.game_id)  # the lobby, or the lobby cancelled
            return False
        lobby = game.display.lobby_message_id
        if lobby is not None:
            await self._lobby_started(game, lobby)
        return False

    async def _lobby_started(self, game: Game, lobby: int) -> None:
        """The lobby of a game that has begun says so («игра началась, стол ниже») and loses
        its buttons, in one edit (the answer to «Начать»); then the game forgets it."""
        lang = await self.people.chat_language(game.chat_id)
        loaded = await self.tables.store.snapshot(game)
        names = await self.people.names(loaded.seats, lang)
        text, _ = await self.lobby.content(game, loaded, lang, names, started=True)
        await self.messenger.edit(game.chat_id, lobby, text, None, answer=True)
        self.messenger.done_with(game.chat_id, lobby)  # never edited again
        await self.display.set_lobby_message(game.game_id, None, now=self.tables.clock())

    async def again_rows(self, game: Game) -> Rows | None:
        """«▶️ Новая партия» under a closed table's last message, when no evening's summary
        follows it (another table of the group plays on, or the evening had no deal to sum
        up): the summary offers it otherwise, as the chat's last message. None while the
        table is open, or for a lobby that never began."""
        if game.is_open or (await self.tables.store.snapshot(game)).table is None:
            return None
        if await self.tables.evenings.summary_follows(game):
            return None
        lang = await self.people.chat_language(game.chat_id)
        return keyboards.again_keyboard(lang, game.game_id)

    def recent_notices(self, game_id: int) -> list[str]:
        """The latest notices under a game's table (who timed out, who is away, the table
        stops after this deal): a practice table shows them in its player's hand."""
        return list(self._notices.get(game_id, ()))

    def _forget_game(self, game_id: int) -> None:
        """A closed game's last group message is out: what memory held for it goes (its
        hands' last edits need none of it), here and in the other screens (``closed``)."""
        self._notices.pop(game_id, None)
        if not self._results.get(game_id):
            self._results.pop(game_id, None)
        self.closed(game_id)

    async def content(self, game: Game) -> tuple[str, Rows | None]:
        lang = await self.people.chat_language(game.chat_id)
        loaded = await self.tables.store.snapshot(game)
        names = await self.people.names(loaded.seats, lang)
        if game.status == "lobby" or loaded.table is None:
            lobby_text, lobby_rows = await self.lobby.content(game, loaded, lang, names)
            news = self._notices.get(game.game_id)
            if news and game.status == "lobby":  # who took a computer's seat, say
                lobby_text += "\n\n" + "\n".join(news)
            return lobby_text, lobby_rows
        away = {loaded.seats.index(u) for u in loaded.meta.away if u in loaded.seats}
        to_act = loaded.table.to_act
        # a computer moves in a moment, at its own pace: its turn shows no countdown
        computer = to_act is not None and is_computer(loaded.seats[to_act])
        ends = None if computer else game.turn_deadline
        deadline = Deadline.of(ends, self.tables.clock())
        closed = game.status != "active"  # nobody's turn at a closed table
        shown = self.games.shown(loaded.table)
        text = shown.table_text(lang, names, deadline=deadline, away=away, closed=closed)
        stopping = await stop_line(self.tables.money, lang, loaded)
        notices = [*([stopping] if stopping else []), *self._notices.get(game.game_id, ())]
        if notices:
            text += "\n\n" + "\n".join(notices)
        rows: Rows | None = None
        if loaded.meta.away and game.status == "active":
            rows = keyboards.back_keyboard(lang, game.game_id)
        if loaded.meta.stop and game.status == "active":
            votes, voters = void_tally(loaded)
            void = keyboards.void_keyboard(lang, game.game_id, loaded.meta.deals, votes, voters)
            rows = [*(rows or []), *void]
            if await offers_play_on(self.tables.money, loaded):
                rows += keyboards.play_on_keyboard(lang, game.game_id, loaded.meta.deals)
        if game.status in ("finished", "stopped"):
            text += "\n\n" + chat_render.stopped_text(lang)
            rows = await self.again_rows(game)
        elif link := self.launch.group_row(lang, game.game_id):
            rows = [*(rows or []), link]
        return text, rows

    async def _show_now(self, game_id: int, *, answer: bool = False) -> None:
        """Edit the table message to the game as it is now, or send it if there is none yet
        (unless one may have been sent already: see ``Display.table_unknown``); ``answer``:
        the first table, which answers «Начать» (``bot.pacing``)."""
        game = await self.tables.store.game(game_id)
        deal = (await self.tables.store.snapshot(game)).meta.deals
        use_ranks(
            await self.people.chat_language(game.chat_id),
            await self.people.chat_ranks(game.chat_id),
        )
        text, rows = await self.content(game)
        try:
            message_id = await self.messenger.show(
                game.chat_id,
                game.table_message_id,
                text,
                rows,
                strict=True,
                thread=game.thread_id,
                answer=answer,
            )
        except Undelivered as error:
            if game.table_message_id is None and error.maybe_done:
                await self.display.set_table_unknown(game_id, now=self.tables.clock())
                return
            raise
        if message_id is not None and message_id != game.table_message_id:
            await self.display.set_table_message(
                game_id, message_id, deal=deal, now=self.tables.clock()
            )

    async def result_text(
        self,
        game: Game,
        lang: str,
        result: DealResult,
        footer: Sequence[str] = (),
        *,
        tricks: bool = False,
    ) -> str:
        """A finished deal's result, shown in place of its table message; with ``tricks``,
        every trick of the deal in the order played (the bot played them out: the table
        never showed them)."""
        names = await self.people.names(result.seats, lang)
        balances = {seat: result.balances.get(user, 0) for seat, user in enumerate(result.seats)}
        money = {seat: result.money.get(user, {}) for seat, user in enumerate(result.seats)}
        text = self.games.shown(result.table).result_text(lang, names, balances, money)
        played, winners = result.summary.get("tricks"), result.summary.get("trick_winners")
        if tricks and isinstance(played, list) and isinstance(winners, list) and played:
            lines = trick_lines(lang, played, winners, lambda seat: esc(names[seat]))
            text += "\n\n" + t(lang, "result.tricks") + "\n" + "\n".join(lines)
        if footer:
            text += "\n\n" + "\n".join(footer)
        return text

    async def results_due(self, game: Game) -> None:
        """The results of a game stored as not yet posted go out (its table message, if
        any, is the first one's: it becomes that result)."""
        lang = await self.people.chat_language(game.chat_id)
        pending = self._results.setdefault(game.game_id, [])
        entries = list(game.state.get("table", {}).get("due", []))
        maybe = [int(entry["deal"]) for entry in entries if sent_maybe(entry)]
        if maybe:
            # the bot stopped while they went out as a new message: they may be in the
            # group already, and are not sent again (at most once; the history has them)
            log.warning("results of game %s may have been shown: deals %s", game.game_id, maybe)
            await self.tables.steps.results_posted(game.game_id, maybe)
            entries = [entry for entry in entries if not sent_maybe(entry)]
        for entry in entries:
            result, closing = result_from_due(entry, self.tables.games)
            footer = [await self.notice_text(lang, Notice(key), done=True) for key in closing]
            pending.append((result.deal, await self.result_text(game, lang, result, footer)))
        if entries and game.table_message_id is not None and game.table_deal is None:
            # stored before the display state knew its deal: it is the first result's table
            await self.display.set_table_message(
                game.game_id,
                game.table_message_id,
                deal=int(entries[0]["deal"]),
                now=self.tables.clock(),
            )
