"""The SQLite store behind previous_response_id: it persists, forgets, and stays bounded."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from sse_rewrite.cli import cli
from sse_rewrite.options import take_options
from sse_rewrite.protocols.responses import store as store_module
from sse_rewrite.protocols.responses.store import (
    AsyncSqliteStore,
    SqliteStore,
    StoredResponse,
    default_store_path,
)
from sse_rewrite.serve.settings import settings_from

STORED = StoredResponse({"id": "resp_1", "output": []}, [{"role": "user", "content": "hi"}])


def test_a_response_persists_across_connections_until_deleted(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "deep" / "r.sqlite3")
    store.put("resp_1", STORED)
    store.close()
    store = SqliteStore(tmp_path / "deep" / "r.sqlite3")
    assert store.get("resp_1") == STORED and store.get("resp_2") is None
    assert store.delete("resp_1") and not store.delete("resp_1")
    assert store.get("resp_1") is None
    store.close()


def test_only_the_newest_rows_are_kept(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "r.sqlite3", max_rows=2)
    for number in range(4):
        store.put(f"resp_{number}", STORED)
    assert [store.get(f"resp_{n}") is not None for n in range(4)] == [False, False, True, True]
    store.close()


def test_a_response_counts_from_its_write_not_its_reservation(tmp_path: Path) -> None:
    """A stream reserved first and stored last is the newest: the bound trims the others."""
    store = SqliteStore(tmp_path / "r.sqlite3", max_rows=2)
    store.reserve("resp_long")
    for number in range(2):
        store.put(f"resp_{number}", STORED)
    store.put("resp_long", STORED)
    assert [store.get(rid) is not None for rid in ("resp_0", "resp_1", "resp_long")] == [False, True, True]
    store.close()


def test_responses_past_the_age_bound_are_gone(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "r.sqlite3", max_age=-1.0)  # everything is already too old
    store.put("resp_1", STORED)
    assert store.get("resp_1") is None
    store.close()


@pytest.mark.parametrize("earlier_index", [pytest.param(False, id="new-file"),
                                           pytest.param(True, id="file-with-an-earlier-releases-index")])
def test_responses_past_the_age_bound_are_deleted_by_the_next_write(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, earlier_index: bool) -> None:
    """Rows are read from the oldest (the rowid order), not through an index on `created`."""
    if earlier_index:
        with sqlite3.connect(tmp_path / "r.sqlite3") as db:
            db.executescript("CREATE TABLE responses (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                             "response BLOB NOT NULL, conversation BLOB NOT NULL); "
                             "CREATE INDEX responses_created ON responses (created);")
    now = [1000.0]
    monkeypatch.setattr(store_module, "time", SimpleNamespace(time=lambda: now[0]))
    store = SqliteStore(tmp_path / "r.sqlite3", max_age=100.0)
    store.reserve("resp_reserved")
    for number, written in enumerate((1000.0, 1050.0, 1090.0)):
        now[0] = written
        store.put(f"resp_{number}", STORED)
    now[0] = 1160.0  # resp_0 and resp_1 (and the reservation) are past the bound now, resp_2 is not
    store.put("resp_3", STORED)
    with sqlite3.connect(tmp_path / "r.sqlite3") as db:
        kept = [row[0] for row in db.execute("SELECT id FROM responses ORDER BY rowid")]
        indexes = db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name = "
                             "'responses_created'").fetchall()
    assert kept == ["resp_2", "resp_3"] and indexes == []
    store.close()


def test_calls_run_on_the_loop_when_no_lock_is_held(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No thread hop for a store nobody else writes: the loop's connection answers."""
    async def run() -> None:
        store = await AsyncSqliteStore.open(tmp_path / "r.sqlite3")
        hops: list[object] = []

        async def no_thread(call: object, *args: object) -> None:
            hops.append(call)
        monkeypatch.setattr(asyncio, "to_thread", no_thread)
        await store.reserve("resp_1")
        await store.put("resp_1", STORED)
        assert await store.get("resp_1") == STORED
        assert await store.delete("resp_1") and await store.get("resp_1") is None
        await store.ping()
        assert hops == []
        monkeypatch.undo()
        await store.close()
    asyncio.run(run())


def test_a_write_that_meets_another_writers_lock_waits_in_a_thread(tmp_path: Path) -> None:
    """The loop's connection never waits: a locked write goes whole to the thread, which waits."""
    async def run() -> None:
        store = await AsyncSqliteStore.open(tmp_path / "r.sqlite3")
        other = sqlite3.connect(tmp_path / "r.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writing
        writing = asyncio.ensure_future(store.put("resp_1", STORED))
        assert await store.get("resp_0") is None  # readers are not held up meanwhile
        await asyncio.sleep(0.05)
        assert not writing.done()  # (it cannot end while the lock is held)
        other.execute("COMMIT")
        await writing
        assert await store.get("resp_1") == STORED
        other.close()
        await store.close()
    asyncio.run(run())


def test_the_log_is_checkpointed_in_the_background(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The loop's connection never checkpoints; every CHECKPOINT_EVERY writes the thread's does."""
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 3)

    async def run() -> None:
        store = await AsyncSqliteStore.open(tmp_path / "r.sqlite3")
        assert store.fast._db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        for number in range(7):
            await store.put(f"resp_{number}", STORED)
            if store._checkpoint is not None:
                await store._checkpoint  # (one under way is not started twice: let it end)
        await store.close()

    checkpoints: list[int] = []
    monkeypatch.setattr(SqliteStore, "checkpoint", lambda self: checkpoints.append(1))
    asyncio.run(run())
    assert len(checkpoints) == 2
    fresh = sqlite3.connect(tmp_path / "r.sqlite3")
    assert fresh.execute("SELECT count(*) FROM responses").fetchone() == (7,)
    fresh.close()


def test_the_default_file_is_under_the_user_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_store_path() == tmp_path / "sse-rewrite" / "responses.sqlite3"


@pytest.mark.parametrize(("args", "expected"), [
    ([], "default"), (["--store", "none"], None), (["--store", "x/r.sqlite3"], Path("x/r.sqlite3"))])
def test_the_store_option(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str],
                          expected: object) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    command = cli.commands["serve"]  # type: ignore[attr-defined]
    params = dict(command.make_context("serve", ["--upstream", "http://127.0.0.1:9/v1", *args]).params)
    params.pop("workers")
    settings = settings_from(params, take_options(params))
    assert settings.store == (default_store_path() if expected == "default" else expected)


def test_a_response_given_as_bytes_is_stored_as_they_are_and_decoded_when_read(tmp_path: Path) -> None:
    """The bytes a client got are the row (not encoded again); a read decodes only what it reads."""
    given = b'{"id":  "resp_1", "output": []}'  # (spaced as orjson never writes)
    store = SqliteStore(tmp_path / "r.sqlite3")
    store.put("resp_1", StoredResponse(given, STORED.conversation))
    with sqlite3.connect(tmp_path / "r.sqlite3") as db:
        assert db.execute("SELECT response FROM responses").fetchone()[0] == given
    read = store.get("resp_1")
    assert read is not None and read.response_json() == given and read == STORED
    assert read.conversation == STORED.conversation and read.response == {"id": "resp_1", "output": []}
    store.close()
