"""assemble(): OpenAI output bytes -> what a client sees, compared with the openai SDK."""

from __future__ import annotations

import orjson
import pytest

from sse_rewrite.stream.assemble import assemble, to_json
from tests.chunking import chunk_event
from tests.oracles import openai_state

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


def _call(index: int, **fields: object) -> dict[str, object]:
    return {"tool_calls": [{"index": index, **fields}]}


STREAM = b"".join([
    b": keep-alive\n\n",
    chunk_event({"role": "assistant", "content": "Hi", "reasoning": "think"}),
    chunk_event(_call(0, id="a", type="function", function={"name": "f", "arguments": '{"x"'})),
    chunk_event(_call(1, id="b", type="function", function={"name": "g", "arguments": "{}"})),
    chunk_event(_call(0, function={"arguments": ": 1}"})),
    chunk_event({"content": " there"}, "tool_calls"),
    b'data: {"id":"gen-1","choices":[],"usage":{"total_tokens":3}}\r\n\r\n',
    b"data: [DONE]\n\n",
])


def test_stream_fragments_merge_by_index_like_the_sdk() -> None:
    result = assemble(STREAM)
    choice = result.choices[0]
    assert choice.text == {"content": "Hi there", "reasoning": "think"}
    assert [(c.id, c.name, c.arguments) for c in choice.calls.values()] == [
        ("a", "f", '{"x": 1}'), ("b", "g", "{}")
    ]
    assert (choice.finish_reason, result.usage, result.done, result.events) == (
        "tool_calls", {"total_tokens": 3}, True, 7
    )
    message = openai_state(STREAM).choices[0].message
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls] == [
        (c.id, c.name, c.arguments) for c in choice.calls.values()
    ]
    assert message.content == choice.text["content"]


def test_a_json_body_and_undecodable_events() -> None:
    body = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"content": "x", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}
    result = to_json(assemble(orjson.dumps(body)))
    assert result["body"] is True
    assert result["choices"] == [{"index": 0, "text": {"content": "x"}, "finish_reason": "stop",
                                  "tool_calls": [{"index": 0, "id": "c", "name": "f", "arguments": "{}"}]}]
    broken = assemble(b'data: {"error": {"message": "boom"}}\n\ndata: {nope\n\n')
    assert (broken.errors, broken.undecoded, broken.done) == ([{"message": "boom"}], 1, False)
