"""The PostgreSQL store (`--store postgresql://…`) on a real server: shared, whole, bounded, and a
database that goes away costs no answer.

One server per session (`postgres` in conftest.py), a fresh database per test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import httpx2
import openai
import orjson
import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.protocols.responses.store import PENDING, StoredResponse, StoreUnavailable
from sse_rewrite.protocols.responses.store_postgres import PostgresStore, redacted
from tests.serve.postgres import PostgresServer
from tests.serve.servers import LoopThread, Servers, eventually, sdk_clients, upstream_saw

KIMI = "moonshotai/kimi-k2.5"
SHELL = {"type": "function", "name": "bash", "description": "Run a shell command",
         "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}

Client = Callable[..., openai.OpenAI]


@pytest.fixture
def client() -> Iterator[Client]:
    """Makes official openai SDK clients (see `sdk_clients`)."""
    yield from sdk_clients(openai.OpenAI)


def stored(number: int) -> StoredResponse:
    """A response whose body is big enough that half of it would show."""
    return StoredResponse({"id": f"resp_{number}", "output": [{"text": "x" * 5000, "n": number}]},
                          [{"role": "user", "content": f"turn {number}"}])


def test_a_response_is_reserved_stored_read_and_forgotten(loop_thread: LoopThread, pg_url: str) -> None:
    async def run() -> list[object]:
        store = await PostgresStore.open(pg_url)
        seen: list[object] = [await store.get("resp_1")]
        await store.reserve("resp_1")
        seen.append(await store.get("resp_1"))
        await store.put("resp_1", stored(1))
        await store.release("resp_1")  # a stored response is no reservation: it stays
        seen += [await store.get("resp_1"), await store.delete("resp_1"), await store.delete("resp_1")]
        await store.reserve("resp_2")
        await store.release("resp_2")
        seen.append(await store.get("resp_2"))
        await store.close()
        return seen

    assert loop_thread.run(run()) == [None, PENDING, stored(1), True, False, None]


def test_bodies_are_stored_byte_for_byte(loop_thread: LoopThread, pg_url: str) -> None:
    # what a text-format bytea would read as escapes: backslashes, `\\x41`, quotes; and UTF-8
    body = StoredResponse(orjson.dumps({"id": "resp_b", "text": "a\\b \\x41 \\\\ \"q\" é 漢 \u2028"}),
                          orjson.dumps([{"role": "user", "content": "\\000 \\' ok"}]))

    async def run() -> tuple[bytes, bytes] | None:
        store = await PostgresStore.open(pg_url)
        await store.put("resp_b", body)
        got = await store.get("resp_b")
        await store.close()
        return got.encoded() if got else None

    assert loop_thread.run(run()) == body.encoded()


def test_a_failed_statement_is_the_stores_error_and_the_store_serves_on(loop_thread: LoopThread,
                                                                       pg_url: str) -> None:
    async def run() -> tuple[list[str], StoredResponse | None]:
        import psycopg

        store = await PostgresStore.open(pg_url)
        await store.put("resp_1", stored(1))  # its statements prepared on its held connection
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as db:
            await db.execute("DROP TABLE sse_rewrite_responses")
        errors = []
        for call in (store.get("resp_1"), store.put("resp_2", stored(2)), store.reserve("resp_3")):
            try:
                await call
            except StoreUnavailable as error:
                errors.append(str(error))
        await (await PostgresStore.open(pg_url)).close()  # the table made again
        await store.put("resp_4", stored(4))
        got = await store.get("resp_4")
        await store.close()
        return errors, got

    errors, got = loop_thread.run(run())
    assert len(errors) == 3 and all("does not exist" in error for error in errors), errors
    assert got == stored(4)


def test_an_idle_connection_the_server_closes_is_dropped_at_once(loop_thread: LoopThread,
                                                                 pg_url: str) -> None:
    """The held connection's reader sees the server close it while idle: it goes back to the pool
    then, and the next call takes a good connection from the pool (no failed call, no failover)."""
    async def run() -> tuple[list[bool], StoredResponse | None, bool]:
        import psycopg

        store = await PostgresStore.open(pg_url)
        await store.put("resp_1", stored(1))  # a connection held, idle
        held = list(store._idle)
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as db:
            await db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        for _ in range(100):  # the reader's turn
            if all(session.lost for session in held):
                break
            await asyncio.sleep(0.02)
        dropped = [session.lost and session not in store._idle for session in held]
        got = await store.get("resp_1")
        failed_over = store._bypass_until > 0
        await store.close()
        return dropped, got, failed_over

    dropped, got, failed_over = loop_thread.run(run())
    assert dropped == [True] and got == stored(1) and not failed_over


def test_a_call_after_the_database_went_away_fails_without_the_whole_wait(
    loop_thread: LoopThread, postgres: PostgresServer, pg_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its held connection dropped, the pool tries to replace it and fails: a call that needs a
    connection stops waiting for the pool then, not after the whole wait (30 s here, more than
    this test may take), and is the store's error."""
    from sse_rewrite.protocols.responses import store_postgres

    monkeypatch.setattr(store_postgres, "WAIT_FOR_CONNECTION", 30.0)

    async def run() -> tuple[bool, str]:
        store = await PostgresStore.open(pg_url)
        await store.put("resp_1", stored(1))  # a connection held, idle
        held = list(store._idle)
        postgres.stop()
        for _ in range(100):  # the reader's turn
            if all(session.lost for session in held):
                break
            await asyncio.sleep(0.02)
        try:
            await store.get("resp_1")
        except StoreUnavailable as error:
            return True, str(error)
        finally:
            await store.close()
        return False, ""

    try:
        failed, message = loop_thread.run(run())
    finally:
        postgres.start()
    assert failed and message, message


