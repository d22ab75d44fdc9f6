"""The `serve` application: routes, start-up and shutdown.

Routes: `GET /healthz` (answered here, the upstream untouched), `GET /livez` and
`/readyz` (`probes.py`), `GET /metrics` (`metrics.py`), each front's routes (`FRONTS`: a
front is a module with `register(app)`), and everything else forwarded
(`Upstream.forward`). Every request first passes the guard (`guard.py`: the one access
decision, the body read, errors, the log line), whatever route it takes; every response
passes `strip_cors`.

The server runs with handler cancellation on, so a client that hangs up cancels its
handler and with it the upstream request; aiohttp's own decompression is off
(`request_body.py` inflates with a cap); connections are capped and their headers timed
(`connections.py`). SIGTERM (or Ctrl-C) stops accepting, gives open requests
`drain_timeout` seconds to finish, then cuts what is left (a stream ends with an error
event) and exits; from SIGTERM on `/readyz` answers 503, first for `shutdown_delay`
seconds while everything is still served. `run` can fork several workers on one listening
socket (`--workers`), kept at that number by `supervisor.py`, their metrics added up in one
multiprocess directory. Once started, what start-up made is frozen out of the garbage
collector's sight (`gc.freeze`): a full collection scanned its ~80,000 objects (about 19 M
instructions, every few hundred requests) and now scans only what requests made.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import signal
import socket
import tempfile
from collections.abc import AsyncIterator

from aiohttp import web

from ..protocols import fronts
from ..protocols.responses.stores import check_store
from . import probes
from .access import HEALTH_PATH, METRICS_PATH
from .capture import capture_store
from .connections import Connections, GuardedSite, fit_descriptors
from .guard import guard, stamp_first_byte, strip_cors
from .metrics import GAUGES, METRICS, MULTIPROCESS_ENV, Metrics, forget_worker, serve_metrics
from .settings import ServeSettings, client_base_url
from .state import CONNECTIONS, CUT, INFLIGHT, LOG, RECORD, UPSTREAM, ServerLog, aiohttp_logger
from .supervisor import STOP_SIGNALS, supervise
from .upstream import Upstream, UpstreamFailure

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final

FRONTS: Final[tuple[ModuleType, ...]] = tuple(fronts())
"""The fronts, one per client protocol: modules with `register(app)`, which adds its routes,
and `error_for(path, status, message)`, its error response for a path it owns (else None)."""
_SHUTDOWN_GRACE: Final = 1.0
"""After the drain, how long cut requests get to write their last bytes."""


def build_app(settings: ServeSettings, log: ServerLog | None = None) -> web.Application:
    """The application for `settings` (its upstream session opens when it starts)."""
    # the guard reads bodies with its own cap (settings.limits.request_bytes); aiohttp's is off
    app = web.Application(middlewares=[guard], client_max_size=0)
    app[UPSTREAM] = Upstream(settings)
    app[LOG] = log or ServerLog()
    app[INFLIGHT] = set[asyncio.Task[object]]()
    cap = fit_descriptors(settings.max_connections, app[LOG].say)
    app[CONNECTIONS] = Connections(cap, settings.header_timeout, app[LOG].say)
    app[METRICS] = Metrics()
    app[GAUGES] = lambda: (len(app[CONNECTIONS].open), app[UPSTREAM].open_answers)
    app.cleanup_ctx.append(_upstream_session)
    app.on_response_prepare.append(strip_cors)
    app.on_response_prepare.append(stamp_first_byte)
    app.router.add_get(HEALTH_PATH, _health)
    app.router.add_get(METRICS_PATH, serve_metrics)
    probes.register(app)
    for front in FRONTS:
        front.register(app)
    app.router.add_route("*", "/{tail:.*}", _forward, name="forward")
    return app


async def _upstream_session(app: web.Application) -> AsyncIterator[None]:
    settings = app[UPSTREAM].settings
    captures = None
    if settings.capture_dir is not None:
        captures = capture_store(settings.capture_dir, settings.limits, app[LOG].say)
    await app[UPSTREAM].start()
    yield
    await app[UPSTREAM].close()
    if captures is not None:
        await asyncio.get_running_loop().run_in_executor(None, captures.close)


async def _health(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def _forward(request: web.Request) -> web.StreamResponse:
    try:
        return await request.app[UPSTREAM].forward(request)
    except UpstreamFailure as failure:
        RECORD.get().outcome = failure.reason
        return failure.response()


async def start(settings: ServeSettings, log: ServerLog | None = None,
                listener: socket.socket | None = None) -> web.AppRunner:
    """Start serving `settings` (on `listener` if given) in the running loop; return the runner."""
    app = build_app(settings, log)
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None, auto_decompress=False,
                           keepalive_timeout=settings.idle_timeout, shutdown_timeout=_SHUTDOWN_GRACE,
                           logger=aiohttp_logger(app[LOG]))
    try:
        await runner.setup()  # opens the upstream session and the store (which may fail)
    except BaseException:
        await runner.cleanup()  # closes what opened before the failure
        raise
    try:
        await GuardedSite(runner, app[CONNECTIONS], host=settings.host, port=settings.port,
                          sock=listener).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the runner listens on (useful with port 0)."""
    address = runner.addresses[0]
    return int(address[1])


