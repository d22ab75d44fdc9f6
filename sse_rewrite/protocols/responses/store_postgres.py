"""`--store postgresql://…`: the Responses store in a PostgreSQL database that several instances share.

The same `ResponseStore` as the SQLite file (`store.py`), on `psycopg` 3 and an async
`psycopg_pool` pool of at most `pool_size` connections (the optional extra
`sse-rewrite[postgres]`; imported only when such a store is opened). A connection taken from
the pool is held between calls: the pool's lease cost as much Python as the query; it goes
back when it is lost (noticed by its reader even while idle) or the store closes. While the
pool's size of them are held, a call that finds none idle waits for the next held one to end
its statement (the pool itself has none left to give). Every call's
statement runs on libpq directly (`store_libpq.py`), prepared once per connection, and returns
a future the connection's reader finishes: no task unless the call must wait for the pool or
try again on a connection of its own. The schema is made on a connection of its own at start; the
table, its bounds and the statements are `store_postgres_sql.py`.

- **Writes are whole**: a response is reserved (a row with no body) before its answer
  starts and written in one statement when it ends, so a reader on any instance sees
  nothing, the reservation, or the whole response; never half of it.
- **Errors**: an unreachable server at start is a `StoreUnavailable` (the server then
  refuses to start); later, every failed call is one. When a pooled connection fails or
  none comes (a database restarted or down, under a pool whose reconnections back off),
  the call is tried once more on a connection of its own, and for `BYPASS` seconds after
  the last such failure calls skip the pool: while the database is down they fail at once
  (connection refused) rather than wait for the pool, and once it is back they work at
  once, until the pool has refilled. Such connections are bounded too (`pool_size` at a
  time), so a process holds at most twice `pool_size` connections.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence

from .store import MAX_AGE, MAX_ROWS, StoredResponse, StoreUnavailable
from .store_libpq import TRANSACTION_IDLE, Session, Statement
from .store_postgres_sql import (
    DELETE,
    GET,
    PING,
    PUT_AND_TRIM,
    RELEASE,
    RESERVE,
    create_schema,
    deleted,
    stored_response,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    from psycopg import AsyncConnection
    from psycopg.pq.abc import PGresult
    from psycopg_pool import AsyncConnectionPool

    from .store import Ended

    T = TypeVar("T")

POOL_SIZE: Final = 10
"""Connections per process at most (`--store-pool`)."""
WAIT_FOR_CONNECTION: Final = 5.0
"""Seconds a call waits for a free pooled connection, or for the server at start."""
BYPASS: Final = 5.0
"""Seconds calls skip the pool after a pooled connection failed (see the module docstring)."""
LOOK_AGAIN: Final = 0.25
"""Seconds between looks, while a call waits for the pool, at whether the pool's own attempts to
connect fail (then the database is down: the call stops waiting)."""


def is_postgres_url(value: str) -> bool:
    """Whether `--store` names a PostgreSQL database rather than a file."""
    return value.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """`url` without its password, for a log line."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    return f"{scheme}{sep}{credentials.partition(':')[0]}:***@{host}"