def test_a_waiter_that_goes_does_not_stop_the_write(loop_thread: LoopThread, pg_url: str) -> None:
    """A write's statement runs to its end when whoever waited for it is cancelled."""
    async def run() -> StoredResponse | None:
        store = await PostgresStore.open(pg_url)
        await store.ping()  # a connection held
        writing = store.put("resp_1", stored(1))

        async def wait() -> None:
            await writing

        waiter = asyncio.ensure_future(wait())
        await asyncio.sleep(0)
        waiter.cancel()
        assert writing.cancelled()  # (the wait for it is over)
        for _ in range(100):
            if store._idle:  # the statement ended: its connection is idle again
                break
            await asyncio.sleep(0.02)
        got = await store.get("resp_1")
        await store.close()
        return got

    assert loop_thread.run(run()) == stored(1)


def test_calls_beyond_the_pools_size_wait_for_a_held_connection(loop_thread: LoopThread, pg_url: str) -> None:
    """More calls at once than the pool holds: each waits for the next held connection to end its
    statement (the pool has none left to give: waiting on it ended in its timeout, 5 s, then a
    failover on connections of its own)."""
    async def run() -> tuple[list[StoredResponse | None], bool, int]:
        store = await PostgresStore.open(pg_url, pool_size=2)
        await asyncio.gather(*(store.put(f"resp_{n}", stored(n)) for n in range(12)))
        got = await asyncio.gather(*(store.get(f"resp_{n}") for n in range(12)))
        failed_over, held = store._bypass_until > 0, store._held
        await store.close()
        return got, failed_over, held

    got, failed_over, held = loop_thread.run(run())
    assert got == [stored(n) for n in range(12)] and not failed_over and held == 2


def test_the_schema_is_made_once_by_instances_starting_together(loop_thread: LoopThread, pg_url: str) -> None:
    async def run() -> StoredResponse | None:
        stores = await asyncio.gather(*(PostgresStore.open(pg_url, pool_size=2) for _ in range(4)))
        await stores[0].put("resp_1", stored(1))
        got = await stores[3].get("resp_1")
        await asyncio.gather(*(store.close() for store in stores))
        return got

    assert loop_thread.run(run()) == stored(1)


def test_concurrent_writers_lose_nothing_and_keep_the_count_bound(loop_thread: LoopThread,
                                                                  pg_url: str) -> None:
    """Two instances (two pools) write 40 responses each at once: every one lands whole until the
    bound trims the oldest. A write whose trim finds another trim running skips it (writers never
    wait on each other), so during a burst the table may briefly hold a row or two over the bound;
    the next write trims it back: after one more write the table holds exactly the bound."""
    async def run() -> tuple[list[StoredResponse | None], int]:
        stores = [await PostgresStore.open(pg_url, pool_size=4, max_rows=30) for _ in range(2)]
        await asyncio.gather(*(stores[n % 2].put(f"resp_{n}", stored(n)) for n in range(80)))
        await stores[1].put("resp_80", stored(80))
        got = [await stores[0].get(f"resp_{n}") for n in range(81)]
        import psycopg

        async with await psycopg.AsyncConnection.connect(pg_url) as db:
            row = await (await db.execute("SELECT count(*) FROM sse_rewrite_responses")).fetchone()
        await asyncio.gather(*(store.close() for store in stores))
        return got, row[0] if row else -1

    got, rows = loop_thread.run(run(), timeout=60)
    assert rows == 30
    kept = [(n, response) for n, response in enumerate(got) if response is not None]
    assert len(kept) == 30 and all(response == stored(n) for n, response in kept)


