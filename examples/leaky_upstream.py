"""A fake OpenAI-compatible upstream that leaks Kimi K2 tool-call tokens the way OpenRouter does.

For trying `sse-rewrite serve` with an agent without a provider key; the serve tests and
`bench/serve.py` run it too. Loopback only; it exits by itself after `--lifetime` seconds.

    python examples/leaky_upstream.py --port 9999 &
    sse-rewrite serve --upstream http://127.0.0.1:9999/v1 &
    OPENAI_BASE_URL=http://127.0.0.1:8787/v1 OPENAI_API_KEY=x OPENAI_MODEL=moonshotai/kimi-k2.5 \\
        qwen -p 'run $ ls' --yolo

`POST /v1/chat/completions` answers like Kimi K2 on OpenRouter: a `: OPENROUTER PROCESSING`
comment, one token per chunk with `role` on every delta, a usage chunk, `[DONE]` (or one
JSON body without `stream`). When the last message is a tool result, the answer is text
quoting it; otherwise it is one call, leaked as Kimi tokens into `content`, of the tool
the last user message names (`use apply_patch $ …`; of several, the one named last), else of
the first shell tool the request offers (a name with shell, bash, command or exec; else the first tool), whose
`command` (or first) parameter gets the text after the last `$ ` of the last user
message (a shell command, or a patch), or `ls`. `GET /v1/models` lists one model;
`/echo/...` answers what it received (method, raw path and query, headers, body). A request
for JSON (`response_format` `json_object` or `json_schema`) is answered with JSON instead: the
schema's required properties with the smallest value of their type (`1`, `"fake"`, …).
`--syntax` (or the `syntax` knob) leaks the call in another family's syntax instead:
dsml, harmony, harmony-stripped, qwen3-coder, minimax, gemma4, mistral, hunyuan, granite, nemotron,
cohere, olmo, glm, kimi-k3-sep, kimi-stripped or llama (the call as the whole answer;
examples/leaked_syntaxes.py).

Test knobs, in an `x-fake` header (`knob=value,knob=value`): `status` (an error with that
status and `retry-after: 7`), `slow-headers` (seconds before answering), `die-after` (N
events, then the connection is cut; `/echo` cuts it after a few bytes), `hang-after` (N
events, then silence for `hang` seconds, default 30, then the rest), `field=reasoning`
(the call leaks into `reasoning`, mirrored in `reasoning_details`), `prose` (N words before
the call), `delay` (seconds between events), `stamp` (each prose word carries its send time,
`time.monotonic_ns()`, in its text: `word@NS@12`), `gzip` (a whole body comes gzip-encoded,
asked for or not), `syntax`.
`--knobs` sets them for requests without the header (`bench/serve.py`: a proxy that drops it).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

if __package__:
    from .leaked_syntaxes import LEAKS, WHOLE_ANSWERS, tokens
else:  # run as a script: the module sits beside it
    from leaked_syntaxes import LEAKS, WHOLE_ANSWERS, tokens

MODEL = "moonshotai/kimi-k2.5"
KEEPALIVE = b": OPENROUTER PROCESSING\n\n"
_SHELL = re.compile(r"shell|bash|command|exec", re.IGNORECASE)  # a tool that runs commands


@dataclass
class FakeUpstream:
    """What the fake saw: every chat request (headers, body, peer address), and any hang-up."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    hung_up: threading.Event = field(default_factory=threading.Event)
    syntax: str = "kimi"
    knobs: str = ""  # for requests without an `x-fake` header (a proxy in between may drop it)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def stream_id(self) -> str:
        """A fresh generation id."""
        return f"gen-{next(self._ids)}"


FAKE: web.AppKey[FakeUpstream] = web.AppKey("fake", FakeUpstream)


