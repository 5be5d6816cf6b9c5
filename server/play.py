"""``python -m server.play``: the terminal game, the computers against you; ``game.play`` over
the program's games (``server.games``)."""

import sys

from game import play
from server.games import LIBRARY

if __name__ == "__main__":
    sys.exit(play.main(LIBRARY.tools))
