"""Storage: the single source of truth for every game in progress and for every chip.

One SQLite file holds chats, players, games (state JSON with a compare-and-set ``version``),
each game's append-only action log and the chat's append-only ledger of transfers; balances
and pots are sums over the ledger. Storage knows rows and JSON, not Telegram and not the
rules: states and actions are opaque JSON, and ``replay`` takes the rules as a function. Nor
does it read the clock: every write that stamps a row is given its ``now`` by its caller (the
table service's clock, on which its deadlines and evenings run).

Open one ``Database`` at start-up (``await Database.open(path)``) and close it at shutdown.
"""

from storage.database import DEFAULT_PATH, Database, Synchronous
from storage.errors import (
    ActiveGameExists,
    ChatMigrationConflict,
    GameClosed,
    GameNotFound,
    ReplayError,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    UnknownChat,
    UnknownPlayer,
)
from storage.migrations import LATEST_VERSION
from storage.records import (
    GAME_POT,
    POT,
    ActionJSON,
    Balances,
    Chat,
    DealHistory,
    DealPlayer,
    DealRecord,
    Game,
    GameStatus,
    JSONObject,
    LedgerEntry,
    LogEntry,
    Party,
    Player,
    PlayerTotals,
    Transfer,
)
from storage.replay import Apply, replay

__all__ = [
    "DEFAULT_PATH",
    "GAME_POT",
    "LATEST_VERSION",
    "POT",
    "ActionJSON",
    "ActiveGameExists",
    "Apply",
    "Balances",
    "Chat",
    "ChatMigrationConflict",
    "Database",
    "DealHistory",
    "DealPlayer",
    "DealRecord",
    "Game",
    "GameClosed",
    "GameNotFound",
    "GameStatus",
    "JSONObject",
    "LedgerEntry",
    "LogEntry",
    "Party",
    "Player",
    "PlayerTotals",
    "ReplayError",
    "SchemaTooNew",
    "StaleVersion",
    "StorageError",
    "Synchronous",
    "Transfer",
    "UnknownChat",
    "UnknownPlayer",
    "replay",
]
