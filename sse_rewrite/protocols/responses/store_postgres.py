"""`--store postgresql://…`: the Responses store in a PostgreSQL database that several instances share.

The same `ResponseStore` as the SQLite file (`store.py`), on `psycopg` 3 and an async
`psycopg_pool` pool of at most `pool_size` connections (the optional extra
`sse-rewrite[postgres]`; imported only when such a store is opened).

- **Schema**: one table, `sse_rewrite_responses`, created on first start with `IF NOT
  EXISTS` under a transaction-level advisory lock, so instances starting together do not
  race on the catalogue. Times are the database's own clock (`clock_timestamp()`), never an
  instance's, so the age bound means one thing for all of them.
- **Writes are whole**: a response is reserved (a row with no body) before its answer
  starts and written in one statement when it ends, so a reader on any instance sees
  nothing, the reservation, or the whole response; never half of it.
- **Bounds**: after each write, in the same transaction, rows past `max_age` and all but
  the newest `max_rows` are deleted, by whichever instance holds the trim lock
  (`pg_try_advisory_xact_lock`): the others skip, so concurrent writers never wait on
  each other's deletes or deadlock over them. Reads skip rows past the age bound. The
  write and its trim go as one multi-statement query (one round trip, one implicit
  transaction), its values bound on the client side.
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
from collections.abc import Awaitable, Callable

import orjson

from .store import MAX_AGE, MAX_ROWS, PENDING, StoredResponse, StoreUnavailable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeVar

    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

    T = TypeVar("T")

TABLE: Final = "sse_rewrite_responses"
POOL_SIZE: Final = 10
"""Connections per process at most (`--store-pool`)."""
WAIT_FOR_CONNECTION: Final = 5.0
"""Seconds a call waits for a free pooled connection, or for the server at start."""
BYPASS: Final = 5.0
"""Seconds calls skip the pool after a pooled connection failed (see the module docstring)."""
_SCHEMA_LOCK: Final = 0x55E5_0001  # advisory lock keys: any two numbers this project owns
_TRIM_LOCK: Final = 0x55E5_0002
_SCHEMA: Final = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (id text PRIMARY KEY, "
    "created timestamptz NOT NULL DEFAULT clock_timestamp(), response bytea, conversation bytea)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_created ON {TABLE} (created)",
)
_GET: Final = (f"SELECT response, conversation FROM {TABLE} "
               "WHERE id = %s AND created >= clock_timestamp() - make_interval(secs => %s)")
_RESERVE: Final = f"INSERT INTO {TABLE} (id) VALUES (%s) ON CONFLICT (id) DO NOTHING"
_PUT: Final = (f"INSERT INTO {TABLE} (id, response, conversation) VALUES (%s, %s, %s) ON CONFLICT (id) "
               "DO UPDATE SET created = clock_timestamp(), response = EXCLUDED.response, "
               "conversation = EXCLUDED.conversation")
_TRIMMER: Final = f"(SELECT pg_try_advisory_xact_lock({_TRIM_LOCK}))"  # held to the transaction's end
_PUT_AND_TRIM: Final = (
    f"{_PUT};\n"
    f"DELETE FROM {TABLE} WHERE {_TRIMMER} AND created < clock_timestamp() - make_interval(secs => %s);\n"
    f"DELETE FROM {TABLE} WHERE {_TRIMMER} AND id IN "
    f"(SELECT id FROM {TABLE} ORDER BY created DESC OFFSET %s)")


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
    """Responses in a PostgreSQL table, through a bounded async pool."""

    def __init__(self, url: str, pool: AsyncConnectionPool, max_age: float, max_rows: int) -> None:
        self._url, self._pool, self._max_age, self._max_rows = url, pool, max_age, max_rows
        self._own = asyncio.Semaphore(pool.max_size)  # connections of its own at a time
        self._bypass_until = 0.0

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
            first = await psycopg.AsyncConnection.connect(url, connect_timeout=int(WAIT_FOR_CONNECTION))
            await first.close()
            await pool.open(wait=True, timeout=WAIT_FOR_CONNECTION)
            store = cls(url, pool, max_age, max_rows)
            await store._run(store._create_schema)
        except (psycopg.Error, StoreUnavailable) as error:
            await pool.close()
            raise StoreUnavailable(f"cannot use the store database {redacted(url)}: {_first_line(error)}") \
                from None
        return store

    async def get(self, response_id: str) -> StoredResponse | None:
        """The stored response, `PENDING` while reserved, or None (unknown, or too old)."""
        async def get(db: AsyncConnection) -> StoredResponse | None:
            row = await (await db.execute(_GET, (response_id, self._max_age))).fetchone()
            if row is None:
                return None
            return PENDING if row[0] is None else StoredResponse(orjson.loads(row[0]), orjson.loads(row[1]))
        return await self._run(get)

    async def reserve(self, response_id: str) -> None:
        """Mark `response_id` as being answered (nothing happens if it is already there)."""
        async def reserve(db: AsyncConnection) -> None:
            await db.execute(_RESERVE, (response_id,))
        await self._run(reserve)

    async def put(self, response_id: str, stored: StoredResponse) -> None:
        """Write the whole response, then trim to the bounds, in one transaction."""
        values = (response_id, orjson.dumps(stored.response), orjson.dumps(stored.conversation),
                  self._max_age, self._max_rows)

        async def put(db: AsyncConnection) -> None:
            from psycopg import AsyncClientCursor

            async with AsyncClientCursor(db) as cursor:  # several statements in one query: client binding
                await cursor.execute(_PUT_AND_TRIM, values)
        await self._run(put)

    async def delete(self, response_id: str) -> bool:
        """Forget `response_id`; whether it was there."""
        async def delete(db: AsyncConnection) -> bool:
            return (await db.execute(f"DELETE FROM {TABLE} WHERE id = %s", (response_id,))).rowcount > 0
        return await self._run(delete)

    async def release(self, response_id: str) -> None:
        """Drop the reservation of `response_id` if it is still only reserved (never a stored response)."""
        async def release(db: AsyncConnection) -> None:
            await db.execute(f"DELETE FROM {TABLE} WHERE id = %s AND response IS NULL", (response_id,))
        await self._run(release)

    async def ping(self) -> None:
        """Raise `StoreUnavailable` unless the database answers."""
        async def ping(db: AsyncConnection) -> None:
            await db.execute("SELECT 1")
        await self._run(ping)

    async def close(self) -> None:
        """Close the pool and its connections."""
        await self._pool.close()

    async def _create_schema(self, db: AsyncConnection) -> None:
        async with db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                await db.execute(statement)

    async def _run(self, job: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """`job` on a pooled connection, or on one of its own when the pool has none or its one failed."""
        import psycopg

        loop = asyncio.get_running_loop()
        try:
            if loop.time() >= self._bypass_until:
                try:
                    async with self._pool.connection() as db:
                        return await job(db)
                except psycopg.OperationalError:  # (the pool's timeout too) a database restarted or down
                    self._bypass_until = loop.time() + BYPASS
                    await self._pool.check()  # drop the pool's other dead connections
            async with self._own:
                try:
                    async with await psycopg.AsyncConnection.connect(
                            self._url, autocommit=True, connect_timeout=int(WAIT_FOR_CONNECTION)) as db:
                        return await job(db)
                except psycopg.OperationalError:
                    self._bypass_until = loop.time() + BYPASS
                    raise
        except psycopg.Error as error:
            raise StoreUnavailable(f"the store database failed: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
