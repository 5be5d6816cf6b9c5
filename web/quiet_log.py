"""The server's log of requests it could not read, quietened (``web.server``'s ``HTTP_LOG``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class QuietLog(logging.Filter):
    """What aiohttp's server logs of a request it could not read (a malformed or oversized
    header, a body cut off): anyone who reaches the port can cause it, so one line at WARNING
    without the traceback, and at most one every ``every`` seconds (the count of the others
    in the next)."""

    def __init__(self, every: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.last: float | None = None
        self.held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            self.held += 1
            return False
        error = record.exc_info[1] if record.exc_info else None
        what = record.getMessage()
        if error is not None:
            said = str(error).splitlines()
            what = f"{what}: {type(error).__name__}: {said[0] if said else ''}"
        if self.held:
            what = f"{what} (and {self.held} more since)"
        record.msg, record.args = what.rstrip(": "), ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        self.last, self.held = now, 0
        return True
