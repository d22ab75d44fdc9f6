"""TokenTemplate: tokens read from raw bytes are exactly what parsing the events would give;
and the fast paths built on it (and on `NeedleIndex`) change no output byte and no count."""

from __future__ import annotations

import itertools

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.fast import plain_runs
from sse_rewrite.fast.needles import NeedleIndex
from sse_rewrite.fast.token_template import TokenTemplate
from sse_rewrite.formats import FORMAT_CHOICES
from sse_rewrite.rewrite import RewriteOptions, Stats, StreamRewriter
from tests.chunking import chunk_event, rewrite_stream
from tests.oracles import openai_final


def template(delta: dict[str, object], field: str = "content") -> TokenTemplate | None:
    raw = chunk_event(delta)
    return TokenTemplate.learn(raw, orjson.loads(raw[6:]), field)


def tokens(learned: TokenTemplate, raw: bytes) -> list[str]:
    return learned.run(raw, 0, len(raw)).tokens


def test_the_same_event_with_another_token_gives_that_token() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    raw = chunk_event({"role": "assistant", "content": '{"cmd": "ls"}'})
    assert tokens(learned, raw) == ['{"cmd": "ls"}']


@given(st.text())
def test_any_token_round_trips(token: str) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    raw = chunk_event({"role": "assistant", "content": token})
    assert tokens(learned, raw) == [orjson.loads(raw[6:])["choices"][0]["delta"]["content"]]


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(chunk_event({"role": "assistant", "content": "b"}, "stop"), id="finish"),
        pytest.param(chunk_event({"role": "assistant", "content": "b"}, stream_id="gen-2"), id="other-id"),
        pytest.param(chunk_event({"content": "b"}), id="no-role"),
        pytest.param(chunk_event({"role": "assistant", "reasoning": "b"}), id="other-field"),
        pytest.param(chunk_event({"role": "assistant", "content": 1}), id="not-a-string"),
        pytest.param(
            chunk_event({"role": "assistant", "content": "b"}).replace(
                b'"b"', b'"b"},"finish_reason":"stop","x":{"y":"z"'
            ),
            id="injected-structure",
        ),
        pytest.param(
            chunk_event({"role": "assistant", "content": "b"}).replace(b"\n\n", b"\r\n\r\n"), id="crlf"
        ),
    ],
)
def test_anything_but_the_same_event_with_another_token_gives_none(raw: bytes) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    assert tokens(learned, raw) == []


def look_alike(token: str) -> bytes:
    return chunk_event({"role": "assistant", "content": token})


def test_a_run_reads_look_alikes_up_to_the_first_other_event() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    other = chunk_event({"role": "assistant", "content": "x"}, "stop")
    data = look_alike("one") + look_alike(" two") + other + look_alike("three")
    run = learned.run(data, 0, len(data))
    assert (run.tokens, run.whole) == (["one", " two"], False)
    assert run.span(2) == len(look_alike("one") + look_alike(" two"))
    assert run.span(1) == len(look_alike("one"))
    whole = learned.run(data, 0, len(look_alike("one")))
    assert (whole.tokens, whole.whole) == (["one"], True)


@pytest.mark.parametrize(
    "middles",
    [
        # Each parses only with the other: as one JSON array they make two strings.
        pytest.param([b'"ab\\"', b'","""'], id="literals-that-pair-up"),
        pytest.param([b'"a" ', b'"b"'], id="space-after-the-literal"),
        pytest.param([b'"a\nb"', b'"c"'], id="line-break-inside"),
        pytest.param([b'"a"\r', b'"b"'], id="cr-after-the-literal"),
    ],
)
def test_a_run_stops_at_a_middle_that_is_not_exactly_one_literal(middles: list[bytes]) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    before, after = look_alike("a").split(b'"a"')
    data = look_alike("ok") + b"".join(before + middle + after for middle in middles)
    assert learned.run(data, 0, len(data)).tokens == ["ok"]


def test_a_lone_line_break_after_a_run_is_left_to_the_decoder() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    data = look_alike("one") + b"\n" + look_alike("two")
    cut = len(look_alike("one")) + 1
    run = learned.run(data, 0, cut)
    assert (run.tokens, run.whole, run.span(1)) == (["one"], False, cut - 1)


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(
            chunk_event({"role": "assistant", "content": "a"}).replace(b"\n\n", b"\r\n\r\n"), id="crlf"
        ),
        pytest.param(b": ping\n" + chunk_event({"role": "assistant", "content": "a"}), id="two-lines"),
        pytest.param(chunk_event({"content": "a", "role": "a"}), id="token-also-elsewhere-after-it"),
    ],
)
def test_no_template_where_the_token_place_is_uncertain(raw: bytes) -> None:
    chunk = orjson.loads(raw[raw.index(b"{") :])
    assert TokenTemplate.learn(raw, chunk, "content") is None


