"""The game plugin, its Mini App side: how one game looks on the page, in one typed place.

The table side of a game (``tables.games``: its rules, choices, options) is paired here with
its page: a pure function from the game's own seat view and what the table knows beside it
(``TableInfo``) to the JSON object the page is drawn from (schema in ``web.views``), and the
families of catalogue keys that object names beyond the page's own (``web.texts`` serves
them). ``GamePage`` binds the two over the game's seat view type, so a game's presenter can
only ever be handed its own game's view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tables.games.plugin import GamePlugin, Plugin
from web.view_parts import Json, TableInfo

SV = TypeVar("SV")
PV = TypeVar("PV")


class PageGame(Protocol):
    """One game as the Mini App shows it, its types hidden (see ``GamePage``)."""

    @property
    def game(self) -> Plugin:
        """The game's table side (``tables.games``); its kind is ``game.rules.kind``."""
        ...

    @property
    def texts(self) -> Sequence[str]:
        """The beginnings of the catalogue keys the game's views name besides the page's own
        (``web.texts.PREFIXES``)."""
        ...

    def view(self, state: Any, seat: int, info: TableInfo) -> Json:
        """What the page of ``seat`` shows of ``state``, a state of this game's rules."""
        ...


@dataclass(frozen=True, slots=True)
class GamePage(Generic[SV, PV]):
    """A game's table side and its page over one state type: a ``PageGame``."""

    game: GamePlugin[SV, PV]
    present: Callable[[SV, TableInfo], Json]
    texts: Sequence[str] = ()

    def view(self, state: Any, seat: int, info: TableInfo) -> Json:
        return self.present(self.game.state_of(state).seat_view(seat), info)