class PostgresStore:
    """Responses in a PostgreSQL table, through a bounded async pool.

    Each call returns a future (no task: a held connection's reader finishes it, see
    `store_libpq.py`), and `write` hands its outcome to a callback there instead; only a call
    that must first take a connection from the pool, or try again on one of its own, runs as
    a task.
    """

    def __init__(self, url: str, pool: AsyncConnectionPool, max_age: float, max_rows: int) -> None:
        self._url, self._pool, self._max_age, self._max_rows = url, pool, max_age, max_rows
        self._own = asyncio.Semaphore(pool.max_size)  # connections of its own at a time
        self._bypass_until = 0.0
        self._age, self._rows = repr(float(max_age)).encode(), b"%d" % max_rows  # as the statements take them
        self._idle: list[Session] = []  # held connections, ready for the next call
        self._held = 0  # connections taken from the pool and held, idle or busy
        self._turns: deque[asyncio.Future[Session | None]] = deque()  # calls waiting for a held one
        self._loop = asyncio.get_running_loop()
        self._chores: set[asyncio.Task[Any]] = set()  # connections going back to the pool
        self._errors_seen = 0  # the pool's failed attempts to connect, as of its last connection given
        import psycopg

        self._lost_error = psycopg.OperationalError

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE, max_age: float = MAX_AGE,
                   max_rows: int = MAX_ROWS) -> PostgresStore:
        """Connect to `url` and create the table if it is not there; `StoreUnavailable` if that fails."""
        try:
            import psycopg
            from psycopg_pool import AsyncConnectionPool
        except ImportError:
            raise StoreUnavailable("--store postgresql://… needs psycopg: "
                                   "pip install 'sse-rewrite[postgres]'") from None
        pool = AsyncConnectionPool(url, min_size=1, max_size=pool_size, open=False,
                                   timeout=WAIT_FOR_CONNECTION, name="sse-rewrite-store",
                                   kwargs={"autocommit": True, "connect_timeout": int(WAIT_FOR_CONNECTION)})
        try:
            # one connection of its own first: a wrong address or database fails at once, and says so
            async with await psycopg.AsyncConnection.connect(
                    url, autocommit=True, connect_timeout=int(WAIT_FOR_CONNECTION)) as first:
                await create_schema(first)
            await pool.open(wait=True, timeout=WAIT_FOR_CONNECTION)
        except psycopg.Error as error:
            await pool.close()
            raise StoreUnavailable(f"cannot use the store database {redacted(url)}: {_first_line(error)}") \
                from None
        return cls(url, pool, max_age, max_rows)

    def get(self, response_id: str) -> asyncio.Future[StoredResponse | None]:
        """The stored response, `PENDING` while reserved, or None (unknown, or too old)."""
        return self._call(GET, (response_id.encode(), self._age), stored_response)

    def reserve(self, response_id: str) -> asyncio.Future[None]:
        """Mark `response_id` as being answered (nothing happens if it is already there)."""
        return self._call(RESERVE, (response_id.encode(),), _nothing)

    def put(self, response_id: str, stored: StoredResponse) -> asyncio.Future[None]:
        """Write the whole response and trim to the bounds: one statement."""
        values = (response_id.encode(), *stored.encoded(), self._age, self._rows)
        return self._call(PUT_AND_TRIM, values, None)  # type: ignore[arg-type]

    def write(self, response_id: str, stored: StoredResponse, ended: Ended) -> None:
        """`put`, its outcome handed to `ended` as the statement ends (see `ResponseStore.write`)."""
        values = (response_id.encode(), *stored.encoded(), self._age, self._rows)
        self._send(PUT_AND_TRIM, values, None, None, ended)

    def delete(self, response_id: str) -> asyncio.Future[bool]:
        """Forget `response_id`; whether it was there."""
        return self._call(DELETE, (response_id.encode(),), deleted)

    def release(self, response_id: str) -> asyncio.Future[None]:
        """Drop the reservation of `response_id` if it is still only reserved (never a stored response)."""
        return self._call(RELEASE, (response_id.encode(),), _nothing)

    def ping(self) -> asyncio.Future[None]:
        """Raise `StoreUnavailable` unless the database answers."""
        return self._call(PING, (), _nothing)

    async def close(self) -> None:
        """Close the pool and its connections."""
        await self._give_back()
        await asyncio.gather(*self._chores, return_exceptions=True)
        await self._pool.close()

    def _call(self, statement: Statement, values: Sequence[bytes], read: Callable[[PGresult], T],
              ) -> asyncio.Future[T]:  # fmt: skip
        """`statement` on an idle held connection (no task), else taken from the pool or its own."""
        answer: asyncio.Future[T] = self._loop.create_future()
        self._send(statement, values, read, answer, None)
        return answer

    def _send(self, statement: Statement, values: Sequence[bytes], read: Callable[[PGresult], T] | None,
              answer: asyncio.Future[T] | None, ended: Ended | None) -> None:
        """`statement`, its outcome to `answer` (unless its waiter has gone) or to `ended`: from the held
        connection's reader (no task, no turn of the loop), else as the task that ran it ends."""
        bypass = self._bypass_until
        if not self._idle or (bypass and self._bypassing(bypass)):
            running = asyncio.ensure_future(self._run(statement, values, read))
            running.add_done_callback(lambda running: _settle(running, answer, ended))
            return

        def then(result: PGresult | None, error: Exception | None) -> None:
            """The held connection's statement ended: its outcome, or the call is tried again."""
            if error is None:
                if ended is not None:
                    ended(None)
                elif not answer.done():  # type: ignore[union-attr]  # (else its waiter has gone)
                    answer.set_result(read(result) if read is not None else None)  # type: ignore[union-attr, arg-type]
            elif isinstance(error, self._lost_error):  # the connection was lost: again, on its own
                self._bypass_until = self._loop.time() + BYPASS
                again = asyncio.ensure_future(self._run(statement, values, read, failed_over=True))
                again.add_done_callback(lambda again: _settle(again, answer, ended))
            elif ended is not None:
                ended(_unavailable(error))
            elif not answer.done():  # type: ignore[union-attr]
                answer.set_exception(_unavailable(error))  # type: ignore[union-attr]
        self._idle.pop().run(statement, values, then)

    def _bypassing(self, until: float) -> bool:
        """Whether calls still skip the pool (`BYPASS`); once they no longer do, the mark is cleared."""
        if self._loop.time() < until:
            return True
        self._bypass_until = 0.0
        return False

    async def _run(self, statement: Statement, values: Sequence[bytes], read: Callable[[PGresult], T] | None,
                   *, failed_over: bool = False) -> T | None:
        """`statement` on a connection from the pool, or on one of its own when the pool has none or its one
        failed (`failed_over`: a held one did: drop the others and go straight to one of its own)."""
        import psycopg

        try:
            if failed_over:
                await self._failed_over()
            elif self._loop.time() >= self._bypass_until:
                try:
                    session = await self._next_session()
                    return _read(read, await session.result(statement, values))
                except psycopg.OperationalError:  # (the pool's timeout too) a database restarted or down
                    self._bypass_until = self._loop.time() + BYPASS
                    await self._failed_over()
            async with self._own:
                try:
                    async with await psycopg.AsyncConnection.connect(
                            self._url, autocommit=True, connect_timeout=int(WAIT_FOR_CONNECTION)) as db:
                        session = Session(db, _nothing, _nothing)
                        try:
                            return _read(read, await session.result(statement, values))
                        finally:
                            session.close()
                except psycopg.OperationalError:
                    self._bypass_until = self._loop.time() + BYPASS
                    raise
        except psycopg.Error as error:
            raise _unavailable(error) from None

    async def _next_session(self) -> Session:
        """An idle held connection; else one more from the pool while fewer than its size are held;
        else the next held one to end its statement (`psycopg.OperationalError` if none comes in time)."""
        import psycopg

        while True:
            if self._idle:
                return self._idle.pop()
            if self._held < self._pool.max_size:
                self._held += 1
                try:
                    return Session(await self._pooled(), self._done, self._lost)
                except BaseException:
                    self._held -= 1
                    raise
            turn: asyncio.Future[Session | None] = self._loop.create_future()
            self._turns.append(turn)
            try:
                async with asyncio.timeout(WAIT_FOR_CONNECTION):
                    session = await turn
            except TimeoutError:
                raise psycopg.OperationalError("no pooled connection came free in time") from None
            except BaseException:  # (cancelled: a connection handed over meanwhile goes to the next)
                if turn.done() and not turn.cancelled() and (handed := turn.result()) is not None:
                    self._done(handed)
                raise
            if session is not None:  # (None: one was lost, so the pool can give another)
                return session

    async def _pooled(self) -> AsyncConnection:
        """A connection from the pool, waited for up to its timeout; but once the pool fails to
        connect (the database went away: a held connection was dropped, the pool tries to replace
        it), `PoolTimeout` at the next look rather than after the whole wait."""
        from psycopg_pool import PoolTimeout

        pool, loop = self._pool, self._loop
        deadline = loop.time() + WAIT_FOR_CONNECTION
        while True:
            try:
                connection = await pool.getconn(timeout=min(LOOK_AGAIN, max(deadline - loop.time(), 0.01)))
            except PoolTimeout:
                failing = pool.get_stats().get("connections_errors", 0) > self._errors_seen
                if failing or loop.time() >= deadline:
                    raise
                continue
            self._errors_seen = pool.get_stats().get("connections_errors", 0)
            return connection

    def _done(self, session: Session) -> None:
        """`session` ended a statement: to the first call waiting for one, else to the idle ones."""
        if session.lost or session.pgconn.transaction_status != TRANSACTION_IDLE:  # (`idle()`, inline)
            self._lost(session)
            return
        while self._turns:
            turn = self._turns.popleft()
            if not turn.done():
                turn.set_result(session)
                return
        self._idle.append(session)

    def _lost(self, session: Session) -> None:
        """Hand `session`'s connection back to the pool (which checks it, and drops it if it is broken)."""
        session.close()
        if session in self._idle:
            self._idle.remove(session)
        self._held -= 1
        while self._turns:  # a waiting call takes the pool's next connection instead
            turn = self._turns.popleft()
            if not turn.done():
                turn.set_result(None)
                break
        chore = asyncio.ensure_future(self._pool.putconn(session.connection))
        self._chores.add(chore)
        chore.add_done_callback(self._chores.discard)

    async def _failed_over(self) -> None:
        """A held connection failed: hand the idle ones back, and have the pool drop its dead ones."""
        await self._give_back()
        await self._pool.check()

    async def _give_back(self) -> None:
        """Hand every idle held connection back to the pool (which checks them)."""
        idle, self._idle = self._idle, []
        self._held -= len(idle)
        for session in idle:
            session.close()
            await self._pool.putconn(session.connection)


def _read(read: Callable[[PGresult], T] | None, result: PGresult) -> T | None:
    return None if read is None else read(result)


def _nothing(*_: object) -> None:
    return None


def _settle(running: asyncio.Future[Any], answer: asyncio.Future[Any] | None, ended: Ended | None) -> None:
    """`answer` (unless its waiter has gone), or `ended`, as the task `running` ended."""
    if ended is not None:
        ended(asyncio.CancelledError() if running.cancelled() else running.exception())
    elif answer is not None and not answer.done():
        if running.cancelled():
            answer.cancel()
        elif (error := running.exception()) is not None:
            answer.set_exception(error)
        else:
            answer.set_result(running.result())


def _unavailable(error: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"the store database failed: {_first_line(error)}")


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
