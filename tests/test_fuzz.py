"""Hostile input: the decoder, every format parser and the rewriter never raise and lose no text.

Parametrized over the `FORMATS` registry and every `--format` choice, so a format added
to the registry is fuzzed without touching this file. Examples are bounded to keep the
suite fast; bigger floods and lines are in `bench/` (the hostile group).
"""

from __future__ import annotations

import itertools
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sse_rewrite import Notice, RewriteOptions, StreamRewriter
from sse_rewrite.formats import FORMAT_CHOICES, FORMATS
from sse_rewrite.formats.kimi import KimiParser
from sse_rewrite.sse import BOM, SSEDecoder
from tests.chunking import chunk_event, normalize, rejoin

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

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
# Text that no format can take for syntax: no `<`, no upper case (TOOL:), no braces.
plain_text = st.text(alphabet="abcdefghij klmnop.,;!?\n\t\"'0123456789é日\x00", max_size=30)


cut_points = st.lists(st.integers(0, 1 << 16), max_size=12)
"""Where to cut an input, each point taken modulo the input's length."""


def pieces(seq: Any, points: list[int]) -> list[Any]:
    """`seq` cut at `points` (modulo its length)."""
    bounds = [0, *sorted({p % (len(seq) + 1) for p in points}), len(seq)]
    return [seq[a:b] for a, b in itertools.pairwise(bounds)]


