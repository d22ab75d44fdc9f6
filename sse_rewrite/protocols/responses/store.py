"""Where `serve` keeps responses for `previous_response_id` and `GET /v1/responses/{id}`.

`ResponseStore` is the interface the front uses (coroutines). Two stores implement it:
`AsyncSqliteStore` around `SqliteStore`, an SQLite file (the standard library's `sqlite3`,
WAL mode, so `--workers` processes on one machine share it), the embedded default; and
`PostgresStore` (`store_postgres.py`), a server database several instances share. A store
that cannot be reached raises `StoreUnavailable`.

An SQLite call runs on the event loop when it need not wait: its connection there has no
busy timeout, so a call that meets another writer's lock fails at once (`SQLITE_BUSY`, nothing
done) and is run again in a thread on a second connection that waits for the lock. WAL readers
never wait for writers, so only writes from other processes at the same moment go to the
thread; the loop's connection never checkpoints (a checkpoint writes the database file back
and syncs it): every `CHECKPOINT_EVERY` writes, the thread's connection checkpoints in the
background. A call on the loop costs tens of microseconds; a thread hop costs more than that.

A stored response is its response object (for `GET`) and the conversation that led to
it, its own output included, as chat.completions messages: what the next request's
`previous_response_id` continues. A response being answered is *reserved* first (a row
with no body), so a request for it on any instance or worker waits for it instead of
finding nothing, and never sees it half made. The store is bounded: responses older than
`max_age` seconds, and those with `max_rows` newer ones written after them, are deleted as
new ones come in (so it holds at most `max_rows`; the trim reads a rowid range, whatever the size).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from pathlib import Path

import orjson

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, Final, Protocol, TypeVar

    T = TypeVar("T")
    Ended = Callable[[BaseException | None], object]
    """What gets a write's outcome (`ResponseStore.write`): None, or its error."""

    class ResponseStore(Protocol):
        """What the Responses front needs from a store; each call may raise `StoreUnavailable`.

        A call that needed no wait may return a finished future (awaiting it never suspends,
        and `keeping.py` then writes with no task of its own).
        """

        def get(self, response_id: str) -> Awaitable[StoredResponse | None]: ...
        def reserve(self, response_id: str) -> Awaitable[None]: ...
        def put(self, response_id: str, stored: StoredResponse) -> Awaitable[None]: ...
        def write(self, response_id: str, stored: StoredResponse, ended: Ended) -> None:
            """`put`, its outcome handed to `ended` as it ends: None, or the error (`StoreUnavailable`, or a
            `CancelledError` if it was cancelled). At once when it needed no wait, else from the loop
            with no turn of it added (a database's reader), in no task's context: for a caller that
            wakes its own waiter (`keeping.py`), where a future's callbacks would each cost a turn."""
        def delete(self, response_id: str) -> Awaitable[bool]: ...
        def release(self, response_id: str) -> Awaitable[None]: ...
        def ping(self) -> Awaitable[None]: ...
        def close(self) -> Awaitable[None]: ...

MAX_AGE: Final = 30 * 24 * 3600.0
"""Seconds a stored response is kept (30 days, as OpenAI keeps them)."""
MAX_ROWS: Final = 10_000
"""Responses kept at most; the oldest go first."""
CHECKPOINT_EVERY: Final = 200
"""Writes on the loop between two checkpoints of the write-ahead log (in a thread)."""
WAIT_FOR_LOCK: Final = 10.0
"""Seconds a call in the thread waits for another process's write lock."""
_BUSY: Final = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED: the primary codes of "another connection holds it"
_SCHEMA: Final = """CREATE TABLE IF NOT EXISTS responses (
    id TEXT PRIMARY KEY, created REAL NOT NULL, response BLOB NOT NULL, conversation BLOB NOT NULL);
DROP INDEX IF EXISTS responses_created;"""
# A reserved row has an empty response (b""): the schema of existing files stays as it was (an
# earlier release's index on `created` is dropped: the age bound reads the rowid order).
# Every write gets a new rowid, one past the largest (INSERT OR REPLACE deletes the old row):
# the rowid orders rows by their last write, so both bounds are a rowid window. The count: rows
# `max_rows` below the new one. The age: rows before the first one young enough, found by
# reading from the oldest (`NOT INDEXED`: in rowid order, whatever index an earlier release
# left), so a write reads one row past those it deletes.
_BOUNDS: Final = """CREATE TEMP TRIGGER IF NOT EXISTS responses_bounds AFTER INSERT ON main.responses
WHEN NEW.response != x'' BEGIN DELETE FROM responses WHERE rowid < max(NEW.rowid - {max_rows} + 1,
    coalesce((SELECT rowid FROM responses NOT INDEXED WHERE created >= NEW.created - {max_age} ORDER BY rowid
              LIMIT 1), NEW.rowid + 1)); END"""


