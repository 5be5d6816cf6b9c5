"""``python -m server.arena``: computer players against each other; ``game.arena`` over
the program's games (``server.games``)."""

import sys

from game import arena
from server.games import LIBRARY

if __name__ == "__main__":
    sys.exit(arena.main(LIBRARY.tools))
