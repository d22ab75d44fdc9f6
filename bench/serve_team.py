"""What running `serve` for a team costs per request: the metrics, and each Responses store.

Usage: `python bench/serve_team.py [--requests 300] [--postgres URL] [--fill N] [--instructions]` from the
project root.

- **metrics**: what the guard adds to every request (`Metrics.observe` on a finished
  request's record, and the two connection gauges set as it starts and ends), timed in this
  process, beside the CPU time (`/proc/PID/stat`) a serve process spends on one short chat
  request (a whole, non-streamed answer with one repaired call): the share is the cost.
- **stores**: serve's CPU time per short Responses request (a whole answer, stored, then
  read back by the next request's `previous_response_id`) with `--store none`, an SQLite
  file, and PostgreSQL (`--postgres URL`, else a throwaway server started like the tests'
  when the machine has one); the wall time per request beside it. `--fill N` puts N stored
  responses in each store first (a store that has been in use: its bound is 10,000), written
  by SQL in the table as the first release made it, which every release reads.
- **`--instructions`**: instead, serve under valgrind's callgrind (`PYTHONMALLOC=malloc`),
  instrumentation switched on after 20 requests of each kind for `--requests` more (100 is
  enough): instructions per request, which the machine's load does not move. Each store is set
  against requests that say `"store": false` to the same process, in alternating batches (a
  count moves ~1 % between two processes of the same code: their heaps' layout): single
  requests (the store writes each), and conversations of two turns, continued by
  `previous_response_id` when stored and by sending the whole conversation as `input` when not
  (the upstream gets the same request: the longer second turn is the client's choice, not the
  store's cost); then the metrics' work per request (`observe_cost` in a process of its own
  under callgrind) against a single unstored request's. The callgrind files are kept to annotate.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from serve import UPSTREAM, cpu_seconds, start

MODEL = "moonshotai/kimi-k2.5"
CHAT = {"model": MODEL, "messages": [{"role": "user", "content": "$ ls"}]}


async def requests(base_url: str, count: int, path: str, chained: str = "", *, store: bool = True) -> float:
    """Send `count` requests one after another; wall seconds.

    `chained`: every other request continues the last, "id" by its `previous_response_id`, "input"
    by sending the whole conversation (the last request's input and output items) as its input.
    `store`: False sends Responses requests with `"store": false` (serve then stores nothing).
    """
    async with aiohttp.ClientSession() as session:
        previous: dict[str, Any] = {}
        started = time.monotonic()
        for number in range(count):
            body: dict[str, Any] = dict(CHAT) if path == "/chat/completions" else {"model": MODEL,
                                                                                   "input": "$ ls"}
            if not store:
                body["store"] = False
            if chained and previous and number % 2:  # conversations of two turns
                if chained == "id":
                    body["previous_response_id"] = previous["id"]
                else:
                    body["input"] = [{"role": "user", "content": "$ ls"}, *previous["output"],
                                     {"role": "user", "content": "$ ls"}]
            async with session.post(base_url + path, json=body) as answer:
                assert answer.status == 200, await answer.text()
                previous = await answer.json()
        return time.monotonic() - started


FILLER = b'{"id": "resp_filler", "object": "response", "output": [], "status": "completed"}'


def fill(store: str, rows: int) -> None:
    """Put `rows` stored responses in `store` (an SQLite file or a PostgreSQL URL) before serve opens it."""
    if store.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store, autocommit=True) as db:
            db.execute("CREATE TABLE IF NOT EXISTS sse_rewrite_responses (id text PRIMARY KEY, "
                       "created timestamptz NOT NULL DEFAULT clock_timestamp(), response bytea, "
                       "conversation bytea)")
            db.execute("INSERT INTO sse_rewrite_responses (id, response, conversation) "
                       "SELECT 'resp_fill_' || n, %s, %s FROM generate_series(1, %s) n",
                       (FILLER, b"[]", rows))
        return
    import sqlite3

    with sqlite3.connect(store) as db:
        db.executescript("CREATE TABLE IF NOT EXISTS responses (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                         "response BLOB NOT NULL, conversation BLOB NOT NULL); "
                         "CREATE INDEX IF NOT EXISTS responses_created ON responses (created);")
        now = time.time()
        db.executemany("INSERT INTO responses VALUES (?, ?, ?, ?)",
                       ((f"resp_fill_{n}", now, FILLER, b"[]") for n in range(rows)))


def per_request(upstream: str, store: str, count: int, path: str, logs: Path) -> tuple[float, float]:
    """serve's CPU ms and the wall ms per request on `path` with `--store store`."""
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", upstream, "--port", "0",
               "--store", store]
    serve, base_url = start(command, logs / f"serve-{abs(hash(store))}")
    try:
        chained = "id" if path == "/responses" and store != "none" else ""
        asyncio.run(requests(base_url, 30, path, chained))  # warm up
        before = cpu_seconds(serve.pid)
        wall = asyncio.run(requests(base_url, count, path, chained))
        return (cpu_seconds(serve.pid) - before) * 1000 / count, wall * 1000 / count
    finally:
        serve.terminate()
        serve.wait(30)


