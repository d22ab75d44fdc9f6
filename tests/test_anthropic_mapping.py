"""`--to anthropic` mapping: tool ids, stop reasons, usage, and non-streaming bodies."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from anthropic.types import Message
from hypothesis import given
from hypothesis import strategies as st

from sse_rewrite.protocols.anthropic.mapping import (
    anthropic_id,
    anthropic_usage,
    completion_to_message,
    native_id,
)
from tests.anthropic_streams import (
    CONTENT,
    ID_PATTERN,
    REASONING,
    blocks,
    events,
    kimi_stream,
    to_anthropic,
)
from tests.chunking import chunk_event, field_stream
from tests.oracles import anthropic_final

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


# -- ids


WEIRD_IDS = [
    "functions.bash:15",
    "functions.bash_15",
    "functions-2Ebash-3A15",
    "a-b",
    "a--b",
    "a_b",
    "weather:0",
    "call_abc123",
    "ä",
    "-",
    "--",
    "x y",
    "mcp__github__search-issues:7",
    "",
]


def test_id_mapping_examples() -> None:
    assert anthropic_id("toolu_", "functions.bash:15") == "toolu_functions-2Ebash-3A15"
    assert anthropic_id("toolu_", "call_abc123") == "toolu_call_abc123"
    assert anthropic_id("msg_", "gen-177-UV") == "msg_gen--177--UV"


def test_mapped_ids_are_valid_distinct_and_deterministic() -> None:
    mapped = [anthropic_id("toolu_", raw) for raw in WEIRD_IDS]
    assert all(ID_PATTERN.match(m) for m in mapped)
    assert len(set(mapped)) == len(WEIRD_IDS)
    assert mapped == [anthropic_id("toolu_", raw) for raw in WEIRD_IDS]
    # read back, except the empty id: the proxy never sends an empty id upstream
    assert [native_id(m) for m in mapped] == [raw or "toolu_" for raw in WEIRD_IDS]


@given(st.text(), st.text())
def test_any_two_distinct_ids_map_to_distinct_valid_ids(a: str, b: str) -> None:
    assert ID_PATTERN.match(anthropic_id("toolu_", a))
    assert native_id(anthropic_id("toolu_", a)) == (a or "toolu_")
    assert (anthropic_id("toolu_", a) == anthropic_id("toolu_", b)) == (a == b)


@pytest.mark.parametrize(
    "foreign",
    ["call_abc", "toolu_01A-x", "toolu_a-2e", "toolu_-41", "toolu_-FF", "toolu_a-", "toolu_-E9", "toolu_"],
)
def test_ids_the_escape_never_wrote_are_read_back_unchanged(foreign: str) -> None:
    assert native_id(foreign) == foreign


@given(st.text(alphabet="ab_-2E9AF", max_size=12))
def test_native_id_only_reads_back_what_anthropic_id_writes(tail: str) -> None:
    escaped = "toolu_" + tail
    native = native_id(escaped)
    assert native == escaped or anthropic_id("toolu_", native) == escaped


def test_openai_id_style_and_missing_ids_still_give_valid_ids() -> None:
    call = {"index": 0, "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body, _ = to_anthropic(field_stream([{"tool_calls": [call]}], "tool_calls"))
    [block] = anthropic_final(body).content
    assert ID_PATTERN.match(block.id) and block.id.startswith("toolu_call_")
    leaked, _ = to_anthropic(kimi_stream([REASONING], [CONTENT]), id_style="openai")
    ids = [b.id for b in anthropic_final(leaked).content if b.type == "tool_use"]
    assert len(set(ids)) == 2 and all(ID_PATTERN.match(i) and i.startswith("toolu_call_") for i in ids)
    assert leaked == to_anthropic(kimi_stream([REASONING], [CONTENT]), id_style="openai")[0]


# -- stop reasons and usage


@pytest.mark.parametrize(
    ("finish", "reason"),
    [
        pytest.param("stop", "end_turn", id="stop"),
        pytest.param("length", "max_tokens", id="length"),
        pytest.param("content_filter", "refusal", id="content-filter"),
        pytest.param("tool_calls", "tool_use", id="tool-calls"),
        pytest.param("function_call", "tool_use", id="legacy-function-call"),
    ],
)
def test_finish_reason_maps_to_stop_reason(finish: str, reason: str) -> None:
    body, notices = to_anthropic(field_stream([{"content": "x"}], finish))
    assert anthropic_final(body).stop_reason == reason
    assert notices == []


def test_unknown_finish_reason_ends_the_turn_with_a_notice() -> None:
    body, notices = to_anthropic(field_stream([{"content": "x"}], "eos"))
    assert anthropic_final(body).stop_reason == "end_turn"
    assert [n.code for n in notices] == ["unknown-finish"]


def test_stop_after_native_tool_calls_is_tool_use() -> None:
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body, _ = to_anthropic(field_stream([{"tool_calls": [call]}], "stop"))
    assert anthropic_final(body).stop_reason == "tool_use"


def test_usage_maps_prompt_cache_and_completion_tokens() -> None:
    body, _ = to_anthropic(kimi_stream([REASONING], [CONTENT]))
    usage = anthropic_final(body).usage
    assert (usage.input_tokens, usage.output_tokens) == (61, 97)
    assert (usage.cache_read_input_tokens, usage.cache_creation_input_tokens) == (64, 0)


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        pytest.param(
            {"prompt_tokens": 10, "completion_tokens": 3},
            {"input_tokens": 10, "output_tokens": 3},
            id="plain",
        ),
        pytest.param(
            {"prompt_tokens": 10, "completion_tokens": 3, "prompt_cache_hit_tokens": 4},
            {"input_tokens": 6, "output_tokens": 3, "cache_read_input_tokens": 4},
            id="deepseek-cache",
        ),
        pytest.param({"completion_tokens": 3}, {"output_tokens": 3}, id="no-prompt-count"),
        pytest.param(None, {}, id="none"),
    ],
)
def test_anthropic_usage(usage: Any, expected: dict[str, int]) -> None:
    assert anthropic_usage(usage) == expected


def test_usage_on_the_first_chunk_goes_into_message_start() -> None:
    stream = chunk_event({"content": "hi"}, usage={"prompt_tokens": 7, "completion_tokens": 1}) + chunk_event(
        {}, "stop", usage={"prompt_tokens": 7, "completion_tokens": 2}
    )
    body, _ = to_anthropic(stream + b"data: [DONE]\n\n")
    start = events(body)[0][1]
    assert start["message"]["usage"] == {"input_tokens": 7, "output_tokens": 1}
    assert anthropic_final(body).usage.output_tokens == 2


def test_stream_without_usage_still_reports_output_tokens() -> None:
    body, _ = to_anthropic(field_stream([{"content": "x"}]))
    delta = [p for _, p in events(body) if p["type"] == "message_delta"]
    assert delta[0]["usage"] == {"output_tokens": 0}


# -- non-streaming


def completion(message: dict[str, Any], finish: str = "stop") -> bytes:
    return orjson.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "moonshotai/kimi-k2",
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 9},
        }
    )


def test_non_streaming_body_becomes_one_message() -> None:
    body, notices = to_anthropic(completion({"content": CONTENT, "reasoning_content": "Think."}))
    message = Message.model_validate(orjson.loads(body))
    assert blocks(message) == [
        ("thinking", "Think."),
        ("text", "Here you go."),
        ("tool_use", ("read", {"path": "a.txt"}, "toolu_functions-2Eread-3A1")),
    ]
    assert (message.id, message.stop_reason) == ("msg_chatcmpl--1", "tool_use")
    assert (message.usage.input_tokens, message.usage.output_tokens) == (5, 9)
    assert notices == []


def test_non_streaming_arguments_that_are_no_object_give_empty_input() -> None:
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "[1, 2"}}
    calls = {"content": " ", "tool_calls": [call]}
    message, notices = completion_to_message(orjson.loads(completion(calls, "tool_calls")))
    assert [block["type"] for block in message["content"]] == ["tool_use"]
    assert message["content"][0]["input"] == {}
    assert [n.code for n in notices] == ["tool-input-not-object"]


def test_non_streaming_error_body_becomes_an_error_object() -> None:
    body, _ = to_anthropic(b'{"error": {"message": "No auth", "code": 401}}')
    expected = {"type": "error", "error": {"type": "authentication_error", "message": "No auth"}}
    assert orjson.loads(body) == expected
