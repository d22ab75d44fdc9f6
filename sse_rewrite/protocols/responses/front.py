"""The Responses front: `POST /v1/responses` on any chat.completions upstream (Codex CLI's door).

A Responses request (after the stored conversation of its `previous_response_id`) is
translated (`request.translate_request`) and POSTed to `BASE/chat/completions`; the
answer comes back through the `--to responses` path: a stream through a
`StreamRewriter` whose output is a `ResponsesOutput` that knows the request (its
response id, custom tools, fields to repeat), relayed event by event (`StreamRelay`);
a whole body through `rewrite_completion` and `completion_response` (as events if the
client asked for a stream the upstream did not send). `/responses` works the same.

A finished response is stored (`store.py`: an SQLite file, or PostgreSQL with
`store_postgres.py`) unless the request says `store: false` or the server runs with
`--store none`; `GET` and `DELETE /v1/responses/{id}` read and forget it. The response is
reserved in the store before its answer starts, so a request naming it, on this instance
or another one, waits for it to be stored. A store that fails never costs an answer: the
answer goes out and the log gets a `not-stored` notice; a request that needs the store
(`previous_response_id`, `GET`, `DELETE`) gets a 503 while it fails.

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
from ...stream.events import Notice
from ...stream.rewrite import RewriteOptions, StreamRewriter
from ...tool_schemas import ToolSchemas
from ..answers import error_status, relay_stream, request_json, whole_completion
from ..thinking import thinking_off
from .input_items import input_messages
from .items import ResponseContext
from .mapping import error_body, new_response_id
from .output import ResponsesOutput
from .request import RequestError, Translation, translate_request
from .store import StoredResponse, StoreUnavailable
from .stores import open_store
from .whole import completion_response

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from .store import ResponseStore

PATHS: Final = ("/v1/responses", "/responses")
BROKEN_OFF: Final = b'\n\ndata: {"error":{"message":"the upstream broke off mid-answer","code":502}}\n\n'
"""Fed to the rewriter when the upstream dies mid-stream: it becomes `response.failed`."""
WAIT_FOR_PENDING: Final = 60.0
"""Seconds a request waits for the response it continues to finish being stored."""
_POLL: Final = (0.02, 0.5)
"""How often the store is asked again about a response reserved elsewhere: first, and at most (seconds)."""


class Responses:
    """The front's state in the app: the store (None with `--store none`) and responses in flight."""

    def __init__(self, store: ResponseStore | None) -> None:
        self.store = store
        self.pending: dict[str, asyncio.Event] = {}
        self._releasing: set[asyncio.Task[None]] = set()

    def release(self, response_id: str) -> None:
        """Drop the reservation of a response that was not stored (failed, cut, or its client gone).

        In the background, so a cancelled request need not wait for it. Only a reservation is
        dropped, never a stored response (a request cancelled as its response was stored); a
        store that fails here leaves the reservation to expire with the age bound.
        """
        if self.store is not None:
            task = asyncio.ensure_future(self._release(self.store, response_id))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    @staticmethod
    async def _release(store: ResponseStore, response_id: str) -> None:
        with contextlib.suppress(StoreUnavailable):
            await store.release(response_id)


RESPONSES: web.AppKey[Responses] = web.AppKey("responses", Responses)


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
    keep = responses.store is not None and body.get("store") is not False and \
        await _reserve(request, responses, response_id)
    echo = {**translation.echo, "store": keep}
    context = ResponseContext(response_id, echo, translation.custom_tools)
    output = ResponsesOutput(context)
    if keep:
        responses.pending[response_id] = asyncio.Event()
    tools = ToolSchemas.of_request(translation.request)  # (as the upstream sees them)
    off = thinking_off(body) or thinking_off(translation.request)
    prompt_think = upstream.settings.options.prompt_think and not off
    options = dataclasses.replace(upstream.settings.options, to="responses", tools=tools,
                                  prompt_think=prompt_think)
    kept = False
    try:
        chat_request = orjson.dumps(translation.request)
        async with upstream.post_json("/chat/completions", chat_request, request) as answer:
            if answer.content_type != "text/event-stream":
                stream = body.get("stream") is True
                whole, response = await _whole_answer(answer, request, context, options, stream=stream)
                kept = await _keep(request, responses, keep, response, translation)
                return whole
            streamed = await relay_stream(request, answer, StreamRewriter(options, output), options, record,
                                          on_break=BROKEN_OFF)
            kept = await _keep(request, responses, keep, output.response, translation)
            return streamed
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return responses_failure(failure)
    finally:
        if event := responses.pending.pop(response_id, None):
            event.set()
        if keep and not kept:
            responses.release(response_id)


