"""The Gemini front: `POST /v1beta/models/{model}:{method}` on any chat.completions upstream.

Gemini CLI's (and Google's SDKs') door. `streamGenerateContent` and `generateContent`
(also under `/v1/`) are translated (`request.translate_request`) and POSTed to
`BASE/chat/completions`; the answer comes back through the `--to gemini` path: a stream
through a `FrontRewriter(to="gemini")` event by event (`StreamRelay`), always as SSE
(`?alt=sse`, what every client asks for); a whole body through `rewrite_completion` and
`completion_response`. `countTokens` is answered here (`estimate_tokens`), the upstream
not asked. Any other `/v1beta/` method is a 404; another `POST /v1/models/…` is
forwarded like any other path.

Auth: the client's key arrives as `x-goog-api-key` (or `?key=`); it goes upstream as
`Authorization: Bearer`, unless the proxy has a key of its own (`--api-key-env`) or an
access token (then the client's key is that token, which stays here). Google's own
`x-goog-*` headers stay here; the query never goes upstream.

Errors are Google-shaped: before the first byte an HTTP status with `{"error": {"code",
"message", "status"}}` (the upstream's status, `retry-after` kept); after it a last
`data: {"error": …}` event, also when the upstream breaks off mid-stream. Keep-alives are
empty text parts (`KEEPALIVE`), since Google's SDKs read comments as broken JSON.
"""

from __future__ import annotations

import dataclasses

import aiohttp
import orjson
from aiohttp import web
from multidict import CIMultiDict

from ...serve import state
from ...serve.request_log import RequestRecord
from ...serve.upstream import Upstream, UpstreamFailure
from ...stream.rewrite import RewriteOptions
from ...stream.sse import encode_event
from ...tool_schemas import ToolSchemas
from ..answers import relay_stream, request_json, whole_as_events, whole_completion
from ..anthropic.token_estimate import estimate_tokens
from ..fields import RequestError
from ..text_runs import FrontRewriter
from ..thinking import thinking_off
from .mapping import error_body
from .request import translate_request
from .whole import completion_response

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

PREFIXES: Final = ("/v1beta", "/v1")
KEEPALIVE: Final = encode_event(b'{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},'
                                b'"index":0}]}')
"""The keep-alive of a Gemini stream: a chunk whose one part is empty text, which adds nothing."""
BROKEN_OFF: Final = b'\n\ndata: {"error":{"message":"the upstream broke off mid-answer","code":502}}\n\n'
"""Fed to the rewriter when the upstream dies mid-stream: it becomes the stream's error event."""
_GENERATE: Final = frozenset({"generateContent", "streamGenerateContent"})


def register(app: web.Application) -> None:
    """Add this front's routes to `app`."""
    for prefix in PREFIXES:  # (a model id may hold slashes: `qwen/qwen3-coder` as OpenRouter names it)
        app.router.add_post(prefix + "/models/{call:.+}", models_call)


async def models_call(request: web.Request) -> web.StreamResponse:
    """`models/{model}:{method}`: generate (streamed or whole) or count tokens (the method after the
    last colon, the model before it, slashes and all)."""
    model, colon, method = request.match_info["call"].rpartition(":")
    if colon and model and method in _GENERATE:
        return await generate(request, model, stream=method == "streamGenerateContent")
    if colon and model and method == "countTokens":
        return await count_tokens(request, model)
    if request.path.startswith("/v1beta/"):
        served = "generateContent, streamGenerateContent, countTokens"
        return gemini_error(404, f"{request.match_info['call']!r}: this proxy serves {served}")
    try:
        return await request.app[state.UPSTREAM].forward(request)
    except UpstreamFailure as failure:
        state.RECORD.get().outcome = failure.reason
        return failure.response()


async def generate(request: web.Request, model: str, *, stream: bool) -> web.StreamResponse:
    """Answer a Gemini generate request from the upstream's chat completion, repaired."""
    upstream, record, log = request.app[state.UPSTREAM], state.RECORD.get(), request.app[state.LOG]
    try:
        body = await request_json(request)
        translated, notices = translate_request(body, model, stream=stream, choice=upstream.settings.models)
    except RequestError as error:
        return gemini_error(400, str(error))
    record.model = translated["model"]
    for notice in notices:
        log.notice(record, notice)
    tools = ToolSchemas.of_request(translated)  # (as the upstream sees them)
    off = thinking_off(translated) or _budget_zero(body)
    prompt_think = upstream.settings.options.prompt_think and not off
    options = dataclasses.replace(upstream.settings.options, to="gemini", tools=tools,
                                  prompt_think=prompt_think)
    try:
        async with upstream.post_json("/chat/completions", orjson.dumps(translated), request,
                                      headers=upstream_headers(upstream, request)) as answer:
            if answer.content_type != "text/event-stream":
                return await _whole_answer(answer, options, record, request, stream=stream)
            return await relay_stream(request, answer, FrontRewriter(options), options, record,
                                      keepalive=KEEPALIVE, on_break=BROKEN_OFF)
    except UpstreamFailure as failure:
        record.outcome = failure.reason
        return gemini_failure(failure)


