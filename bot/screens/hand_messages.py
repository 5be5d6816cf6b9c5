"""The private hand messages: each player's whole table in his private chat (his cards, every
seat, the pot, the trick), one message per deal, edited in place as the deal goes on, with the
buttons of his legal moves; his outcome written into it when the deal ends.

A turn notifies (it comes as a new hand message, the old one deleted) whenever it comes
``PING_AFTER`` seconds or more after the last message that notified him, whatever that said —
the deal's new hand message showing «Ход: Алиса» included — unless he pressed anything on his
hand message in the last ``LOOKING`` seconds: he is reading it, and a new message would push it
away under his thumb, so his turn comes as an edit. A turn that came silently is called again
when a third of its time is left (``REMIND_SHARE``) if he has neither moved nor pressed
anything since it came: no turn times out without a notification. Texts are
``bot.screens.hand`` and the games' renderers.

Edits are paced: the player to act gets his at once, a waiting player's at most every
``HAND_SPACING`` seconds, always rendered from the stored game when sent. A waiting player's
edit also waits ``HAND_DELAY`` seconds after the change that asked for it, and every change
made meanwhile goes in the same edit: at a table that moves every few seconds, one edit shows
two or three moves, where one edit a move cost Telegram's 30 messages a second most of all.

Which message is his hand is stored with the game (``Display.hand_messages``), with the deal it
shows; a press on any other copy is refused. The commit that ends a deal makes that deal's hand
messages old by itself (``Display.old_hands``); they are retired after it (their outcome written
in, or their buttons taken off), or after a restart, and only then forgotten.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from bot import callback as cb
from bot import keyboards
from bot.games import ChatGames
from bot.launch import Launch
from bot.messenger import Messenger, Rows
from bot.pacing import Coalescer, Pacer, answering, no_wait
from bot.render.common import Deadline, use_ranks
from bot.screens.glossary import Glossary
from bot.screens.hand import (
    HAND_DELAY,
    HAND_PER_MINUTE,
    HAND_SPACING,
    LOOKING,
    PING_AFTER,
    REMIND_SHARE,
)
from bot.screens.hand_endings import HandEndings
from bot.screens.hand_hints import HandHints
from bot.screens.hand_marks import HandMarks, marked_mask, shown_by_press
from bot.screens.stopping import offers_play_on, stop_line
from locales import t
from storage.chat_display import ChatDisplay
from tables import (
    Loaded,
    Refused,
    TableService,
    is_practice,
)
from tables.commands import Blind, Card, Cards, Decide, Move, Suit
from tables.computers import is_computer
from tables.events import TableEvent
from tables.people import People
from tables.timers import Timers

log = logging.getLogger(__name__)


class Hands(HandEndings, HandHints, HandMarks):
    """Every player's hand message, and the presses on it."""

    def __init__(
        self,
        display: ChatDisplay,
        tables: TableService,
        games: ChatGames,
        messenger: Messenger,
        coalescer: Coalescer,
        people: People,
        table_notices: Callable[[int], Sequence[str]],
        launch: Launch,
        clock: Callable[[], float] = time.time,
    ) -> None:
        #: the chat's own display storage: each hand's message ids
        self.display = display
        self.tables = tables
        #: the games the chat shows
        self.games = games
        self.messenger = messenger
        self.coalescer = coalescer
        self.people = people
        #: the words of the game explained under a player's hand the first deal he meets them
        # the service's clock read at each call (a test moves it)
        self.glossary = Glossary(
            self.display, games.terms, games.games.words, lambda: self.tables.clock()
        )
        #: private hand messages of players who are not to act are edited at most once every
        #: ``HAND_SPACING`` seconds each (the one to act gets his at once); off when the
        #: groups are not paced either (tests, a local Bot API server)
        group_pacer = getattr(messenger, "pacer", None)
        paced = group_pacer is not None and group_pacer.spacing > 0
        self.pacer = Pacer(HAND_SPACING if paced else 0.0, per_window=HAND_PER_MINUTE)
        #: a waiting player's edit waits this long after the change that asked for it, the
        #: changes made meanwhile folded into it (0: none; with the pacer only)
        self.delay = HAND_DELAY if paced else 0.0
        #: the waiting refreshes, woken by every new change to see whether it must go at once
        #: (his turn has come)
        self._woken: dict[tuple[int, int], asyncio.Event] = {}
        #: the refreshes that must go at once, (game, user): they go first (``answering``)
        self._urgent: set[tuple[int, int]] = set()
        #: a turn that comes this many seconds or more after the last message that notified
        #: him comes as a new hand message (which notifies) in place of the old one
        self.ping_after = PING_AFTER
        #: a player who pressed on his hand message this many seconds ago or less is looking
        #: at it: his turn comes as an edit
        self.looking = LOOKING
        #: a turn that came silently is called again when this share of its time is left
        self.remind_share = REMIND_SHARE
        #: the calls again of silent turns, one per game (only one player is to act); their
        #: clock is the hands' clock (``clock``), the one the turn deadlines are stored in
        self.reminders = Timers(self._remind, clock)
        #: per open game, forgotten with it (``forget_game``): when the last hand message that
        #: notified him went out (a new message notifies, an edit does not; unknown after a
        #: restart, so his next turn notifies); when he last pressed on his hand message; the
        #: turn his hand message shows as his (its deadline), None while it shows none; a turn
        #: that came silently, game → (user, deadline, when it came), and the players whose
        #: call again is due
        self._notified: dict[tuple[int, int], float] = {}
        self._pressed: dict[tuple[int, int], float] = {}
        self._turn_shown: dict[tuple[int, int], float | None] = {}
        self._silent: dict[int, tuple[int, float, float]] = {}
        self._remind_due: set[tuple[int, int]] = set()
        #: old hand messages being retired, (game, user, message): asked again meanwhile (the
        #: next move's reply), a pending outcome is not replaced by a plain removal of buttons
        #: (one that could not be retired is tried again after a restart)
        self._retiring: set[tuple[int, int, int]] = set()
        #: the latest notices under a game's table (``GroupTable.recent_notices``): a
        #: practice table has no table message, its hand shows them
        self.table_notices = table_notices
        #: the Mini App's buttons (none without WEBAPP_URL)
        self.launch = launch

    @property
    def clock(self) -> Callable[[], float]:
        """The clock of notifications and turn deadlines (Unix seconds; a test moves it)."""
        return self.reminders.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.reminders.clock = clock
        self.reminders.clock_moved()

    def forget_game(self, game_id: int) -> None:
        """A closed game: its notifications and calls again go."""
        for kept in (self._notified, self._pressed, self._turn_shown):
            for key in [key for key in kept if key[0] == game_id]:
                del kept[key]
        self._remind_due -= {key for key in self._remind_due if key[0] == game_id}
        self._silent.pop(game_id, None)
        self.reminders.cancel(game_id)
        self._retiring -= {key for key in self._retiring if key[0] == game_id}

    def pressed(self, game_id: int, user_id: int) -> None:
        """He pressed a button on his hand message (a move, a mark, a look, 💡, «I'm back»):
        he is looking at it (``LOOKING``)."""
        self._pressed[(game_id, user_id)] = self.clock()

    def refresh(self, game_id: int, user_id: int) -> None:
        """Bring a hand message up to date: at once for the player to act and for one whose
        buttons are out of date, else at his chat's pace (``hand_pacer``), rendered when it is
        sent so it shows the latest state. A computer has none."""
        if is_computer(user_id):
            return
        if shown_by_press(game_id, user_id):
            return  # the press that made this change shows his hand itself, at once
        if self.tables.presence.watching(game_id, user_id):
            # he is looking at this table on the page, which shows it all: no edit, no call
            # for his turn; one edit brings the message up to date when he looks away
            return

        key = (game_id, user_id)
        woken = self._woken.get(key)
        if woken is not None:
            woken.set()  # a waiting refresh looks again: this change may be his turn

        async def slot_due() -> None:
            if self.pacer.spacing <= 0:
                return
            due = self.pacer.clock() + self.delay
            event = self._woken.setdefault(key, asyncio.Event())
            try:
                while not await self._at_once(game_id, user_id):
                    wait = max(due - self.pacer.clock(), self.pacer.delay(user_id))
                    if wait <= 0:
                        return
                    event.clear()
                    await self.pacer.sleep_unless(event, wait)
                self._urgent.add(key)
            finally:
                if self._woken.get(key) is event:
                    del self._woken[key]

        async def job() -> None:
            if key in self._urgent:
                self._urgent.discard(key)
                # his own press's effect, or his turn: it goes before the waiting players'
                # edits within the bot's 30 a second (``bot.ratelimit``)
                with answering():
                    await self.show_now(game_id, user_id)
                return
            await self.show_now(game_id, user_id)

        self.coalescer.request(("hand", game_id, user_id), job, slot_due)

    async def _at_once(self, game_id: int, user_id: int) -> bool:
        """Whether his hand message must change now: he is to act, or it shows buttons (he
        has just acted: they no longer work)."""
        game = await self.tables.store.game(game_id)
        message_id = game.hand_messages.get(user_id)
        if message_id is not None:
            shown = self.messenger.shown(user_id, message_id)
            if shown is None or shown.rows:
                return True
        loaded = await self.tables.store.snapshot(game)
        if loaded.table is None:
            return False
        seat = loaded.table.to_act
        return seat is not None and loaded.seats[seat] == user_id

    async def content(self, loaded: Loaded, user_id: int) -> tuple[str, Rows | None]:
        game = loaded.game
        lang = await self.people.chat_language(user_id)
        seat = loaded.seat_of(user_id)
        table = loaded.table
        header = await self.header(game, lang)
        if seat is None or table is None:
            return header + t(lang, "announce.table_closed"), None
        names = await self.people.names(loaded.seats, lang)
        if game.status != "active":
            # nothing to decide at a closed table: no prompt, nobody's turn
            return header + self.games.shown(table).hand_text(lang, seat, names, closed=True), None
        ends = game.turn_deadline if table.to_act == seat else None
        deadline = Deadline.of(ends, self.tables.clock())
        text = header + self.games.shown(table).hand_text(lang, seat, names, deadline=deadline)
        text += await self.glossary.lines(user_id, lang, text, game.game_id, loaded.meta.deals)
        notices: list[str] = []
        if is_practice(game.chat_id):
            stopping = await stop_line(self.tables.money, lang, loaded)
            notices = [*([stopping] if stopping else []), *self.table_notices(game.game_id)]
        if notices:
            text += "\n\n" + "\n".join(notices)
        turn = loaded.meta.turn
        mask = marked_mask(table, seat, loaded.meta.marked(user_id))
        page = self.launch.hand_row(lang, game.game_id)
        if user_id in loaded.meta.away:
            return text, [*keyboards.back_keyboard(lang, game.game_id), *([page] if page else [])]
        rows = self.games.shown(table).keyboard(
            self.games.codec, lang, seat, game.game_id, turn, mask
        )
        if rows and table.to_act == seat and await self._offers_hints(loaded):
            rows = [*rows, keyboards.hint_row(lang, game.game_id, turn)]
        if is_practice(game.chat_id) and await offers_play_on(self.tables.money, loaded):
            # a practice table has no table message: its hand carries the offer to play on
            rows = [*rows, *keyboards.play_on_keyboard(lang, game.game_id, loaded.meta.deals)]
        if page:
            rows = [*rows, page]
        return text, rows

    async def show_now(self, game_id: int, user_id: int, mask_message: int | None = None) -> None:
        game = await self.tables.store.game(game_id)
        loaded = await self.tables.store.snapshot(game)
        if user_id not in loaded.seats or loaded.table is None:
            return  # a lobby has no hands to show
        if user_id in loaded.meta.away and not await self.people.is_reachable(user_id):
            return  # he blocked the bot: nothing to write until he starts it again
        message_id = game.hand_messages.get(user_id)
        if message_id is None and game.status != "active":
            return  # a closed table's hands were written for the last time as it closed
        use_ranks(
            await self.people.chat_language(user_id), await self.people.chat_ranks(game.chat_id)
        )
        text, rows = await self.content(loaded, user_id)
        key = (game_id, user_id)
        seat = loaded.table.to_act
        # his own turn (an away player's seat is played for him: nothing to call him for)
        his_turn = (
            seat is not None
            and loaded.seats[seat] == user_id
            and game.status == "active"
            and user_id not in loaded.meta.away
        )
        deadline = game.turn_deadline
        arrives = his_turn and self._turn_shown.get(key, None) != deadline
        now = self.clock()
        last = self._notified.get(key)
        called = last is not None and now - last < self.ping_after
        pressed = self._pressed.get(key)
        looking = pressed is not None and now - pressed < self.looking
        silent = self._silent.get(game_id)
        remind = (
            key in self._remind_due
            and his_turn
            and silent is not None
            and silent[:2] == (user_id, deadline)
            and (pressed is None or pressed <= silent[2])  # nothing pressed since it came
        )
        self._remind_due.discard(key)
        replaced = None
        if message_id is not None and ((arrives and not called and not looking) or remind):
            # his turn, and no notification has just called him, nor is he reading his hand
            # message: a new message, which notifies, in place of the old
            replaced, message_id = message_id, None
        shown = await self.messenger.show(user_id, message_id, text, rows, strict=True)
        self.pacer.record(user_id)
        if shown is None:
            # he cannot be written to (he blocked the bot): the bot plays for him, and the
            # group is told what to do as the table shows it (``Presenter._show``)
            await self.tables.turns.mark_unreachable(game_id, user_id)
            return
        if shown != message_id:
            self._notified[key] = self.clock()  # a new message: it notified
            if self.launch.enabled and game.status == "active":
                lang = await self.people.chat_language(user_id)
                await self.launch.menu_button(self.messenger.bot, user_id, lang)
        self._turn_shown[key] = deadline if his_turn else None
        if remind or (arrives and shown != message_id):
            self._silent.pop(game_id, None)
        elif arrives and deadline is not None:
            # his turn came by an edit, which does not notify: if he has not moved when a
            # share of its time is left, it is called again
            self._silent[game_id] = (user_id, deadline, now)
            left = deadline - self.clock()
            self.reminders.arm(game_id, loaded.meta.turn, deadline - left * self.remind_share)
        if shown != message_id:
            # recorded as the deal it shows: if that deal has ended meanwhile, it is old at once
            deal = loaded.meta.deals
            await self.display.set_hand_message(game_id, user_id, shown, deal=deal)
            if (await self.tables.store.game(game_id)).deal != deal:
                await self.retire_old(game_id)
        if replaced is not None:
            await self.messenger.delete(user_id, replaced)

    async def _remind(self, game_id: int, _turn: int) -> None:
        """A silent turn's share of time is left (``reminders``): unless he has moved, his
        hand message comes again as a new message, which notifies."""
        silent = self._silent.get(game_id)
        if silent is None:
            return
        self._remind_due.add((game_id, silent[0]))
        self.refresh(game_id, silent[0])

    async def bound(self, game_id: int, user_id: int, message_id: int | None) -> None:
        """A hand is bound to one message: a press on another copy (a send that timed out
        but was delivered all the same) is refused as outdated, and that copy is closed."""
        bound = (await self.tables.store.game(game_id)).hand_messages.get(user_id)
        if message_id is None or bound is None or bound == message_id:
            return
        self.coalescer.request(
            ("old hand", user_id, message_id),
            self._buttons_dropper(user_id, message_id),
            no_wait,
        )
        raise Refused("outdated")

    async def press_act(self, data: cb.Act, user_id: int) -> TableEvent:
        """A move pressed on his hand: the change it made (published as it is made)."""
        move = await self.move_of(data, user_id)
        return await self.tables.turns.act(data.game_id, user_id, data.version, move)

    async def move_of(self, data: cb.Act, user_id: int) -> Move:
        """The move a button names. A selection (a mask over his hand as its buttons show it:
        sorted once he has seen it, as dealt before) is read against the table as it is now:
        the cards of a hand he has seen, or a count of one he has not (``tables.commands``;
        the service checks again, under the lock, that he still sees it so)."""
        kind = self.games.codec.verbs[data.verb][1]
        arg = data.arg
        if kind is cb.ArgKind.NONE or arg is None:
            return Decide(data.verb)
        if isinstance(arg, str):
            return Suit(data.verb, arg) if kind is cb.ArgKind.SUIT else Card(data.verb, arg)
        loaded = await self.tables.store.snapshot(await self.tables.store.game(data.game_id))
        seat = loaded.seat_of(user_id)
        if loaded.game.status != "active" or loaded.table is None:
            raise Refused("game_over")
        if seat is None:
            raise Refused("not_at_table")
        if data.version != loaded.meta.turn:
            raise Refused("outdated")
        held = loaded.table.holding(seat)
        try:
            cards = keyboards.selected_cards(held.cards, held.trump, arg, looked=held.looked)
        except cb.BadCallback:
            raise Refused("unknown_button") from None
        if held.looked:
            return Cards(data.verb, cards)
        if arg != (1 << len(cards)) - 1:
            raise Refused("unknown_button")  # a blind choice is a count: the first cards
        return Blind(data.verb, len(cards))
