"""The game plugin, its chat side: how one game looks in Telegram, in one typed place.

The table side of a game (``tables.games``: its rules, choices, options menu, computers) is
paired here with its presentation (``Screens``, typed over the same views): the table, hand,
outcome and result texts, the hand's keyboard, the rules text, and the lines of the game's own
figures in /stats and in an evening's summary (``StatsLines``, ``EveningLines``).
``GameScreens.show`` gives one running table's presentation (``Shown``), so the screens never
test which game they show.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
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


DealLines = Callable[[str, JsonObject, Callable[[int], str]], list[str]]
"""A finished deal's play as /history shows it, worded by its game from the deal's summary:
the reader's language, the summary, and a seat's name (escaped). A game without them shows the
deal as tricks (the summary's ``tricks`` and ``trick_winners``)."""


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

    def rules_text(self, lang: str, choice: str, options: JsonObject) -> str:
        """/rules: the game's rules as ``options`` make them."""
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
    def kind(self) -> str: ...

    @property
    def game(self) -> Plugin:
        """The game's table side (``tables.games``)."""
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

    def rules_text(self, lang: str, choice: str, options: JsonObject) -> str: ...

    def stats_lines(self, lang: str, figures: Figures) -> list[str]:
        """/stats: what a player played of the game, its own figures among them
        (``StatsLines``)."""
        ...

    def evening_lines(
        self, lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
    ) -> list[str]:
        """An evening's summary: the game's own figures over its deals (``EveningLines``)."""
        ...

    def evening_results(
        self, lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
    ) -> list[str]:
        """An evening's summary: the game's results over the evening, after its biggest win
        (``EveningLines``)."""
        ...

    def deal_lines(
        self, lang: str, summary: JsonObject, name: Callable[[int], str]
    ) -> list[str] | None:
        """/history: a finished deal's play as the game words it (``DealLines``), or None for
        its tricks."""
        ...

    def show(self, table: Table) -> Shown:
        """The presentation of one of the game's tables (``ValueError`` for another's)."""
        ...


class GameScreens(Generic[SV, PV]):
    """A game's table side and its screens over one state type: a ``ChatGame``."""

    def __init__(
        self,
        game: GamePlugin[SV, PV],
        screens: Screens[SV, PV],
        *,
        verbs: Verbs,
        stats: StatsLines | None = None,
        evening: EveningLines | None = None,
        results: EveningLines | None = None,
        deal: DealLines | None = None,
        terms: Sequence[str] = (),
    ) -> None:
        self._game = game
        self.screens = screens
        self._verbs = dict(verbs)
        self._terms = tuple(terms)
        self._stats = stats
        self._evening = evening
        self._results = results
        self._deal = deal

    @property
    def kind(self) -> str:
        return self._game.rules.kind

    @property
    def game(self) -> Plugin:
        return self._game

    @property
    def verbs(self) -> Verbs:
        return self._verbs

    @property
    def terms(self) -> Sequence[str]:
        return self._terms

    def rules_text(self, lang: str, choice: str, options: JsonObject) -> str:
        return self.screens.rules_text(lang, choice, options)

    def stats_lines(self, lang: str, figures: Figures) -> list[str]:
        return played_lines(lang, figures) if self._stats is None else self._stats(lang, figures)

    def evening_lines(
        self, lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
    ) -> list[str]:
        return [] if self._evening is None else self._evening(lang, figures, name)

    def evening_results(
        self, lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
    ) -> list[str]:
        return [] if self._results is None else self._results(lang, figures, name)

    def deal_lines(
        self, lang: str, summary: JsonObject, name: Callable[[int], str]
    ) -> list[str] | None:
        return None if self._deal is None else self._deal(lang, summary, name)

    def show(self, table: Table) -> Shown:
        return ShownTable(self._game.state_of(table), self.screens)


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