def instructions(upstream: str, store: str, count: int, chained: str, logs: Path,
                 rounds: int = 6) -> tuple[float, float]:
    """Instructions serve runs per short Responses request with `--store store` (callgrind): stored
    (`chained` "id": every other one continues the last by its id) and, in the same process,
    not stored (`"store": false`; chained by sending the conversation as input), in `rounds`
    alternating batches, each dumped on its own; each kind's median batch. The same process for
    both: a count moves ~1 % between processes (the heap's layout), which two processes'
    difference would carry; the median: a batch that a full collection falls in counts more."""
    name = f"{store.rpartition('/')[2][:12]}-{chained or 'single'}"
    out, log = logs / f"callgrind-{name}", logs / f"serve-cg-{name}"
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
               sys.executable, "-m", "sse_rewrite", "serve", "--upstream", upstream, "--port", "0",
               "--store", store]
    with log.open("wb") as sink:
        serve = subprocess.Popen(command, stdout=sink, stderr=sink,
                                 env={**os.environ, "NO_COLOR": "1", "PYTHONMALLOC": "malloc"})
    deadline = time.monotonic() + 300
    while not (found := re.search(r"^(?!==).*?(http://127\.0\.0\.1:\d+/v1)", log.read_text(), re.M)):
        if serve.poll() is not None or time.monotonic() > deadline:
            serve.kill()
            raise SystemExit(f"serve under callgrind did not start: {log.read_text()}")
        time.sleep(0.2)
    base_url, batch = found.group(1), max(count // rounds, 2)
    kinds = ((True, chained), (False, chained.replace("id", "input")))
    totals: dict[bool, list[int]] = {True: [], False: []}
    try:
        for stored, how in kinds:
            asyncio.run(requests(base_url, 20, "/responses", how, store=stored))  # warm up
        for number in range(2 * rounds):
            stored, how = kinds[number % 2]
            _callgrind(serve.pid, "-i", "on")
            asyncio.run(requests(base_url, batch, "/responses", how, store=stored))
            _callgrind(serve.pid, "-i", "off")
            _callgrind(serve.pid, "-d")  # (its counts so far to `out.N`, then zeroed)
            dump = Path(f"{out}.{number + 1}")
            found_total = re.search(rb"^totals: (\d+)", dump.read_bytes(), re.M)
            assert found_total is not None, f"no totals in {dump}"
            totals[stored].append(int(found_total.group(1)))
    finally:
        serve.terminate()
        serve.wait(120)
    return statistics.median(totals[True]) / batch, statistics.median(totals[False]) / batch


def _callgrind(pid: int, *arguments: str) -> None:
    subprocess.run(["callgrind_control", *arguments, str(pid)], check=True, capture_output=True)


def observe_cost(rounds: int = 20000) -> float:
    """Microseconds the guard's metrics work takes per request, in this process."""
    from aiohttp.test_utils import make_mocked_request

    from sse_rewrite.serve.app import build_app
    from sse_rewrite.serve.metrics import GAUGES, METRICS
    from sse_rewrite.serve.request_log import RequestRecord
    from sse_rewrite.serve.settings import ServeSettings

    app = build_app(ServeSettings(upstream="http://127.0.0.1:9/v1"))
    metrics, gauges = app[METRICS], app[GAUGES]
    request = make_mocked_request("POST", "/v1/chat/completions", app=app)
    request._match_info = asyncio.run(app.router.resolve(request))  # as the server's routing sets it
    record = RequestRecord(1, "POST", "/v1/chat/completions", 0.0, model=MODEL, status=200, events_in=30,
                           events_out=10, calls=1, syntax="kimi", notices=["upstream-ended"],
                           upstream_status=200, upstream_wait=0.01, first_byte=0.02)
    started = time.perf_counter()
    for _ in range(rounds):
        metrics.connections(*gauges())
        metrics.observe(request, record, 0.5)
        metrics.connections(*gauges())
    return (time.perf_counter() - started) * 1e6 / rounds


def observe_instructions(logs: Path, rounds: int = 2000) -> float:
    """Instructions the guard's metrics work takes per request (`observe_cost` under callgrind:
    `3 * rounds` rounds less `rounds`, so start-up cancels out)."""
    totals = []
    for count in (rounds, 3 * rounds):
        out = logs / f"callgrind-observe-{count}"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                   "--observe", str(count)]
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONMALLOC": "malloc"})
        found = re.search(rb"^totals: (\d+)", out.read_bytes(), re.M)
        assert found is not None, f"no totals in {out}"
        totals.append(int(found.group(1)))
    return (totals[1] - totals[0]) / (2 * rounds)


