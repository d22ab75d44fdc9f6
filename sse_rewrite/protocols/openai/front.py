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

from ...body import completion_syntax, rewrite_completion
from ...serve import state
from ...serve.errors import json_error
from ...serve.request_log import RequestRecord
from ...serve.upstream import UpstreamFailure
from ...stream.rewrite import RewriteOptions, StreamRewriter
from ...tool_schemas import ToolSchemas
from ..answers import read_whole, relay_stream
from ..thinking import thinking_off

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

PATHS: Final = ("/v1/chat/completions", "/chat/completions")


def error_for(path: str, status: int, message: str) -> web.Response | None:
    """None: the guard's default error shape is OpenAI's (`errors.json_error`)."""
    return None


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
    tools = ToolSchemas.of_request(payload)  # they type and name the calls of the answer
    prompt_think = upstream.settings.options.prompt_think and not thinking_off(payload)
    options = dataclasses.replace(upstream.settings.options, to="openai", tools=tools,
                                  prompt_think=prompt_think)
    try:
        async with upstream.post_json("/chat/completions", body, request) as response:
            if response.content_type == "text/event-stream":
                return await relay_stream(request, response, StreamRewriter(options), options, record)
            return await _whole(request, response, options, record)
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return failure.response()


async def _whole(request: web.Request, response: aiohttp.ClientResponse, options: RewriteOptions,
                 record: RequestRecord) -> web.Response:
    """Read a whole answer and rewrite it as one body."""
    whole = await read_whole(request, response, options)
    rewritten, notices, calls = rewrite_completion(whole, options)
    if calls:  # (the syntax the calls were read in, for the metrics; calls come from a completion object)
        record.syntax = completion_syntax(orjson.loads(whole).get("model"), options)
    for notice in notices:
        request.app[state.LOG].notice(record, notice)
    record.events_in, record.events_out, record.calls = 1, 1, calls
    headers = {"Content-Type": response.headers.get("Content-Type", "application/json")}
    return web.Response(status=response.status, body=rewritten, headers=headers)