def rewrite(data: bytes, points: list[int], **options: Any) -> tuple[bytes, list[Notice]]:
    """Run the rewriter over `data` fed in pieces; return the output bytes and notices."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    out = [item for part in pieces(data, points) for item in rewriter.feed(part)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def assemble(body: bytes) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """What a client reads from choice 0: text by field, and (name, arguments) per call."""
    decoder = SSEDecoder()
    texts: dict[str, str] = {}
    calls: list[tuple[str, str]] = []
    for event in decoder.feed(body) + decoder.flush():
        if not event.data or event.data == "[DONE]":
            continue
        for choice in orjson.loads(event.data)["choices"]:
            for key, value in choice["delta"].items():
                if key == "tool_calls":
                    calls += [(c["function"]["name"], c["function"]["arguments"]) for c in value]
                elif isinstance(value, str) and key != "role":
                    texts[key] = texts.get(key, "") + value
    return {k: v for k, v in texts.items() if v}, calls


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
@FUZZ
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
@FUZZ
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
@FUZZ
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


SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
kimi_calls = st.tuples(st.from_regex(r"[a-z][a-z0-9_.]{0,8}", fullmatch=True),
                       json_values.map(lambda v: orjson.dumps({"v": v}).decode()))


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("format_name", ["auto", "kimi"])
@FUZZ
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


# -- single large cases (sizes kept small here; bench/ runs the big ones)


def content_of(body: bytes) -> str:
    return assemble(body)[0].get("content", "")


@pytest.mark.usefixtures("accelerators")
def test_marker_flood_is_released_as_text() -> None:
    flood = CB * 100_000
    body, _ = rewrite(chunk_event({"content": flood}) + b"data: [DONE]\n\n", [])
    assert content_of(body) == flood.removesuffix(CB)  # the last one dangles at the end: dropped


@pytest.mark.usefixtures("accelerators")
def test_marker_flood_one_marker_per_event() -> None:
    stream = b"".join(chunk_event({"content": CB}) for _ in range(2000)) + b"data: [DONE]\n\n"
    assert content_of(rewrite(stream, [])[0]) == CB * 1999  # the last one dangles at the end: dropped


@pytest.mark.parametrize(
    "token",
    [
        pytest.param(CB, id="every-feed-ends-in-a-header"),
        pytest.param(f"{CE}{CB}f:0{AB}{{}}", id="every-feed-ends-in-arguments"),
    ],
)
def test_a_flood_of_feeds_keeps_memory_flat(token: str) -> None:
    # Found by bench/ (hostile group): the buffer was compacted only when a feed ended in
    # TEXT, so it grew with the stream although almost nothing was held back.
    parser = KimiParser()
    for _ in range(20_000):
        parser.feed(token)
    assert parser._scan.end < 10_000  # white-box: the buffer itself, not just what is held


@pytest.mark.usefixtures("accelerators")
def test_a_long_line_passes_in_any_reads() -> None:
    text = "<" + "y" * (3 << 20)
    stream = chunk_event({"content": text})
    body, _ = rewrite(stream, list(range(0, len(stream), 65536)))
    assert content_of(body) == text


@pytest.mark.usefixtures("accelerators")
def test_unterminated_section_comes_out_as_text() -> None:
    text = f'{SB}{CB}functions.f:0{AB}{{"a": [1, 2'
    body, notices = rewrite(chunk_event({"content": text}), [])
    assert content_of(body) == text
    assert [n.code for n in notices] == ["truncated-call"]


@pytest.mark.usefixtures("accelerators")
def test_deeply_nested_arguments_are_emitted_as_written() -> None:
    arguments = "[" * 5000 + "]" * 5000  # deeper than orjson parses: not valid JSON to it
    text = f"{SB}{CB}functions.f:0{AB}{arguments}{CE}{SE}"
    body, notices = rewrite(chunk_event({"content": text}) + b"data: [DONE]\n\n", [])
    assert assemble(body) == ({}, [("f", arguments)])
    assert "invalid-arguments" in [n.code for n in notices]


@pytest.mark.usefixtures("accelerators")
def test_nul_bytes_in_text_and_arguments_survive() -> None:
    text = f'a\x00b{SB}{CB}functions.f:0{AB}{{"a": "\\u0000"}}{CE}{SE}\x00'
    body, _ = rewrite(chunk_event({"content": text}) + b"data: [DONE]\n\n", [])
    assert assemble(body) == ({"content": "a\x00b\x00"}, [("f", '{"a": "\\u0000"}')])


# -- fast paths agree with the general path


@pytest.mark.usefixtures("accelerators")
@FUZZ
@given(tokens=st.lists(plain_text, max_size=30), extras=st.lists(st.sampled_from(
    [b": keep-alive\n\n", b"\n", b"event: x\ndata: y\n\n", b"data: {\n\n", b"data: [1]\n\n"]), max_size=4),
    points=cut_points)
@example(tokens=[], extras=[b"\n"], points=[])  # a test bug: compared before flush()
@example(tokens=[], extras=[], points=[])  # feed(b"") made flush() count an empty output event
def test_plain_reads_skipped_whole_count_like_event_by_event(
    tokens: list[str], extras: list[bytes], points: list[int]
) -> None:
    stream = b"".join(chunk_event({"content": t}) for t in tokens) + b"".join(extras)
    by_byte = StreamRewriter()
    expected = [o for i in range(len(stream)) for o in by_byte.feed(stream[i : i + 1])] + by_byte.flush()
    rewriter = StreamRewriter()
    out = [o for part in pieces(stream, points) for o in rewriter.feed(part)] + rewriter.flush()
    assert b"".join(o for o in out if isinstance(o, bytes)) == stream
    assert b"".join(o for o in expected if isinstance(o, bytes)) == stream
    assert rewriter.stats == by_byte.stats


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("format_name", FORMAT_CHOICES)
@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"[]", id="array"),
        pytest.param(b'"x"', id="string"),
        pytest.param(b"1", id="number"),
        pytest.param(b"null", id="null"),
        pytest.param(b'{"choices": {"0": {}}}', id="choices-not-a-list"),
        pytest.param(b'{"choices": [1, "x", null]}', id="choice-entries-not-objects"),
        pytest.param(b'{"choices": [{"delta": "<|tool_call_begin|>"}]}', id="delta-not-an-object"),
        pytest.param(b'{"choices": [{"index": 0, "delta": {"content": ["<"]}}]}', id="content-not-a-string"),
    ],
)
def test_events_that_are_not_chunks_pass_through(format_name: str, data: bytes) -> None:
    stream = chunk_event({"content": "a"}) + b"data: " + data + b"\n\n" + chunk_event({"content": "b"})
    body, _ = rewrite(stream, [], format=format_name)
    assert body == stream
