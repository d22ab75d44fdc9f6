"""The Responses front: `POST /v1/responses` on any chat.completions upstream (Codex CLI's door).

A Responses request (after the stored conversation of its `previous_response_id`) is
translated (`request.translate_request`) and POSTed to `BASE/chat/completions`; the
answer comes back through the `--to responses` path: a stream through a
`FrontRewriter` whose output is a `ResponsesOutput` that knows the request (its
response id, custom tools, fields to repeat), relayed event by event (`StreamRelay`);
a whole body through `rewrite_completion` and `completion_response` (as events if the
client asked for a stream the upstream did not send). `/responses` works the same.

A finished response is stored (`store.py`: an SQLite file, or PostgreSQL with
`store_postgres.py`) unless the request says `store: false` or the server runs with
`--store none`; `GET` and `DELETE /v1/responses/{id}` read and forget it. How it is kept
without delaying the answer is `keeping.py`: a stream's response is reserved before its
first event (a request naming it, on this instance or another one, waits for it to be
stored) and written before its last; a whole answer's is written before it goes out. A
store that fails never costs an answer: the answer goes out and the log gets a `not-stored`
notice; a request that needs the store (`previous_response_id`, `GET`, `DELETE`) gets a 503
while it fails.

Errors are Responses-shaped: before the first byte an HTTP status with
`{"error": {"message", "type", "code", "param"}}` (the upstream's status, `retry-after`
kept); after it a `response.failed` event, also when the upstream breaks off.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator

import aiohttp
import orjson
from aiohttp import web
from multidict import CIMultiDict

from ...serve import state
from ...serve.metrics import metered_store
from ...serve.probes import READINESS
from ...serve.upstream import UpstreamFailure
from ...stream.rewrite import RewriteOptions
from ...tool_schemas import ToolSchemas
from ..answers import error_status, relay_stream, request_json, whole_as_events, whole_completion
from ..text_runs import FrontRewriter
from ..thinking import thinking_off
from .items import ResponseContext
from .keeping import RESPONSES, Keeper, Responses
from .mapping import error_body, new_response_id
from .output import ResponsesOutput
from .request import RequestError, translate_request
from .store import StoredResponse, StoreUnavailable
from .stores import open_store
from .whole import completion_response

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

PATHS: Final = ("/v1/responses", "/responses")
BROKEN_OFF: Final = b'\n\ndata: {"error":{"message":"the upstream broke off mid-answer","code":502}}\n\n'
"""Fed to the rewriter when the upstream dies mid-stream: it becomes `response.failed`."""
WAIT_FOR_PENDING: Final = 60.0
"""Seconds a request waits for the response it continues to finish being stored."""
_POLL: Final = (0.02, 0.5)
"""How often the store is asked again about a response reserved elsewhere: first, and at most (seconds)."""


def register(app: web.Application) -> None:
    """Add this front's routes and its store to `app`."""
    for path in PATHS:
        app.router.add_post(path, create)
        app.router.add_get(path + "/{id}", read)
        app.router.add_delete(path + "/{id}", delete)
    app.cleanup_ctx.append(_open_store)


async def _open_store(app: web.Application) -> AsyncIterator[None]:
    settings = app[state.UPSTREAM].settings
    if isinstance(settings.store, str):
        state.adopt_logger("psycopg", app[state.LOG])  # its pool's warnings: one log line each
    store = await open_store(settings.store, settings.store_pool)
    app[RESPONSES] = Responses(None if store is None else metered_store(app, store))
    if (metered := app[RESPONSES].store) is not None:
        app[READINESS].checks["store"] = metered.ping
    yield
    if store is not None:
        await store.close()


async def create(request: web.Request) -> web.StreamResponse:
    """Answer a Responses request from the upstream's chat completion, repaired."""
    upstream, record, log = request.app[state.UPSTREAM], state.RECORD.get(), request.app[state.LOG]
    responses = request.app[RESPONSES]
    try:
        body = await request_json(request)
        previous = await _previous(responses, body)
        translation = translate_request(body, previous, upstream.settings.models)
    except RequestError as error:
        return responses_error(400, str(error))
    except StoreUnavailable as error:
        return _unavailable(error)
    record.model = translation.request["model"]
    for notice in translation.notices:
        log.notice(record, notice)
    response_id = new_response_id()
    stored = responses.store is not None and body.get("store") is not False
    keeper = Keeper(request, responses, response_id, translation.conversation) if stored else None
    stream = body.get("stream") is True
    if keeper is not None and stream:
        keeper.reserve()  # while the upstream is asked: a stream's id goes out in its first event
    echo = {**translation.echo, "store": keeper is not None}
    context = ResponseContext(response_id, echo, translation.custom_tools)
    output = ResponsesOutput(context)
    tools = ToolSchemas.of_request(translation.request)  # (as the upstream sees them)
    off = thinking_off(body) or thinking_off(translation.request)
    prompt_think = upstream.settings.options.prompt_think and not off
    options = dataclasses.replace(upstream.settings.options, to="responses", tools=tools,
                                  prompt_think=prompt_think)
    try:
        chat_request = orjson.dumps(translation.request)
        async with upstream.post_json("/chat/completions", chat_request, request) as answer:
            if answer.content_type != "text/event-stream":
                return await _whole_answer(answer, request, context, options, stream=stream, keeper=keeper)
            before_write = None
            if keeper is not None:
                echo["store"] = await keeper.reserved()  # before the first byte, which names the response
                before_write = keeper.before_write(output) if echo["store"] else None
            streamed = await relay_stream(request, answer, FrontRewriter(options, output), options, record,
                                          on_break=BROKEN_OFF, before_write=before_write)
            if before_write is not None and keeper is not None:  # (stored already, unless no event ended it)
                await keeper.keep(output.response)
            return streamed
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return responses_failure(failure)
    finally:
        if keeper is not None:
            keeper.end()


