"""The game plugin, its table side: what the table service knows about one game.

A game is its definition (``game.registry.GameRules``) and its state class with its choices
for /new, its options menu, its computer players, its own /stats figures (``StatField``s) and
the catalogue texts it brings. Each front-end pairs
it with a presentation of its own, typed over the game's views (the chat's is ``bot.games``),
and reads a table's views through ``GamePlugin.state_of``.

The service never tests which game it runs: it holds a ``Plugin`` (a game with its types
hidden) and a ``Table`` (the game's own state object, ``game.registry.GameState``), and asks
them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Generic, Literal, Protocol, TypeVar

from game.ai import Computer, Seated
from game.registry import GameRules, GameState, JsonObject, ViewedState
from locales import Entry, Words

SV = TypeVar("SV")
PV = TypeVar("PV")

Table = GameState
"""One game's state: everything the service and the screens ask of a running table, whichever
game it is (``game.registry.GameState``)."""


@dataclass(frozen=True, slots=True)
class StatField:
    """A /stats figure a game declares, kept per player and month beside the figures every
    game has (the net, games, deals, tricks, the best and worst deal), in the same commit as
    the move it comes from. Counted from one of three sources:

    - ``reasons``: the commit's ledger rows with one of these reasons that the player ``side``
      (paid or received): how many (``count``) or their chips (``sum``);
    - ``summary``: a finished deal's summary, where ``summary[key]`` is a number for each seat,
      in seat order;
    - ``deal``: a finished deal's record: ``played`` counts the deals a player played rather
      than sat out, ``won`` the games a player won with it (a game of several deals with one
      winner).

    The game's chat side words it."""

    name: str
    reasons: tuple[str, ...] = ()
    side: Literal["paid", "received"] = "paid"
    measure: Literal["count", "sum"] = "count"
    summary: str | None = None
    deal: Literal["played", "won"] | None = None

    def __post_init__(self) -> None:
        sources = bool(self.reasons) + (self.summary is not None) + (self.deal is not None)
        if sources != 1:
            raise ValueError(
                f"figure {self.name!r}: ledger reasons, a summary key or a deal fact, one of them"
            )


@dataclass(frozen=True, slots=True)
class Choice:
    """A game a table can be opened for (``/new <name>``): ``preset`` options over the chat's
    own; ``code`` its letter in callback data; ``aliases`` other words /new and /rules take."""

    name: str
    code: str
    preset: JsonObject = field(default_factory=dict)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionsMenu:
    """A game's options as /settings offers them: ``code`` the game's letter in callback data;
    ``values`` each option's values in menu order; ``presets`` named sets of values offered atop
    the menu; ``always`` options every summary shows even at their default; ``defaults`` the
    options docs/rules.md gives; ``implied`` options a summary leaves out for these options (they
    follow from the others)."""

    code: str
    values: Mapping[str, tuple[object, ...]]
    defaults: JsonObject
    presets: Mapping[str, JsonObject] = field(default_factory=dict)
    always: tuple[str, ...] = ()
    implied: Mapping[str, JsonObject] = field(default_factory=dict)

    def hidden(self, options: JsonObject) -> frozenset[str]:
        """Options a summary of ``options`` leaves out: ``implied[name]`` holds when every
        value it lists is set (the шлейф always allows dark play, so that is not news)."""
        return frozenset(
            name
            for name, condition in self.implied.items()
            if all(options.get(key) == value for key, value in condition.items())
        )


class Plugin(Protocol):
    """One game as the bot knows it, its types hidden (see ``GamePlugin``)."""

    @property
    def rules(self) -> GameRules:
        """The game's definition (``game.registry.GameRules``): its kind, how many play, what
        it does, its options checked, a new game and a stored one read back."""
        ...

    @property
    def has_computers(self) -> bool:
        """Whether computer players can sit at the game's tables (and play for the away)."""
        ...

    @property
    def choices(self) -> Sequence[Choice]: ...

    @property
    def stat_fields(self) -> Sequence[StatField]:
        """The game's own /stats figures, kept for each player (its chat side words them): a
        figure the game does not declare is never kept or shown for it."""
        ...

    @property
    def menu(self) -> OptionsMenu: ...

    @property
    def texts(self) -> Mapping[str, Mapping[str, Entry]]:
        """Catalogue entries the game brings along, by language (``locales.game_entries``
        reads a program's game's from its files)."""
        ...

    @property
    def words(self) -> Words:
        """The catalogue the game's own screens read: the shared entries with its ``texts``."""
        ...

    def choice_of(self, options: JsonObject) -> str: ...

    def computer_at(self, table: Table, seat: int) -> Seated:
        """The game's computer in ``seat`` of ``table``, with the seat's view it decides from
        (what ``tables.computers.Thinker`` thinks with; ``ValueError`` for a game without
        computer players)."""
        ...


@dataclass(frozen=True, slots=True, eq=False)
class GamePlugin(Generic[SV, PV]):
    """A game's definition (``rules``) with its state class (whose views are ``SV`` and
    ``PV``), its choices for /new (at least one), its options menu, the catalogue texts it
    brings, its computer players (None: none) and its own /stats figures (each name once): a
    ``Plugin``. Each fact is here once: the rules' own are read as ``plugin.rules.kind``. A
    game is itself alone (equal and hashed as the one object, a key of menus and tables)."""

    rules: GameRules
    state: type[ViewedState[SV, PV]]
    _: KW_ONLY
    choices: tuple[Choice, ...]
    menu: OptionsMenu
    texts: Mapping[str, Mapping[str, Entry]] = field(default_factory=dict)
    computer: Computer[SV] | None = None
    stat_fields: tuple[StatField, ...] = ()
    words: Words = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", Words(self.texts))
        if not self.choices:
            raise ValueError("a game needs at least one choice for /new")
        if len({item.name for item in self.stat_fields}) != len(self.stat_fields):
            raise ValueError("two /stats figures of one game share a name")

    @property
    def has_computers(self) -> bool:
        return self.computer is not None

    def choice_of(self, options: JsonObject) -> str:
        """The choice whose preset ``options`` match (the first choice when none does)."""
        for choice in self.choices:
            if choice.preset and all(options.get(k) == v for k, v in choice.preset.items()):
                return choice.name
        return self.choices[0].name

    def state_of(self, table: Table) -> ViewedState[SV, PV]:
        """The state of one of this game's tables, with its views' types (``ValueError`` for
        another game's)."""
        if isinstance(table, self.state):
            return table
        raise ValueError(f"not a table of {self.rules.kind}")

    def computer_at(self, table: Table, seat: int) -> Seated:
        if self.computer is None:
            raise ValueError(f"{self.rules.kind} has no computer players")
        return self.computer.at(self.state_of(table).seat_view(seat))
