"""The page's side of the table service: which table a user's page shows, that seat's view,
and a move made on the page.

A move is the very call a chat button makes (``Turns.act``: the seat, the turn number and
legality are checked there, under the chat's lock), and the table service publishes its
record to every front-end (``tables.events.Stream``): the chat shows it exactly as a press's,
the group's table and every private hand follow, and the page never calls the chat. Nothing
here knows Telegram; names as shown, languages and a chat's card style are the table
service's (``tables.people``), the same the chat reads.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from tables import Loaded, Refused, TableService, is_practice
from tables.arguments import GAME_LINK, MAX_GAME_ID, whole_number
from tables.commands import SUITS, Blind, Card, Cards, Decide, Look, Move, Suit
from tables.events import TableEvent, Unshown
from tables.people import ranks_style
from web.evening import evening_view
from web.finished import CLOSED_SHOWN, Endings, NoReplay
from web.games import PageGames
from web.hints import NoControl, page_hint
from web.lobby import LOBBY_VERBS, is_open_lobby, lobby_controls, lobby_move
from web.stopping import STOP_VERBS, stopping_move, stopping_view
from web.view_parts import Json, TableInfo, action, text
from web.views import lobby_view, seat_view

log = logging.getLogger(__name__)

#: the page's «I'm back»: an away player takes his seat back (not a rules verb)
BACK = "back"
#: the page's «show my cards» (a look carries no turn: allowed at any time of the deal)
LOOK = "look"
#: «▶️ Новая партия» at a closed table: the same game again (``TableService.again``)
AGAIN = "again"
#: the most cards a move of several names
MOST_CARDS = 16
#: verbs are short words of the rules (``play``, ``discard``, ``kitty``…)
VERB = re.compile(r"[a-z_]{1,16}")
CARD = re.compile(r"[2-9TJQKA][SHDC]")


def payload(game_id: int) -> str:
    """What names a table in a page's address and in a ``startapp`` link."""
    return f"g{game_id}"


def game_of(text: str | None) -> int | None:
    """The game a payload names (``g`` and the game's id: no chat id; the server maps it to
    the table, and only a seated user may open it), or None: an id SQLite cannot hold is no
    game either."""
    if not text or not text.startswith(GAME_LINK):
        return None
    return whole_number(text[len(GAME_LINK) :], 1, MAX_GAME_ID)


class NoTable(Exception):
    """The user has no table to show (none open, or the one named is gone): 404."""


class NotYours(Exception):
    """A table where the user holds no seat: 403."""


class BadMove(Exception):
    """A request that is no move at all (a verb or an argument of no shape the rules use)."""


