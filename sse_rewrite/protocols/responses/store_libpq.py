"""The PostgreSQL store's statements on libpq directly, each answered by the connection's own reader.

psycopg's cursor spends more Python per call (query conversion, adapters, its prepared
statement bookkeeping, a timer and a reader registration per wait) than the store needs for
a few fixed statements: here each is prepared once per connection under its own name, sent
with its values already in wire form (ids and numbers as text, JSON bodies as raw `bytea`),
and its result read in binary, through `psycopg.pq` (the documented libpq wrapper) on the
connection psycopg opened.

A `Session` holds one connection for the store: its socket's reader is registered with
the loop once, for as long as the session lives, and reads every result there; `run`
sends a statement and its reader hands the result to the given callback as it ends, so a
statement costs no task, no coroutine, no registration and no turn of the loop of its
own (the store sets its caller's future there). The statement runs to its end whoever waits for it (a
cancelled waiter cancels its wait, never the write). Between statements the reader drains
what an idle connection receives (a notice, the server closing it): a connection the
server closed is noticed there, at once, and handed to `on_lost`. Failures are psycopg's
errors: `OperationalError` once the connection is lost, else `DatabaseError`.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg.pq.abc import PGresult

TEXT, BYTEA, FLOAT8, INT8 = 25, 17, 701, 20  # the parameters' type oids


class Statement:
    """One fixed statement: its name, its `$n` text, its parameters' types and wire formats."""

    __slots__ = ("formats", "name", "text", "types")

    def __init__(self, name: str, text: str, types: Sequence[int]) -> None:
        self.name, self.text, self.types = name.encode(), text.encode(), tuple(types)
        self.formats = tuple(1 if oid == BYTEA else 0 for oid in self.types)  # bytea raw, the rest text


_PREPARED: weakref.WeakKeyDictionary[AsyncConnection, set[bytes]] = weakref.WeakKeyDictionary()
"""The statements each open connection has prepared: it outlives a `Session` when it goes back to its pool."""
TRANSACTION_IDLE, _FATAL_ERROR, _CONNECTION_OK = 0, 7, 0  # PQTRANS_IDLE, PGRES_FATAL_ERROR, CONNECTION_OK


Then = Callable[["PGresult | None", "Exception | None"], object]
"""What is called with a statement's result, or its error (psycopg's), as it ends."""


class Session:
    """A connection in the store's hands, its reader registered for the session's life.

    `on_done(session)` is called when a statement has ended on a connection that is still
    good (the session can take the next one); `on_lost(session)` once, when the connection is
    lost (the reader is gone then). One statement at a time: `busy` says whether one runs.
    """

    __slots__ = ("_errors", "_failed", "_fd", "_last", "_loop", "_on_done", "_on_lost", "_pending", "_then",
                 "connection", "lost", "pgconn", "prepared")

    def __init__(self, connection: AsyncConnection, on_done: Callable[[Session], object],
                 on_lost: Callable[[Session], object]) -> None:
        import psycopg

        self._errors = psycopg.Error  # (psycopg is imported when a store opens: never at start-up)
        self.connection, self.pgconn = connection, connection.pgconn
        self.prepared = _PREPARED.setdefault(connection, set())  # (a pooled one may have come before)
        self._on_done, self._on_lost = on_done, on_lost
        self._then: Then | None = None
        self._pending: tuple[Statement, Sequence[bytes | None]] | None = None  # run once it is prepared
        self._last: PGresult | None = None
        self._failed: PGresult | None = None
        self.lost = False
        self._loop, self._fd = asyncio.get_running_loop(), self.pgconn.socket
        self._loop.add_reader(self._fd, self._readable)

    @property
    def busy(self) -> bool:
        """Whether a statement is running."""
        return self._then is not None

    def run(self, statement: Statement, values: Sequence[bytes | None], then: Then) -> None:
        """Send `statement` with `values` (autocommit); `then` gets its result (in binary) or its error.

        (From the reader, as the statement ends: `then` must not wait or raise.)
        """
        self._then = then
        pgconn = self.pgconn
        try:
            if statement.name in self.prepared:
                pgconn.send_query_prepared(statement.name, values, statement.formats, 1)
            else:
                self._pending = statement, values
                pgconn.send_prepare(statement.name, statement.text, statement.types)
            if pgconn.flush():  # only when the socket's buffer was full: the rest when it can take it
                self._loop.add_writer(self._fd, self._writable)
        except self._errors as error:  # (the connection is gone)
            self._lose(error)

    async def result(self, statement: Statement, values: Sequence[bytes | None]) -> PGresult:
        """`statement`'s result, awaited (`run` with a future)."""
        future: asyncio.Future[PGresult] = self._loop.create_future()

        def then(result: PGresult | None, error: Exception | None) -> None:
            if not future.done():
                future.set_exception(error) if error is not None else future.set_result(result)  # type: ignore[arg-type]
        self.run(statement, values, then)
        return await future

    def close(self) -> None:
        """Stop reading the connection (it goes back to its pool or is closed)."""
        if not self.lost:
            self.lost = True  # (to this session: it reads no more)
            self._loop.remove_reader(self._fd)

    def _flush(self) -> None:
        if self.pgconn.flush():  # only when the socket's buffer was full: the rest when it can take it
            self._loop.add_writer(self._fd, self._writable)

    def _writable(self) -> None:
        try:
            if not self.pgconn.flush():
                self._loop.remove_writer(self._fd)
        except self._errors as error:
            self._lose(error)

    def _readable(self) -> None:
        """The socket has something: the running statement's results, or an idle connection's news.

        A statement's results end with None; then its outcome is handed on (or the statement it
        was prepared for is sent): inline, as this is every statement's path.
        """
        pgconn = self.pgconn
        try:
            pgconn.consume_input()  # raises OperationalError once the connection is lost
            if pgconn.status != _CONNECTION_OK:
                raise _error("the server closed the connection", lost=True)
            pgconn.notifies()  # (none are asked for: drained)
            while (then := self._then) is not None and not pgconn.is_busy():
                result = pgconn.get_result()
                if result is not None:
                    if result.status == _FATAL_ERROR and self._failed is None:
                        self._failed = result
                    self._last = result
                    continue
                failed, last = self._failed, self._last
                self._failed = self._last = None
                if self._pending is not None and failed is None:
                    self._send_pending()
                    continue
                self._pending = self._then = None
                self._on_done(self)
                if failed is not None or last is None:
                    message = failed.error_message.decode(errors="replace") if failed else "no result"
                    then(None, _error(message.strip(), lost=False))
                else:
                    then(last, None)
        except self._errors as error:
            self._lose(error)

    def _send_pending(self) -> None:
        """The statement is prepared now: send it as `run` was asked to."""
        assert self._pending is not None
        (statement, values), self._pending = self._pending, None
        self.prepared.add(statement.name)
        self.pgconn.send_query_prepared(statement.name, values, statement.formats, 1)
        self._flush()

    def _lose(self, error: BaseException) -> None:
        """The connection is lost: stop reading it, fail the running statement, tell the store."""
        if self.lost:
            return
        self.close()
        self._loop.remove_writer(self._fd)
        then, self._then = self._then, None
        self._on_lost(self)
        if then is not None:
            then(None, _error(str(error) or type(error).__name__, lost=True))

    def idle(self) -> bool:
        """Whether the connection is ready for another call (no transaction open, no query running)."""
        return not self.lost and self._then is None and self.pgconn.transaction_status == TRANSACTION_IDLE


def _error(message: str, *, lost: bool) -> Exception:
    import psycopg

    return (psycopg.OperationalError if lost else psycopg.DatabaseError)(message)
