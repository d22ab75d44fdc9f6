"""The PostgreSQL store's hot statements (a response's write, its read, a reservation) on libpq directly.

psycopg's cursor spends more Python per call (query conversion, adapters, its prepared
statement bookkeeping, a timer per wait) than the store needs for a few fixed statements:
here each is prepared once per connection under its own name, sent with its values
already in wire form (ids and numbers as text, JSON bodies as raw `bytea`), and its
result read in binary, through `psycopg.pq` (the documented libpq wrapper) on the
connection psycopg opened, which is left idle after, as psycopg expects it. A `Session`
holds one connection for the store, with the statements it has prepared. Failures
raise psycopg's errors: `OperationalError` once the connection is lost, else
`DatabaseError`.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg.pq.abc import PGconn, PGresult

TEXT, BYTEA, FLOAT8, INT8 = 25, 17, 701, 20  # the parameters' type oids


class Statement:
    """One fixed statement: its name, its `$n` text, its parameters' types and wire formats."""

    __slots__ = ("formats", "name", "text", "types")

    def __init__(self, name: str, text: str, types: Sequence[int]) -> None:
        self.name, self.text, self.types = name.encode(), text.encode(), tuple(types)
        self.formats = tuple(1 if oid == BYTEA else 0 for oid in self.types)  # bytea raw, the rest text


_PREPARED: weakref.WeakKeyDictionary[AsyncConnection, set[bytes]] = weakref.WeakKeyDictionary()
"""The statements each open connection has prepared: it outlives a `Session` when it goes back to its pool."""


class Session:
    """A connection in the store's hands for a call: its cursor (for the rare statements) and the
    `Statement`s it has prepared."""

    __slots__ = ("connection", "cursor", "pgconn", "prepared")

    def __init__(self, connection: AsyncConnection) -> None:
        self.connection, self.cursor, self.pgconn = connection, connection.cursor(), connection.pgconn
        self.prepared = _PREPARED.setdefault(connection, set())  # (a pooled one may have come before)

    def idle(self) -> bool:
        """Whether the connection is ready for another call (no transaction open, no query running)."""
        return self.pgconn.transaction_status == _IDLE

    async def run(self, statement: Statement, values: Sequence[bytes | None]) -> PGresult:
        """Run `statement` with `values` (autocommit); its result, in binary."""
        pgconn = self.pgconn
        if statement.name not in self.prepared:
            pgconn.send_prepare(statement.name, statement.text, statement.types)
            await _result(pgconn)
            self.prepared.add(statement.name)
        pgconn.send_query_prepared(statement.name, values, statement.formats, 1)
        return await _result(pgconn)


_IDLE, _FATAL_ERROR, _CONNECTION_OK = 0, 7, 0  # libpq's PQTRANS_IDLE, PGRES_FATAL_ERROR, CONNECTION_OK


async def _result(pgconn: PGconn) -> PGresult:
    """The result of the statement just sent (every result read, so the connection is idle after)."""
    loop = asyncio.get_running_loop()
    while pgconn.flush():  # only when the socket's buffer was full
        await _ready(pgconn.socket, loop.add_writer, loop.remove_writer)
    last: PGresult | None = None
    failed: PGresult | None = None
    while True:
        while pgconn.is_busy():
            await _ready(pgconn.socket, loop.add_reader, loop.remove_reader)
            pgconn.consume_input()  # raises OperationalError once the connection is lost
        result = pgconn.get_result()
        if result is None:
            break
        if result.status == _FATAL_ERROR:
            failed = failed or result
        last = result
    if failed is not None or last is None:
        import psycopg

        message = failed.error_message.decode(errors="replace") if failed else "no result"
        lost = pgconn.status != _CONNECTION_OK
        raise (psycopg.OperationalError if lost else psycopg.DatabaseError)(message.strip())
    return last


async def _ready(fd: int, watch: Callable[..., None], unwatch: Callable[[int], object]) -> None:
    """Wait until `fd` is ready for what `watch` watches."""
    future = asyncio.get_running_loop().create_future()
    watch(fd, _wake, future)
    try:
        await future
    finally:
        unwatch(fd)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
