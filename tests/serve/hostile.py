"""A hostile fake upstream for the serve hardening tests: 127.0.0.1 only, bounded in bytes and time.

Every request is recorded (method, raw target, headers, body). What it answers is chosen
by the request's `x-hostile` header:

- `line`: an event stream that is one endless line (no newline);
- `event`: an event stream of `data:` lines that never ends its event;
- `brace`: an event stream whose body starts with `{` and never ends;
- `whole`: a JSON answer that goes on and on;
- `gzip-stream` / `gzip-whole`: a compression bomb (zeros), as a stream or as JSON;
- `valid`: an endless stream of well-formed chat chunks;
- `cors`: a small chat answer with `Access-Control-Allow-Origin: *` and friends;
- `hang`: headers, one event, then silence for `HANG` seconds;
- anything else: `{"ok": true}` with the CORS headers too.

An endless body stops after `TOTAL` bytes or when the proxy hangs up, whichever is first.
"""

from __future__ import annotations

import asyncio
import gzip
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from aiohttp import web

TOTAL = 256 << 20
"""What an endless body sends at most: far past any cap the tests set, and past what a test may hold."""
PIECE = 1 << 20
HANG = 5.0
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Credentials": "true",
        "Access-Control-Expose-Headers": "*"}
CHAT = (b'data: {"id":"x","object":"chat.completion.chunk",'
        b'"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n')


@dataclass
class Hostile:
    """What the hostile upstream saw, and how many bytes of endless bodies it got out."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0


HOSTILE: web.AppKey[Hostile] = web.AppKey("hostile", Hostile)


@cache
def bomb() -> bytes:
    """`TOTAL` zeros, gzip-compressed (about a thousandth of the size)."""
    return gzip.compress(bytes(TOTAL), compresslevel=1)


async def _endless(request: web.Request, content_type: str, first: bytes, piece: bytes) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": content_type})
    await response.prepare(request)
    hostile = request.app[HOSTILE]
    try:
        await response.write(first)
        while hostile.sent < TOTAL:
            await response.write(piece)
            hostile.sent += len(piece)
    except (ConnectionError, RuntimeError):
        pass  # the proxy hung up: the point
    return response


async def _bomb(request: web.Request, content_type: str) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": content_type, "Content-Encoding": "gzip"})
    await response.prepare(request)
    data = bomb()
    try:
        for start in range(0, len(data), 65536):
            await response.write(data[start:start + 65536])
        await response.write_eof()
    except (ConnectionError, RuntimeError):
        pass
    return response


async def handle(request: web.Request) -> web.StreamResponse:
    """Record the request; answer as `x-hostile` says."""
    body = await request.read()
    request.app[HOSTILE].requests.append({"method": request.method, "target": request.raw_path,
                                          "headers": dict(request.headers), "body": body})
    mode = request.headers.get("x-hostile", "")
    if mode == "line":
        return await _endless(request, "text/event-stream", b"data: ", b"x" * PIECE)
    if mode == "event":
        lines = (b"data: " + b"x" * 1017 + b"\n") * (PIECE // 1024)
        return await _endless(request, "text/event-stream", b"", lines)
    if mode == "valid":  # long words: few events to a megabyte, so the proxy's buffers fill fast
        event = CHAT.replace(b'"hi"', b'"' + b"hi " * 2700 + b'"')
        return await _endless(request, "text/event-stream", b"", event * (PIECE // len(event)))
    if mode == "brace":
        return await _endless(request, "text/event-stream", b'{"choices": "', b"x" * PIECE)
    if mode == "whole":
        return await _endless(request, "application/json", b'{"choices": "', b"x" * PIECE)
    if mode.startswith("gzip-"):
        return await _bomb(request, "text/event-stream" if mode == "gzip-stream" else "application/json")
    if mode == "cors":
        return web.Response(body=CHAT + b"data: [DONE]\n\n", content_type="text/event-stream", headers=CORS)
    if mode == "hang":
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(CHAT)
        await asyncio.sleep(HANG)
        return response
    return web.json_response({"ok": True}, headers=CORS)


async def start(hostile: Hostile) -> web.AppRunner:
    """Serve the hostile upstream on 127.0.0.1, on a free port."""
    app = web.Application(client_max_size=64 << 20)
    app[HOSTILE] = hostile
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1, auto_decompress=False)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner
