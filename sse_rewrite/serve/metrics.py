"""`GET /metrics`: what the server did, in Prometheus' text format (`prometheus-client`).

`Metrics` holds one registry per app; the guard hands it each request's record when the
request ends (`observe`: one call, a few counter increments, nothing per event), the
Responses front wraps its store in `metered_store`, and a scrape renders the registry.
Every name starts `sse_rewrite_`; the README's "Run it for a team" says what each means.

Labels stay bounded whatever clients send: `front` is the route's protocol package
(`openai`, `anthropic`, `responses`, … , `forward` for the pass-through, `server` for the
server's own routes), `syntax` one of the known syntaxes, `code` a notice code, and
`model` the first `MODELS_KEPT` model names seen, every later one counted as `other`.

With `--workers N` every worker writes its values to files in one directory
(prometheus-client's multiprocess mode: `run` sets `PROMETHEUS_MULTIPROC_DIR` to a fresh
temporary directory before it forks, unless it is set already), and any worker's scrape
adds them all up; the gauges count live workers only (the supervisor marks dead ones).
prometheus-client is imported when the app is built, never by `--help` or the filter.
"""

from __future__ import annotations

import asyncio
import os

from aiohttp import web

from .request_log import RequestRecord

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, Final, TypeVar

    from ..protocols.responses.store import Ended, ResponseStore, StoredResponse

    T = TypeVar("T")

MULTIPROCESS_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
MODELS_KEPT: Final = 200
"""Distinct `model` label values per process at most; later ones are `other`."""
_SECONDS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    """The server's counters, histograms and gauges, in one registry."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.multiprocess = bool(os.environ.get(MULTIPROCESS_ENV))
        registry = self.registry = CollectorRegistry()
        self.requests = Counter("sse_rewrite_requests", "Requests answered, by front, status and upstream "
                                "status (- when the upstream was not asked or did not answer).",
                                ["front", "status", "upstream_status"], registry=registry)
        self.calls = Counter("sse_rewrite_repaired_calls", "Tool calls recovered from leaked syntax.",
                             ["syntax", "model"], registry=registry)
        self.notices = Counter("sse_rewrite_notices", "Notices logged, by code.", ["code"], registry=registry)
        self.events_in = Counter("sse_rewrite_events_in", "Upstream SSE events read (a whole body counts "
                                 "as one).", ["front"], registry=registry)
        self.events_out = Counter("sse_rewrite_events_out", "SSE events written to clients (a whole body "
                                  "counts as one).", ["front"], registry=registry)
        self.stream_seconds = Histogram("sse_rewrite_stream_duration_seconds", "Relayed streams, from the "
                                        "request to the stream's end.", ["front"], buckets=_SECONDS,
                                        registry=registry)
        self.first_byte = Histogram("sse_rewrite_time_to_first_byte_seconds", "From the request to the "
                                    "answer's status line.", ["front"], buckets=_SECONDS, registry=registry)
        self.upstream_first_byte = Histogram("sse_rewrite_upstream_time_to_first_byte_seconds", "From "
                                             "sending the upstream request to its answer's head.", ["front"],
                                             buckets=_SECONDS, registry=registry)
        self.store = Counter("sse_rewrite_store_operations", "Responses store calls, by operation and "
                             "outcome (ok, error).", ["operation", "outcome"], registry=registry)
        self.clients = Gauge("sse_rewrite_open_client_connections", "Client connections open.",
                             registry=registry, multiprocess_mode="livesum")
        self.upstreams = Gauge("sse_rewrite_open_upstream_connections", "Upstream answers being read "
                               "(each holds an upstream connection).", registry=registry,
                               multiprocess_mode="livesum")
        self._models: set[str] = set()
        self._children: dict[tuple[object, ...], Any] = {}  # (metric, *labels) -> its child, looked up once

    def observe(self, request: web.Request, record: RequestRecord, now: float) -> None:
        """Count one finished request from its record (the guard calls this as it logs the line)."""
        front, child = front_of(request), self._child
        child(self.requests, front, record.status, record.upstream_status).inc()
        if record.calls:
            child(self.calls, record.syntax or "unknown", self._model(record.model)).inc(record.calls)
        for code in record.notices:
            child(self.notices, code).inc()
        if record.events_in or record.events_out:
            child(self.events_in, front).inc(record.events_in)
            child(self.events_out, front).inc(record.events_out)
        if record.response is not None:  # a stream relayed through the rewriter
            child(self.stream_seconds, front).observe(now - record.started)
        # a whole answer's status line goes out as the guard returns it: now
        first_byte = record.first_byte if record.first_byte is not None else now
        child(self.first_byte, front).observe(first_byte - record.started)
        if record.upstream_wait is not None:
            child(self.upstream_first_byte, front).observe(record.upstream_wait)

    def connections(self, clients: int, upstreams: int) -> None:
        """Set the gauges of open connections (as requests start and end, and at each scrape)."""
        self.clients.set(clients)
        self.upstreams.set(upstreams)

    def scrape(self) -> bytes:
        """The text exposition: this process's registry, or every worker's files in multiprocess mode."""
        from prometheus_client import CollectorRegistry, generate_latest

        if not self.multiprocess:
            return generate_latest(self.registry)
        from prometheus_client.multiprocess import MultiProcessCollector

        everyone = CollectorRegistry()
        MultiProcessCollector(everyone)  # type: ignore[no-untyped-call]
        return generate_latest(everyone)

    def _child(self, metric: Any, *labels: object) -> Any:
        """`metric.labels(*labels)` (None as `-`), kept: prometheus-client's own lookup costs more."""
        key = (metric, *labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*("-" if v is None else str(v) for v in labels))
        return found

    def _model(self, model: str | None) -> str:
        name = model or "-"
        if name not in self._models:
            if len(self._models) >= MODELS_KEPT:
                return "other"
            self._models.add(name)
        return name


