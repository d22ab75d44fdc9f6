"""The Anthropic front: `POST /v1/messages` on any OpenAI-compatible upstream (Claude Code's door).

A Messages request is translated (`request.translate_request`) and POSTed to
`BASE/chat/completions`; the answer comes back through the `--to anthropic` path: a
stream goes through a `FrontRewriter(to="anthropic")` event by event (`StreamRelay`,
with `event: ping` as its keep-alive), a whole body through `rewrite_completion` and
`completion_to_message` (then `message_events` if the client asked for a stream the
upstream did not send). Claude Code calls `/v1/messages?beta=true`; the query changes
nothing.

Errors are Anthropic-shaped: before the first byte an HTTP status with
`{"type": "error", "error": {"type", "message"}}` (`retry-after` kept); after it an
`event: error`, also when the upstream breaks off mid-stream (the client retries rather
than taking half an answer for a whole one). Auth: the client's `x-api-key` (or its
`Authorization`) goes upstream as `Authorization: Bearer`, unless the proxy has a key of
its own (`--api-key-env`); Anthropic's own headers stay here.

Also answered: `POST /v1/messages/count_tokens`, locally (`estimate_tokens`), and
`GET /v1/models` in Anthropic's list shape when the client is an Anthropic one (it sends
`anthropic-version`); any other client's `GET /v1/models` is forwarded untouched.
"""

from __future__ import annotations

import dataclasses

import aiohttp
import orjson
from aiohttp import web
from multidict import CIMultiDict

from ...serve import state
from ...serve.request_log import RequestRecord
from ...serve.upstream import Upstream, UpstreamFailure, describe, end_to_end
from ...stream.rewrite import RewriteOptions
from ...stream.sse import encode_event
from ...tool_schemas import ToolSchemas
from ..answers import error_status, relay_stream, request_json, whole_as_events, whole_completion
from ..fields import RequestError
from ..text_runs import FrontRewriter
from ..thinking import anthropic_thinking_off
from .mapping import completion_to_message, error_object, status_error
from .models import models_list
from .request import translate_request
from .token_estimate import estimate_tokens
from .whole import message_events

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

MESSAGES_PATH: Final = "/v1/messages"
COUNT_TOKENS_PATH: Final = "/v1/messages/count_tokens"
MODELS_PATH: Final = "/v1/models"
PING: Final = encode_event(b'{"type":"ping"}', event="ping")
"""The keep-alive of an Anthropic stream: the event Anthropic itself sends, which SDKs skip."""
BROKEN_OFF: Final = b'\n\ndata: {"error":{"message":"the upstream broke off mid-answer","code":502}}\n\n'
"""Fed to the rewriter when the upstream dies mid-stream: it becomes an `event: error`.

The blank lines first end whatever half event the upstream left behind."""
_ANTHROPIC_HEADERS: Final = (
    "anthropic-version", "anthropic-beta", "anthropic-dangerous-direct-browser-access",
)


def register(app: web.Application) -> None:
    """Add this front's routes to `app`."""
    app.router.add_post(MESSAGES_PATH, messages)
    app.router.add_post(COUNT_TOKENS_PATH, count_tokens)
    app.router.add_get(MODELS_PATH, models)


async def messages(request: web.Request) -> web.StreamResponse:
    """Answer a Messages request from the upstream's chat completion, repaired."""
    upstream, record, log = request.app[state.UPSTREAM], state.RECORD.get(), request.app[state.LOG]
    try:
        body = await request_json(request)
        translated, notices = translate_request(body, upstream.settings.models)
    except RequestError as error:
        return anthropic_error(400, str(error))
    record.model = translated["model"]
    for notice in notices:
        log.notice(record, notice)
    # the request's tools, as the upstream sees them (translated): they type and name its calls
    tools = ToolSchemas.of_request(translated)
    prompt_think = upstream.settings.options.prompt_think and not anthropic_thinking_off(body)
    options = dataclasses.replace(upstream.settings.options, to="anthropic", tools=tools,
                                  prompt_think=prompt_think)
    try:
        async with upstream.post_json("/chat/completions", orjson.dumps(translated), request,
                                      headers=upstream_headers(upstream, request)) as response:
            if response.content_type != "text/event-stream":
                return await _whole_answer(response, options, record, request,
                                           stream=translated.get("stream") is True)
            return await relay_stream(request, response, FrontRewriter(options), options, record,
                                      keepalive=PING, on_break=BROKEN_OFF)
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return anthropic_failure(failure)


