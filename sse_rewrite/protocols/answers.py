"""What the `serve` fronts do alike with a request and the upstream's answer to it.

A stream is relayed through the rewriter event by event (`relay_stream`), a whole answer
read at once (`read_whole`); both are captured with `--capture`. The translating fronts
also read the client's JSON body (`request_json`) and the rewritten completion of a
whole answer (`whole_completion`).
"""

from __future__ import annotations

import aiohttp
import orjson
from aiohttp import web

from ..body import completion_syntax, rewrite_completion
from ..serve import state
from ..serve.capture import open_capture
from ..serve.relay import SSE_KEEPALIVE, StreamRelay
from ..serve.upstream import broken_off
from .fields import RequestError
from .translated import is_completion

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    from ..serve.request_log import RequestRecord
    from ..stream.events import Notice
    from ..stream.rewrite import RewriteOptions, StreamRewriter


async def relay_stream(request: web.Request, answer: aiohttp.ClientResponse, rewriter: StreamRewriter,
                       options: RewriteOptions, record: RequestRecord, *,
                       keepalive: bytes = SSE_KEEPALIVE, on_break: bytes = b"",
                       before_write: Callable[[], Awaitable[object] | None] | None = None,
                       ) -> web.StreamResponse:  # fmt: skip
    """Relay a streamed answer through `rewriter`, event by event; its stats go to `record`
    (`before_write`: see `StreamRelay`)."""
    settings, log = request.app[state.UPSTREAM].settings, request.app[state.LOG]
    capture_dir = settings.capture_dir
    capture = open_capture(capture_dir, options, ".sse") if capture_dir is not None else None
    try:
        relay = StreamRelay(request, answer, rewriter, record, lambda notice: log.notice(record, notice),
                            interval=settings.keepalive_interval, keepalive=keepalive, capture=capture,
                            on_break=on_break, before_write=before_write)
        return await relay.run()
    finally:
        record.take_stats(rewriter.stats)
        if capture is not None:
            capture.close()


async def read_whole(request: web.Request, answer: aiohttp.ClientResponse, options: RewriteOptions) -> bytes:
    """A whole answer's body; an `UpstreamFailure` if the upstream broke off while sending it."""
    try:
        whole = await answer.read()
    except (aiohttp.ClientError, TimeoutError) as error:
        raise broken_off(error) from None
    capture_dir = request.app[state.UPSTREAM].settings.capture_dir
    if capture_dir is not None:
        with open_capture(capture_dir, options, ".json") as capture:
            capture.write(whole)
    return whole


async def whole_completion(request: web.Request, answer: aiohttp.ClientResponse, options: RewriteOptions,
                           record: RequestRecord) -> tuple[bytes, dict[str, Any] | None, list[Notice]]:
    """A whole answer: its bytes, its rewritten completion (None if it is none) and the rewrite's notices."""
    whole = await read_whole(request, answer, options)
    rewritten, notices, record.calls = rewrite_completion(whole, options)
    record.events_in = record.events_out = 1  # (a whole body counts as one event, as in the chat front)
    try:
        completion = orjson.loads(rewritten)
    except orjson.JSONDecodeError:
        completion = None
    if record.calls and isinstance(completion, dict):  # (the syntax the calls were read in, for the metrics)
        record.syntax = completion_syntax(completion.get("model"), options)
    return whole, completion if is_completion(completion) else None, notices


def whole_as_events(record: RequestRecord, events: bytes) -> web.Response:
    """A whole answer sent as the events a streaming client expects; they are counted as written."""
    record.events_out = events.count(b"\n\n")
    return web.Response(body=events, content_type="text/event-stream")


def error_status(completion: dict[str, Any]) -> int:
    """The HTTP status for a completion that is an error inside a 200 (OpenRouter does this)."""
    code = completion["error"].get("code") if isinstance(completion["error"], dict) else None
    return code if isinstance(code, int) and 400 <= code <= 599 else 502


async def request_json(request: web.Request) -> Any:
    """The client's request body, decoded; `RequestError` if it is not JSON."""
    try:
        return orjson.loads(await request.read())
    except orjson.JSONDecodeError as error:
        raise RequestError(f"the request body is not JSON: {error}") from None