async def stop(runner: web.AppRunner, drain_timeout: float) -> None:
    """Stop accepting, give open requests `drain_timeout` seconds, cut the rest, close.

    Cut requests are cancelled with `CUT`: a stream ends with an error event, a request
    whose answer had not begun gets a 503 (see `guard.py`). First `/readyz` turns 503, and
    for `shutdown_delay` seconds everything is still served (a load balancer notices).
    """
    app = runner.app
    app[probes.READINESS].draining = True
    delay = app[UPSTREAM].settings.shutdown_delay
    if delay:
        app[LOG].say(f"not ready: serving {delay:g}s more before the drain")
        await asyncio.sleep(delay)
    for site in list(runner.sites):
        await site.stop()
    if runner.server is not None:
        runner.server.pre_shutdown()  # keep-alive connections close once their request is done
    inflight = app[INFLIGHT].copy()
    if inflight:
        await asyncio.wait(inflight, timeout=drain_timeout)
    left = [task for task in app[INFLIGHT] if not task.done()]
    for task in left:
        task.cancel(CUT)
    if left:
        app[LOG].say(f"drain timeout: cutting {len(left)} open request(s)", style="red")
        await asyncio.wait(left, timeout=_SHUTDOWN_GRACE)
    await runner.cleanup()


async def serve(settings: ServeSettings, listener: socket.socket | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then drain open requests and stop.

    With a `listener` (a worker of several) the log's lines carry the process id.
    """
    log = ServerLog(f"[{os.getpid()}] " if listener is not None else "")
    runner = await start(settings, log, listener)
    gc.collect()
    gc.freeze()  # start-up's objects live as long as the server: the collector need not scan them again
    if listener is None:
        url = client_base_url(settings.host, bound_port(runner))
        log.say(f"listening on {url} (upstream {settings.upstream})")
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stopping.set)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # a worker is forked with them blocked
    await stopping.wait()
    log.say(f"stopping: open requests get up to {settings.drain_timeout:g}s to finish")
    await stop(runner, settings.drain_timeout)
    log.say("stopped")


def run(settings: ServeSettings, workers: int = 1) -> None:
    """Run the server until it is stopped: in this process, or in `workers` forked ones.

    Workers share one listening socket, bound here; the kernel hands each connection to
    one of them. Besides the store, they share only a directory of metrics files (made here
    unless `PROMETHEUS_MULTIPROC_DIR` names one), so any worker's scrape sees them all.
    """
    if workers == 1:
        asyncio.run(serve(settings))
        return
    asyncio.run(check_store(settings.store, settings.store_pool))  # once, with a clear error, before forking
    made = None
    if not os.environ.get(MULTIPROCESS_ENV):
        made = os.environ[MULTIPROCESS_ENV] = tempfile.mkdtemp(prefix="sse-rewrite-metrics-")
    try:
        _run_workers(settings, workers)
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def _run_workers(settings: ServeSettings, workers: int) -> None:
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    listener = socket.create_server((settings.host, settings.port), family=family, backlog=1024)
    port = listener.getsockname()[1]
    url = client_base_url(settings.host, port)
    ServerLog().say(f"listening on {url} (upstream {settings.upstream}), {workers} workers")
    if not supervise(workers, lambda: asyncio.run(serve(settings, listener)), listener.close, ServerLog(),
                     forget_worker):
        raise SystemExit(1)
