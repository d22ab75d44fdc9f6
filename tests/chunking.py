"""Helpers for chunking-invariance tests: feed input in pieces, normalize the output."""

from __future__ import annotations

import os
import re
import select
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

import orjson
from hypothesis import strategies as st

from sse_rewrite.stream.assemble import TEXT_FIELDS, assemble
from sse_rewrite.stream.events import Markup, Notice, Piece, Reasoning, Text, ToolCall
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import SSEDecoder

if TYPE_CHECKING:
    from sse_rewrite.formats import ToolSyntax


def normalize(pieces: Iterable[Piece]) -> list[Piece]:
    """Merge adjacent Text, adjacent Reasoning and adjacent Markup, drop empty text
    (chunking-independent form)."""
    out: list[Piece] = []
    for piece in pieces:
        if isinstance(piece, Text | Reasoning) and not piece.text:
            continue
        if out and isinstance(piece, Text) and isinstance(out[-1], Text):
            out[-1] = Text(out[-1].text + piece.text)
        elif out and isinstance(piece, Reasoning) and isinstance(out[-1], Reasoning):
            out[-1] = Reasoning(out[-1].text + piece.text)
        elif out and isinstance(piece, Markup) and isinstance(out[-1], Markup):
            out[-1] = Markup(out[-1].raw + piece.raw)
        else:
            out.append(piece)
    return out


def split(text: str, size: int) -> Iterator[str]:
    """`text` in consecutive pieces of `size` characters."""
    return (text[i : i + size] for i in range(0, len(text), size))


def feed_pieces(parser: ToolSyntax, pieces: Iterable[str]) -> list[Piece]:
    """Feed each piece, then flush; return everything the parser produced."""
    out: list[Piece] = []
    for piece in pieces:
        out += parser.feed(piece)
    return out + parser.flush()


def feed_in_pieces(factory: Callable[[], ToolSyntax], text: str, size: int | None) -> list[Piece]:
    """Feed `text` whole (`size` None) or in pieces of `size` characters to a fresh parser."""
    return feed_pieces(factory(), [text] if size is None else split(text, size))


def rejoin(pieces: Iterable[Piece]) -> str:
    """Text, reasoning, call and markup spans re-joined: must equal the parser's input."""
    return "".join(
        p.text if isinstance(p, Text | Reasoning) else p.raw
        for p in pieces
        if isinstance(p, Text | Reasoning | ToolCall | Markup)
    )


def without_notices(pieces: Iterable[Piece]) -> list[Piece]:
    """The pieces minus notices (notices may move with chunking)."""
    return [p for p in pieces if not isinstance(p, Notice)]


SIZES = (None, 1, 2, 3, 7)
"""Chunk sizes every example goes through: whole, one character, and a few odd cuts."""


def chunkings(
    factory: Callable[[], ToolSyntax], text: str, sizes: Iterable[int | None] = SIZES
) -> list[Piece]:
    """Parse `text` at every size in `sizes`; assert they agree and are lossless; return one."""
    results = [normalize(feed_in_pieces(factory, text, size)) for size in sizes]
    for result in results:
        assert rejoin(result) == text
        assert without_notices(result) == without_notices(results[0])
    return results[0]


def chunk_event(
    delta: dict[str, object] | None = None,
    finish: str | None = None,
    *,
    choice: int = 0,
    model: str = "moonshotai/kimi-k2.5",
    stream_id: str = "gen-1",
    **extra: object,
) -> bytes:
    """One OpenRouter-shaped `chat.completion.chunk` SSE event."""
    chunk: dict[str, object] = {
        "id": stream_id,
        "object": "chat.completion.chunk",
        "created": 1773932889,
        "model": model,
        "provider": "Chutes",
        "choices": [
            {"index": choice, "delta": delta or {}, "finish_reason": finish, "native_finish_reason": finish}
        ],
        **extra,
    }
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