def answer(request: dict[str, Any], prose: int = 0, syntax: str = "kimi") -> str:
    """The model's text for a chat request (see the module docstring)."""
    messages = request.get("messages") or [{}]
    response_format = request.get("response_format") or {}
    if response_format.get("type") in ("json_object", "json_schema"):
        return json.dumps(_example((response_format.get("json_schema") or {}).get("schema") or {}))
    if messages[-1].get("role") == "tool":
        return f"The tool returned: {_text(messages[-1].get('content'))[:200].strip()}"
    users = [m for m in messages if m.get("role") == "user"]
    asked, dollar, command = _text(users[-1].get("content") if users else "").rpartition("$ ")
    offered = [t.get("function", {}) for t in request.get("tools") or []] or [{"name": "bash"}]
    shells = [t for t in offered if _SHELL.search(t.get("name", ""))]
    named = [(asked.rfind(t["name"]), i, t) for i, t in enumerate(offered) if t.get("name")]
    where, _, tool = max(named, default=(-1, 0, {}))  # (of several, the name written last)
    tool = tool if where >= 0 else (shells or offered)[0]
    parameters = tool.get("parameters", {}).get("properties") or {"command": {}}
    key = "command" if "command" in parameters else next(iter(parameters))
    counter = sum(len(m.get("tool_calls") or []) for m in messages)
    words = " ".join(f"word{i}" for i in range(prose))
    command = command.strip() if dollar else ""
    lead = "" if syntax in WHOLE_ANSWERS else f"{words} I will run it. "
    return lead + LEAKS[syntax](tool["name"], {key: command or "ls"}, counter)


def _example(schema: dict[str, Any]) -> Any:
    """A small value that fits a JSON schema: each required property, the smallest of each type."""
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "null") if isinstance(kind, list) else kind
    if kind == "object":
        properties = schema.get("properties") or {}
        return {name: _example(properties.get(name) or {}) for name in schema.get("required") or []}
    if "enum" in schema:
        return schema["enum"][0]
    return {"array": [], "string": "fake", "integer": 1, "number": 1, "boolean": False}.get(str(kind))


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def chunk(stream_id: str, model: str, delta: dict[str, Any], finish: str | None = None,
          **extra: Any) -> bytes:
    """One OpenRouter-shaped chunk event."""
    body = {"id": stream_id, "provider": "Fake", "model": model, "object": "chat.completion.chunk",
            "created": 1763900000,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "native_finish_reason": finish,
                         "logprobs": None}], **extra}
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


def stream_events(stream_id: str, model: str, text: str, field_name: str = "content") -> list[bytes]:
    """The whole stream for `text`, one token per chunk, as OpenRouter sends it."""
    events = [KEEPALIVE]
    for token in tokens(text):
        delta: dict[str, Any] = {"role": "assistant", "content": ""}
        delta[field_name] = token
        if field_name == "reasoning":
            delta["reasoning_details"] = [{"type": "reasoning.text", "text": token, "format": "unknown",
                                           "index": 0}]
        events.append(chunk(stream_id, model, delta))
    events.append(chunk(stream_id, model, {"role": "assistant", "content": ""}, "stop"))
    usage = {"prompt_tokens": 10, "completion_tokens": len(events), "total_tokens": 10 + len(events)}
    usage_chunk = {"id": stream_id, "provider": "Fake", "model": model, "object": "chat.completion.chunk",
                   "created": 1763900000, "choices": [], "usage": usage}
    events.append(b"data: " + json.dumps(usage_chunk, separators=(",", ":")).encode() + b"\n\n")
    return [*events, b"data: [DONE]\n\n"]


def _knobs(request: web.Request) -> dict[str, str]:
    given = request.headers.get("x-fake", request.app[FAKE].knobs)
    pairs = (item.partition("=") for item in given.split(",") if item)
    return {key.strip(): value.strip() for key, _, value in pairs}


