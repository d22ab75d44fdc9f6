"""Pure value types that flow through sse-rewrite.

`SSEEvent` is one blank-line-terminated block of a server-sent-event stream, with the
exact bytes it arrived as. `Text`, `ToolCall`, `Markup` and `Notice` are what a format
parser hands back for the text it was fed. These are frozen values with no behaviour:
which choice or field they belong to, and how they are written out, lives elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SSEEvent:
    """One SSE block: its raw bytes (line ends and comments included) and decoded fields.

    `data` is None when the block carried no `data` field (comments, keep-alives).
    `complete` is False for a trailing block that the stream ended without a blank line.
    Treat it as immutable. It is the one value built once per event on the hot path, where a
    frozen dataclass's `__init__` costs 2.5 times as much, so it is not declared frozen.
    """

    raw: bytes
    data: str | None
    event: str | None = None
    complete: bool = True


@dataclass(frozen=True, slots=True)
class Text:
    """Plain text outside any tool-call syntax, to be kept in its field."""

    text: str


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Markup:
    """Source text consumed as syntax without producing a call (section markers, spacing)."""

    raw: str


@dataclass(frozen=True, slots=True)
class Notice:
    """A diagnostic about the input: `code` is a short stable tag, `message` one line."""

    code: str
    message: str


Piece = Text | ToolCall | Markup | Notice
"""What a format parser returns from `feed` and `flush`."""
