"""An upstream that answers a streaming request whole: the Anthropic client still gets events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from aiohttp import web

from sse_rewrite.protocols.anthropic.mapping import completion_to_message
from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.protocols.anthropic.whole import message_events
from tests.oracles import anthropic_final
from tests.serve.servers import Servers

LEAKED = ('Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>'
          '{"command": "ls"}<|tool_call_end|><|tool_calls_section_end|>')


def completion(message: dict[str, Any], finish: str = "stop") -> dict[str, Any]:
    """A chat.completion with one choice."""
    return {"id": "gen-9", "object": "chat.completion", "model": "moonshotai/kimi-k2.5",
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5}}


@pytest.mark.parametrize(
    "message",
    [
        pytest.param({"content": "Hello."}, id="text"),
        pytest.param({"reasoning": "Think.", "content": "Answer.", "tool_calls": [
            {"id": "functions.bash:0", "type": "function",
             "function": {"name": "bash", "arguments": '{"a": [1]}'}}]}, id="thinking-text-tool"),
    ],
)
def test_message_events_stream_the_same_message(message: dict[str, Any]) -> None:
    whole, _ = completion_to_message(completion(message))
    streamed = anthropic_final(message_events(whole)).model_dump(exclude_none=True)
    assert streamed == {key: value for key, value in whole.items() if value is not None}


def test_an_error_object_becomes_an_error_event() -> None:
    error, _ = completion_to_message({"error": {"code": 429, "message": "slow down"}})
    with pytest.raises(anthropic.APIStatusError, match="slow down"):
        anthropic_final(message_events(error))


@pytest.fixture
def whole_upstream(servers: Servers) -> Iterator[str]:
    """An upstream that ignores `stream` and always answers one body, with a leaked call."""

    async def answer(request: web.Request) -> web.Response:
        return web.json_response(completion({"content": LEAKED}))

    yield servers.chat_upstream(answer)


def test_a_streaming_client_of_a_whole_answer_gets_events(servers: Servers, whole_upstream: str) -> None:
    base_url, _ = servers.serve(upstream=whole_upstream, models=ModelChoice(model="moonshotai/kimi-k2.5"))
    hi: Any = [{"role": "user", "content": "hi"}]
    root = base_url.removesuffix("/v1")
    with anthropic.Anthropic(base_url=root, api_key="k", max_retries=0, timeout=10) as sdk:
        with sdk.messages.stream(model="claude-x", max_tokens=64, messages=hi) as stream:
            message = stream.get_final_message()
        whole = sdk.messages.create(model="claude-x", max_tokens=64, messages=hi)
    assert message.model_dump() == whole.model_dump()
    assert [block.type for block in message.content] == ["text", "tool_use"]
    assert message.content[1].id == "toolu_functions-2Ebash-3A0" and message.stop_reason == "tool_use"
