"""Where `serve` keeps responses for `previous_response_id` and `GET /v1/responses/{id}`.

`ResponseStore` is the interface the front uses (blocking calls: the front runs them
off the event loop); `SqliteStore` is the one built in, an SQLite file (the standard
library's `sqlite3`, WAL mode, so `--workers` processes on one machine share it). A
store for several machines (a server database) implements the same four methods.

A stored response is its response object (for `GET`) and the conversation that led to
it, its own output included, as chat.completions messages: what the next request's
`previous_response_id` continues. The store is bounded: responses older than `max_age`
seconds and all but the newest `max_rows` are deleted as new ones come in.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Protocol

    class ResponseStore(Protocol):
        """What the Responses front needs from a store (each call may block)."""

        def get(self, response_id: str) -> StoredResponse | None: ...
        def put(self, response_id: str, stored: StoredResponse) -> None: ...
        def delete(self, response_id: str) -> bool: ...
        def close(self) -> None: ...

MAX_AGE: Final = 30 * 24 * 3600.0
"""Seconds a stored response is kept (30 days, as OpenAI keeps them)."""
MAX_ROWS: Final = 10_000
"""Responses kept at most; the oldest go first."""
_SCHEMA: Final = """CREATE TABLE IF NOT EXISTS responses (
    id TEXT PRIMARY KEY, created REAL NOT NULL, response BLOB NOT NULL, conversation BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS responses_created ON responses (created);"""


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """One stored response: its object, and its conversation as chat.completions messages."""

    response: dict[str, Any]
    conversation: list[dict[str, Any]]


def default_store_path() -> Path:
    """The default store file: `$XDG_DATA_HOME/sse-rewrite/responses.sqlite3` (`~/.local/share`)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "sse-rewrite" / "responses.sqlite3"


class SqliteStore:
    """Responses in one SQLite file; safe to call from any thread (one connection, one lock)."""

    def __init__(self, path: Path, max_age: float = MAX_AGE, max_rows: int = MAX_ROWS) -> None:
        import sqlite3  # here: only serve with a store pays for it

        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=10, isolation_level=None)
        self._lock = threading.Lock()
        self._max_age, self._max_rows = max_age, max_rows
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)

    def get(self, response_id: str) -> StoredResponse | None:
        """The stored response `response_id`, or None (unknown, or too old)."""
        with self._lock:
            row = self._db.execute(
                "SELECT response, conversation FROM responses WHERE id = ? AND created >= ?",
                (response_id, time.time() - self._max_age)).fetchone()
        return None if row is None else StoredResponse(orjson.loads(row[0]), orjson.loads(row[1]))

    def put(self, response_id: str, stored: StoredResponse) -> None:
        """Keep `stored` as `response_id`, then drop what is past the bounds."""
        row = (response_id, time.time(), orjson.dumps(stored.response), orjson.dumps(stored.conversation))
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)", row)
            self._db.execute("DELETE FROM responses WHERE created < ?", (time.time() - self._max_age,))
            self._db.execute("DELETE FROM responses WHERE id IN (SELECT id FROM responses "
                             "ORDER BY created DESC LIMIT -1 OFFSET ?)", (self._max_rows,))

    def delete(self, response_id: str) -> bool:
        """Forget `response_id`; whether it was there."""
        with self._lock:
            return self._db.execute("DELETE FROM responses WHERE id = ?", (response_id,)).rowcount > 0

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()
