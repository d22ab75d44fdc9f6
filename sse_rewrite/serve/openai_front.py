"""The OpenAI front: `POST /v1/chat/completions` (and `/chat/completions`), answers repaired.

The request body goes upstream byte for byte, to `BASE/chat/completions`. A streamed
answer (`text/event-stream`) goes through a `StreamRewriter` event by event
(`StreamRelay`); any other successful answer is read whole and rewritten with
`rewrite_completion`. Upstream errors come back as the upstream sent them; the proxy's own
errors are OpenAI-shaped JSON (`errors.py`).
"""

from __future__ import annotations

import dataclasses

import aiohttp
import orjson
from aiohttp import web

from ..rewrite import StreamRewriter, rewrite_completion
from . import state
from .capture import open_capture
from .errors import json_error
from .relay import StreamRelay
from .upstream import UpstreamFailure, broken_off

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

PATHS: Final = ("/v1/chat/completions", "/chat/completions")


def register(app: web.Application) -> None:
    """Add this front's routes to `app`."""
    for path in PATHS:
        app.router.add_post(path, chat_completions)


async def chat_completions(request: web.Request) -> web.StreamResponse:
    """Forward a chat completion request and repair its answer."""
    body = await request.read()
    try:
        payload = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        return json_error(400, f"the request body is not JSON: {error}", code="invalid_json")
    if not isinstance(payload, dict):
        return json_error(400, "the request body must be a JSON object", code="invalid_json")
    record = state.RECORD.get()
    model = payload.get("model")
    record.model = model if isinstance(model, str) else None
    upstream = request.app[state.UPSTREAM]
    options = dataclasses.replace(upstream.settings.options, to="openai")
    rewriter = StreamRewriter(options)
    log = request.app[state.LOG]
    capture_dir = upstream.settings.capture_dir
    try:
        async with upstream.post_json("/chat/completions", body, request) as response:
            if response.content_type != "text/event-stream":
                try:
                    whole = await response.read()
                except (aiohttp.ClientError, TimeoutError) as error:
                    raise broken_off(error) from None
                if capture_dir is not None:
                    with open_capture(capture_dir, options, ".json") as whole_capture:
                        whole_capture.write(whole)
                rewritten, notices, calls = rewrite_completion(whole, options)
                for notice in notices:
                    log.notice(record, notice)
                record.calls = calls
                headers = {"Content-Type": response.headers.get("Content-Type", "application/json")}
                return web.Response(status=response.status, body=rewritten, headers=headers)
            capture = open_capture(capture_dir, options, ".sse") if capture_dir is not None else None
            try:
                relay = StreamRelay(request, response, rewriter, record,
                                    lambda notice: log.notice(record, notice),
                                    interval=upstream.settings.keepalive_interval, capture=capture)
                return await relay.run()
            finally:
                record.take_stats(rewriter.stats)
                if capture is not None:
                    capture.close()
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return failure.response()
