"""The guard: one middleware every request passes through before any route, whatever its front.

In order: the request's log record is opened; `access.refusal` decides once whether the
request may go on (target, `Host`, `Origin`, method, token); `OPTIONS` is answered here
(a CORS preflight for an allowed origin, never forwarded); the body is read, timed,
capped and inflated (`request_body.py`); then the route runs. Any unexpected exception
becomes a JSON 500 (the traceback never reaches a client; the log gets one line) and the
log line is written however the request ended.

`strip_cors` runs on every response as its headers go out: CORS headers from the
upstream are dropped, and a browser whose origin is allowed gets the proxy's own.

While a request runs, its task is in `INFLIGHT`, so shutdown can wait for it and then
cut it (`CUT`): a stream cut that way ends with an error event (`relay.py`), a request
cut before its answer began gets a 503.
"""

from __future__ import annotations

import asyncio
import itertools
import zlib
from collections.abc import Awaitable, Callable

from aiohttp import web

from ..protocols import fronts
from .access import ALLOWED_METHODS, cors_headers, refusal
from .errors import json_error
from .limits import TooLarge
from .metrics import GAUGES, METRICS
from .request_body import BodyRefused, read_body
from .request_log import RequestRecord
from .settings import is_loopback
from .state import CONNECTIONS, CUT, INFLIGHT, LOG, RECORD, UPSTREAM

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_numbers = itertools.count(1)


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Decide, read the body, run the route; answer JSON errors; log the request's line."""
    loop = asyncio.get_running_loop()
    record = RequestRecord(next(_numbers), request.method, request.raw_path.partition("?")[0], loop.time())
    token = RECORD.set(record)
    log, settings = request.app[LOG], request.app[UPSTREAM].settings
    task = asyncio.current_task()
    inflight, connections = request.app[INFLIGHT], request.app[CONNECTIONS]
    if task is not None:
        inflight.add(task)
    connections.request_started(request.transport)
    metrics, gauges = request.app[METRICS], request.app[GAUGES]
    metrics.connections(*gauges())
    response: web.StreamResponse | None = None
    try:
        public_metrics = settings.metrics_public and is_loopback(request.remote or "")
        refused = refusal(request.method, request.raw_path, request.headers, settings, public_metrics)
        if refused is not None:
            kind = "authentication_error" if refused.status == 401 else "invalid_request_error"
            response = error_response(request, refused.status, refused.message, kind, refused.code)
            if request.body_exists:
                response.force_close()  # its body is not read: the connection ends with the answer
        elif request.method == "OPTIONS":
            response = web.Response(status=204, headers={"Allow": ALLOWED_METHODS})
        else:
            request = await read_body(request, settings.limits.request_bytes, settings.body_timeout)
            response = await handler(request)
    except BodyRefused as error:
        response = error_response(request, error.status, str(error))
        response.force_close()  # the rest of the body is not read
    except (TooLarge, zlib.error) as error:  # an upstream answer read whole (a stream ends in relay.py)
        large = isinstance(error, TooLarge)
        message = str(error) if large else f"the upstream's gzip is broken: {error}"
        record.outcome = message
        response = error_response(request, 502, message, "upstream_error",
                                  "upstream_too_large" if large else "upstream_broken")
    except web.HTTPException as error:  # raised by aiohttp itself
        response = error_response(request, error.status, error.reason)
    except asyncio.CancelledError as error:
        if error.args != (CUT,) or record.response is not None or task is None:
            if record.ended:  # the whole answer went out: logged as answered
                response = record.response
            elif not record.outcome:
                record.outcome = "cut at shutdown" if error.args == (CUT,) else "client gone"
            raise
        task.uncancel()
        record.outcome = "cut at shutdown"
        response = error_response(request, 503, f"{CUT}: try again", "server_error", "shutting_down")
    except ConnectionResetError:
        record.outcome = record.outcome or "client gone"
        response = web.Response()
    except Exception as error:  # the guard's whole job: log it, answer JSON, never a traceback
        log.say(f"#{record.number} internal error: {type(error).__name__}: {error}", style="red")
        if record.response is not None:  # the stream has begun: a second response would corrupt it,
            record.outcome = "internal error"  # so the stream just ends (aiohttp writes its end)
            response = record.response
        else:
            response = error_response(request, 500, "internal error in sse-rewrite serve (see its log)",
                                      "server_error")
    finally:
        if task is not None:
            inflight.discard(task)
        connections.request_ended(request.transport)
        RECORD.reset(token)
        record.status = response.status if response is not None else None
        now = loop.time()
        log.request(record, now)
        metrics.observe(request, record, now)
        metrics.connections(*gauges())
    return response


def error_response(request: web.Request, status: int, message: str, kind: str = "invalid_request_error",
                   code: str | None = None) -> web.Response:
    """The guard's own error, in the shape of the front the path belongs to."""
    for front in fronts():
        response: web.Response | None = front.error_for(request.path, status, message)
        if response is not None:
            return response
    return json_error(status, message, kind, code)


async def stamp_first_byte(request: web.Request, response: web.StreamResponse) -> None:
    """Note when the answer's status line goes out (the time to first byte in the metrics)."""
    record = RECORD.get(None)
    if record is not None and record.first_byte is None:
        record.first_byte = asyncio.get_running_loop().time()


async def strip_cors(request: web.Request, response: web.StreamResponse) -> None:
    """Drop the upstream's CORS headers; give an allowed browser origin the proxy's own."""
    for name in [name for name in response.headers if name.lower().startswith("access-control-")]:
        response.headers.popall(name, None)
    settings = request.app[UPSTREAM].settings
    if settings.allow_origins:
        preflight = request.method == "OPTIONS"
        response.headers.update(cors_headers(request.headers, settings, preflight=preflight))
