"""Streaming parsers for leaked tool-call syntaxes, one module per syntax.

Every parser implements `ToolSyntax`: feed it the text of one field as it streams in,
get back `Text` (keep in the field), `ToolCall` (complete call), `Markup` (syntax that
was consumed) and `Notice` pieces; `flush()` at the end of the field's stream. The
registry `FORMATS` maps each `--format` name to a parser factory; `select_format`
picks one for a stream from its `model` id.
"""

from __future__ import annotations

from typing import ClassVar, Final, Protocol

from ..events import Piece
from ._scanner import DEFAULT_MAX_SECTION_BYTES
from .kimi import KimiParser

__all__ = ["DEFAULT_MAX_SECTION_BYTES", "FORMATS", "ToolSyntax", "select_format"]


class ToolSyntax(Protocol):
    """A streaming parser for one leaked tool-call syntax (sans-IO, linear time)."""

    sniff: ClassVar[tuple[bytes, ...]]
    """Raw SSE bytes without which an event cannot hold this syntax (the fast path)."""

    def __init__(self, max_section_bytes: int = ...) -> None: ...

    def feed(self, text: str) -> list[Piece]:
        """Consume more text of the field; return what can be decided now."""
        ...

    def flush(self) -> list[Piece]:
        """End of the field's stream: decide everything still held back."""
        ...

    @property
    def pending(self) -> bool:
        """True while text is held back (inside a section, or a possible partial marker)."""
        ...


FORMATS: Final[dict[str, type[ToolSyntax]]] = {
    "kimi": KimiParser,
}
"""Parser factory by `--format` name (`auto` and `none` are resolved by `select_format`)."""

FORMAT_CHOICES: Final = ("auto", *FORMATS, "none")

_MODEL_FAMILIES: Final = (("kimi", ("kimi", "moonshot")),)


def select_format(model: str | None, requested: str) -> tuple[str | None, str]:
    """Resolve `requested` (a `--format` value) for a stream of `model`.

    Returns the format name (None for no rewriting) and a short human reason.
    """
    if requested == "none":
        return None, "--format none"
    if requested != "auto":
        return requested, f"--format {requested}"
    if model:
        lowered = model.lower()
        for name, needles in _MODEL_FAMILIES:
            if any(n in lowered for n in needles):
                return name, f"model {model!r} is a {name} model"
    # Kimi's special tokens cannot occur in ordinary prose, so they are safe to rewrite
    # for any model.
    return "kimi", "unambiguous Kimi tokens are recognized for any model"
