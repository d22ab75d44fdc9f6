"""`--to anthropic` streams: the anthropic SDK's MessageStream is the oracle for every stream we emit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.cli import cli
from sse_rewrite.protocols.anthropic.events import AnthropicEmitter
from sse_rewrite.protocols.anthropic.mapping import error_object
from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.anthropic_streams import (
    BASH,
    CONTENT,
    ID_PATTERN,
    KIMI_BLOCKS,
    REASONING,
    blocks,
    events,
    kimi_stream,
    native_stream,
    to_anthropic,
)
from tests.chunking import chunk_event, field_stream, split
from tests.oracles import anthropic_final

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


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
