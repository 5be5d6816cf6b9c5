"""Starts ``python -m server`` for tests/e2e/child_bot.py without starting Python again.

    PYTHONPATH=<the repository> python tests/e2e/bot_forks.py

imports the bot (what ``python -m server`` imports before its ``main``) once, then reads one
JSON request a line on its standard input: ``{"cwd", "env", "log", "files"}``. For each it
forks; the child takes that working directory, that environment (exactly: what
``load_settings`` reads), its output appended to the file ``log``, the open-file limit
``files`` when not null, and runs the server's ``main`` as ``python -m server`` would. It
prints the child's pid, then, once the child is gone, ``exited CODE`` (``-9``: SIGKILL). The
child is the bot's own process: a test kills it, or stops it with SIGTERM, by its pid. A test
that restarts its bot several times starts Python and imports the bot once.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import traceback
from typing import Any

import server.__main__ as entry


def child(request: dict[str, Any]) -> None:
    """In the forked child: the request's surroundings, then the server until it ends."""
    code = 1
    try:
        sys.stdin.close()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        for fd in (1, 2):
            os.dup2(log, fd)
        os.close(log)
        if request["files"] is not None:
            files = int(request["files"])
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        sys.argv = [entry.__file__]
        entry.main()
        code = 0
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else (0 if end.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # it ends, whatever its streams say
                stream.flush()
        os._exit(code)


def serve() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            child(request)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exited {os.waitstatus_to_exitcode(status)}", flush=True)


if __name__ == "__main__":
    serve()
