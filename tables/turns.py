"""Turns: a player's move, a turn that runs out, and the players the bot plays for.

A press is checked here (the seat, the turn number the button was made for, legality through
the rules) and committed through ``DealSteps``. A turn that runs out makes the default move
(docs/rules.md §5), and after ``AWAY_AFTER_TIMEOUTS`` in a row the player is away; an away player,
or a computer seat, is played by a computer once its pause is over (``computer_move``, the
search off the event loop in ``Thinker``). «I'm back» and a blocked bot change who plays a
seat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from game.ai import Seated
from game.core import Action, IllegalAction
from storage.errors import GameNotFound
from tables.autoplay import away_notice, computer_plays
from tables.commands import Look, Move, Unseen, action_of
from tables.computers import Thinker, computer_level, is_computer
from tables.events import Stream, recorded
from tables.games import Table
from tables.records import Loaded, Notice, Refused, Reply, move_params
from tables.steps import DealSteps
from tables.store import TableStore

AWAY_AFTER_TIMEOUTS = 3


def with_marks(default: tuple[str, ...], marked: Sequence[str]) -> tuple[str, ...]:
    """A default move of several cards (a discard, Старшина's kitty) with the cards the
    player marked in its place: the marked ones, completed with the default's own (the
    lowest, for the kitty) up to as many as the default takes. The marks are his choice, made
    in time, and stand as he left them: a purchase whose default keeps every card discards
    what he marked («✓ Д♠️»: the queen is changed)."""
    rest = [card for card in default if card not in marked]
    return tuple([*marked, *rest][: max(len(default), len(marked))])


def at_his_turn(loaded: Loaded, user_id: int, turn: int) -> tuple[Table, int]:
    """The table in play and ``user_id``'s seat, if it is his turn ``turn`` now; Refused
    (``game_over``, ``not_at_table``, ``outdated``) if not."""
    table = loaded.table
    if loaded.game.status != "active" or table is None:
        raise Refused("game_over")
    seat = loaded.seat_of(user_id)
    if seat is None:
        raise Refused("not_at_table")
    if turn != loaded.meta.turn or table.to_act != seat:
        raise Refused("outdated")
    return table, seat


class Turns:
    """Moves by the players, by the clock and by the computers."""

    def __init__(
        self,
        store: TableStore,
        steps: DealSteps,
        thinker: Thinker,
        hints_of: Callable[[int], Awaitable[bool]],
        stream: Stream,
    ) -> None:
        self.store = store
        #: where its changes go out (``events.recorded``)
        self.stream = stream
        self.steps = steps
        self.thinker = thinker
        #: whether a chat's players may ask for hints (``ChatSettings.hints_of``)
        self.hints_of = hints_of

    @recorded
    async def act(self, game_id: int, user_id: int, turn: int, move: Move) -> Reply:
        """A move pressed (a button in the chat, a tap on the page): the user's seat, the turn
        number and legality are checked here, and a move expressed as he cannot see his hand
        is refused as an unknown button (``commands.action_of``). A look carries no turn: it
        is allowed at any time of the deal."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            if loaded.game.status != "active" or loaded.table is None:
                raise Refused("game_over")
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise Refused("not_at_table")
            looking = isinstance(move, Look)
            if turn != loaded.meta.turn and not looking:
                raise Refused("outdated")
            try:
                action = action_of(move, loaded.table, seat)
            except Unseen:
                raise Refused("unknown_button") from None
            before = loaded.table.to_json() if looking else None
            try:
                step = loaded.table.apply(action)
            except IllegalAction as error:
                raise Refused(error.reason) from None
            if before is not None and loaded.table.to_json() == before:
                # a repeated look (or one from an old message) changes nothing: no write
                return Reply(game=loaded.game, hands={user_id})
            loaded.meta.timeouts.pop(str(user_id), None)
            if step.moves_turn:
                loaded.meta.marks.pop(str(user_id), None)
            reply = Reply(hands={user_id}, table_changed=step.moves_turn)
            return await self.steps.commit_step(loaded, step, action, user_id, reply)

    @recorded
    async def timeout(self, game_id: int, turn: int) -> Reply | None:
        """The turn ran out: make the default move (docs/rules.md §5) and announce it. Cards the
        player had marked for a move of several cards (``TableMeta.marks``) are his choice,
        made in time: the move takes them, completed by the default's own (``with_marks``),
        where the rules allow that move; else the default stands."""
        games = self.store.games
        try:
            chat_id = (await games.game(game_id)).chat_id
        except GameNotFound:
            return None
        async with self.store.lock(chat_id):
            loaded = await self.store.load(await games.game(game_id))
            if loaded.game.status != "active" or loaded.meta.turn != turn or loaded.table is None:
                return None
            seat = loaded.table.to_act
            if seat is not None and computer_plays(loaded, loaded.seats[seat]):
                return await self.computer_move(loaded, loaded.table, seat)
            action = loaded.table.default_action()
            if action is None:
                return None
            user = loaded.seats[action.seat]
            chosen = loaded.meta.marked(user)
            step = None
            if chosen and isinstance(action.arg, tuple):
                marked = Action(action.seat, action.verb, with_marks(action.arg, chosen))
                try:
                    step = loaded.table.apply(marked)
                    action = marked
                except IllegalAction:
                    pass  # marks the rules do not take as they are: the default move
            if step is None:
                step = loaded.table.apply(action)
            loaded.meta.marks.pop(str(user), None)
            count = loaded.meta.timeouts.get(str(user), 0) + 1
            loaded.meta.timeouts[str(user)] = count
            reply = Reply(table_changed=True, hands={user})
            reply.notices.append(Notice("timeout_move", move_params(user, action)))
            if count >= AWAY_AFTER_TIMEOUTS and user not in loaded.meta.away:
                loaded.meta.away.append(user)
                reply.notices.append(away_notice(loaded, "now_away", user))
            return await self.steps.commit_step(loaded, step, action, None, reply)

    @recorded
    async def mark(
        self, game_id: int, user_id: int, turn: int, verb: str, cards: Sequence[str]
    ) -> Reply:
        """Cards marked (or unmarked) for his move of several cards ``verb`` at ``turn``:
        stored with the table (a commit that moves no card and keeps the turn's deadline), so
        his hand shows them, a restart keeps them and a timeout makes that move. Refused
        unless it is his turn to make that move with his own cards, and no more of them than
        it takes."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            table, seat = at_his_turn(loaded, user_id, turn)
            pick = next((e.pick for e in table.legal() if e.verb == verb and e.pick), None)
            if pick is None:
                raise Refused("outdated")
            held = table.holding(seat).cards
            if len(set(cards)) != len(cards) or not set(cards) <= set(held) or len(cards) > pick[1]:
                raise Refused("unknown_button")
            meta = loaded.meta
            meta.marks = {u: m for u, m in meta.marks.items() if m.get("turn") == meta.turn}
            meta.marks[str(user_id)] = {"turn": meta.turn, "cards": list(cards)}
            game = await self.store.commit(loaded, None, None, [], None)
            return Reply(game=game, hands={user_id})

    async def computer_move(self, loaded: Loaded, table: Table, seat: int) -> Reply:
        """A computer's turn (its pause is over): it looks at its cards if it has not, then
        makes the move its level chooses, thought out off the event loop (``Thinker``). An
        away player is played by the strong level, in his own interest."""
        user = loaded.seats[seat]
        reply = Reply(table_changed=True, hands={user})
        if loaded.plugin.computer_at(table, seat).looks_first():
            look = Action(seat, "look")
            await self.steps.commit_step(loaded, table.apply(look), look, None, reply)
        level = computer_level(user) if is_computer(user) else "strong"
        action = await self.thinker.decide(loaded.plugin.computer_at(table, seat), level)
        step = table.apply(action)
        return await self.steps.commit_step(loaded, step, action, None, reply)

    async def hint_view(self, game_id: int, user_id: int, turn: int) -> Seated:
        """What a hint (💡) for ``user_id`` is thought out from: the game's computer in his seat,
        with his seat's view — exactly what it would decide from, so it knows no card he cannot
        see. Only at
        his turn (``turn``: the one the button was made for), at a table whose chat allows
        hints (always a practice table), in a game with computer players."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            table, seat = at_his_turn(loaded, user_id, turn)
            if not loaded.plugin.has_computers or not await self.hints_of(loaded.game.chat_id):
                raise Refused("no_hints")
            return loaded.plugin.computer_at(table, seat)

    @recorded
    async def back(self, game_id: int, user_id: int) -> Reply:
        """«I'm back»: the player takes his seat over from the auto-player."""
        async with self.store.lock(await self.store.chat_of(game_id)):
            loaded = await self.store.game_or_refuse(game_id)
            if user_id not in loaded.seats:
                raise Refused("not_at_table")
            if user_id not in loaded.meta.away:
                raise Refused("not_away")
            loaded.meta.away.remove(user_id)
            loaded.meta.timeouts.pop(str(user_id), None)
            if loaded.meta.clock_user == user_id:  # his turn: his own time, not the computer's
                loaded.meta.clock_user = None
            reply = await self.store.commit_meta(
                loaded, loaded.seats, Notice("is_back", {"user": user_id})
            )
            reply.hands.add(user_id)
            return reply

    @recorded
    async def mark_unreachable(self, game_id: int, user_id: int) -> Reply | None:
        """A player blocked the bot (403): he is auto-played, the group is told."""
        games = self.store.games
        async with self.store.lock((await games.game(game_id)).chat_id):
            loaded = await self.store.load(await games.game(game_id))
            if loaded.game.status != "active" or user_id in loaded.meta.away:
                return None
            if user_id not in loaded.game.seats:
                return None
            loaded.meta.away.append(user_id)
            if loaded.meta.clock_user == user_id:  # the computer takes his turn after its pause
                loaded.meta.clock_user = None
            notice = away_notice(loaded, "unreachable", user_id)
            return await self.steps.advance(loaded, [notice])
