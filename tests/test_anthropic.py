"""`--to anthropic`: the anthropic SDK's MessageStream is the oracle for every stream we emit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anthropic
import orjson
import pytest
from anthropic.types import Message
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.anthropic_events import AnthropicEmitter
from sse_rewrite.anthropic_mapping import (
    anthropic_id,
    anthropic_usage,
    completion_to_message,
    error_object,
    native_id,
)
from sse_rewrite.cli import cli
from sse_rewrite.events import Notice
from sse_rewrite.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.sse import SSEDecoder
from tests.chunking import chunk_event, field_stream, split
from tests.oracles import anthropic_final

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

ID_PATTERN = re.compile(r"^[a-zA-Z0-9_-]+$")
BASH = '<|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{"cmd": "ls -la"}<|tool_call_end|>'
READ = '<|tool_call_begin|>functions.read:1<|tool_call_argument_begin|>{"path": "a.txt"}<|tool_call_end|>'
REASONING = f"Let me look. <|tool_calls_section_begin|>{BASH}<|tool_calls_section_end|> Now answer."
CONTENT = f"Here you go.<|tool_calls_section_begin|>{READ}<|tool_calls_section_end|>"
USAGE = {
    "prompt_tokens": 125,
    "completion_tokens": 97,
    "total_tokens": 222,
    "prompt_tokens_details": {"cached_tokens": 64, "cache_write_tokens": 0},
}
KIMI_BLOCKS = [
    ("thinking", "Let me look. "),
    ("tool_use", ("bash", {"cmd": "ls -la"}, "toolu_functions-2Ebash-3A0")),
    ("thinking", " Now answer."),
    ("text", "Here you go."),
    ("tool_use", ("read", {"path": "a.txt"}, "toolu_functions-2Eread-3A1")),
]


def to_anthropic(stream: bytes, size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """Rewrite `stream` in anthropic mode, fed whole or `size` bytes at a time."""
    rewriter = StreamRewriter(RewriteOptions(to="anthropic", **options))
    out = []
    for piece in [stream] if size is None else [stream[i : i + size] for i in range(0, len(stream), size)]:
        out += rewriter.feed(piece)
    out += rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def events(body: bytes) -> list[tuple[str | None, Any]]:
    """(event name, decoded JSON) of every data event in `body`."""
    decoded = SSEDecoder().feed(body)
    return [(e.event, orjson.loads(e.data)) for e in decoded if e.data is not None]


def blocks(message: Any) -> list[tuple[str, Any]]:
    """The message's content blocks in the shape of KIMI_BLOCKS."""
    out: list[tuple[str, Any]] = []
    for block in message.content:
        if block.type == "thinking":
            out.append(("thinking", block.thinking))
        elif block.type == "text":
            out.append(("text", block.text))
        else:
            out.append(("tool_use", (block.name, block.input, block.id)))
    return out


def kimi_stream(reasoning: list[str], content: list[str]) -> bytes:
    """Reasoning tokens (mirrored in reasoning_details, as OpenRouter does), then content tokens."""
    deltas: list[dict[str, object]] = [
        {"content": "", "reasoning": t, "reasoning_details": [{"type": "reasoning.text", "text": t}]}
        for t in reasoning
    ]
    deltas += [{"content": t} for t in content]
    return field_stream(deltas, "tool_calls", USAGE)


def native_stream() -> bytes:
    """Two native OpenAI tool calls with arguments streamed in pieces, after some reasoning."""

    def call(index: int, arguments: str, **first: str) -> dict[str, object]:
        head: dict[str, object] = {"id": first["id"], "type": "function"} if first else {}
        function = {"name": first["name"], "arguments": arguments} if first else {"arguments": arguments}
        return {"content": None, "tool_calls": [{"index": index, **head, "function": function}]}

    deltas: list[dict[str, object]] = [
        {"reasoning": "Add, "},
        {"reasoning": "then multiply."},
        call(0, "", id="functions.add:0", name="add"),
        call(0, '{"a": 1'),
        call(0, ", "),
        call(0, '"b": 2}'),
        call(1, '{"a"', id="call_9", name="mul"),
        call(1, ": 3}"),
    ]
    return field_stream(deltas, "tool_calls", USAGE)