class WebTables:
    """The table service as the page uses it."""

    def __init__(self, tables: TableService, pages: PageGames) -> None:
        self.tables = tables
        #: the games the page shows
        self.pages = pages
        self.people = tables.people
        #: finished deals: score cards and replays
        self.endings = Endings(tables, pages)

    async def find(self, user_id: int, named: str | None) -> int:
        """The game the page shows: the one ``named`` (the page's address or the
        ``startapp`` link), else the user's current table: the newest open one he sits at,
        a game in play before a lobby. NoTable or NotYours."""
        if named:
            game_id = game_of(named)
            if game_id is None:
                raise NoTable
            try:
                game = await self.tables.store.game(game_id)
            except Refused:
                raise NoTable from None
            if user_id not in game.seats and not (
                game.status == "lobby" and not is_practice(game.chat_id)
            ):
                raise NotYours  # (a group's lobby is anyone's to look at and sit down)
            return game_id
        current = await self.tables.store.current(user_id)
        if current is None:
            # his table has closed: its last result, not «you are not at a table»
            closed = await self.tables.deals.last_game(user_id, CLOSED_SHOWN)
            if closed is None:
                raise NoTable
            return closed
        return current.game_id

    async def _loaded(self, game_id: int, user_id: int) -> tuple[Loaded, int | None]:
        """The game and ``user_id``'s seat there (None: a group's lobby he does not sit at);
        NoTable, NotYours."""
        try:
            game = await self.tables.store.game(game_id)
        except Refused:
            raise NoTable from None
        loaded = await self.tables.store.snapshot(game)
        seat = loaded.seat_of(user_id)
        if seat is None and not is_open_lobby(loaded):
            raise NotYours
        if game.kind not in self.pages:
            raise NoTable
        return loaded, seat

    async def _seated(self, game_id: int, user_id: int) -> tuple[Loaded, int]:
        loaded, seat = await self._loaded(game_id, user_id)
        if seat is None:
            raise NotYours
        if loaded.table is None:
            raise NoTable  # a lobby: nothing to play yet
        return loaded, seat

    async def view(self, game_id: int, user_id: int, code: str | None) -> Json:
        """What ``user_id``'s seat may see of the game: his private hand's view."""
        loaded, seat = await self._loaded(game_id, user_id)
        game = loaded.game
        lang = await self.tables.people.user_language(user_id, code)
        names = await self.tables.people.names(loaded.seats, lang)
        info = TableInfo(
            names=names,
            version=loaded.meta.turn,
            ranks=ranks_style(lang, await self.tables.people.chat_ranks(game.chat_id)),
            chips=await self.tables.money.chips(game.chat_id, loaded.seats),
            deadline=game.turn_deadline if game.status == "active" else None,
            away=frozenset(loaded.seats.index(u) for u in loaded.meta.away if u in loaded.seats),
            stamp=game.version,
        )
        if loaded.table is None or seat is None:
            # before the deal: who is at the table, its buttons, and what it waits for
            actions, prompt = await lobby_controls(self.tables.people, loaded, user_id, names)
            # no rules step moves a lobby's turn: its version is the stored game's, which
            # every change of its seats moves
            info = replace(info, version=game.version)
            return lobby_view(self.pages.of(game.kind), game.options, seat, info, actions, prompt)
        view = seat_view(self.pages.of(game.kind), loaded.table, seat, info)
        if game.status != "active" or user_id in loaded.meta.away:
            # nothing to decide at a closed table; an away player's seat is played for him,
            # and his one decision is to take it back («I'm back», as his hand offers)
            decide_nothing(view)
            if game.status == "active":
                view["actions"] = [action(BACK, text("btn.back"))]
        view["stopping"] = await stopping_view(self.tables, loaded, user_id)
        # a group's evening, a tap away (a practice table has none)
        view["evening"] = not is_practice(game.chat_id)
        # 💡 at his turn, where the table offers it (the chat's hand shows «💡 Подсказка»)
        view["hint"] = (
            game.status == "active"
            and user_id not in loaded.meta.away
            and view["to_act"] == seat
            and await self.tables.hints.offered(loaded)
        )
        await self.ends(view, loaded, user_id, lang, info)
        return view

    async def ends(
        self, view: Json, loaded: Loaded, user_id: int, lang: str, info: TableInfo
    ) -> None:
        """The ends on ``view``: the last finished deal's score card, and at a closed table
        why it closed and «▶️ Новая партия» (``web.views``: ``score``, ``closed``)."""
        game = loaded.game
        number = loaded.meta.deals - 1
        seats = await self.endings.seats_of(game, number) if number >= 0 else None
        if seats is not None and seats != loaded.seats:
            # the seats of that deal (someone left, someone sat down since)
            names = await self.tables.people.names(seats, lang)
            chips = await self.tables.money.chips(game.chat_id, seats)
            info = replace(info, names=names, chips=chips)
        view["score"] = await self.endings.score(loaded, user_id, info)
        view["closed"] = None
        if game.status in ("finished", "stopped"):
            over = view["score"] is not None and view["score"]["game_over"]
            view["closed"] = text("web.closed.game_over" if over else "web.closed.stopped")
            view["actions"] = [action(AGAIN, text("btn.again"))]

    async def replay(self, game_id: int, user_id: int, deal: int | None, code: str | None) -> Json:
        """Finished deal ``deal`` of the game, step by step, for one of its players: NoTable
        for a deal not over (the one in play), one he did not play or none named (None),
        NotYours for a table he never sat at."""
        try:
            game = await self.tables.store.game(game_id)
        except Refused:
            raise NoTable from None
        seats = await self.endings.seats_of(game, deal) if deal is not None else None
        if user_id not in game.seats and (seats is None or user_id not in seats):
            raise NotYours
        if seats is None or user_id not in seats:
            raise NoTable
        lang = await self.tables.people.user_language(user_id, code)
        info = TableInfo(
            names=await self.tables.people.names(seats, lang),
            version=0,
            ranks=ranks_style(lang, await self.tables.people.chat_ranks(game.chat_id)),
        )
        try:
            return await self.endings.replay(game, user_id, deal or 0, info)
        except NoReplay:
            raise NoTable from None

    async def evening(self, game_id: int, user_id: int, code: str | None) -> Json:
        """The evening so far of the table's chat (``web.evening``), for a player seated at
        it; at a closed table, the evening it closed in."""
        loaded, _ = await self._seated(game_id, user_id)
        lang = await self.tables.people.user_language(user_id, code)
        evenings, chat = self.tables.evenings, loaded.game.chat_id
        # a closed table: its evening, which its closing may have ended
        summary = await (evenings.so_far(chat) if loaded.game.is_open else evenings.last(chat))
        return await evening_view(summary, lambda users: self.tables.people.names(users, lang))

    async def hint(self, game_id: int, user_id: int, version: int, code: str | None) -> str:
        """💡 at his turn ``version``: the table service's advice for his seat (the chat's at the
        same turn is the same), named as his page's controls name the moves. Refused:
        ``no_hints``, ``outdated``, ``hint_failed``; NotYours, NoTable."""
        await self._seated(game_id, user_id)
        advised = await self.tables.hints.advise(game_id, user_id, version)
        view = await self.view(game_id, user_id, code)
        if view["version"] != version:
            raise Refused("outdated")
        lang = await self.tables.people.user_language(user_id, code)
        try:
            return page_hint(self.pages.games.words, lang, advised.advice, view)
        except NoControl:
            log.exception("a hint names no control: game %s, user %s", game_id, user_id)
            raise Refused("hint_failed") from None

    async def act(
        self, game_id: int, user_id: int, version: int, verb: str, arg: object
    ) -> TableEvent:
        """A move made on the page: the service's call a button press makes, then the same
        screen updates. Refused (stale: ``outdated``), NotYours, NoTable or BadMove."""
        try:
            return await self._act(game_id, user_id, version, verb, arg)
        except Unshown as unshown:
            # the move is made and committed: the page is told so (a retry would be refused
            # as stale); a front-end that failed to show it catches up with the next change
            log.exception("showing a move made on the page failed")
            assert isinstance(unshown.record, TableEvent)
            return unshown.record

    async def _act(
        self, game_id: int, user_id: int, version: int, verb: str, arg: object
    ) -> TableEvent:
        if verb in LOBBY_VERBS:
            loaded, _ = await self._loaded(game_id, user_id)
            return await lobby_move(self.tables, loaded, user_id, version, verb)
        loaded, _ = await self._seated(game_id, user_id)
        if verb in STOP_VERBS:
            return await stopping_move(self.tables, loaded, user_id, version, verb)
        if verb == BACK:
            return await self.tables.turns.back(game_id, user_id)
        if verb == AGAIN:
            # the chat's «▶️ Новая партия»: the same game, players and place, begun at once
            reachable = await self.tables.people.reachable_of(list(loaded.seats))
            return await self.tables.lobby.again(
                loaded.game.chat_id, user_id, game_id, lambda user: reachable.get(user, False)
            )
        return await self.tables.turns.act(game_id, user_id, version, move_of(verb, arg))