def postgres_url(given: str | None) -> tuple[str | None, object]:
    """The database to bench on: the given URL, or a throwaway server's (with the server to remove)."""
    if given:
        return given, None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.serve.postgres import PostgresServer

    server, why_not = PostgresServer.start_new()
    if server is None:
        print(f"postgres: skipped ({why_not})")
        return None, None
    return server.new_database(), server


def main() -> None:
    """Print the metrics' share of a short request's CPU, and each store's cost per request."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--postgres", metavar="URL")
    parser.add_argument("--fill", type=int, default=0, metavar="N",
                        help="stored responses in each store first")
    parser.add_argument("--instructions", action="store_true", help="instructions per request (callgrind)")
    parser.add_argument("--observe", type=int, metavar="ROUNDS", help=argparse.SUPPRESS)  # (a child's)
    args = parser.parse_args()
    if args.observe:
        observe_cost(args.observe)
        return
    logs = Path(tempfile.mkdtemp(prefix="bench-serve-team-"))
    fake, upstream = start([sys.executable, str(UPSTREAM), "--port", "0", "--lifetime", "3600"],
                           logs / "fake")
    url, server = postgres_url(args.postgres)
    try:
        if args.instructions:
            runs = [("sqlite", str(logs / "single.sqlite3"), ""),
                    ("sqlite, chained by id", str(logs / "chained.sqlite3"), "id")]
            runs += [("postgres", url, ""), ("postgres, chained by id", url, "id")] if url else []
            single = 0.0
            for name, store, chained in runs:
                stored, unstored = instructions(upstream, store, args.requests, chained, logs)
                single = single or unstored
                print(f"responses, store {name:23}: {stored / 1e6:.3f} M instructions a request, "
                      f"{unstored / 1e6:.3f} M not stored: +{(stored - unstored) / 1e3:.1f} k "
                      f"(+{(stored - unstored) / unstored * 100:.1f} %)", flush=True)
            metrics = observe_instructions(logs)
            print(f"metrics per request: {metrics / 1e3:.1f} k instructions = "
                  f"{metrics / single * 100:.1f} % of a short request's", flush=True)
            print(f"callgrind files in {logs}")
            return
        chat_cpu, chat_wall = per_request(upstream, "none", args.requests, "/chat/completions", logs)
        cost = observe_cost()
        print(f"short chat request: serve CPU {chat_cpu:.3f} ms, wall {chat_wall:.3f} ms")
        print(f"metrics per request: {cost:.1f} us = {cost / 10 / chat_cpu:.2f} % of its CPU")
        stores = {"none": "none", "sqlite": str(logs / "responses.sqlite3")}
        if url:
            stores["postgres"] = url
        base = None
        for name, store in stores.items():
            if args.fill and name != "none":
                fill(store, args.fill)
            cpu, wall = per_request(upstream, store, args.requests, "/responses", logs)
            base = base if base is not None else cpu
            print(f"responses, store {name:8}: serve CPU {cpu:.3f} ms (+{(cpu - base) / base * 100:.1f} %), "
                  f"wall {wall:.3f} ms per request")
    finally:
        fake.terminate()
        fake.wait(30)
        if server is not None:
            server.remove()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
