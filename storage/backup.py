"""Online backup of the bot's database: ``python -m storage.backup SOURCE DESTINATION``.

SQLite's online backup API (``sqlite3.Connection.backup``) copies a consistent snapshot while
the bot keeps running; copying the file with ``cp`` instead may catch a half-written page or
miss the commits still in the ``-wal`` file. The whole copy is made in one step: under WAL a
reader does not block the bot's writes, and a copy made in small steps would restart whenever
the bot commits in between.

The copy is written beside the destination under a temporary name, turned into a single
self-contained file (rollback journal instead of WAL), checked with ``PRAGMA
integrity_check`` and only then renamed to the destination, so the destination is always
either the previous backup or a complete new one.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

from storage.errors import StorageError


class BackupError(StorageError):
    """The backup could not be made; the destination was left as it was."""


def backup(source: Path, destination: Path) -> None:
    """Copy the database ``source`` (which may be in use) to ``destination``, replacing it."""
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        # read-only: a mistyped source must not create an empty database, nor the backup
        # write to the bot's file
        reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        with closing(reader), closing(sqlite3.connect(partial)) as copy:
            reader.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
            problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError("the copy fails the integrity check: " + "; ".join(problems))
        with partial.open("rb+") as file:
            os.fsync(file.fileno())
        partial.replace(destination)
    except sqlite3.Error as error:
        raise BackupError(f"backup of {source} failed: {error}") from error
    finally:
        partial.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: exit 0 with the copy made, 1 with the reason on stderr."""
    parser = argparse.ArgumentParser(
        prog="python -m storage.backup",
        description="Copy the bot's SQLite database while the bot runs (SQLite online backup).",
    )
    parser.add_argument("source", type=Path, help="the database, e.g. data/bot.sqlite3")
    parser.add_argument("destination", type=Path, help="the backup file to write")
    arguments = parser.parse_args(argv)
    try:
        backup(arguments.source, arguments.destination)
    except BackupError as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    print(f"backed up {arguments.source} to {arguments.destination}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
