"""Through serve with the official SDKs: a request that turns thinking off keeps the answer in content.

A fake GLM-5.3 upstream answers without thinking (no `</think>`), one token per chunk. GLM-5's
prompt opens the think block, so by default that answer first moves to the reasoning field and
is sent again as the answer at the finish (a stranded answer); a request that turns thinking
off switches the assumption off, and the answer stays in `content` alone (docs/behaviour.md,
"Think tags").
"""

from __future__ import annotations

from typing import Any

import anthropic
import openai
import orjson
import pytest
from aiohttp import web

from sse_rewrite.protocols.anthropic.models import ModelChoice
from tests.serve.servers import Servers

GLM = "z-ai/glm-5.3"
TOKENS = ["The", " answer", " is", " 4."]
ANSWER = "".join(TOKENS)


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    chunk = {"id": "gen-g", "object": "chat.completion.chunk", "created": 1, "model": GLM,
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


async def _chat(request: web.Request) -> web.StreamResponse:
    """The fake GLM upstream: an answer without thinking, one token per chunk."""
    response = web.StreamResponse(headers={"content-type": "text/event-stream"})
    await response.prepare(request)
    for token in TOKENS:
        await response.write(_chunk({"role": "assistant", "content": token}))
    await response.write(_chunk({}, "stop") + b"data: [DONE]\n\n")
    return response


@pytest.fixture
def glm(servers: Servers) -> str:
    """serve in front of the fake GLM upstream: its base URL."""
    base_url, _ = servers.serve(upstream=servers.chat_upstream(_chat), models=ModelChoice(model=GLM))
    return base_url


@pytest.mark.parametrize(
    ("extra", "reasoning"),
    [
        pytest.param({}, ANSWER, id="thinking-on-by-default-stranded-answer-sent-again"),
        pytest.param({"reasoning_effort": "none"}, None, id="reasoning_effort-none"),
        pytest.param({"thinking": {"type": "disabled"}}, None, id="thinking-disabled"),
        pytest.param({"chat_template_kwargs": {"enable_thinking": False}}, None, id="enable_thinking-false"),
        pytest.param({"chat_template_kwargs": {"thinking": False}}, None, id="template-thinking-false"),
        pytest.param({"reasoning": {"enabled": False}}, None, id="openrouter-reasoning-disabled"),
        pytest.param({"reasoning": {"exclude": True}}, None, id="openrouter-reasoning-excluded"),
        pytest.param({"reasoning_effort": "high"}, ANSWER, id="reasoning_effort-high"),
    ],
)
def test_the_chat_front(glm: str, extra: dict[str, Any], reasoning: str | None) -> None:
    client = openai.OpenAI(base_url=glm, api_key="x", max_retries=0, timeout=10)
    try:
        with client.chat.completions.stream(model=GLM, messages=[{"role": "user", "content": "2+2?"}],
                                            extra_body=extra) as events:
            for _ in events:
                pass
            message = events.get_final_completion().choices[0].message
    finally:
        client.close()
    assert message.content == ANSWER
    assert (message.model_extra or {}).get("reasoning_content") == reasoning


@pytest.mark.parametrize(
    ("thinking", "blocks"),
    [
        pytest.param(None, [("text", ANSWER)], id="no-thinking"),
        pytest.param({"type": "disabled"}, [("text", ANSWER)], id="thinking-disabled"),
        pytest.param({"type": "enabled", "budget_tokens": 2048}, [("thinking", ANSWER), ("text", ANSWER)],
                     id="thinking-enabled-stranded-answer-sent-again"),
    ],
)
def test_the_anthropic_front(glm: str, thinking: dict[str, Any] | None,
                             blocks: list[tuple[str, str]]) -> None:
    client = anthropic.Anthropic(base_url=glm.removesuffix("/v1"), api_key="x", max_retries=0, timeout=10)
    messages = [{"role": "user", "content": "2+2?"}]
    request: Any = {"model": "claude-x", "max_tokens": 4096, "messages": messages}
    if thinking is not None:
        request["thinking"] = thinking
    try:
        with client.messages.stream(**request) as events:
            message = events.get_final_message()
    finally:
        client.close()
    assert [(b.type, b.thinking if b.type == "thinking" else b.text) for b in message.content] == blocks


@pytest.mark.parametrize(
    ("reasoning", "items"),
    [
        pytest.param({"effort": "none"}, [("message", ANSWER)], id="effort-none"),
        pytest.param({"effort": "high"}, [("reasoning", ANSWER), ("message", ANSWER)],
                     id="effort-high-stranded-answer-sent-again"),
    ],
)
def test_the_responses_front(glm: str, reasoning: dict[str, Any], items: list[tuple[str, str]]) -> None:
    client = openai.OpenAI(base_url=glm, api_key="x", max_retries=0, timeout=10)
    try:
        with client.responses.stream(model=GLM, input="2+2?", reasoning=reasoning) as events:  # type: ignore[arg-type]
            for _ in events:
                pass
            response = events.get_final_response()
    finally:
        client.close()
    assert [(item.type, item.content[0].text) for item in response.output] == items  # type: ignore[union-attr]