async def _reserve(request: web.Request, responses: Responses, response_id: str) -> bool:
    """Reserve the response in the store before its answer starts; whether it will be stored.

    A store that fails costs the client nothing but the storing: the answer goes on (`store: false`).
    """
    assert responses.store is not None
    try:
        await responses.store.reserve(response_id)
    except StoreUnavailable as error:
        _not_stored(request, error)
        return False
    return True


def _not_stored(request: web.Request, error: StoreUnavailable) -> None:
    """Tell the log (and the metrics) that a response was answered but not stored."""
    record = state.RECORD.get()
    record.outcome = f"not stored: {error}"
    request.app[state.LOG].notice(record, Notice("not-stored", f"the response is answered but not stored: "
                                                               f"{error}"))


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


async def _keep(request: web.Request, responses: Responses, keep: bool, response: dict[str, Any] | None,
                translation: Translation) -> bool:
    """Store a finished response with its conversation (its output read back as messages); whether it was."""
    if not keep or responses.store is None or response is None:
        return False
    if response.get("status") not in ("completed", "incomplete"):
        return False
    conversation = translation.conversation + input_messages(response["output"], [], "output")
    stored = StoredResponse(response, conversation)
    saving = asyncio.ensure_future(responses.store.put(response["id"], stored))
    try:
        await _to_the_end(saving)
    except StoreUnavailable as error:  # a side job never fails the request
        _not_stored(request, error)
        return False
    return True


async def _to_the_end(job: asyncio.Future[None]) -> None:
    """Await `job` to its end even if the request is cancelled meanwhile (its client closed the
    moment the stream ended, as curl does), then let the cancellation go on."""
    try:
        await asyncio.shield(job)
    except asyncio.CancelledError:
        await job
        raise


async def _whole_answer(answer: aiohttp.ClientResponse, request: web.Request, context: ResponseContext,
                        options: RewriteOptions, *, stream: bool,
                        ) -> tuple[web.Response, dict[str, Any] | None]:  # fmt: skip
    """A non-streamed completion as one response object (or error body); as events if `stream`."""
    record = state.RECORD.get()
    whole, completion, notices = await whole_completion(request, answer, options, record)
    if completion is None:
        return responses_error(502, f"the upstream's answer is not a chat completion: {whole[:200]!r}"), None
    response, events, more = completion_response(completion, context)
    for notice in notices + more:
        request.app[state.LOG].notice(record, notice)
    if "error" in response and "object" not in response:  # an error inside a 200 (OpenRouter does this)
        body = orjson.dumps(response)
        return web.Response(status=error_status(completion), body=body, content_type="application/json"), None
    if stream:
        return web.Response(body=events, content_type="text/event-stream"), response
    return web.Response(body=orjson.dumps(response), content_type="application/json"), response


async def read(request: web.Request) -> web.Response:
    """`GET /v1/responses/{id}`: the stored response object (once it is no longer being answered)."""
    responses, rid = request.app[RESPONSES], request.match_info["id"]
    try:
        stored = None if responses.store is None else await _settled(responses, rid)
    except StoreUnavailable as error:
        return _unavailable(error)
    if stored is None:
        return responses_error(404, f"no stored response {rid!r}")
    return web.Response(body=orjson.dumps(stored.response), content_type="application/json")


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
