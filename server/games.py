"""The games the program offers: the one place they are listed, each game's definition (its
table side, ``tables.games``) with the chat's presentation of it and the page's. The order of
``OFFERED`` is the order of every menu and list.

``Library`` builds from such a list the three catalogues the program hands out: the table
service's (``tables.games.Catalogue``), the chat's (``bot.games.ChatGames``) and the page's
(``web.games.PageGames``). A test builds its own, its toy games among them. A game's page is
small (its view functions): listed here, it is loaded with the chat even where the Mini App's
server is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.games import ChatGame, ChatGames
from bot.games import starshina as starshina_chat
from bot.games import stukolka as stukolka_chat
from game.starshina import match as starshina_match
from game.starshina import simulate as starshina_simulation
from game.starshina import terminal as starshina_terminal
from game.stukolka import match as stukolka_match
from game.stukolka import simulate as stukolka_simulation
from game.stukolka import terminal as stukolka_terminal
from game.terminal import Terminal
from game.tools import GameTools, ReplayMatch, Simulation
from tables.games import Catalogue, GamePlugin
from tables.games import starshina as starshina_table
from tables.games import stukolka as stukolka_table
from web.games import PageGame, PageGames
from web.games import starshina as starshina_page
from web.games import stukolka as stukolka_page


@dataclass(frozen=True, slots=True)
class Offered:
    """One game as the program offers it: its definition, the chat's presentation and the
    page's (None: the page does not show its tables), and the parts of it only the
    command-line tools use (``game.tools.GameTools``: its screen in the terminal game, its
    simulation, its conformance replay)."""

    game: GamePlugin[Any, Any]
    chat: ChatGame
    page: PageGame | None = None
    terminal: Terminal[Any] | None = None
    simulation: Simulation | None = None
    replay: Callable[[dict[str, Any]], ReplayMatch] | None = None


class Library:
    """The catalogues of one list of games, built once (``ValueError`` for games that clash,
    or a presentation of another game than its entry's)."""

    __slots__ = ("chat", "games", "pages", "tools")

    def __init__(self, offered: Iterable[Offered]) -> None:
        entries = tuple(offered)
        for entry in entries:
            for shown in (entry.chat, entry.page):
                if shown is not None and shown.game is not entry.game:
                    raise ValueError(f"{entry.game.kind!r} is shown with another game's screens")
        #: the table service's
        self.games = Catalogue(entry.game for entry in entries)
        #: the chat's
        self.chat = ChatGames(self.games, (entry.chat for entry in entries))
        #: the page's
        self.pages = PageGames(
            self.games, (entry.page for entry in entries if entry.page is not None)
        )
        #: the command-line tools'
        self.tools = tuple(
            GameTools(
                entry.game.rules,
                entry.game.computer,
                entry.terminal,
                entry.simulation,
                entry.replay,
            )
            for entry in entries
        )


#: the games, in menu order
OFFERED = (
    Offered(
        stukolka_table.PLUGIN,
        stukolka_chat.PLUGIN,
        stukolka_page.PAGE,
        stukolka_terminal.TERMINAL,
        stukolka_simulation.run,
        stukolka_match.MATCH.from_case,
    ),
    Offered(
        starshina_table.PLUGIN,
        starshina_chat.PLUGIN,
        starshina_page.PAGE,
        starshina_terminal.TERMINAL,
        starshina_simulation.run,
        starshina_match.MATCH.from_case,
    ),
)

#: the program's catalogues of ``OFFERED``
LIBRARY = Library(OFFERED)
