"""The `serve` application: routes, the guard around every request, start-up and shutdown.

Routes: `GET /healthz` (answered here, the upstream untouched), each front's routes
(`FRONTS`: a front is a module with `register(app)`), and everything else forwarded
untouched (`Upstream.forward`). The guard (a middleware) checks the access token, turns
any unexpected exception into a JSON 500 (the traceback never reaches a client; the log
gets one line) and writes the request's log line however the request ended.

The server runs with handler cancellation on, so a client that hangs up cancels its
handler and with it the upstream request. SIGTERM (or Ctrl-C) stops accepting, gives open
requests `drain_timeout` seconds to finish, then cuts what is left and exits. `run` can
fork several workers on one listening socket (`--workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import os
import signal
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

from aiohttp import web

from ..protocols import fronts
from .errors import json_error
from .request_log import RequestRecord
from .settings import ServeSettings, client_base_url
from .state import LOG, RECORD, UPSTREAM, ServerLog
from .upstream import Upstream, UpstreamFailure

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final

    Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

FRONTS: Final[tuple[ModuleType, ...]] = tuple(fronts())
"""The fronts, one per client protocol: modules with `register(app)`, which adds its routes,
and `error_for(path, status, message)`, its error response for a path it owns (else None)."""
HEALTH_PATH: Final = "/healthz"
MAX_REQUEST_BYTES: Final = 64 << 20  # long agent conversations exceed aiohttp's 1 MiB default

_numbers = itertools.count(1)


def build_app(settings: ServeSettings, log: ServerLog | None = None) -> web.Application:
    """The application for `settings` (its upstream session opens when it starts)."""
    app = web.Application(middlewares=[_guard], client_max_size=MAX_REQUEST_BYTES)
    app[UPSTREAM] = Upstream(settings)
    app[LOG] = log or ServerLog()
    app.cleanup_ctx.append(_upstream_session)
    app.router.add_get(HEALTH_PATH, _health)
    for front in FRONTS:
        front.register(app)
    app.router.add_route("*", "/{tail:.*}", _forward)
    return app


async def _upstream_session(app: web.Application) -> AsyncIterator[None]:
    await app[UPSTREAM].start()
    yield
    await app[UPSTREAM].close()


async def _health(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def _forward(request: web.Request) -> web.StreamResponse:
    try:
        return await request.app[UPSTREAM].forward(request)
    except UpstreamFailure as failure:
        RECORD.get().outcome = failure.reason
        return failure.response()


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    loop = asyncio.get_running_loop()
    record = RequestRecord(next(_numbers), request.method, request.path, loop.time())
    token = RECORD.set(record)
    log = request.app[LOG]
    response: web.StreamResponse | None = None
    try:
        if request.path == HEALTH_PATH or _authorized(request):
            response = await handler(request)
        else:
            response = _error(request, 401, "missing or wrong access token for this proxy",
                              "authentication_error", "invalid_access_token")
    except web.HTTPException as error:  # raised by aiohttp itself, e.g. a body over the size limit
        response = _error(request, error.status, error.reason)
    except asyncio.CancelledError:
        record.outcome = "client gone"
        raise
    except ConnectionResetError:
        record.outcome = record.outcome or "client gone"
        response = web.Response()
    except Exception as error:  # the guard's whole job: log it, answer JSON, never a traceback
        log.say(f"#{record.number} internal error: {type(error).__name__}: {error}", style="red")
        if record.response is not None:  # the stream has begun: a second response would corrupt it,
            record.outcome = "internal error"  # so the stream just ends (aiohttp writes its end)
            response = record.response
        else:
            response = _error(request, 500, "internal error in sse-rewrite serve (see its log)",
                              "server_error")
    finally:
        RECORD.reset(token)
        record.status = response.status if response is not None else None
        log.request(record, loop.time())
    return response


def _error(request: web.Request, status: int, message: str, kind: str = "invalid_request_error",
           code: str | None = None) -> web.Response:
    """The guard's own error, in the shape of the front the path belongs to."""
    for front in FRONTS:
        response: web.Response | None = front.error_for(request.path, status, message)
        if response is not None:
            return response
    return json_error(status, message, kind, code)


def _authorized(request: web.Request) -> bool:
    """Whether the request presents the access token (always true without one)."""
    expected = request.app[UPSTREAM].settings.access_token
    if not expected:
        return True
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    presented = [request.headers.get("x-api-key", "")]
    if scheme.lower() == "bearer":
        presented.append(credentials.strip())
    return any(hmac.compare_digest(token.encode(), expected.encode()) for token in presented)


async def start(settings: ServeSettings, log: ServerLog | None = None,
                listener: socket.socket | None = None) -> web.AppRunner:
    """Start serving `settings` (on `listener` if given) in the running loop; return the runner."""
    runner = web.AppRunner(build_app(settings, log), handler_cancellation=True, access_log=None,
                           shutdown_timeout=settings.drain_timeout)
    await runner.setup()
    try:
        if listener is None:
            await web.TCPSite(runner, settings.host, settings.port).start()
        else:
            await web.SockSite(runner, listener).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the runner listens on (useful with port 0)."""
    address = runner.addresses[0]
    return int(address[1])


async def serve(settings: ServeSettings, listener: socket.socket | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then drain open requests and stop.

    With a `listener` (a worker of several) the log's lines carry the process id.
    """
    log = ServerLog(f"[{os.getpid()}] " if listener is not None else "")
    runner = await start(settings, log, listener)
    if listener is None:
        url = client_base_url(settings.host, bound_port(runner))
        log.say(f"listening on {url} (upstream {settings.upstream})")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    log.say(f"stopping: open requests get up to {settings.drain_timeout:g}s to finish")
    await runner.cleanup()
    log.say("stopped")


def run(settings: ServeSettings, workers: int = 1) -> None:
    """Run the server until it is stopped: in this process, or in `workers` forked ones.

    Workers share one listening socket, bound here; the kernel hands each connection to
    one of them. The proxy keeps no state between requests, so nothing else is shared.
    SIGTERM and SIGINT are passed on to every worker, each of which drains and exits.
    """
    if workers == 1:
        asyncio.run(serve(settings))
        return
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    listener = socket.create_server((settings.host, settings.port), family=family, backlog=1024)
    port = listener.getsockname()[1]
    url = client_base_url(settings.host, port)
    ServerLog().say(f"listening on {url} (upstream {settings.upstream}), {workers} workers")
    children = []
    for _ in range(workers):
        child = os.fork()
        if child == 0:  # a worker: serve, and never return into the parent's code
            code = 0
            try:
                asyncio.run(serve(settings, listener))
            except BaseException as error:
                ServerLog().say(f"[{os.getpid()}] worker failed: {type(error).__name__}: {error}", "red")
                code = 1
            finally:
                os._exit(code)
        children.append(child)
    listener.close()

    def pass_on(signum: int, frame: object) -> None:
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, pass_on)
    failed = [child for child in children if os.waitpid(child, 0)[1] != 0]
    if failed:
        raise SystemExit(1)
