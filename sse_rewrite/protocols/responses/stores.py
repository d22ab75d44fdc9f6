"""Which store `--store` names: `open_store` opens it (SQLite file or PostgreSQL database)."""

from __future__ import annotations

from pathlib import Path

from .store import AsyncSqliteStore

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .store import ResponseStore


async def open_store(where: Path | str | None, pool_size: int) -> ResponseStore | None:
    """The store at `where` (a file, a `postgresql://` URL, or None for none), open and its schema made.

    Raises `StoreUnavailable` with a message fit for the user when it cannot be opened.
    """
    if isinstance(where, str):
        from .store_postgres import PostgresStore  # psycopg is imported by this store only

        return await PostgresStore.open(where, pool_size=pool_size)
    return None if where is None else await AsyncSqliteStore.open(where)


async def check_store(where: Path | str | None, pool_size: int) -> None:
    """Open and close the store once (before workers fork): `StoreUnavailable` if it cannot be."""
    store = await open_store(where, pool_size)
    if store is not None:
        await store.close()
