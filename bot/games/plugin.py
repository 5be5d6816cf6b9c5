"""The game plugin, its chat side: how one game looks in Telegram, in one typed place.

The table side of a game (``tables.games``: its rules, choices, options menu, computers) is
paired here with its presentation (``Screens``, typed over the same views): the table, hand,
outcome and result texts and the hand's keyboard; beside them its rules text (``RulesText``) and
the lines of the game's own figures in /stats and in an evening's summary (``StatsLines``,
``EveningLines``).
``GameScreens.show`` gives one running table's presentation (``Shown``), so the screens never
test which game they show.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Generic, Protocol, TypeVar

from bot.callback import Codec, Verbs
from bot.render.common import Deadline
from game.registry import JsonObject, ViewedState
from locales import t, tn
from tables.games.plugin import GamePlugin, Plugin, Table
from tables.scores import Figures

SV = TypeVar("SV")
PV = TypeVar("PV")
SVc = TypeVar("SVc", contravariant=True)
PVc = TypeVar("PVc", contravariant=True)

Keyboard = list[list[tuple[str, str]]]

StatsLines = Callable[[str, Figures], list[str]]
"""/stats lines of what a player played of a game, its own figures among them
(``tables.games.StatField``, in ``Figures.fields`` by name; a figure at zero is absent): the
reader's language and his figures over some months. The best and worst deal and the net, which
every game has, follow them."""


def played_lines(lang: str, figures: Figures) -> list[str]:
    """/stats of a game that words nothing of its own: the deals played and the tricks."""
    return [
        t(lang, "stats.played_deals", deals=tn(lang, "count.deals", figures.deals)),
        t(lang, "stats.tricks", n=figures.tricks),
    ]


EveningLines = Callable[[str, Mapping[str, Mapping[int, int]], Callable[[int], str]], list[str]]
"""An evening summary's lines of a game's own figures over its deals that evening: the
reader's language, the figures by name and player, and a player's name (escaped). A game
gives two sets: its figures over the deals (a Стуколка evening's remizes), shown before the
evening's biggest win, and its results (a Старшина evening's games won), shown after it."""


def no_lines(
    lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
) -> list[str]:
    """An evening's summary of a game that words nothing of its own there."""
    return []


DealLines = Callable[[str, JsonObject, Callable[[int], str]], list[str]]
"""A finished deal's play as /history shows it, worded by its game from the deal's summary:
the reader's language, the summary, and a seat's name (escaped). A game without them shows the
deal as tricks (the summary's ``tricks`` and ``trick_winners``)."""


RulesText = Callable[[str, str, JsonObject], str]
"""/rules: a game's rules as options make them: the reader's language, the /new choice and the
options."""


