"""A chat's ledger as a CSV file (/export): one row per transfer, for a spreadsheet. The file is
the ledger's, not a screen's: any front-end can hand it out as it is (the chat sends it as a
document, ``bot.screens.stats``); only a computer's name is in the chat's language."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, datetime

from tables.computers import computer_name, is_computer

CSV_COLUMNS = (
    "entry_id",
    "time_utc",
    "game_id",
    "game",
    "deal",
    "from",
    "from_id",
    "to",
    "to_id",
    "amount",
    "reason",
)

#: what makes a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula
#: (OWASP, "CSV Injection"); a line feed too, which some of them take as a cell's start
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_text(value: object) -> object:
    """A CSV cell a spreadsheet shows as it is: a text that begins as a formula would gets a
    single quote before it (``=HYPERLINK(…)`` → ``'=HYPERLINK(…)``), the spreadsheets' own
    mark for "text"; numbers stay numbers (a computer's id of −1 included)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def ledger_csv(rows: Sequence[tuple[object, ...]], lang: str) -> bytes:
    """The ledger as CSV (UTF-8 with a byte-order mark, so spreadsheets read the Cyrillic):
    one row per transfer, a party as a player's name and id, or ``pot`` / ``game_pot``. A
    person's name is his own (stored, uncut); a computer's is in the chat's ``lang``, as on
    every other screen (the stored one is Russian).

    A name is whatever its owner typed into Telegram, so every text cell is neutralised as
    OWASP recommends for CSV: quoted, and with a single quote before a formula's first
    character (``spreadsheet_text``); numbers are written bare, so they stay numbers."""

    def name(kind: object, user: object, stored: object) -> object:
        if kind != "user":
            return kind
        return computer_name(user, lang) if isinstance(user, int) and is_computer(user) else stored

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(CSV_COLUMNS)
    for (
        entry_id,
        created_at,
        game_id,
        kind,
        deal,
        src_kind,
        src_user,
        src_name,
        dst_kind,
        dst_user,
        dst_name,
        amount,
        reason,
    ) in rows:
        moment = datetime.fromtimestamp(float(created_at), UTC)  # type: ignore[arg-type]
        cells = (
            entry_id,
            moment.strftime("%Y-%m-%d %H:%M:%S"),
            game_id,
            kind,
            int(deal) + 1,  # type: ignore[call-overload]
            name(src_kind, src_user, src_name),
            src_user if src_kind == "user" else "",
            name(dst_kind, dst_user, dst_name),
            dst_user if dst_kind == "user" else "",
            amount,
            reason,
        )
        writer.writerow([spreadsheet_text(cell) for cell in cells])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