# -- the final message, in every chunking


@pytest.mark.parametrize("size", [None, 1, 3, 64])
def test_kimi_reasoning_and_content_calls_become_blocks(size: int | None) -> None:
    body, notices = to_anthropic(kimi_stream(list(split(REASONING, 5)), list(split(CONTENT, 4))), size)
    message = anthropic_final(body, chunk=size)
    assert blocks(message) == KIMI_BLOCKS
    assert message.stop_reason == "tool_use"
    assert message.id == "msg_gen--1"
    assert message.model == "moonshotai/kimi-k2.5"
    assert notices == []


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_kimi_streams_in_any_token_chunking_give_the_same_message(data: st.DataObject) -> None:
    def cut(text: str) -> list[str]:
        points = sorted(data.draw(st.sets(st.integers(1, len(text) - 1), max_size=12)))
        return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]

    stream = kimi_stream(cut(REASONING), cut(CONTENT))
    body, _ = to_anthropic(stream, data.draw(st.sampled_from([None, 1, 5])))
    message = anthropic_final(body, chunk=data.draw(st.sampled_from([None, 1, 7])))
    assert blocks(message) == KIMI_BLOCKS
    assert message.stop_reason == "tool_use"


@pytest.mark.parametrize("size", [None, 1, 7])
def test_native_tool_calls_stream_their_arguments(size: int | None) -> None:
    body, notices = to_anthropic(native_stream(), size)
    message = anthropic_final(body, chunk=size)
    assert blocks(message) == [
        ("thinking", "Add, then multiply."),
        ("tool_use", ("add", {"a": 1, "b": 2}, "toolu_functions-2Eadd-3A0")),
        ("tool_use", ("mul", {"a": 3}, "toolu_call_9")),
    ]
    assert message.stop_reason == "tool_use"
    assert notices == []
    partials = [
        e["delta"]["partial_json"]
        for _, e in events(body)
        if e["type"] == "content_block_delta" and e["delta"]["type"] == "input_json_delta"
    ]
    assert partials == ['{"a": 1', ", ", '"b": 2}', '{"a"', ": 3}"]


def test_every_event_is_named_after_its_type_and_nothing_openai_is_left() -> None:
    body, _ = to_anthropic(kimi_stream([REASONING], [CONTENT]))
    assert b"chat.completion.chunk" not in body
    assert b"[DONE]" not in body
    assert body.startswith(b": OPENROUTER PROCESSING\n\n")  # keep-alives stay comments
    seen = events(body)
    assert all(name == payload["type"] for name, payload in seen)
    assert [name for name, _ in seen][:1] + [name for name, _ in seen][-2:] == [
        "message_start",
        "message_delta",
        "message_stop",
    ]
    started = [p["index"] for _, p in seen if p["type"] == "content_block_start"]
    stopped = [p["index"] for _, p in seen if p["type"] == "content_block_stop"]
    assert started == stopped == list(range(len(KIMI_BLOCKS)))


def test_text_after_a_tool_call_opens_a_new_text_block_with_the_next_index() -> None:
    # Claude Code rejects a text delta aimed at a closed block ("Content block is not a text block")
    body, _ = to_anthropic(kimi_stream([], ["Before.", f"<|tool_calls_section_begin|>{BASH}", "  ",
                                            "<|tool_calls_section_end|>", " After."]))
    named = events(body)
    starts = [(data["index"], data["content_block"]["type"]) for name, data in named
              if name == "content_block_start"]
    assert starts == [(0, "text"), (1, "tool_use"), (2, "text")]
    texts = [(data["index"], data["delta"].get("text")) for name, data in named
             if name == "content_block_delta"]
    assert texts == [(0, "Before."), (1, None), (2, " After.")]
    assert named[0][1]["message"]["usage"] == {"input_tokens": 0, "output_tokens": 0}
    assert blocks(anthropic_final(body))[2] == ("text", " After.")


