"""``python -m server.simulate``: random legal playouts, the engine benchmark;
``game.simulate`` over the program's games (``server.games``)."""

import sys

from game import simulate
from server.games import LIBRARY

if __name__ == "__main__":
    sys.exit(simulate.main(LIBRARY.tools))