def token_stream(tokens: Iterable[str], field: str = "content", finish: str = "stop", **kw: object) -> bytes:
    """A whole stream: one chunk per token in `field` (role repeated, as OpenRouter does), finish, DONE."""
    events = [b": OPENROUTER PROCESSING\n\n"]
    for token in tokens:
        delta: dict[str, object] = {"role": "assistant", "content": ""}
        delta[field] = token
        if field == "reasoning":
            delta["reasoning_details"] = [
                {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
            ]
        events.append(chunk_event(delta, **kw))  # type: ignore[arg-type]
    events.append(chunk_event({"role": "assistant", "content": ""}, finish, **kw))  # type: ignore[arg-type]
    return b"".join(events) + b"data: [DONE]\n\n"


def field_stream(
    deltas: Iterable[dict[str, object]], finish: str | None = "stop", usage: object = None, **kw: object
) -> bytes:
    """A whole stream of one chunk per delta (role repeated), a finish chunk, a usage chunk, DONE.

    `finish` None leaves the finish chunk out; `usage` None leaves the usage chunk out.
    """
    events = [b": OPENROUTER PROCESSING\n\n"]
    events += [chunk_event({"role": "assistant", **delta}, **kw) for delta in deltas]  # type: ignore[arg-type]
    if finish is not None:
        events.append(chunk_event({"role": "assistant", "content": ""}, finish, **kw))  # type: ignore[arg-type]
    if usage is not None:
        chunk = {"id": "gen-1", "object": "chat.completion.chunk", "choices": [], "usage": usage}
        events.append(b"data: " + orjson.dumps(chunk) + b"\n\n")
    return b"".join(events) + b"data: [DONE]\n\n"


def texts(pieces: Iterable[Piece]) -> str:
    """All kept text, joined."""
    return "".join(p.text for p in pieces if isinstance(p, Text))


def reasoning(pieces: Iterable[Piece]) -> str:
    """All text moved to the reasoning field, joined."""
    return "".join(p.text for p in pieces if isinstance(p, Reasoning))


def calls(pieces: Iterable[Piece]) -> list[tuple[str | None, str, str]]:
    """`(id, name, arguments)` of every call."""
    return [(p.id, p.name, p.arguments) for p in pieces if isinstance(p, ToolCall)]


def codes(pieces: Iterable[Piece]) -> set[str]:
    """The notice codes."""
    return {p.code for p in pieces if isinstance(p, Notice)}


def cut(text: str, points: Iterable[int]) -> list[str]:
    """`text` cut at the given offsets (any order, repeats allowed)."""
    bounds = sorted(points)
    return [text[a:b] for a, b in zip([0, *bounds], [*bounds, len(text)], strict=True)]


def assert_same_for_any_cut(factory: Callable[[], ToolSyntax], text: str, points: Iterable[int]) -> None:
    """Split output equals whole output (notices aside), and re-joins to the input."""
    split_out = normalize(feed_pieces(factory(), cut(text, points)))
    whole_out = normalize(feed_pieces(factory(), [text]))
    assert without_notices(split_out) == without_notices(whole_out)
    assert rejoin(split_out) == text


def rewrite_stream(data: bytes, **options: Any) -> bytes:
    """SSE `data` through a StreamRewriter, fed whole; the output bytes."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    out = rewriter.feed(data) + rewriter.flush()
    return b"".join(item for item in out if isinstance(item, bytes))


def json_values(alphabet: str) -> st.SearchStrategy[object]:
    """Small JSON values whose strings are drawn from `alphabet` (markers' look-alikes)."""
    return st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(alphabet=alphabet, max_size=8),
        lambda children: (
            st.lists(children, max_size=3) | st.dictionaries(st.text("kz", max_size=2), children, max_size=3)
        ),
        max_leaves=6,
    )


EVERY_CUT_SIZES = (None, 1)
"""What `every_cut` feeds besides the cuts in two: whole and one character a piece (cuts into
more pieces at other sizes are the chunking property's, tests/test_chunking_invariance.py)."""


def every_cut(factory: Callable[[], ToolSyntax], text: str) -> list[Piece]:
    """`text` whole, one character a piece, and cut in two at every point: all agree and lose
    nothing."""
    whole = chunkings(factory, text, EVERY_CUT_SIZES)
    for point in range(1, len(text)):
        split_out = normalize(feed_pieces(factory(), [text[:point], text[point:]]))
        assert without_notices(split_out) == without_notices(whole), point
        assert rejoin(split_out) == text
    return whole


def read_until(fd: int, want: bytes, got: bytes = b"") -> bytes:
    """Read from a child's stdout `fd` onto `got` until `want` has arrived; fail if the child
    goes quiet for 20 s (a hang) or closes its output first."""
    while want not in got:
        ready, _, _ = select.select([fd], [], [], 20)
        assert ready, f"no output from the filter; got so far {got!r}"
        data = os.read(fd, 65536)
        assert data, f"filter closed stdout; got {got!r}"
        got += data
    return got


TOKEN: Final = re.compile(
    r"<[|\uff5c][^<>\s]{0,40}?[|\uff5c]>|</?[\w:=.-]{1,40}>|\]<\]minimax\[>\[|\[/?[A-Z_]{2,20}\]"
    r"|\w+|\s+|.",
    re.S,
)
"""A tokenizer's cut: special tokens and tags whole, then words, spacing runs, one other character."""


def tokens(text: str) -> list[str]:
    """`text` cut as a tokenizer would send it, one token per piece."""
    return TOKEN.findall(text)


_MIRROR: Final = "reasoning_details"


def _text_of(chunk: object) -> tuple[int, str, str] | None:
    """(choice index, field, text) of a chunk whose only change is the text of one field, else None."""
    if not isinstance(chunk, dict) or set(chunk) - {"id", "object", "created", "model", "provider",
                                                     "system_fingerprint", "choices"}:
        return None
    choices = chunk.get("choices")
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
        return None
    choice = choices[0]
    delta = choice.get("delta")
    if choice.get("finish_reason") is not None or not isinstance(delta, dict) or "tool_calls" in delta:
        return None
    fields = [k for k in TEXT_FIELDS if isinstance(delta.get(k), str) and delta[k]]
    if len(fields) != 1 or set(delta) - {*TEXT_FIELDS, "role", _MIRROR}:
        return None
    mirror = delta.get(_MIRROR)
    if mirror is not None and not (
        isinstance(mirror, list) and len(mirror) == 1 and mirror[0].get("text") == delta[fields[0]]
    ):
        return None
    return choice.get("index", 0), fields[0], delta[fields[0]]


def _with_text(chunk: dict[str, Any], field: str, text: str) -> bytes:
    """The chunk's event with `field` (and its mirror) set to `text`."""
    delta = dict(chunk["choices"][0]["delta"], **{field: text})
    if _MIRROR in delta:
        delta[_MIRROR] = [dict(delta[_MIRROR][0], text=text)]
    choice = dict(chunk["choices"][0], delta=delta)
    return b"data: " + orjson.dumps(dict(chunk, choices=[choice])) + b"\n\n"


def recut_stream(data: bytes, cut_text: Callable[[str], Iterable[str]]) -> bytes:
    """SSE `data` with the text of its events re-cut: each run of events that only carry text in one
    field of one choice joins its text and sends it cut by `cut_text`, one event per piece, in the
    first event's envelope; every other event stays as it came."""
    out: list[bytes] = []
    run: tuple[dict[str, Any], tuple[int, str], list[str]] | None = None

    def close() -> None:
        if run is not None:
            chunk, (_, field), texts = run
            out.extend(_with_text(chunk, field, piece) for piece in cut_text("".join(texts)) if piece)

    decoder = SSEDecoder()
    for event in decoder.feed(data) + decoder.flush():
        found = None
        if event.data and event.complete and event.event is None:
            try:
                chunk = orjson.loads(event.data)
            except orjson.JSONDecodeError:
                chunk = None
            found = _text_of(chunk)
        if found is None:
            close()
            run = None
            out.append(event.raw)
            continue
        key = found[:2]
        if run is None or run[1] != key:
            close()
            run = (chunk, key, [])
        run[2].append(found[2])
    close()
    return b"".join(out)


def settled(body: bytes) -> dict[int, tuple[dict[str, str], list[tuple[str, str, str]], str | None]]:
    """What a client ends with, per choice: text by field, (id, name, arguments) per call, finish."""
    return {
        index: (c.text, [(call.id, call.name, call.arguments) for call in c.calls.values()], c.finish_reason)
        for index, c in assemble(body).choices.items()
    }