def test_whitespace_only_runs_between_blocks_are_dropped_and_leading_whitespace_kept() -> None:
    call = {"index": 0, "id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    deltas: list[dict[str, object]] = [
        {"reasoning": "Think."},
        {"content": "  "},
        {"tool_calls": [call]},
        {"content": "\n"},
        {"content": " "},
        {"content": "Done."},
        {"reasoning": " "},
    ]
    body, _ = to_anthropic(field_stream(deltas, "tool_calls"))
    assert blocks(anthropic_final(body)) == [
        ("thinking", "Think."),
        ("tool_use", ("f", {}, "toolu_c")),
        ("text", "\n Done."),
    ]


def test_plain_text_stream_is_translated_not_copied() -> None:
    body, _ = to_anthropic(field_stream([{"content": "Hello"}, {"content": ", world"}]))
    message = anthropic_final(body)
    assert blocks(message) == [("text", "Hello, world")]
    assert message.stop_reason == "end_turn"
    assert b"chat.completion" not in body


def test_events_go_out_as_soon_as_their_chunk_arrives() -> None:
    rewriter = StreamRewriter(RewriteOptions(to="anthropic"))
    out = rewriter.feed(chunk_event({"role": "assistant", "content": "Hel"}))
    assert [name for name, _ in events(b"".join(o for o in out if isinstance(o, bytes)))] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
    ]


def test_invalid_json_and_data_after_done_are_dropped() -> None:
    stream = b"data: {broken\n\n" + field_stream([{"content": "ok"}]) + chunk_event({"content": "late"})
    body, notices = to_anthropic(stream)
    assert b"broken" not in body and b"late" not in body
    assert [n.code for n in notices] == ["invalid-json"]
    assert "dropped" in notices[0].message
    assert blocks(anthropic_final(body)) == [("text", "ok")]


def test_legacy_function_call_becomes_a_tool_use_block() -> None:
    deltas: list[dict[str, object]] = [
        {"function_call": {"name": "lookup", "arguments": ""}},
        {"function_call": {"arguments": '{"q": '}},
        {"function_call": {"arguments": '"x"}'}},
    ]
    body, _ = to_anthropic(field_stream(deltas, "function_call"))
    message = anthropic_final(body)
    [(kind, (name, call_input, call_id))] = blocks(message)
    assert (kind, name, call_input, message.stop_reason) == ("tool_use", "lookup", {"q": "x"}, "tool_use")
    assert ID_PATTERN.match(call_id)


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


# -- errors and truncation


def test_openai_error_chunk_becomes_an_error_event() -> None:
    error = b'data: {"error": {"message": "Internal error", "type": "server_error"}}\n\n'
    stream = chunk_event({"content": "partial"}) + error + b"data: [DONE]\n\n"
    body, notices = to_anthropic(stream)
    expected = {"type": "error", "error": {"type": "api_error", "message": "Internal error"}}
    assert events(body)[-1] == ("error", expected)
    assert [n.code for n in notices] == ["stream-error"]
    with pytest.raises(anthropic.APIStatusError, match="Internal error"):
        anthropic_final(body)


