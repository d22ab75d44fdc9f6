"""`GET /livez` and `GET /readyz`: the probes a load balancer or an orchestrator asks.

`/livez` answers 200 whenever the process's loop does (restart it if not). `/readyz`
answers 200 when the server should get new requests: it is not shutting down, the upstream
has answered at least once since start (any status) or answers a cheap probe now
(`GET BASE/models`, a short timeout), and each readiness check answers (the Responses
store's `ping`, added by its front). Otherwise 503 with the reasons, as JSON. From SIGTERM
on, `/readyz` says 503 (`Readiness.draining`), during `--shutdown-delay` while requests are
still served, so a load balancer stops sending new ones before the drain begins.
`/healthz` stays as it was: 200 without asking anything.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import aiohttp
from aiohttp import web

from .state import UPSTREAM
from .upstream import describe

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

LIVE_PATH: Final = "/livez"
READY_PATH: Final = "/readyz"
PROBE_TIMEOUT: Final = 2.0
"""Seconds the upstream probe and each readiness check get."""


class Readiness:
    """What `/readyz` asks: the draining flag and the checks (each raises when not ready)."""

    def __init__(self) -> None:
        self.draining = False
        self.checks: dict[str, Callable[[], Awaitable[None]]] = {}


READINESS: web.AppKey[Readiness] = web.AppKey("readiness", Readiness)
"""The app's readiness state."""


def register(app: web.Application) -> None:
    """Add the probe routes and the readiness state to `app`."""
    app[READINESS] = Readiness()
    app.router.add_get(LIVE_PATH, live)
    app.router.add_get(READY_PATH, ready)


async def live(request: web.Request) -> web.Response:
    """`GET /livez`: the process answers."""
    return web.json_response({"status": "live"})


async def ready(request: web.Request) -> web.Response:
    """`GET /readyz`: 200 when new requests are welcome, else 503 with the reasons."""
    readiness = request.app[READINESS]
    if readiness.draining:
        return web.json_response({"status": "draining", "reasons": ["shutting down"]}, status=503)
    reasons = await asyncio.gather(_upstream(request.app), *(
        _check(name, check) for name, check in readiness.checks.items()))
    failed = [reason for reason in reasons if reason]
    if failed:
        return web.json_response({"status": "not ready", "reasons": failed}, status=503)
    return web.json_response({"status": "ready"})


async def _upstream(app: web.Application) -> str | None:
    """None once the upstream has answered anything, else why the probe got no answer."""
    upstream = app[UPSTREAM]
    if upstream.reached:
        return None
    headers = {"Authorization": f"Bearer {upstream.settings.api_key}"} if upstream.settings.api_key else {}
    try:
        async with upstream.session.get(upstream.url("/v1/models"), headers=headers, allow_redirects=False,
                                        timeout=aiohttp.ClientTimeout(total=PROBE_TIMEOUT)):
            upstream.reached = True  # any HTTP answer: the upstream is there
            return None
    except (aiohttp.ClientError, TimeoutError) as error:
        return f"upstream not reached: {describe(error)}"


async def _check(name: str, check: Callable[[], Awaitable[None]]) -> str | None:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT):
            await check()
    except Exception as error:  # a check's failure of any kind is a reason, never a 500
        return f"{name}: {describe(error)}"
    return None
