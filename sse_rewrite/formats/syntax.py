"""The `ToolSyntax` interface every format parser implements (a `typing.Protocol`).

It lives in its own module so that it exists at run time without costing start-up:
`formats.ToolSyntax` imports this module (and `typing`) on first use only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from ..stream.events import Piece
from ..stream.quotes import Quotes
from ..tool_schemas import ToolSchemas


class ToolSyntax(Protocol):
    """A streaming parser for one leaked tool-call syntax (sans-IO, linear time)."""

    sniff: ClassVar[tuple[bytes, ...]]
    """Raw SSE bytes without which an event cannot hold this syntax (what plain runs stop at)."""

    def __init__(
        self, max_section_bytes: int = ..., *, stream_arguments: bool = ..., tools: ToolSchemas | None = ...
    ) -> None: ...

    def feed(self, text: str) -> list[Piece]:
        """Consume more text of the field; return what can be decided now."""
        ...

    def absorb(self, texts: Sequence[str]) -> int:
        """Take the leading texts that certainly decide nothing (they land inside an open call).

        Returns how many were taken, in order; the rest, untouched, must go through `feed`.
        The hot path of a tool-heavy stream: one token per chunk, most inside arguments.
        """
        ...

    def absorb_reasoning(self, text: str) -> bool:
        """Take `text` when `feed` would hand it back whole as one `Reasoning` piece and change
        nothing else (an open reasoning message, harmony's analysis, takes a text without `<` at
        once): True when taken, and that piece is all it made."""
        ...

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """With `stream_arguments`, `absorb`, where the texts may also stream more of the
        announced call: the leading texts taken as `feed` would take them, as the argument
        text each settles (`""`: none); the rest must go through `feed`. The hot path of a
        streamed call."""
        ...

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` for one text (a live stream's event): the argument text it
        settles, or None when it must go through `feed`."""
        ...

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """End of the field's stream: decide everything still held back. `finished`: the stream
        ended normally (finish_reason `stop` or `tool_calls`), so a call cut only by its closers
        was cut by a stop sequence and is recovered (docs/behaviour.md, "Damage"). `cut`: it
        ended at `length`, the model cut off: no call is recovered, what is open is its text
        (a stream that just ends, with neither, still recovers a call whose values are complete)."""
        ...

    @property
    def pending(self) -> bool:
        """True while text is held back (inside a section, or a possible partial marker)."""
        ...

    @property
    def watching(self) -> bool:
        """True while the next text may decide a closer that follows it (docs/behaviour.md,
        "Damage": orphan closers): every text of the field must then be fed, none passed unread."""
        ...

    quotes: Quotes
    """Whether a marker read next is quoted as code (`stream/quotes.py`): the choice hands each
    field's parser the field's, and tells it of text that passed it unread (`Quotes.skipped`)."""

    @property
    def undecided(self) -> int:
        """Characters held back only because they may begin a marker; 0 inside syntax.

        The rewriter holds the events those characters came from until the parser
        decides them (docs/behaviour.md, "Hold the event, not the bytes").
        """
        ...

    @property
    def held(self) -> str:
        """The characters `undecided` counts (the end of the text fed so far), for a fresh parser
        to start from them (`--think` reading ahead: docs/behaviour.md, "Think tags")."""
        ...