class Screens(Protocol[SVc, PVc]):
    """How one game looks: pure functions of its seat view ``SV`` and public view ``PV``.

    ``names[seat]`` are display names; ``lang`` the reader's language. ``closed``: the table
    has ended (nothing to decide, nobody's turn)."""

    def choice(self, view: PVc) -> str:
        """Which of the game's /new choices this deal is (its title, ``game.<choice>``)."""
        ...

    def table_text(
        self,
        lang: str,
        view: PVc,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        away: Collection[int],
        closed: bool,
    ) -> str:
        """The group's table message of a deal."""
        ...

    def hand_text(
        self, lang: str, view: SVc, names: Sequence[str], *, deadline: Deadline | None, closed: bool
    ) -> str:
        """A player's private message: the whole table as he sees it, his cards, his prompt."""
        ...

    def keyboard(
        self, codec: Codec, lang: str, view: SVc, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        """His buttons, in ``codec``'s words (the chat's: ``bot.games.ChatGames.codec``):
        exactly the legal actions of ``view`` (``mask``: a selection so far)."""
        ...

    def outcome_text(self, lang: str, view: PVc, names: Sequence[str], seat: int) -> str:
        """The head of his hand message once the deal is over (the screens add his money)."""
        ...

    def result_text(
        self,
        lang: str,
        view: PVc,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str:
        """The group's result of a finished deal (``balances`` and ``money`` by seat)."""
        ...


class Shown(Protocol):
    """One running table as the chat shows it, whichever game it is."""

    def table_text(
        self,
        lang: str,
        names: Sequence[str],
        *,
        deadline: Deadline | None = None,
        away: Collection[int] = (),
        closed: bool = False,
    ) -> str: ...

    def hand_text(
        self,
        lang: str,
        seat: int,
        names: Sequence[str],
        *,
        deadline: Deadline | None = None,
        closed: bool = False,
    ) -> str: ...

    def keyboard(
        self, codec: Codec, lang: str, seat: int, game_id: int, turn: int, mask: int
    ) -> Keyboard: ...

    def outcome_text(self, lang: str, names: Sequence[str], seat: int) -> str: ...

    def result_text(
        self,
        lang: str,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str: ...


class ChatGame(Protocol):
    """One game as the chat shows it, its types hidden (see ``GameScreens``)."""

    @property
    def game(self) -> Plugin:
        """The game's table side (``tables.games``); its kind is ``game.rules.kind``."""
        ...

    @property
    def verbs(self) -> Verbs:
        """The game's moves on its buttons (``bot.callback``): verb → wire code, argument."""
        ...

    @property
    def terms(self) -> Sequence[str]:
        """The game's words a newcomer cannot know, explained once under his hand
        (``bot.screens.glossary``): locale keys ``gloss.<term>`` and ``gloss.word.<term>``."""
        ...

    @property
    def rules_text(self) -> RulesText:
        """/rules: the game's rules as the chat's options make them (``RulesText``)."""
        ...

    @property
    def stats_lines(self) -> StatsLines:
        """/stats: what a player played of the game, its own figures among them
        (``StatsLines``)."""
        ...

    @property
    def evening_lines(self) -> EveningLines:
        """An evening's summary: the game's own figures over its deals (``EveningLines``)."""
        ...

    @property
    def evening_results(self) -> EveningLines:
        """An evening's summary: the game's results over the evening, after its biggest win
        (``EveningLines``)."""
        ...

    @property
    def deal_lines(self) -> DealLines | None:
        """/history: a finished deal's play as the game words it (``DealLines``); None: as
        its tricks."""
        ...

    def show(self, table: Table) -> Shown:
        """The presentation of one of the game's tables (``ValueError`` for another's)."""
        ...


@dataclass(frozen=True, slots=True, eq=False)
class GameScreens(Generic[SV, PV]):
    """A game's table side and its screens over one state type, with its rules text, its
    moves' verbs and the lines of its own figures (a game that words none of its own has the
    deals played and the tricks in /stats, nothing in an evening's summary and its tricks in
    /history): a ``ChatGame``, equal and hashed as the one object, like its game."""

    game: GamePlugin[SV, PV]
    screens: Screens[SV, PV]
    _: KW_ONLY
    rules_text: RulesText
    verbs: Verbs
    stats_lines: StatsLines = played_lines
    evening_lines: EveningLines = no_lines
    evening_results: EveningLines = no_lines
    deal_lines: DealLines | None = None
    terms: tuple[str, ...] = ()

    def show(self, table: Table) -> Shown:
        return ShownTable(self.game.state_of(table), self.screens)


class ShownTable(Generic[SV, PV]):
    """A ``Shown``: one table of a ``GameScreens``'s game."""

    __slots__ = ("_screens", "_table")

    def __init__(self, table: ViewedState[SV, PV], screens: Screens[SV, PV]) -> None:
        self._table = table
        self._screens = screens

    def table_text(
        self,
        lang: str,
        names: Sequence[str],
        *,
        deadline: Deadline | None = None,
        away: Collection[int] = (),
        closed: bool = False,
    ) -> str:
        view = self._table.public_view()
        return self._screens.table_text(
            lang, view, names, deadline=deadline, away=away, closed=closed
        )

    def hand_text(
        self,
        lang: str,
        seat: int,
        names: Sequence[str],
        *,
        deadline: Deadline | None = None,
        closed: bool = False,
    ) -> str:
        view = self._table.seat_view(seat)
        return self._screens.hand_text(lang, view, names, deadline=deadline, closed=closed)

    def keyboard(
        self, codec: Codec, lang: str, seat: int, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        view = self._table.seat_view(seat)
        return self._screens.keyboard(codec, lang, view, game_id, turn, mask)

    def outcome_text(self, lang: str, names: Sequence[str], seat: int) -> str:
        view = self._table.public_view()
        return self._screens.outcome_text(lang, view, names, seat)

    def result_text(
        self,
        lang: str,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str:
        view = self._table.public_view()
        return self._screens.result_text(lang, view, names, balances, money)
