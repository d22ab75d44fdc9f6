"""Pure value types that flow through sse-rewrite.

`SSEEvent` is one blank-line-terminated block of a server-sent-event stream, with the
exact bytes it arrived as. `Text`, `ToolCall`, `Markup` and `Notice` (with
`--stream-arguments` also `CallStart` and `ArgumentsDelta`) are what a format
parser hands back for the text it was fed. These are values with no behaviour: which
choice or field they belong to, and how they are written out, lives elsewhere.

Treat them all as immutable. None is declared frozen: a frozen dataclass's `__init__`
costs twice as much, and these are built on the hot path (an event, a piece of text per
token). The pieces still compare and hash by value, as frozen values would.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SSEEvent:
    """One SSE block: its raw bytes (line ends and comments included) and decoded fields.

    `data` is None when the block carried no `data` field (comments, keep-alives).
    `complete` is False for a trailing block that the stream ended without a blank line.
    """

    raw: bytes
    data: str | None
    event: str | None = None
    complete: bool = True


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class Text:
    """Plain text outside any tool-call syntax, to be kept in its field."""

    text: str


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class ToolCall:
    """A complete tool call recovered from leaked syntax.

    `id` is the model's own call id when the syntax carries one (Kimi's
    `functions.bash:15`), else None. `raw` is the exact source text the call was parsed
    from, so that text pieces and raw spans always re-join to the input.
    """

    id: str | None
    name: str
    arguments: str
    raw: str


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class CallStart:
    """With `--stream-arguments`: a call's id and name, as soon as they are known.

    Its `ArgumentsDelta` pieces follow, then the complete `ToolCall`, whose `arguments`
    always begin with the deltas' text joined (only the rest is new) and whose id and
    name are these. A call that breaks after its start is still completed, never
    released as text: what was announced cannot be taken back.
    """

    id: str | None
    name: str


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class ArgumentsDelta:
    """With `--stream-arguments`: the next settled piece of the open call's arguments."""

    text: str


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class Markup:
    """Source text consumed as syntax without producing a call (section markers, spacing)."""

    raw: str


@dataclass(slots=True, unsafe_hash=True)  # (immutable: see above)
class Notice:
    """A diagnostic about the input: `code` is a short stable tag, `message` one line."""

    code: str
    message: str


Piece = Text | ToolCall | Markup | Notice | CallStart | ArgumentsDelta
"""What a format parser returns from `feed` and `flush`."""
