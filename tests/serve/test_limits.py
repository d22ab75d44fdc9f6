"""The caps' bookkeeping (pure): lines and events split anyhow over reads, inflation in pieces."""

from __future__ import annotations

import gzip
import zlib

import pytest

from sse_rewrite.serve.limits import Inflater, Limits, SseBounds, TooLarge, inflater

LIMITS = Limits(line_bytes=10, event_bytes=30, body_bytes=50)


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_events_under_the_caps_pass_in_any_chunking(newline: bytes, size: int) -> None:
    event = b"data: 123" + newline + b"data: 456" + newline + newline
    stream = event * 20
    bounds = SseBounds(LIMITS)
    for start in range(0, len(stream), size):
        bounds.feed(stream[start:start + size])


@pytest.mark.parametrize("size", [1, 4, 100])
def test_a_long_line_or_event_or_body_trips_its_cap(size: int) -> None:
    for stream, what in ((b"data: " + b"x" * 20, "line"), (b"data: 1\n" * 6, "event"),
                         (b'{"a": "' + b"x\n" * 40, "body")):
        bounds = SseBounds(LIMITS)
        with pytest.raises(TooLarge, match=f"an? {what} of more than"):
            for start in range(0, len(stream), size):
                bounds.feed(stream[start:start + size])


def test_inflation_comes_in_pieces_and_stops_at_the_cap() -> None:
    decoder = inflater("gzip", 1 << 20, piece=4096)
    assert isinstance(decoder, Inflater)
    pieces = []
    with pytest.raises(TooLarge):
        for piece in decoder.pieces(gzip.compress(bytes(8 << 20))):
            pieces.append(len(piece))
    assert max(pieces) <= 4096 and sum(pieces) <= 1 << 20


@pytest.mark.parametrize("data", [zlib.compress(b"hello" * 100), zlib.compress(b"hello" * 100)[2:-4]],
                         ids=["zlib", "raw"])
def test_deflate_is_zlib_wrapped_or_raw(data: bytes) -> None:
    decoder = inflater("Deflate", None)
    assert decoder is not None and decoder.whole(data) == b"hello" * 100


def test_identity_and_unknown_encodings_are_not_inflated() -> None:
    assert inflater("identity", None) is None and inflater("br", None) is None
