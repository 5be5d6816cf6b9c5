"""What every game shares: actions, legal-action entries, events, transfers, the typed errors,
and reading a game's table options from JSON.

An ``Action`` is what a seat does; ``legal_actions`` lists ``Legal`` entries, one per button the
bot may offer (a choice of several cards is one entry with a ``pick`` range). ``apply`` returns
``Event`` records; an event with ``to`` set carries a secret and is for that seat only.
Money moves as ``Transfer`` records between seats (ints) and ``POT`` / ``GAME_POT``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

POT: Literal["pot"] = "pot"
"""The chat's running Стуколка pot (the carried «ремиз»)."""
GAME_POT: Literal["game_pot"] = "game_pot"
"""A Старшина game's own pot (docs/rules.md §4.4), empty again when the game ends."""

Party = int | Literal["pot", "game_pot"]
ActionArg = str | tuple[str, ...] | None

OptionsT = TypeVar("OptionsT", bound="DataclassInstance")


class OptionsError(ValueError):
    """Table options that docs/rules.md does not allow."""


def options_from_json(cls: type[OptionsT], data: dict[str, Any]) -> OptionsT:
    """Build a game's frozen options dataclass from JSON: unknown names and wrong types raise
    ``OptionsError`` (the dataclass itself validates the values).

    Every load of a game's state reads its options again, so options already built are
    remembered (they are frozen, so one object can serve every state that has them); the key
    keeps each value's type, as ``True`` and ``1`` are one dictionary key but not one option.
    """
    try:
        key = (cls, tuple((name, type(value), value) for name, value in sorted(data.items())))
        known_options = _OPTIONS.get(key)
    except TypeError:  # an unhashable value: not an option, and the dataclass will say so
        key, known_options = None, None
    if known_options is not None:
        return cast(OptionsT, known_options)
    known = {item.name for item in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise OptionsError(f"unknown options: {', '.join(sorted(unknown))}")
    try:
        options = cls(**data)
    except TypeError as error:
        raise OptionsError(str(error)) from error
    if key is not None:
        if len(_OPTIONS) >= MAX_REMEMBERED_OPTIONS:
            _OPTIONS.clear()
        _OPTIONS[key] = options
    return options


MAX_REMEMBERED_OPTIONS = 256
_OPTIONS: dict[tuple[Any, ...], Any] = {}


class IllegalAction(Exception):
    """An action the rules do not allow now. ``reason`` is a machine-readable code."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's decision: ``verb`` with an optional card, suit or tuple of cards."""

    seat: int
    verb: str
    arg: ActionArg = None

    def to_json(self) -> list[Any]:
        if self.arg is None:
            return [self.seat, self.verb]
        if isinstance(self.arg, tuple):
            return [self.seat, self.verb, list(self.arg)]
        return [self.seat, self.verb, self.arg]

    @staticmethod
    def from_json(data: Any) -> Action:
        """Parse ``[seat, verb]`` or ``[seat, verb, arg]``; raises IllegalAction("malformed")."""
        if not isinstance(data, (list, tuple)) or len(data) not in (2, 3):
            raise IllegalAction("malformed")
        seat, verb = data[0], data[1]
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(verb, str):
            raise IllegalAction("malformed")
        if len(data) == 2 or data[2] is None:
            return Action(seat, verb)
        arg = data[2]
        if isinstance(arg, str):
            return Action(seat, verb, arg)
        if isinstance(arg, (list, tuple)) and all(isinstance(card, str) for card in arg):
            return Action(seat, verb, tuple(arg))
        raise IllegalAction("malformed")


def shared_action(seat: int, verb: str, arg: str | None = None) -> Action:
    """``Action(seat, verb, arg)`` for an action of one card, one suit or none: one object per
    distinct action, made once and handed out again (an action is frozen, so sharing it is
    safe). The playouts of the computer players make millions of actions from a few hundred
    distinct ones, and building one costs several times what finding it here does."""
    key = (seat, verb, arg)
    action = _SHARED_ACTIONS.get(key)
    if action is None:
        if len(_SHARED_ACTIONS) >= MAX_SHARED_ACTIONS:
            _SHARED_ACTIONS.clear()
        action = _SHARED_ACTIONS[key] = Action(seat, verb, arg)
    return action


MAX_SHARED_ACTIONS = 4096
_SHARED_ACTIONS: dict[tuple[int, str, str | None], Action] = {}


@dataclass(frozen=True, slots=True)
class Legal:
    """One legal choice. ``arg`` for one-card or one-suit verbs; for verbs that take several
    cards (``discard``, ``kitty``), ``pick`` = (fewest, most) cards to choose from the hand."""

    verb: str
    arg: str | None = None
    pick: tuple[int, int] | None = None

    def to_json(self) -> list[Any]:
        if self.pick is not None:
            return [self.verb, self.pick[0], self.pick[1]]
        if self.arg is not None:
            return [self.verb, self.arg]
        return [self.verb]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to`` is None for the whole table, else the one seat that may
    see it (it carries a secret)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None


@dataclass(frozen=True, slots=True)
class Transfer:
    """Money moved when a deal (or a game) settles."""

    src: Party
    dst: Party
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"from": self.src, "to": self.dst, "amount": self.amount, "reason": self.reason}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Transfer:
        return Transfer(data["from"], data["to"], int(data["amount"]), str(data["reason"]))


# The generated ``__init__`` of a frozen dataclass sets each field through
# ``object.__setattr__``, three times slower than writing the slot itself; the playouts of the
# computer players create millions of actions, events and transfers, so these three get an
# ``__init__`` that writes their slots directly. Equality, hashing, ``repr``, ``match`` and
# immutability stay the dataclass's own (assigning a field still raises FrozenInstanceError).
_ACTION_SEAT = Action.__dict__["seat"].__set__
_ACTION_VERB = Action.__dict__["verb"].__set__
_ACTION_ARG = Action.__dict__["arg"].__set__
_EVENT_KIND = Event.__dict__["kind"].__set__
_EVENT_DATA = Event.__dict__["data"].__set__
_EVENT_TO = Event.__dict__["to"].__set__
_TRANSFER_SRC = Transfer.__dict__["src"].__set__
_TRANSFER_DST = Transfer.__dict__["dst"].__set__
_TRANSFER_AMOUNT = Transfer.__dict__["amount"].__set__
_TRANSFER_REASON = Transfer.__dict__["reason"].__set__


def _action_init(self: Action, seat: int, verb: str, arg: ActionArg = None) -> None:
    _ACTION_SEAT(self, seat)
    _ACTION_VERB(self, verb)
    _ACTION_ARG(self, arg)


def _event_init(
    self: Event, kind: str, data: dict[str, Any] | None = None, to: int | None = None
) -> None:
    _EVENT_KIND(self, kind)
    _EVENT_DATA(self, {} if data is None else data)
    _EVENT_TO(self, to)


def _transfer_init(self: Transfer, src: Party, dst: Party, amount: int, reason: str) -> None:
    _TRANSFER_SRC(self, src)
    _TRANSFER_DST(self, dst)
    _TRANSFER_AMOUNT(self, amount)
    _TRANSFER_REASON(self, reason)


Action.__init__ = _action_init  # type: ignore[method-assign]
Event.__init__ = _event_init  # type: ignore[method-assign]
Transfer.__init__ = _transfer_init  # type: ignore[method-assign]