async def _whole_answer(response: aiohttp.ClientResponse, options: RewriteOptions, record: RequestRecord,
                        request: web.Request, *, stream: bool) -> web.Response:
    """A non-streamed completion as one Anthropic message (or error) body; as events if `stream`.

    (An upstream may answer a streaming request whole; the client still expects events.)
    """
    whole, completion, notices = await whole_completion(request, response, options, record)
    if completion is None:
        return anthropic_error(502, f"the upstream's answer is not a chat completion: {whole[:200]!r}")
    message, more = completion_to_message(completion)
    for notice in notices + more:
        request.app[state.LOG].notice(record, notice)
    status = error_status(completion) if message["type"] == "error" else 200
    if stream and status == 200:
        return whole_as_events(record, message_events(message))
    # the body ends as the filter's does, so a capture's golden file equals what the client got
    return web.Response(status=status, body=orjson.dumps(message) + b"\n", content_type="application/json")


async def count_tokens(request: web.Request) -> web.Response:
    """`{"input_tokens": N}`, estimated here (see `estimate_tokens`); the upstream is not asked."""
    models = request.app[state.UPSTREAM].settings.models
    try:
        translated, _ = translate_request(await request_json(request), models)
    except RequestError as error:
        return anthropic_error(400, str(error))
    state.RECORD.get().model = translated["model"]
    return web.Response(body=orjson.dumps({"input_tokens": estimate_tokens(translated)}),
                        content_type="application/json")


async def models(request: web.Request) -> web.StreamResponse:
    """The upstream's models in Anthropic's list shape, for Anthropic clients; else forwarded."""
    upstream = request.app[state.UPSTREAM]
    try:
        if "anthropic-version" not in request.headers:
            return await upstream.forward(request)
        url = upstream.url("/models")
        try:
            async with upstream.session.get(url, headers=upstream_headers(upstream, request)) as response:
                body = await response.read()
        except (aiohttp.ClientError, TimeoutError) as error:
            return anthropic_error(502, f"upstream unreachable: {describe(error)}")
        if response.status >= 400:
            headers = end_to_end(response.headers)
            headers.popall("content-length", None)  # the Anthropic body is another length
            raise UpstreamFailure(response.status, body, headers)
        try:
            listing = orjson.loads(body)
        except orjson.JSONDecodeError:
            return anthropic_error(502, f"the upstream's model list is not JSON: {body[:200]!r}")
        return web.Response(body=orjson.dumps(models_list(listing)), content_type="application/json")
    except UpstreamFailure as failure:
        state.RECORD.get().outcome = failure.reason
        return anthropic_failure(failure) if "anthropic-version" in request.headers else failure.response()


def upstream_headers(upstream: Upstream, request: web.Request) -> CIMultiDict[str]:
    """The upstream headers for an Anthropic client: its key as a Bearer, Anthropic's headers left out."""
    headers = upstream.headers_for(request, rewritten=True)
    key = headers.popone("x-api-key", None)
    if key and "authorization" not in headers:
        headers["Authorization"] = f"Bearer {key}"
    for name in _ANTHROPIC_HEADERS:
        headers.popall(name, None)
    return headers


def error_for(path: str, status: int, message: str) -> web.Response | None:
    """The guard's error for a Messages path, in Anthropic's shape; None for other paths."""
    return anthropic_error(status, message) if path.startswith(MESSAGES_PATH) else None


def anthropic_error(status: int, message: str, headers: CIMultiDict[str] | None = None) -> web.Response:
    """An Anthropic error response: `status` and `{"type": "error", "error": {...}}`."""
    headers = CIMultiDict(headers or {})
    headers["Content-Type"] = "application/json"
    return web.Response(status=status, body=orjson.dumps(status_error(status, message)), headers=headers)


def anthropic_failure(failure: UpstreamFailure) -> web.Response:
    """`failure` in Anthropic's shape: its status, its message, its headers (`retry-after`) kept."""
    try:
        parsed: Any = orjson.loads(failure.body)
    except orjson.JSONDecodeError:
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if error:
        message = error_object(error)["error"]["message"]
    else:
        message = failure.body.decode(errors="replace").strip()[:1000] or failure.reason
    headers = CIMultiDict(failure.headers)
    headers.popall("content-type", None)
    return anthropic_error(failure.status, message, headers)