def decide_nothing(view: Json) -> None:
    """A view with no decision in it: no control, no choice, no card to tap."""
    view["actions"] = []
    view["pick"] = None
    view["prompt"] = None
    view["hand"]["look"] = False
    for item in view["hand"]["cards"]:
        item["verb"] = None


def move_of(verb: str, arg: object) -> Move:
    """A move from the page's JSON, in the table service's own shape: nothing, a suit, a card
    or several cards (a list) of a hand its owner has seen, or a number of cards not yet seen
    (a blind purchase: the first ones in the engine's order, as the chat's blind choice takes
    them). BadMove for anything else.

    A move is expressed as its player sees it: whether he has seen his hand is read when the
    move is applied (``tables.commands.action_of``), and a card named by a player who has not
    seen his hand, or a count from one who has, is refused as an unknown button before the
    rules see it. So no answer depends on a card he cannot see."""
    if verb == LOOK:
        if arg is not None:
            raise BadMove
        return Look()
    if arg is None:
        return Decide(verb)
    if isinstance(arg, str) and arg in SUITS:
        return Suit(verb, arg)
    if isinstance(arg, str) and CARD.fullmatch(arg):
        return Card(verb, arg)
    if (
        isinstance(arg, list)
        and len(arg) <= MOST_CARDS
        and all(isinstance(card, str) and CARD.fullmatch(card) for card in arg)
        and len(set(arg)) == len(arg)
    ):
        return Cards(verb, tuple(arg))
    if isinstance(arg, int) and not isinstance(arg, bool) and 0 <= arg <= MOST_CARDS:
        return Blind(verb, arg)
    raise BadMove


def is_verb(verb: object) -> bool:
    return isinstance(verb, str) and VERB.fullmatch(verb) is not None