def test_a_stream_whose_chunks_differ_in_more_than_the_token_is_rewritten_the_same() -> None:
    tokens = [
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.bash:0",
        "<|tool_call_argument_begin|>",
        '{"cmd":',
        ' "ls',
        ' -la"}',
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
    ]
    events = [
        chunk_event({"role": "assistant", "content": token}, created=i) for i, token in enumerate(tokens)
    ]
    stream = b"".join(events) + chunk_event({}, "stop") + b"data: [DONE]\n\n"
    [call] = openai_final(rewrite_stream(stream)).choices[0].message.tool_calls
    assert (call.function.name, orjson.loads(call.function.arguments)) == ("bash", {"cmd": "ls -la"})


_PIECES = [
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.bash:1",
    "functions",
    ".x:2",
    "<|tool_call_argument_begin|>",
    '{"a":',
    ' "x<|tool_call_end|>"',
    "}",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    " ",
    "\n",
    "text",
    '"',
    "\\",
    "<",
    "é",
    "<tool_call>",
    "</tool_call>",
    '{"name": "f", "arguments": {}}',
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "f<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "TOOL: x\n",
    "ARGUMENTS: {}\n",
]


def _rewrite(parts: list[bytes], format_name: str, **switches: bool) -> tuple[bytes, Stats]:
    rewriter = StreamRewriter(RewriteOptions(format=format_name, max_section_bytes=200, **switches))
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    return b"".join(item for item in out if isinstance(item, bytes)), rewriter.stats


def _cut(stream: bytes, reads: list[int]) -> list[bytes]:
    ends = list(itertools.accumulate(reads))
    return [stream[start:end] for start, end in zip([0, *ends], [*ends, len(stream)], strict=True)]


def _look_alike_with_raw_token(token: bytes) -> bytes:
    """A content event whose token's bytes (between its quotes) are `token`, valid JSON or not."""
    before, after = look_alike("a").split(b'"a"')
    return before + b'"' + token + b'"' + after


@settings(max_examples=200, deadline=None)
@given(
    tokens=st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=40),
    fields=st.lists(st.sampled_from(["content", "reasoning"]), min_size=1, max_size=3),
    format_name=st.sampled_from(FORMAT_CHOICES),
    reads=st.lists(st.integers(1, 300), max_size=10) | st.none(),  # None: a read per event
    finish=st.sampled_from([None, "stop", "length"]),
    extra=st.sampled_from([b"", b"\n", b": keep-alive\n\n", b"\r\n", b"data: [DONE]\n\n", b"data: {}\n\n"])
    | st.binary(max_size=8).map(_look_alike_with_raw_token),
    window=st.sampled_from([1, 7, 64, 8192]),
)
def test_the_fast_paths_change_no_output_byte_and_no_count(
    tokens: list[str],
    fields: list[str],
    format_name: str,
    reads: list[int] | None,
    finish: str | None,
    extra: bytes,
    window: int,
) -> None:
    events = [chunk_event({"role": "assistant", fields[i % len(fields)]: t}) for i, t in enumerate(tokens)]
    events.insert(len(events) // 2, extra)
    events += [chunk_event({}, finish), b"data: [DONE]\n\n"]
    parts = events if reads is None else _cut(b"".join(events), reads)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plain_runs, "_FIRST_WINDOW", window)  # small ones: runs across windows
        fast = _rewrite(parts, format_name)
    assert _rewrite(parts, format_name, plain_runs=False, token_runs=False) == fast


@given(
    data=st.binary(max_size=300)
    | st.lists(st.sampled_from([b"<", b"ab", b"\n", b"[DONE]", b"x"])).map(b"".join),
    steps=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 80)), max_size=12),
)
def test_the_needle_index_answers_as_a_fresh_search_would(data: bytes, steps: list[tuple[int, int]]) -> None:
    needles = (b"<", b"[DONE]", b"\n\n\n", b"ab")
    index = NeedleIndex(data, needles)
    pos = 0
    for forward, width in steps:
        pos = min(len(data), pos + forward)
        end = min(len(data), pos + width)
        found = [at for needle in needles if (at := data.find(needle, pos, end)) != -1]
        assert index.first(pos, end) == min(found, default=end)