async def chat_completions(request: web.Request) -> web.StreamResponse:
    """Answer a chat request as a Kimi model behind OpenRouter would (knobs aside)."""
    fake, knobs = request.app[FAKE], _knobs(request)
    body = await request.json()
    peer = request.transport.get_extra_info("peername") if request.transport else None
    fake.requests.append({"headers": dict(request.headers), "body": body, "peer": peer})
    await asyncio.sleep(float(knobs.get("slow-headers", 0)))
    if "status" in knobs:
        error = {"error": {"code": int(knobs["status"]), "message": "Rate limit exceeded: try later"}}
        return web.json_response(error, status=int(knobs["status"]), headers={"Retry-After": "7"})
    model, stream_id = body.get("model") or MODEL, fake.stream_id()
    syntax = knobs.get("syntax", fake.syntax)
    if syntax not in LEAKS:
        error = {"error": {"code": 400, "message": f"unknown syntax {syntax!r}: one of {', '.join(LEAKS)}"}}
        return web.json_response(error, status=400)
    text = answer(body, int(knobs.get("prose", 0)), syntax)
    if not body.get("stream"):
        message = {"role": "assistant", "content": text}
        completion = json.dumps({"id": stream_id, "object": "chat.completion", "created": 1763900000,
                                 "model": model, "provider": "Fake",
                                 "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
        if "gzip" in knobs:  # whatever the request's Accept-Encoding said
            return web.Response(body=gzip.compress(completion.encode()), content_type="application/json",
                                headers={"Content-Encoding": "gzip"})
        return web.Response(text=completion, content_type="application/json")
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
    await response.prepare(request)
    die_after, hang_after = int(knobs.get("die-after", -1)), int(knobs.get("hang-after", -1))
    delay, stamp = float(knobs.get("delay", 0)), "stamp" in knobs
    try:
        for number, event in enumerate(stream_events(stream_id, model, text, knobs.get("field", "content"))):
            if number == die_after and request.transport is not None:
                request.transport.abort()
                return response
            if number == hang_after:
                await asyncio.sleep(min(float(knobs.get("hang", 30)), 30))
            if delay:
                await asyncio.sleep(delay)
            if stamp:  # send time in the word's text (every front passes it on), for bench/serve.py
                event = event.replace(b"word", b"word@%d@" % time.monotonic_ns(), 1)
            await response.write(event)
    except (asyncio.CancelledError, ConnectionResetError):
        fake.hung_up.set()
        raise
    await response.write_eof()
    return response


async def models(request: web.Request) -> web.Response:
    """The model list."""
    model = {"id": MODEL, "object": "model", "owned_by": "fake"}
    return web.json_response({"object": "list", "data": [model]})


async def echo(request: web.Request) -> web.Response:
    """What this request looked like on arrival."""
    body = await request.read()
    if "die-after" in _knobs(request):  # headers and a few bytes, then the connection is cut
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        await response.write(b'{"partial": ')
        if request.transport is not None:
            request.transport.abort()
        return response
    return web.json_response({"method": request.method, "raw_path": request.raw_path,
                              "headers": dict(request.headers), "body": body.decode(errors="replace")},
                             headers={"X-Echo": "yes"})


def build_app(fake: FakeUpstream | None = None) -> web.Application:
    """The fake upstream's application."""
    app = web.Application()
    app[FAKE] = fake or FakeUpstream()
    for prefix in ("", "/v1"):
        app.router.add_post(f"{prefix}/chat/completions", chat_completions)
        app.router.add_get(f"{prefix}/models", models)
    app.router.add_route("*", "/v1/echo/{tail:.*}", echo)
    return app


async def start(fake: FakeUpstream | None = None, port: int = 0) -> web.AppRunner:
    """Start the fake on 127.0.0.1:`port` in the running loop; `cleanup()` stops it."""
    runner = web.AppRunner(build_app(fake), handler_cancellation=True, access_log=None, shutdown_timeout=1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


async def _main(port: int, lifetime: float, syntax: str, knobs: str) -> None:
    runner = await start(FakeUpstream(syntax=syntax, knobs=knobs), port=port)
    print(f"leaky upstream on http://127.0.0.1:{runner.addresses[0][1]}/v1 for {lifetime:g}s", flush=True)
    await asyncio.sleep(lifetime)
    await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--port", type=int, default=9999)
    parser.add_argument("--lifetime", type=float, default=600.0, help="seconds before it exits")
    parser.add_argument("--syntax", choices=list(LEAKS), default="kimi", help="how the call leaks")
    parser.add_argument("--knobs", default="", help="knobs for requests without an x-fake header")
    arguments = parser.parse_args()
    asyncio.run(_main(arguments.port, arguments.lifetime, arguments.syntax, arguments.knobs))