async def _previous(responses: Responses, body: Any) -> list[dict[str, Any]] | None:
    """The stored conversation `previous_response_id` names (None without one)."""
    previous = body.get("previous_response_id") if isinstance(body, dict) else None
    if previous is None:
        return None
    if not isinstance(previous, str):
        raise RequestError("previous_response_id: expected a response id")
    if responses.store is None:
        raise RequestError("previous_response_id: this proxy keeps no responses (serve --store none); "
                           "send the whole conversation in input")
    stored = await _settled(responses, previous)
    if stored is None:
        raise RequestError(f"previous_response_id: no stored response {previous!r} "
                           "(unknown, deleted or expired)")
    return stored.conversation


async def _settled(responses: Responses, response_id: str) -> StoredResponse | None:
    """The stored response, once it is no longer being answered (here or on another instance).

    None when it is unknown, or still reserved after `WAIT_FOR_PENDING` seconds.
    """
    assert responses.store is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_FOR_PENDING
    if event := responses.pending.get(response_id):
        with contextlib.suppress(TimeoutError):  # then it is looked up as it stands
            async with asyncio.timeout(WAIT_FOR_PENDING):
                await event.wait()
    stored = await responses.store.get(response_id)
    pause = _POLL[0]
    while stored is not None and stored.pending and loop.time() < deadline:
        await asyncio.sleep(pause)  # reserved by another instance or worker: it tells nobody when it ends
        pause = min(pause * 2, _POLL[1])
        stored = await responses.store.get(response_id)
    return None if stored is None or stored.pending else stored


async def _whole_answer(answer: aiohttp.ClientResponse, request: web.Request, context: ResponseContext,
                        options: RewriteOptions, *, stream: bool, keeper: Keeper | None) -> web.Response:
    """A non-streamed completion as one response object (or error body); as events if `stream`.

    The response is stored (by `keeper`) before it goes out; if that fails it says `store: false`.
    """
    record = state.RECORD.get()
    whole, completion, notices = await whole_completion(request, answer, options, record)
    if completion is None:
        return responses_error(502, f"the upstream's answer is not a chat completion: {whole[:200]!r}")
    response, events, more = completion_response(completion, context)
    body = orjson.dumps(response)  # (what is stored, as the client gets it)
    if keeper is not None and not await keeper.keep(response, body):
        not_kept = dataclasses.replace(context, echo={**context.echo, "store": False})
        response, events, more = completion_response(completion, not_kept)
        body = orjson.dumps(response)
    for notice in notices + more:
        request.app[state.LOG].notice(record, notice)
    if "error" in response and "object" not in response:  # an error inside a 200 (OpenRouter does this)
        return web.Response(status=error_status(completion), body=body, content_type="application/json")
    if stream:
        return whole_as_events(record, events)
    return web.Response(body=body, content_type="application/json")


async def read(request: web.Request) -> web.Response:
    """`GET /v1/responses/{id}`: the stored response object (once it is no longer being answered)."""
    responses, rid = request.app[RESPONSES], request.match_info["id"]
    try:
        stored = None if responses.store is None else await _settled(responses, rid)
    except StoreUnavailable as error:
        return _unavailable(error)
    if stored is None:
        return responses_error(404, f"no stored response {rid!r}")
    return web.Response(body=stored.response_json(), content_type="application/json")


async def delete(request: web.Request) -> web.Response:
    """`DELETE /v1/responses/{id}`: forget a stored response."""
    store, rid = request.app[RESPONSES].store, request.match_info["id"]
    try:
        deleted = store is not None and await store.delete(rid)
    except StoreUnavailable as error:
        return _unavailable(error)
    if not deleted:
        return responses_error(404, f"no stored response {rid!r}")
    return web.json_response({"id": rid, "object": "response.deleted", "deleted": True})


def _unavailable(error: StoreUnavailable) -> web.Response:
    """The 503 for a request that needs a store that fails."""
    state.RECORD.get().outcome = str(error)
    return responses_error(503, f"{error}: try again", code="store_unavailable")


def error_for(path: str, status: int, message: str) -> web.Response | None:
    """The guard's error for a Responses path, in the Responses shape; None for other paths."""
    return responses_error(status, message) if path.startswith(PATHS) else None


def responses_error(status: int, message: str, headers: CIMultiDict[str] | None = None,
                    code: str | None = None) -> web.Response:
    """A Responses error response: `status` and `{"error": {message, type, code, param}}`."""
    headers = CIMultiDict(headers or {})
    headers["Content-Type"] = "application/json"
    return web.Response(status=status, body=orjson.dumps(error_body(status, message, code)), headers=headers)


def responses_failure(failure: UpstreamFailure) -> web.Response:
    """`failure` in the Responses shape: its status, its message and code, `retry-after` kept."""
    try:
        parsed: Any = orjson.loads(failure.body)
    except orjson.JSONDecodeError:
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    error = error if isinstance(error, dict) else {}
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = failure.body.decode(errors="replace").strip()[:1000] or failure.reason
    code = error.get("code") if isinstance(error.get("code"), str) else None
    headers = CIMultiDict(failure.headers)
    headers.popall("content-type", None)
    return responses_error(failure.status, message, headers, code)
