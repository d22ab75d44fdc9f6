"""Text or call through serve's three fronts (tests/formats/test_text_vs_call.py holds the rules):
a stray `<|tool_call_end|>` ending the message is dropped, a cut-off file write stays text.

An upstream of its own streams the answer one character per chunk and finishes with `stop`;
each front is read by its official SDK.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import orjson
import pytest
from aiohttp import web

from sse_rewrite.protocols.anthropic.models import ModelChoice
from tests.serve.servers import Servers

STRAY = "I will check that. <|tool_call_end|>"
WRITE = "<tool_call>\n<function=write>\n<parameter=content>\nusing System;\n\nclass Program {\n    static"
CASES = [
    pytest.param("moonshotai/kimi-k2.5", STRAY, "I will check that. ", id="stray-end-token-ends-the-message"),
    pytest.param("qwen/qwen3-coder", WRITE, WRITE, id="cut-off-write"),
]
USER: Any = [{"role": "user", "content": "go"}]


def chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    """One chat.completion.chunk event."""
    body = {"id": "gen-1", "object": "chat.completion.chunk", "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + orjson.dumps(body) + b"\n\n"


@pytest.fixture
def upstream(servers: Servers) -> Iterator[str]:
    """An upstream streaming the text the request's model names (`CASES`), a character a chunk."""
    answers = {model: text for model, text, _ in (case.values for case in CASES)}

    async def answer(request: web.Request) -> web.StreamResponse:
        model = (await request.json())["model"]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for character in answers[model]:
            await response.write(chunk(model, {"role": "assistant", "content": character}))
        await response.write(chunk(model, {}, "stop") + b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    app = web.Application()
    app.router.add_post("/v1/chat/completions", answer)
    runner = web.AppRunner(app)

    async def start() -> str:
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{runner.addresses[0][1]}/v1"

    yield servers.loop.run(start())
    servers.loop.run(runner.cleanup())


@pytest.mark.parametrize(("model", "text", "kept"), CASES)
def test_openai_chat_front(servers: Servers, upstream: str, model: str, text: str, kept: str) -> None:
    base_url, _ = servers.serve(upstream=upstream)
    sdk = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.chat.completions.stream(model=model, messages=USER) as stream:
        choice = stream.get_final_completion().choices[0]
    assert (choice.message.content, choice.message.tool_calls, choice.finish_reason) == (kept, None, "stop")


@pytest.mark.parametrize(("model", "text", "kept"), CASES)
def test_anthropic_messages_front(servers: Servers, upstream: str, model: str, text: str, kept: str) -> None:
    base_url, _ = servers.serve(upstream=upstream, models=ModelChoice(model=model))
    sdk = anthropic.Anthropic(base_url=base_url.removesuffix("/v1"), api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.messages.stream(model="claude-x", max_tokens=64, messages=USER) as stream:
        message = stream.get_final_message()
    assert [(block.type, getattr(block, "text", None)) for block in message.content] == [("text", kept)]
    assert message.stop_reason == "end_turn"


@pytest.mark.parametrize(("model", "text", "kept"), CASES)
def test_responses_front(servers: Servers, upstream: str, model: str, text: str, kept: str) -> None:
    base_url, _ = servers.serve(upstream=upstream)
    sdk = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.responses.stream(model=model, input="go") as stream:
        response = stream.get_final_response()
    assert [item.type for item in response.output] == ["message"]
    assert response.output_text == kept and response.status == "completed"
