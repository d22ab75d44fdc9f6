"""SectionSyntax: the declaration of one section/call-token syntax (Kimi K2, DeepSeek V3/V3.1).

    SECTION_BEGIN  CALL_BEGIN header ARGUMENT_BEGIN arguments CALL_END  ...  SECTION_END

A syntax declares the spelling of each token and its role (`Token`; several spellings may
share a role; a `FRAME` token only frames: inside a header, after a call), how a header and its
argument text become a call (`call_parts`: id, name and arguments, typed by the request's tools
where it reads values), and whether the header alone names the call, so that `--stream-arguments` can
announce it before its arguments (`announceable`). The machine is `_sections.SectionParser`;
a parser of the family is one `SYNTAXES` line (`kimi.py`, `deepseek.py`, `special_tokens.py`).
"""

from __future__ import annotations

import enum

from ._scanner import MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...tool_schemas import ToolSchemas

    CallParts = Callable[[str, str, ToolSchemas | None], tuple[str | None, str, str]]


class Token(enum.Enum):
    """The special tokens, by role."""

    SECTION_BEGIN = enum.auto()
    SECTION_END = enum.auto()
    CALL_BEGIN = enum.auto()
    ARGUMENT_BEGIN = enum.auto()
    CALL_END = enum.auto()
    FRAME = enum.auto()  # part of a header (Solar's `<|tool_call:name|>`), or markup after a call
    BODY_BEGIN = enum.auto()  # begins the argument text and is part of it (Step-3's `<steptml:invoke`)


def names_the_call(header: str) -> bool:
    """Every header names its call (the default of `SectionSyntax.announceable`)."""
    return True


class SectionSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    __slots__ = ("announceable", "call_parts", "markers", "name")

    def __init__(
        self, name: str, markers: MarkerTable[Token], call_parts: CallParts,
        announceable: Callable[[str], bool] = names_the_call,
    ) -> None:  # fmt: skip
        self.name = name
        self.markers = markers  # every spelling of every token, mapped to its role
        self.call_parts = call_parts  # (header, argument text, tools) -> (call id or None, name, arguments)
        self.announceable = announceable  # whether a header alone names its call