def front_of(request: web.Request) -> str:
    """The `front` label of a request: its route's protocol package, `forward`, or `server`."""
    route = request.match_info.route
    module = getattr(route.handler, "__module__", "").split(".")
    if module[:2] == ["sse_rewrite", "protocols"] and len(module) > 2:
        return module[2]
    return "forward" if route.name == "forward" else "server"


def forget_worker(pid: int) -> None:
    """Drop a dead worker's gauges from the multiprocess files (its counters stay counted)."""
    if os.environ.get(MULTIPROCESS_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


class MeteredStore:
    """A `ResponseStore` whose every call is counted in `sse_rewrite_store_operations`."""

    def __init__(self, store: ResponseStore, metrics: Metrics) -> None:
        self._store = store
        operations = ("get", "reserve", "put", "delete", "release", "ping")
        self._counters = {(operation, outcome): metrics.store.labels(operation, outcome)  # looked up once
                          for operation in operations for outcome in ("ok", "error")}
        self._put = self._counters["put", "ok"], self._counters["put", "error"]

    def get(self, response_id: str) -> Awaitable[StoredResponse | None]:
        """See `ResponseStore`."""
        return self._count("get", self._store.get(response_id))

    def reserve(self, response_id: str) -> Awaitable[None]:
        """See `ResponseStore`."""
        return self._count("reserve", self._store.reserve(response_id))

    def put(self, response_id: str, stored: StoredResponse) -> Awaitable[None]:
        """See `ResponseStore`."""
        return self._count("put", self._store.put(response_id, stored))

    def write(self, response_id: str, stored: StoredResponse, ended: Ended) -> None:
        """See `ResponseStore` (counted as a put, before `ended` hears of it)."""
        ok, error = self._put

        def counted(failure: BaseException | None) -> None:
            (ok if failure is None else error).inc()
            ended(failure)
        self._store.write(response_id, stored, counted)

    def delete(self, response_id: str) -> Awaitable[bool]:
        """See `ResponseStore`."""
        return self._count("delete", self._store.delete(response_id))

    def release(self, response_id: str) -> Awaitable[None]:
        """See `ResponseStore`."""
        return self._count("release", self._store.release(response_id))

    def ping(self) -> Awaitable[None]:
        """See `ResponseStore`."""
        return self._count("ping", self._store.ping())

    def close(self) -> Awaitable[None]:
        """See `ResponseStore`."""
        return self._store.close()

    def _count(self, operation: str, call: Awaitable[T]) -> Awaitable[T]:
        """`call`, counted: at once when it is a finished future (a store that needed no wait), as
        it ends when it is a future (no task), else by a coroutine around it."""
        if isinstance(call, asyncio.Future):
            if call.done():
                self._ended(operation, call)
            else:
                call.add_done_callback(lambda call: self._ended(operation, call))
            return call
        return self._counted(operation, call)

    def _ended(self, operation: str, call: asyncio.Future[Any]) -> None:
        failed = call.cancelled() or call.exception() is not None
        self._counters[operation, "error" if failed else "ok"].inc()

    async def _counted(self, operation: str, call: Awaitable[T]) -> T:
        try:
            result = await call
        except BaseException:
            self._counters[operation, "error"].inc()
            raise
        self._counters[operation, "ok"].inc()
        return result


def metered_store(app: web.Application, store: ResponseStore) -> ResponseStore:
    """`store`, counted in the app's metrics."""
    return MeteredStore(store, app[METRICS])


async def serve_metrics(request: web.Request) -> web.Response:
    """`GET /metrics`: the exposition, with the connection gauges brought up to date first."""
    metrics = request.app[METRICS]
    gauges = request.app[GAUGES]
    metrics.connections(*gauges())
    return web.Response(body=metrics.scrape(), headers={"Content-Type": CONTENT_TYPE})


METRICS: web.AppKey[Metrics] = web.AppKey("metrics", Metrics)
"""The app's metrics."""
GAUGES: web.AppKey[Callable[[], tuple[int, int]]] = web.AppKey("gauges")
"""The open client and upstream connections now (set by `app.py`, which knows both)."""