class StoreUnavailable(Exception):
    """The store cannot be reached or answered with an error (the message says which)."""


class StoredResponse:
    """One stored response: its object (for `GET`), and its conversation as chat.completions messages
    (what `previous_response_id` continues).

    Each is given decoded or as its JSON bytes (the bytes the client got, a store's row), is
    encoded at most once and decoded only when read: a continued conversation never decodes
    its response object. `pending` marks a reserved response still being answered (both empty).
    """

    __slots__ = ("_conversation", "_response", "pending")

    def __init__(self, response: dict[str, Any] | bytes, conversation: list[dict[str, Any]] | bytes,
                 pending: bool = False) -> None:
        self._response, self._conversation, self.pending = response, conversation, pending

    @property
    def response(self) -> dict[str, Any]:
        """The response object."""
        if isinstance(self._response, bytes):
            self._response = orjson.loads(self._response)
        assert isinstance(self._response, dict)
        return self._response

    @property
    def conversation(self) -> list[dict[str, Any]]:
        """The conversation that led to the response, its output included."""
        if isinstance(self._conversation, bytes):
            self._conversation = orjson.loads(self._conversation)
        assert isinstance(self._conversation, list)
        return self._conversation

    def response_json(self) -> bytes:
        """The response object as JSON (as it was stored: no encoding when it came from a store)."""
        response = self._response
        return response if isinstance(response, bytes) else orjson.dumps(response)

    def encoded(self) -> tuple[bytes, bytes]:
        """The response object and the conversation as JSON, for a store's row."""
        conversation = self._conversation
        encoded = conversation if isinstance(conversation, bytes) else orjson.dumps(conversation)
        return self.response_json(), encoded

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredResponse) and (self.pending, self.response, self.conversation) == \
            (other.pending, other.response, other.conversation)

    __hash__ = None  # type: ignore[assignment]  # (equal by value, and mutable while it decodes)


PENDING: Final = StoredResponse({}, [], pending=True)
"""What `get` returns for a reserved response still being answered."""


