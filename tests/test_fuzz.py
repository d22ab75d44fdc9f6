"""Hostile input: the decoder, every format parser and the rewriter never raise and lose no text.

Parametrized over the `FORMATS` registry and every `--format` choice, so a format added
to the registry is fuzzed without touching this file. Examples are bounded to keep the
suite fast; single large cases are in test_hostile_cases.py, bigger ones in `bench/`.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMAT_CHOICES, FORMATS
from sse_rewrite.stream.sse import BOM, SSEDecoder
from tests.chunking import chunk_event, normalize, rejoin
from tests.fuzzing import FUZZ, assemble, cut_points, fuzz_each, pieces, plain_text, rewrite
from tests.rewrite_runs import AB, CB, CE, SB, SE

# Syntax fragments of every leaked format in PROTOCOL.md section 8, whole and cut, so
# the fuzzers reach each parser's states whatever the registry holds.
FRAGMENTS = [
    "<|tool_calls_section_begin|>", "<|tool_call_section_begin|>", "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>", "<|tool_call_end|>", "<|tool_calls_section_end|>", "<|tool_ca",
    "<tool_call>", "</tool_call>", "<function=f>", "<parameter=a>", "</parameter>", "</function>",
    "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>",
    # DeepSeek's markers, spelled with escapes: full-width bar U+FF5C, lower block U+2581.
    "<\uff5ctool\u2581calls\u2581begin\uff5c>", "<\uff5ctool\u2581call\u2581begin\uff5c>",
    "<\uff5ctool\u2581sep\uff5c>", "<\uff5ctool\u2581call\u2581end\uff5c>",
    "<\uff5ctool\u2581calls\u2581end\uff5c>", "```json\n", "```", "TOOL: ", "ARGUMENTS: ",
    "functions.f:0", "functions.bash:15", "f", '{"a": "', '"}', "{", "}", "[", "]", '"', "\\", ":",
    " ", "\n", "<", "|", ">", "é", "日", "\x00", "\ufffd",
]
hostile_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=5)), max_size=40
).map("".join)

# -- the SSE decoder


@FUZZ
@given(st.binary(max_size=300), cut_points)
@example(BOM + b"data: \xff\xfe\x00\r", [3, 9])
def test_decoder_takes_any_bytes_and_keeps_them(stream: bytes, points: list[int]) -> None:
    decoder = SSEDecoder()
    events = [e for part in pieces(stream, points) for e in decoder.feed(part)]
    events += decoder.flush()
    assert b"".join(e.raw for e in events) == stream.removeprefix(BOM)


@FUZZ
@given(st.lists(st.sampled_from([b"data: x", b"data:", b"event: e", b": c", b"id: 1", b"", b"\xe6\x97"]),
                max_size=20), st.sampled_from([b"\n", b"\r\n", b"\r"]), cut_points)
def test_decoder_fields_do_not_depend_on_reads(lines: list[bytes], end: bytes, points: list[int]) -> None:
    stream = end.join(lines) + end
    whole = SSEDecoder()
    expected = [(e.data, e.event) for e in whole.feed(stream) + whole.flush() if e.data is not None]
    split = SSEDecoder()
    events = [e for part in pieces(stream, points) for e in split.feed(part)] + split.flush()
    assert [(e.data, e.event) for e in events if e.data is not None] == expected


# -- every format parser


@pytest.mark.parametrize("name", sorted(FORMATS))
@fuzz_each(len(FORMATS))
@given(text=hostile_text, cap=st.sampled_from([1 << 20, 64, 8]), points=cut_points)
@example(text="<|tool_calls_section_begin|>", cap=1 << 20, points=[])  # was still pending after flush
def test_parser_loses_nothing_whatever_the_input(name: str, text: str, cap: int, points: list[int]) -> None:
    parser = FORMATS[name](cap)
    out = [p for part in pieces(text, points) for p in parser.feed(part)] + parser.flush()
    assert rejoin(normalize(out)) == text
    assert not parser.pending


# -- the rewriter


def hostile_event(payload: object) -> bytes:
    """One SSE event around a JSON value, or around raw bytes when given bytes."""
    body = payload if isinstance(payload, bytes) else orjson.dumps(payload)
    return b"data: " + body + b"\n\n"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
hostile_events = st.one_of(
    hostile_text.map(lambda t: chunk_event({"role": "assistant", "content": t})),
    hostile_text.map(lambda t: chunk_event({"reasoning": t, "reasoning_details": [{"type": "reasoning.text",
                                                                                   "text": t}]})),
    st.sampled_from(["stop", "length", "tool_calls", "function_call"]).map(lambda f: chunk_event({}, f)),
    json_values.map(hostile_event),  # `[]`, `"x"`, `1`, `null`, objects of anything
    json_values.map(lambda v: hostile_event({"model": "kimi", "choices": v})),  # choices not a list
    json_values.map(lambda v: hostile_event({"choices": [v]})),  # entries not dicts
    json_values.map(lambda v: hostile_event({"choices": [{"index": 0, "delta": v}]})),  # delta not a dict
    json_values.map(lambda v: hostile_event({"choices": [{"delta": {"content": v, "reasoning": v}}]})),
    json_values.map(lambda v: hostile_event({"choices": [{"delta": {"tool_calls": v, "function_call": v}}]})),
    st.binary(max_size=20).map(  # invalid UTF-8, NUL, line ends inside a JSON string
        lambda b: hostile_event(b'{"choices": [{"delta": {"content": "<' + b + b'"}}]}')
    ),
    st.binary(max_size=20),  # anything, line ends included
    st.sampled_from([b"data: [DONE]\n\n", b": keep-alive\r\n\r\n", b"\x00\n\n", b"data: {\n\n", b"\r"]),
)


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("format_name", FORMAT_CHOICES)
@fuzz_each(2 * len(FORMAT_CHOICES))  # accelerators on and off
@given(events=st.lists(hostile_events, max_size=12), points=cut_points)
@example(events=[b'data: {"choices": [{"delta": {"content": "<\xe6\x97"}}]}\n\n',
                 b'data: {"choices": [{"delta": {"content": "\xa5"}}]}\n\n'], points=[40])
def test_rewriter_never_raises(format_name: str, events: list[bytes], points: list[int]) -> None:
    stream = b"".join(events)
    body, _ = rewrite(stream, points, format=format_name, max_section_bytes=64)
    if format_name == "none" and b"function_call" not in stream:
        assert body == stream  # nothing to rewrite (legacy function_call is converted always)


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("format_name", FORMAT_CHOICES)
@fuzz_each(2 * len(FORMAT_CHOICES))  # accelerators on and off
@given(tokens=st.lists(st.tuples(st.sampled_from(["content", "reasoning"]), plain_text), max_size=15),
       points=cut_points)
def test_text_without_syntax_comes_out_whole_in_its_field(
    format_name: str, tokens: list[tuple[str, str]], points: list[int]
) -> None:
    stream = b"".join(chunk_event({"role": "assistant", field: text}) for field, text in tokens)
    stream += chunk_event({}, "stop") + b"data: [DONE]\n\n"
    body, _ = rewrite(stream, points, format=format_name)
    expected: dict[str, str] = {}
    for field, text in tokens:
        expected[field] = expected.get(field, "") + text
    assert assemble(body) == ({k: v for k, v in expected.items() if v}, [])


kimi_calls = st.tuples(st.from_regex(r"[a-z][a-z0-9_.]{0,8}", fullmatch=True),
                       json_values.map(lambda v: orjson.dumps({"v": v}).decode()))


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("format_name", ["auto", "kimi"])
@settings(FUZZ, max_examples=12)  # (x 2 formats x 2 accelerator modes)
@given(segments=st.lists(st.one_of(plain_text, st.lists(kimi_calls, min_size=1, max_size=3)), max_size=8),
       size=st.integers(1, 9), points=cut_points)
def test_kimi_calls_come_out_and_text_around_them_stays(
    format_name: str, segments: list[str | list[tuple[str, str]]], size: int, points: list[int]
) -> None:
    text, expected_calls = "", []
    for segment in segments:
        if isinstance(segment, str):
            text += segment
            continue
        calls = "".join(f"{CB}functions.{name}:{i}{AB}{args}{CE}" for i, (name, args) in enumerate(segment))
        text += f"{SB}{calls}{SE}"
        expected_calls += segment
    tokens = [text[i : i + size] for i in range(0, len(text), size)]
    stream = b"".join(chunk_event({"role": "assistant", "content": t}) for t in tokens)
    stream += chunk_event({}, "stop") + b"data: [DONE]\n\n"
    body, _ = rewrite(stream, points, format=format_name)
    plain = "".join(s for s in segments if isinstance(s, str))
    assert assemble(body) == ({"content": plain} if plain else {}, expected_calls)
