"""Hold the event, not the bytes: an event whose text ends in what may begin a marker is held
whole until the next event of its choice decides it; untouched events stay byte for byte."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite import Notice, RewriteOptions, StreamRewriter
from sse_rewrite.formats import FORMAT_CHOICES
from sse_rewrite.formats.catalogue import deepseek, kimi
from sse_rewrite.stream.sse import SSEDecoder
from tests.chunking import chunk_event

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

MARKERS = [
    *(marker.decode() for marker in (*kimi.MARKERS, *deepseek.MARKERS)),
    "<tool_call>", "</tool_call>", "<function=", "<parameter=", "</function>", "<arg_key>", "TOOL:",
    "ARGUMENTS:",
]
# Text that cannot finish any marker prefix: no `|`, `>`, `=`, `_`, `:`, upper case or full-width bars.
PROSE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.!?\n'\"é", max_size=12)
OPEN_CALL = "<|tool_calls_section_begin|><|tool_call_begin|>f:0<|tool_call_argument_begin|>{"
# Under `auto` each id picks other parsers: Kimi, Qwen (tags + tokens), GLM, DeepSeek, native, unknown.
MODELS = [
    "moonshotai/kimi-k2.5", "qwen/qwen3-coder", "z-ai/glm-4.6", "deepseek/deepseek-r1", "gpt-4o", "my-agent",
]
PREFIXES = st.sampled_from(MARKERS).flatmap(lambda m: st.integers(1, len(m) - 1).map(lambda n: m[:n]))


def run(data: bytes, reads: list[int] | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    rewriter = StreamRewriter(RewriteOptions(**options))
    parts, pos = [], 0
    for size in reads or []:
        parts.append(data[pos : pos + size])
        pos += size
    parts.append(data[pos:])
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    return b"".join(i for i in out if isinstance(i, bytes)), [i for i in out if isinstance(i, Notice)]


def text_event(field: str, text: str, spaced: bool = False, model: str = "moonshotai/kimi-k2.5") -> bytes:
    """A token event in the field, shaped as providers send it (mirrors included)."""
    delta: dict[str, object] = {"role": "assistant", "content": ""}
    delta[field] = text
    if field != "content":
        detail = {"type": "reasoning.text", "text": text, "format": "unknown", "index": 0}
        delta["reasoning_details"] = [detail]
    if spaced:  # an OpenAI-compatible host writing JSON with Python's json module
        chunk = {"id": "gen-1", "object": "chat.completion.chunk", "model": model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        return b"data: " + json.dumps(chunk).encode() + b"\n\n"
    return chunk_event(delta, model=model)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.tuples(PROSE, PREFIXES | st.just("")), min_size=1, max_size=8),
    fields=st.lists(st.sampled_from(["content", "reasoning", "reasoning_content"]), min_size=1, max_size=3),
    extras=st.lists(st.sampled_from([b": keep-alive\n\n", chunk_event({"role": "assistant", "content": ""})]),
                    max_size=2),
    format_name=st.sampled_from(FORMAT_CHOICES),
    model=st.sampled_from(MODELS),
    spaced=st.booleans(),
    end=st.sampled_from([b"", b"data: [DONE]\n\n", chunk_event({}, "stop") + b"data: [DONE]\n\n"]),
    reads=st.lists(st.integers(1, 200), max_size=6),
)
def test_events_without_syntax_whose_texts_end_in_a_marker_prefix_come_out_byte_for_byte(
    texts: list[tuple[str, str]], fields: list[str], extras: list[bytes], format_name: str, model: str,
    spaced: bool, end: bytes, reads: list[int],
) -> None:
    events = [
        text_event(fields[i % len(fields)], prose + prefix, spaced, model)
        for i, (prose, prefix) in enumerate(texts)
    ]
    for i, extra in enumerate(extras):
        events.insert((i * 3) % (len(events) + 1), extra)
    stream = b"".join(events) + end
    body, notices = run(stream, reads, format=format_name, think="off")  # tool syntax: think below
    assert body == stream
    assert [n for n in notices if n.code != "truncated-call"] == []


def test_a_held_event_goes_out_whole_once_the_next_event_shows_no_marker() -> None:
    # The grok case: a reasoning chunk ends in " <"; it used to come out as " ", with a
    # finish_reason it lacked, and the `<` moved to the next chunk.
    first = b'data: {"id":"g","model":"x-ai/grok-4","choices":[{"index":0,"delta":{"reasoning":"a <"}}]}\n\n'
    second = b'data: {"id":"g","model":"x-ai/grok-4","choices":[{"index":0,"delta":{"reasoning":"b"}}]}\n\n'
    rewriter = StreamRewriter(RewriteOptions(format="kimi"))
    assert rewriter.feed(first) == []  # held whole: it may yet begin `<|tool_calls_section_begin|>`
    assert rewriter.feed(second) == [first, second]


def test_a_held_event_whose_text_began_a_marker_is_rebuilt_without_it_and_gains_no_key() -> None:
    first = b'data: {"id":"g","model":"m","choices":[{"index":0,"delta":{"content":"Sure. <|tool_ca"}}]}\n\n'
    rest = chunk_event({"content": 'll_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>'})
    body, _ = run(first + rest + b"data: [DONE]\n\n", format="kimi")
    decoder = SSEDecoder()
    chunks = [orjson.loads(e.data) for e in decoder.feed(body) if e.data and e.data != "[DONE]"]
    assert chunks[0] == {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"content": "Sure. "}}]}
    assert chunks[1]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == "f"


def test_the_next_event_of_the_choice_decides_even_without_text_in_that_field() -> None:
    held = text_event("reasoning", "thinking <")
    answer = text_event("content", "Hello")
    body, _ = run(held + answer, format="kimi")
    assert body == held + answer


def test_an_empty_content_chunk_inside_an_open_call_passes_through_on_every_path() -> None:
    opened = chunk_event({"role": "assistant", "content": OPEN_CALL})
    empty = chunk_event({"role": "assistant", "content": ""})
    body, _ = run(opened + empty * 3 + chunk_event({"content": "}<|tool_call_end|>"}), format="kimi")
    assert empty * 3 in body  # unchanged: they carry no syntax, so they are not rebuilt (nor dropped)


@pytest.mark.parametrize(
    "before",
    [
        pytest.param(b"", id="first-event"),
        pytest.param(chunk_event({"content": "plain"}), id="idle"),
        pytest.param(chunk_event({"content": OPEN_CALL}), id="in-a-call"),
        pytest.param(chunk_event({"content": "a <"}), id="event-held"),
    ],
)
@pytest.mark.parametrize("reads", [None, [7]])
def test_invalid_json_gets_its_notice_on_every_path(before: bytes, reads: list[int] | None) -> None:
    stream = before + chunk_event({"content": "x"}) * 3 + b"data: {oops\n\n" + chunk_event({"content": "y"})
    body, notices = run(stream, reads, format="kimi")
    assert [n.code for n in notices if n.code == "invalid-json"] == ["invalid-json"]
    assert b"data: {oops\n\n" in body


THINK_PREFIXES = st.sampled_from(["<think>", "</think>"]).flatmap(
    lambda tag: st.integers(1, len(tag) - 1).map(lambda n: tag[:n])
)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.tuples(PROSE, THINK_PREFIXES | PREFIXES | st.just("")), min_size=1, max_size=6),
    fields=st.lists(st.sampled_from(["content", "content", "reasoning"]), min_size=1, max_size=3),
    format_name=st.sampled_from(["auto", "hermes", "kimi"]),  # (--format none: no parser holds the event)
    end=st.sampled_from([b"", b"data: [DONE]\n\n", chunk_event({}, "stop") + b"data: [DONE]\n\n"]),
    reads=st.lists(st.integers(1, 200), max_size=4),
)
def test_under_think_events_ending_in_a_think_tag_prefix_come_out_byte_for_byte(
    texts: list[tuple[str, str]], fields: list[str], format_name: str, end: bytes, reads: list[int]
) -> None:
    model = "qwen/qwen3-32b"  # writes <think> tags, but does not start inside them
    events = [text_event(fields[i % len(fields)], p + x, model=model) for i, (p, x) in enumerate(texts)]
    stream = b"".join(events) + end
    body, notices = run(stream, reads, format=format_name, think="on")
    assert body == stream
    assert [n for n in notices if n.code != "truncated-call"] == []


def test_under_think_a_tag_split_after_a_held_event_still_moves_the_reasoning() -> None:
    model = "qwen/qwen3-32b"
    parts = ["Plan: <", "think>x", "</think>", "answer"]
    stream = b"".join(text_event("content", part, model=model) for part in parts) + b"data: [DONE]\n\n"
    body, _ = run(stream, think="on")
    chunks = [orjson.loads(line[6:]) for line in body.split(b"\n\n") if line.startswith(b"data: {")]
    deltas = [chunk["choices"][0]["delta"] for chunk in chunks]
    assert "".join(d.get("content") or "" for d in deltas) == "Plan: answer"
    assert "".join(d.get("reasoning_content") or "" for d in deltas) == "x"