def default_store_path() -> Path:
    """The default store file: `$XDG_DATA_HOME/sse-rewrite/responses.sqlite3` (`~/.local/share`)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "sse-rewrite" / "responses.sqlite3"


class SqliteStore:
    """Responses in one SQLite file; safe to call from any thread (one connection, one lock).

    WAL mode with `synchronous=NORMAL`: a commit is durable when the process dies (not when
    the machine loses power) and costs no fsync, which would cost each write milliseconds.
    """

    def __init__(self, path: Path, max_age: float = MAX_AGE, max_rows: int = MAX_ROWS, *,
                 wait: float = WAIT_FOR_LOCK, checkpoints: bool = True) -> None:
        """Open `path`; `wait`: seconds a call waits for a lock (0: `SQLITE_BUSY` at once).

        Without `checkpoints` this connection never checkpoints the log (see `checkpoint`).
        """
        import sqlite3  # here: only serve with a store pays for it

        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=WAIT_FOR_LOCK, isolation_level=None)
        self._lock = threading.Lock()
        self._max_age, self._max_rows = max_age, max_rows
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            if not checkpoints:
                self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.executescript(_SCHEMA)
            self._db.execute(_BOUNDS.format(max_rows=int(max_rows), max_age=repr(float(max_age))))
            self._db.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")  # (opening waits as long as needed)

    def get(self, response_id: str) -> StoredResponse | None:
        """The stored response `response_id`, `PENDING` while reserved, or None (unknown, or too old)."""
        with self._lock:
            row = self._db.execute(
                "SELECT response, conversation FROM responses WHERE id = ? AND created >= ?",
                (response_id, time.time() - self._max_age)).fetchone()
        if row is None:
            return None
        return PENDING if not row[0] else StoredResponse(row[0], row[1])

    def reserve(self, response_id: str) -> None:
        """Mark `response_id` as being answered (nothing happens if it is already there)."""
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO responses VALUES (?, ?, x'', x'')",
                             (response_id, time.time()))

    def put(self, response_id: str, stored: StoredResponse) -> None:
        """Keep `stored` as `response_id`, and drop what is past the bounds: one statement (its trigger)."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                             (response_id, time.time(), *stored.encoded()))

    def delete(self, response_id: str) -> bool:
        """Forget `response_id`; whether it was there."""
        with self._lock:
            return self._db.execute("DELETE FROM responses WHERE id = ?", (response_id,)).rowcount > 0

    def release(self, response_id: str) -> None:
        """Drop the reservation of `response_id` if it is still only reserved (never a stored response)."""
        with self._lock:
            self._db.execute("DELETE FROM responses WHERE id = ? AND response = x''", (response_id,))

    def ping(self) -> None:
        """Raise if the file cannot be read."""
        with self._lock:
            self._db.execute("SELECT 1 FROM responses LIMIT 1").fetchall()

    def checkpoint(self) -> None:
        """Copy the write-ahead log back into the file as far as no reader needs it (never waits)."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()


class AsyncSqliteStore:
    """`SqliteStore` as a `ResponseStore`: each call on the loop unless it would wait (see the module).

    `fast` is the loop's connection (no busy timeout, no checkpoints), `slow` the thread's.
    """

    def __init__(self, fast: SqliteStore, slow: SqliteStore) -> None:
        import sqlite3

        self.fast, self.slow, self._sqlite = fast, slow, sqlite3
        self._writes = 0
        self._checkpoint: asyncio.Future[None] | None = None

    @classmethod
    async def open(cls, path: Path) -> AsyncSqliteStore:
        """Open (or create) the file at `path`; `StoreUnavailable` if it cannot be."""
        import sqlite3

        try:
            slow = await asyncio.to_thread(SqliteStore, path)  # (it makes the schema: it may wait)
            fast = await asyncio.to_thread(SqliteStore, path, wait=0, checkpoints=False)
        except (sqlite3.Error, OSError) as error:
            raise StoreUnavailable(f"cannot open the store {path}: {error}") from None
        return cls(fast, slow)

    def get(self, response_id: str) -> asyncio.Future[StoredResponse | None]:
        """See `SqliteStore.get`."""
        return self._run("get", response_id)

    def reserve(self, response_id: str) -> asyncio.Future[None]:
        """See `SqliteStore.reserve`."""
        return self._written(self._run("reserve", response_id))

    def put(self, response_id: str, stored: StoredResponse) -> asyncio.Future[None]:
        """See `SqliteStore.put`."""
        return self._written(self._run("put", response_id, stored))

    def write(self, response_id: str, stored: StoredResponse, ended: Ended) -> None:
        """See `ResponseStore.write`."""
        hand_on(self.put(response_id, stored), ended)

    def delete(self, response_id: str) -> asyncio.Future[bool]:
        """See `SqliteStore.delete`."""
        return self._written(self._run("delete", response_id))

    def release(self, response_id: str) -> asyncio.Future[None]:
        """See `SqliteStore.release`."""
        return self._written(self._run("release", response_id))

    def ping(self) -> asyncio.Future[None]:
        """See `SqliteStore.ping`."""
        return self._run("ping")

    async def close(self) -> None:
        """Close the file (after a checkpoint under way)."""
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        await asyncio.to_thread(self.fast.close)
        await asyncio.to_thread(self.slow.close)

    def _run(self, name: str, *args: Any) -> asyncio.Future[Any]:
        """`name(*args)` on the loop's connection (a finished future: no task, no wait), or in a
        thread on the other when a lock is held."""
        done = asyncio.get_running_loop().create_future()
        try:
            try:
                done.set_result(getattr(self.fast, name)(*args))
                return done
            except self._sqlite.OperationalError as error:
                if error.sqlite_errorcode & 0xFF not in _BUSY:
                    raise
            return asyncio.ensure_future(self._in_thread(name, args))
        except self._sqlite.Error as error:
            done.set_exception(StoreUnavailable(f"the store failed: {error}"))
            return done

    async def _in_thread(self, name: str, args: tuple[Any, ...]) -> Any:
        try:
            return await asyncio.to_thread(getattr(self.slow, name), *args)
        except self._sqlite.Error as error:
            raise StoreUnavailable(f"the store failed: {error}") from None

    def _written(self, call: asyncio.Future[T]) -> asyncio.Future[T]:
        """`call`, a write, counted: every `CHECKPOINT_EVERY`, a checkpoint in a thread (unless one runs)."""
        self._writes += 1
        if self._writes % CHECKPOINT_EVERY == 0 and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.ensure_future(self._checkpoint_log())
        return call

    async def _checkpoint_log(self) -> None:
        import sqlite3

        with contextlib.suppress(sqlite3.Error):  # (a failed one is tried again CHECKPOINT_EVERY writes on)
            await asyncio.to_thread(self.slow.checkpoint)


def hand_on(call: asyncio.Future[Any], ended: Ended) -> None:
    """`call`'s outcome to `ended` (see `ResponseStore.write`): at once if it is done, else as it ends."""
    if call.done():
        ended(_failure(call))
    else:
        call.add_done_callback(lambda call: ended(_failure(call)))


def _failure(call: asyncio.Future[Any]) -> BaseException | None:
    return asyncio.CancelledError() if call.cancelled() else call.exception()
