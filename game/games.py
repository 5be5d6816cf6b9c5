"""The games' own parts for the command-line tools (``python -m game.replay``, ``game.simulate``,
``game.play``, ``game.arena``): each game's rules, computer players, terminal screen, simulation
and conformance replay. The program's list (``server.games``) pairs each of these with the
table's, the chat's and the page's side of the same game; this one is the game layer's, which
the tools run on without the program (the conformance format fixes ``python -m game.replay``)."""

from __future__ import annotations

from game import starshina, stukolka
from game.starshina import ai as starshina_ai
from game.starshina import match as starshina_match
from game.starshina import simulate as starshina_simulation
from game.starshina import terminal as starshina_terminal
from game.stukolka import ai as stukolka_ai
from game.stukolka import match as stukolka_match
from game.stukolka import simulate as stukolka_simulation
from game.stukolka import terminal as stukolka_terminal
from game.tools import GameTools

STUKOLKA = GameTools(
    stukolka.RULES,
    stukolka_ai.COMPUTER,
    stukolka_terminal.TERMINAL,
    stukolka_simulation.run,
    stukolka_match.MATCH.from_case,
)
STARSHINA = GameTools(
    starshina.RULES,
    starshina_ai.COMPUTER,
    starshina_terminal.TERMINAL,
    starshina_simulation.run,
    starshina_match.MATCH.from_case,
)

#: the games, in the program's menu order
TOOLS = (STUKOLKA, STARSHINA)
