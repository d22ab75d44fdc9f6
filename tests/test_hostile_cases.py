"""Hostile input, single large cases (floods, long lines, deep nesting, NUL) and plain reads skipped whole.

Sizes are kept small here; `bench/` (the hostile group) runs the big ones.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sse_rewrite import StreamRewriter
from sse_rewrite.formats import FORMAT_CHOICES
from sse_rewrite.formats.catalogue.kimi import KimiParser
from tests.chunking import chunk_event
from tests.fuzzing import FUZZ, assemble, cut_points, pieces, plain_text, rewrite
from tests.rewrite_runs import AB, CB, CE, SB, SE


def content_of(body: bytes) -> str:
    """The content text a client reads from choice 0."""
    return assemble(body)[0].get("content", "")


@pytest.mark.usefixtures("accelerators")
def test_marker_flood_is_released_as_text() -> None:
    flood = CB * 20_000  # (0.4 MB in one event; bench/ times larger floods)
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