@pytest.mark.parametrize(
    ("code", "kind"),
    [(429, "rate_limit_error"), (502, "api_error"), (503, "overloaded_error"), (401, "authentication_error")],
)
def test_openrouter_error_chunk_maps_its_code(code: int, kind: str) -> None:
    failed = chunk_event({"content": ""}, "error", error={"code": code, "message": "Provider failed"})
    body, _ = to_anthropic(chunk_event({"content": "partial"}) + failed + b"data: [DONE]\n\n")
    names = [name for name, _ in events(body)]
    assert names[-1] == "error" and "message_stop" not in names
    assert events(body)[-1][1]["error"] == {"type": kind, "message": "Provider failed"}


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        pytest.param({"message": "m", "type": "invalid_request_error"}, "invalid_request_error", id="type"),
        pytest.param({"message": "m", "code": "rate_limit_exceeded"}, "rate_limit_error", id="string-code"),
        pytest.param("just text", "api_error", id="not-an-object"),
    ],
)
def test_error_object_types(error: Any, kind: str) -> None:
    assert error_object(error)["error"]["type"] == kind


@pytest.mark.parametrize("ending", [b"", b"data: [DONE]\n\n"], ids=["eof", "done"])
def test_stream_without_finish_closes_block_and_message(ending: bytes) -> None:
    stream = chunk_event({"content": "cut "}) + chunk_event({"content": "off"}) + ending
    body, notices = to_anthropic(stream)
    names = [name for name, _ in events(body)]
    assert names[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert [n.code for n in notices] == ["no-finish"]
    message = anthropic_final(body)
    assert blocks(message) == [("text", "cut off")]
    assert message.stop_reason == "end_turn"


def test_truncated_stream_inside_a_leaked_call_keeps_its_text() -> None:
    body, notices = to_anthropic(chunk_event({"content": "a <|tool_call_begin|>functions.f:0"}))
    assert blocks(anthropic_final(body)) == [("text", "a <|tool_call_begin|>functions.f:0")]
    assert "no-finish" in [n.code for n in notices]


def test_empty_stream_gives_no_message() -> None:
    assert to_anthropic(b": keep-alive\n\n") == (
        b": keep-alive\n\n",
        [Notice("empty-stream", "the stream held no chunk: no Anthropic message to send")],
    )


def test_arguments_for_a_closed_tool_block_are_dropped_with_a_notice() -> None:
    calls = [
        {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": "{"}},
        {"index": 1, "id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}},
        {"index": 0, "function": {"arguments": "}"}},
    ]
    body, notices = to_anthropic(field_stream([{"tool_calls": [call]} for call in calls], "tool_calls"))
    assert [n.code for n in notices] == ["late-tool-arguments"]
    names = [name for name, _ in events(body)]
    assert names.count("content_block_start") == 2


def test_only_choice_zero_becomes_the_message() -> None:
    stream = chunk_event({"content": "zero"}) + chunk_event({"content": "one"}, choice=1)
    body, notices = to_anthropic(stream + chunk_event({}, "stop") + b"data: [DONE]\n\n")
    assert blocks(anthropic_final(body)) == [("text", "zero")]
    assert [n.code for n in notices] == ["extra-choices"]


def test_feed_after_flush_raises() -> None:
    emitter = AnthropicEmitter()
    emitter.flush()
    with pytest.raises(RuntimeError):
        emitter.feed({"choices": []})


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


# -- the command line and the bundled captures


def test_cli_to_anthropic() -> None:
    result = CliRunner().invoke(cli, ["--to", "anthropic"], input=kimi_stream([REASONING], [CONTENT]))
    assert result.exit_code == 0, result.output
    assert blocks(anthropic_final(result.stdout_bytes)) == KIMI_BLOCKS


CAPTURES = sorted(Path(__file__).parent.parent.joinpath("sse_logs").glob("anthropic-*.sse"))


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.stem)
def test_anthropic_captures_are_accepted_by_the_sdk(capture: Path) -> None:
    args = capture.with_name(capture.name + ".args").read_text().split()
    assert args[-2:] == ["--to", "anthropic"]
    result = CliRunner().invoke(cli, [*args, str(capture)])
    assert result.exit_code == 0, result.output
    message = anthropic_final(result.stdout_bytes, chunk=5)
    assert any(block.type == "tool_use" for block in message.content)
    assert message.stop_reason == "tool_use"