async def _whole_answer(answer: aiohttp.ClientResponse, options: RewriteOptions, record: RequestRecord,
                        request: web.Request, *, stream: bool) -> web.Response:
    """A non-streamed completion as one `GenerateContentResponse`; as one event if `stream`."""
    whole, completion, notices = await whole_completion(request, answer, options, record)
    if completion is None:
        return gemini_error(502, f"the upstream's answer is not a chat completion: {whole[:200]!r}")
    response, status, more = completion_response(completion)
    for notice in notices + more:
        request.app[state.LOG].notice(record, notice)
    body = orjson.dumps(response)
    if stream and status == 200:
        return whole_as_events(record, encode_event(body))
    # the body ends as the filter's does, so a capture's golden file equals what the client got
    return web.Response(status=status, body=body + b"\n", content_type="application/json")


async def count_tokens(request: web.Request, model: str) -> web.Response:
    """`{"totalTokens": N}`, estimated here (see `estimate_tokens`); the upstream is not asked."""
    body = await _json_or_none(request)
    if isinstance(body, dict) and isinstance(body.get("generateContentRequest"), dict):
        body = body["generateContentRequest"]
    models = request.app[state.UPSTREAM].settings.models
    try:
        translated, _ = translate_request(body, model, stream=False, choice=models)
    except RequestError as error:
        return gemini_error(400, str(error))
    state.RECORD.get().model = translated["model"]
    return web.Response(body=orjson.dumps({"totalTokens": estimate_tokens(translated)}),
                        content_type="application/json")


async def _json_or_none(request: web.Request) -> Any:
    """The request body decoded; None (then a 400 from the translation) if it is not JSON."""
    try:
        return await request_json(request)
    except RequestError:
        return None


def upstream_headers(upstream: Upstream, request: web.Request) -> CIMultiDict[str]:
    """The upstream headers for a Gemini client: its key as a Bearer, Google's headers left out."""
    headers = upstream.headers_for(request, rewritten=True)
    key = headers.popone("x-goog-api-key", None)
    for name in [name for name in headers if name.lower().startswith("x-goog-")]:
        headers.popall(name, None)
    settings = upstream.settings
    if not (settings.access_token or settings.api_key):
        key = key or request.query.get("key")
        if key and "authorization" not in headers:
            headers["Authorization"] = f"Bearer {key}"
    return headers


def is_gemini_path(path: str) -> bool:
    """Whether `path` is one this front answers (all of `/v1beta/`, `/v1/models/M:method`)."""
    return path.startswith("/v1beta/") or (path.startswith("/v1/models/") and ":" in path)


def error_for(path: str, status: int, message: str) -> web.Response | None:
    """The guard's error for a Gemini path, in Google's shape; None for other paths."""
    return gemini_error(status, message) if is_gemini_path(path) else None


def gemini_error(status: int, message: str, headers: CIMultiDict[str] | None = None) -> web.Response:
    """A Google-shaped error response: `status` and `{"error": {"code", "message", "status"}}`."""
    headers = CIMultiDict(headers or {})
    headers["Content-Type"] = "application/json"
    return web.Response(status=status, body=orjson.dumps(error_body(status, message)), headers=headers)


def gemini_failure(failure: UpstreamFailure) -> web.Response:
    """`failure` in Google's shape: its status, its message, `retry-after` kept."""
    try:
        parsed: Any = orjson.loads(failure.body)
    except orjson.JSONDecodeError:
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    if not isinstance(message, str) or not message:
        message = failure.body.decode(errors="replace").strip()[:1000] or failure.reason
    headers = CIMultiDict(failure.headers)
    headers.popall("content-type", None)
    return gemini_error(failure.status, message, headers)


def _budget_zero(body: Any) -> bool:
    """`generationConfig.thinkingConfig.thinkingBudget: 0`: the client turned thinking off."""
    if not isinstance(body, dict):
        return False
    config = body.get("generationConfig") or body.get("generation_config")
    if not isinstance(config, dict):
        return False
    thinking = config.get("thinkingConfig") or config.get("thinking_config")
    if not isinstance(thinking, dict):
        return False
    budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
    return budget == 0 and not isinstance(budget, bool)