def test_a_table_an_earlier_version_made_is_numbered_and_bounded(loop_thread: LoopThread,
                                                                 pg_url: str) -> None:
    """A table without `seq` (as the first release made it) gains it at start: its rows are
    kept and read, and the count bound trims the oldest of them as new ones are written."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TABLE sse_rewrite_responses (id text PRIMARY KEY, created timestamptz NOT NULL "
                   "DEFAULT clock_timestamp(), response bytea, conversation bytea)")
        for n in range(3):
            db.execute("INSERT INTO sse_rewrite_responses (id, response, conversation) VALUES (%s, %s, %s)",
                       (f"resp_{n}", orjson.dumps(stored(n).response), orjson.dumps(stored(n).conversation)))

    async def run() -> list[StoredResponse | None]:
        store = await PostgresStore.open(pg_url, max_rows=3)
        before = [await store.get(f"resp_{n}") for n in range(3)]
        await store.put("resp_3", stored(3))
        await store.put("resp_4", stored(4))
        after = [await store.get(f"resp_{n}") for n in range(5)]
        await store.close()
        return before + after

    kept_before, kept_after = [stored(n) for n in range(3)], [None, None, stored(2), stored(3), stored(4)]
    assert loop_thread.run(run()) == kept_before + kept_after


def test_responses_past_the_age_bound_are_neither_read_nor_kept(loop_thread: LoopThread, pg_url: str) -> None:
    async def run() -> tuple[StoredResponse | None, StoredResponse | None]:
        old = await PostgresStore.open(pg_url, max_age=0.2)
        await old.put("resp_1", stored(1))
        await asyncio.sleep(0.3)
        too_old = await old.get("resp_1")
        await old.put("resp_2", stored(2))  # its trim deletes resp_1
        fresh = await PostgresStore.open(pg_url)  # no age bound to hide it: it is gone
        gone = await fresh.get("resp_1")
        await old.close()
        await fresh.close()
        return too_old, gone

    assert loop_thread.run(run()) == (None, None)


def test_a_conversation_alternates_between_two_instances(servers: Servers, client: Client,
                                                          pg_url: str, loop_thread: LoopThread) -> None:
    """Turns alternate between two instances; then a response the first wrote, deleted through the
    second, and one trimmed by a write whose count bound is 1 (a third instance), are never
    continued on the first: a 400 at once (what any cache of an instance's own writes must keep)."""
    first, _ = servers.serve(store=pg_url)
    second, _ = servers.serve(store=pg_url)
    previous, ids = None, []
    for turn in range(4):
        response = client((first, second)[turn % 2]).responses.create(
            model=KIMI, input=f"turn {turn}: run $ ls", tools=[SHELL], previous_response_id=previous)
        assert response.status == "completed"
        previous = response.id
        ids.append(previous)
        roles = [message["role"] for message in upstream_saw(servers)["messages"]]
        assert roles.count("user") == turn + 1  # every earlier turn came back, from either instance
    client(second).responses.delete(ids[2])  # (the first instance wrote turns 0 and 2)

    async def trim() -> None:  # (a store's calls are made on its loop)
        third = await PostgresStore.open(pg_url, max_rows=1)
        await third.put("resp_last", stored(1))
        await third.close()

    loop_thread.run(trim())
    for gone in (ids[2], ids[0]):
        with pytest.raises(openai.BadRequestError, match="no stored response"):
            client(first).responses.create(model=KIMI, input="next", previous_response_id=gone)


def test_a_response_reserved_elsewhere_is_waited_for(servers: Servers, client: Client, pg_url: str,
                                                     loop_thread: LoopThread) -> None:
    """Another instance is still answering `resp_other`: a request that continues it waits until
    it is stored, then gets it whole (never a 400, never half of it)."""
    base_url, _ = servers.serve(store=pg_url)
    writer = loop_thread.run(PostgresStore.open(pg_url))

    async def reserve() -> None:  # (a store's calls are made on its loop)
        await writer.reserve("resp_other")

    loop_thread.run(reserve())
    whole = StoredResponse({"id": "resp_other", "output": []},
                           [{"role": "user", "content": "first"}, {"role": "assistant", "content": "done"}])

    async def finish_later() -> None:
        await asyncio.sleep(0.5)
        await writer.put("resp_other", whole)

    finishing = asyncio.run_coroutine_threadsafe(finish_later(), loop_thread.loop)
    response = client(base_url).responses.create(model=KIMI, input="next", previous_response_id="resp_other")
    finishing.result(5)
    assert response.status == "completed"
    assert [m["content"] for m in upstream_saw(servers)["messages"]][:2] == ["first", "done"]
    loop_thread.run(writer.close())


def test_a_database_that_goes_away_costs_no_answer(servers: Servers, client: Client, postgres: PostgresServer,
                                                   pg_url: str) -> None:
    base_url, lines = servers.serve(store=pg_url)
    root, sdk = base_url.removesuffix("/v1"), client(base_url)
    kept = sdk.responses.create(model=KIMI, input="run $ ls", tools=[SHELL])
    postgres.stop()
    try:
        answered = sdk.responses.create(model=KIMI, input="run $ pwd", tools=[SHELL])  # not stored: answered
        assert answered.status == "completed" and answered.store is False
        with pytest.raises(openai.APIStatusError) as refused:
            sdk.responses.create(model=KIMI, input="go on", previous_response_id=kept.id)
        assert refused.value.status_code == 503
        assert refused.value.body["code"] == "store_unavailable"  # type: ignore[index]
        with pytest.raises(openai.APIStatusError) as unreadable:
            sdk.responses.retrieve(kept.id)
        assert unreadable.value.status_code == 503
        assert any("not-stored" in line for line in lines)
        ready = httpx2.get(f"{root}/readyz", timeout=10)
        assert ready.status_code == 503 and ready.json()["reasons"][0].startswith("store: ")
        assert not any("Traceback" in line for line in lines)
    finally:
        postgres.start()
    assert httpx2.get(f"{root}/readyz", timeout=10).status_code == 200
    again = sdk.responses.create(model=KIMI, input="go on", previous_response_id=kept.id)
    assert again.status == "completed" and sdk.responses.retrieve(kept.id).id == kept.id
    assert eventually(lambda: any(" 503 " in line and "store" in line for line in lines))


def test_an_unreachable_database_at_start_is_a_clear_error(postgres: PostgresServer) -> None:
    url = f"postgresql://someone:s3cret@127.0.0.1:{postgres.port + 1}/nothing"  # nothing listens there
    result = CliRunner().invoke(cli, ["serve", "--upstream", "http://127.0.0.1:9/v1", "--port", "0",
                                      "--store", url])
    assert result.exit_code == 1
    assert "cannot use the store database postgresql://someone:***@127.0.0.1" in result.output
    assert "s3cret" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("url", "shown"), [
    pytest.param("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db", id="password"),
    pytest.param("postgresql://u@h/db", "postgresql://u@h/db", id="no-password"),
    pytest.param("postgresql:///db", "postgresql:///db", id="socket"),
])
def test_a_url_is_logged_without_its_password(url: str, shown: str) -> None:
    assert redacted(url) == shown


def test_the_store_option_takes_a_url_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from sse_rewrite.options import take_options
    from sse_rewrite.serve.settings import settings_from

    monkeypatch.setenv("SSE_REWRITE_STORE", "postgresql://u@db.internal/sse")
    command = cli.commands["serve"]  # type: ignore[attr-defined]
    params = dict(command.make_context("serve", ["--upstream", "http://127.0.0.1:9/v1"]).params)
    params.pop("workers")
    assert settings_from(params, take_options(params)).store == "postgresql://u@db.internal/sse"


def test_a_failing_store_raises_its_own_error(loop_thread: LoopThread, postgres: PostgresServer) -> None:
    with pytest.raises(StoreUnavailable, match="cannot use the store database"):
        loop_thread.run(PostgresStore.open(postgres.url("no_such_database")))

