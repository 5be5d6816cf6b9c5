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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.games import ChatGame, ChatGames
from bot.games import starshina as starshina_chat
from bot.games import stukolka as stukolka_chat
from game import games as game_tools
from game.tools import GameTools
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
    command-line tools use (``game.tools.GameTools``, the game layer's own: ``game.games``;
    None: its rules and computers alone)."""

    game: GamePlugin[Any, Any]
    chat: ChatGame
    page: PageGame | None = None
    tools: GameTools | None = None


class Library:
    """The catalogues of one list of games, built once (``ValueError`` for games that clash,
    or a presentation or tools of another game than its entry's: the tools' rules and
    computers are the definition's own objects)."""

    __slots__ = ("chat", "games", "pages", "tools")

    def __init__(self, offered: Iterable[Offered]) -> None:
        entries = tuple(offered)
        for entry in entries:
            for shown in (entry.chat, entry.page):
                if shown is not None and shown.game is not entry.game:
                    raise ValueError(
                        f"{entry.game.rules.kind!r} is shown with another game's screens"
                    )
            tools = entry.tools
            if tools is not None and (
                tools.rules is not entry.game.rules or tools.computer is not entry.game.computer
            ):
                raise ValueError(f"{entry.game.rules.kind!r} has another game's tools")
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
            entry.tools or GameTools(entry.game.rules, entry.game.computer) for entry in entries
        )


#: the games, in menu order
OFFERED = (
    Offered(
        stukolka_table.PLUGIN,
        stukolka_chat.PLUGIN,
        stukolka_page.PAGE,
        game_tools.STUKOLKA,
    ),
    Offered(
        starshina_table.PLUGIN,
        starshina_chat.PLUGIN,
        starshina_page.PAGE,
        game_tools.STARSHINA,
    ),
)

#: the program's catalogues of ``OFFERED``
LIBRARY = Library(OFFERED)
