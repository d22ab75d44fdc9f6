"""Helpers for `--stream-arguments` at the parser level: check the order and prefix
guarantees of `CallStart` / `ArgumentsDelta` / `ToolCall`, and feed at many cuts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from sse_rewrite.formats import FORMATS
from sse_rewrite.stream.events import ArgumentsDelta, CallStart, Piece, Text, ToolCall
from tests.chunking import EVERY_CUT_SIZES, cut, feed_pieces, rejoin, split

Call = tuple[str | None, str, str]


def checked(pieces: Iterable[Piece]) -> tuple[list[Call], str, list[str]]:
    """`(calls, text kept, names announced)`, asserting the streaming guarantees.

    A `CallStart` opens a call that only `ArgumentsDelta` pieces (and notices) may follow
    until its `ToolCall`, which has its id and name and arguments that begin with the
    deltas' text; no delta outside an announced call.
    """
    calls: list[Call] = []
    announced: list[str] = []
    kept = ""
    open_call: CallStart | None = None
    sent = ""
    for piece in pieces:
        if isinstance(piece, CallStart):
            assert open_call is None, "a call announced inside another"
            open_call, sent = piece, ""
            announced.append(piece.name)
        elif isinstance(piece, ArgumentsDelta):
            assert open_call is not None, "argument text outside an announced call"
            assert piece.text, "an empty delta"
            sent += piece.text
        elif isinstance(piece, ToolCall):
            if open_call is not None:
                assert (piece.id, piece.name) == (open_call.id, open_call.name)
                assert piece.arguments.startswith(sent), (piece.arguments, sent)
                open_call = None
            calls.append((piece.id, piece.name, piece.arguments))
        elif isinstance(piece, Text):
            assert open_call is None, "text inside an announced call"
            kept += piece.text
    assert open_call is None, "an announced call never completed"
    return calls, kept, announced


def cuttings(text: str) -> Iterator[list[str]]:
    """`text` whole, one character a piece, and cut in two at every point (`EVERY_CUT_SIZES`)."""
    for size in EVERY_CUT_SIZES:
        yield [text] if size is None else list(split(text, size))
    for point in range(1, len(text)):
        yield cut(text, [point])


def streamed_at_every_cut(name: str, text: str, finished: bool = False) -> tuple[list[Call], str, list[str]]:
    """Parse `text` with format `name` streaming, at every cutting: the checked result,
    which must not depend on the cutting, and which loses nothing (`finished`: a normal finish)."""
    results = []
    for pieces in cuttings(text):
        parser = FORMATS[name](stream_arguments=True)
        out = [piece for text_piece in pieces for piece in parser.feed(text_piece)] + parser.flush(finished)
        assert rejoin(out) == text
        results.append(checked(out))
    for result in results[1:]:
        assert result[:2] == results[0][:2]
    return results[0]


def whole(factory: Callable[[], object], text: str) -> list[Piece]:
    """Parse `text` fed whole (helper for non-streaming references)."""
    return feed_pieces(factory(), [text])  # type: ignore[arg-type]
