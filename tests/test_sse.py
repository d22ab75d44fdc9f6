"""SSEDecoder and encode_event: WHATWG examples, line ends, raw bytes kept, any read size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.events import SSEEvent
from sse_rewrite.stream.sse import SSEDecoder, encode_event


def decode(data: bytes, size: int | None = None) -> list[SSEEvent]:
    decoder = SSEDecoder()
    out: list[SSEEvent] = []
    parts = [data] if size is None else [data[i : i + size] for i in range(0, len(data), size)]
    for part in parts:
        out += decoder.feed(part)
    return out + decoder.flush()


def fields(events: list[SSEEvent]) -> list[tuple[str | None, str | None, bool]]:
    """What a consumer sees: events with data (block boundaries of bare line ends may vary)."""
    return [(e.data, e.event, e.complete) for e in events if e.data is not None]


def decode_all_ways(data: bytes) -> list[SSEEvent]:
    """Decode whole and one byte at a time; both must agree on the decoded fields."""
    whole = decode(data)
    for size in (1, 2, 5):
        split = decode(data, size)
        assert fields(split) == fields(whole)
        assert b"".join(e.raw for e in split) == b"".join(e.raw for e in whole)
    return whole


def datas(events: list[SSEEvent]) -> list[str | None]:
    return [e.data for e in events]


def test_whatwg_example_multiline_data() -> None:
    # HTML spec 9.2.6, first example: data lines are joined with LF.
    events = decode_all_ways(b"data: YHOO\ndata: +2\ndata: 10\n\n")
    assert datas(events) == ["YHOO\n+2\n10"]


def test_whatwg_example_comment_and_fields() -> None:
    stream = b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
    events = decode_all_ways(stream)
    assert datas(events) == [None, "first event", "second event", " third event"]
    assert b"".join(e.raw for e in events) == stream


def test_whatwg_example_empty_data_lines() -> None:
    events = decode_all_ways(b"data\n\ndata\ndata\n\ndata:\n")
    assert datas(events) == ["", "\n", ""]
    assert events[-1].complete is False


def test_event_field_is_kept() -> None:
    assert decode_all_ways(b"event: ping\ndata: {}\n\n")[0].event == "ping"


@pytest.mark.parametrize(
    "stream",
    [
        pytest.param(b"data: a\n\ndata: b\n\n", id="lf"),
        pytest.param(b"data: a\r\n\r\ndata: b\r\n\r\n", id="crlf"),
        pytest.param(b"data: a\r\rdata: b\r\r", id="cr"),
        pytest.param(b"data: a\r\n\ndata: b\r\r\n", id="mixed"),
    ],
)
def test_line_ends(stream: bytes) -> None:
    events = decode_all_ways(stream)
    assert datas(events) == ["a", "b"]
    assert b"".join(e.raw for e in events) == stream


def test_crlf_split_across_reads_at_an_event_boundary() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r\n\r") == []  # the CR may be half a CRLF: wait
    events = decoder.feed(b"\ndata: b\r\n\r\n") + decoder.flush()
    assert datas(events) == ["a", "b"]
    assert [e.raw for e in events] == [b"data: a\r\n\r\n", b"data: b\r\n\r\n"]


def test_a_final_cr_is_a_line_end_at_flush() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r\r") == []
    events = decoder.flush()
    assert datas(events) == ["a"]
    assert events[0].raw == b"data: a\r\r"
    assert events[0].complete


def test_one_leading_bom_is_dropped_even_split() -> None:
    decoder = SSEDecoder()
    out = decoder.feed(b"\xef\xbb") + decoder.feed(b"\xbfdata: x\n\n")
    assert datas(out) == ["x"]
    assert out[0].raw == b"data: x\n\n"


def test_only_one_bom_is_dropped() -> None:
    events = decode(b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n")
    assert datas(events) == [None]  # the second BOM makes an unknown field


def test_comment_only_block_keeps_its_bytes() -> None:
    events = decode(b": OPENROUTER PROCESSING\n\n")
    assert events == [SSEEvent(raw=b": OPENROUTER PROCESSING\n\n", data=None)]


def test_invalid_utf8_is_replaced_in_data_but_raw_is_exact() -> None:
    stream = b"data: caf\xe9\n\n"
    event = decode(stream)[0]
    assert event.data == "caf\ufffd"
    assert event.raw == stream


def test_unterminated_last_event_is_returned_as_incomplete() -> None:
    events = decode(b"data: a\n\ndata: b")
    assert [(e.data, e.complete) for e in events] == [("a", True), ("b", False)]


def test_long_line_across_many_reads() -> None:
    payload = b"x" * 100_000
    events = decode(b"data: " + payload + b"\n\n", size=997)
    assert events[0].data == payload.decode()


def test_feed_after_flush_raises() -> None:
    decoder = SSEDecoder()
    decoder.flush()
    with pytest.raises(RuntimeError):
        decoder.feed(b"data: x\n\n")


@pytest.mark.parametrize(
    ("data", "event", "expected"),
    [
        pytest.param(b"{}", None, b"data: {}\n\n", id="plain"),
        pytest.param(
            b'{"a":1}', "message_start", b'event: message_start\ndata: {"a":1}\n\n', id="with-event"
        ),
        pytest.param(b"a\nb", None, b"data: a\ndata: b\n\n", id="multi-line"),
    ],
)
def test_encode_event(data: bytes, event: str | None, expected: bytes) -> None:
    assert encode_event(data, event) == expected
    assert decode(expected)[0].data == data.decode()


_line = st.sampled_from([b"data: x", b"data:y", b"data", b": c", b"event: e", b"id: 1", b"retry: 5", b""])
_end = st.sampled_from([b"\n", b"\r\n", b"\r"])


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.tuples(_line, _end), max_size=20), data=st.data())
def test_any_read_sizes_give_the_same_events_and_bytes(
    lines: list[tuple[bytes, bytes]], data: st.DataObject
) -> None:
    stream = b"".join(line + end for line, end in lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = SSEDecoder()
    split: list[SSEEvent] = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        split += decoder.feed(stream[a:b])
    split += decoder.flush()
    whole = decode(stream)
    assert fields(split) == fields(whole)
    assert [e.raw for e in split] == [e.raw for e in whole]
    assert b"".join(e.raw for e in split) == stream
