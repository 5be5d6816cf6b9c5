"""``python -m server.replay``: play a conformance case (docs/conformance.md); ``game.replay`` over
the program's games (``server.games``)."""

import sys

from game import replay
from server.games import LIBRARY

if __name__ == "__main__":
    sys.exit(replay.main(LIBRARY.tools))
