"""Kimi K2 / K2.5 / K2-Thinking tool-call tokens.

    <|tool_calls_section_begin|>
    <|tool_call_begin|>functions.bash:15<|tool_call_argument_begin|>{"cmd": "ls"}<|tool_call_end|>
    <|tool_calls_section_end|>

`KIMI` declares the syntax (`_section_syntax.SectionSyntax`): Kimi's spellings, and its
`functions.NAME:IDX` header as a call whose id is the header (Kimi expects to see its own
ids again). The grammar and every recovery rule live in `SectionParser` (`_sections.py`).
"""

from __future__ import annotations

import re

from ..machines._scanner import MarkerTable
from ..machines._section_syntax import SectionSyntax, Token
from ..machines._sections import SectionParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    b"<|tool_calls_section_begin|>": Token.SECTION_BEGIN,
    b"<|tool_call_section_begin|>": Token.SECTION_BEGIN,  # singular spelling, seen in engines
    b"<|tool_calls_section_end|>": Token.SECTION_END,
    b"<|tool_call_section_end|>": Token.SECTION_END,
    b"<|tool_call_begin|>": Token.CALL_BEGIN,
    b"<|tool_call_argument_begin|>": Token.ARGUMENT_BEGIN,
    b"<|tool_call_end|>": Token.CALL_END,
})
"""Every spelling of Kimi's special tokens, mapped to its role."""

_HEADER_INDEX: Final = re.compile(r":\d+$")


def name_from_header(header: str) -> str:
    """`functions.NAME:IDX` -> `NAME` (only the leading `functions.` and trailing `:digits` go)."""
    name = header.removeprefix("functions.")
    return _HEADER_INDEX.sub("", name) or name


def kimi_call_parts(header: str, arguments: str, tools: object = None) -> tuple[str | None, str, str]:
    """A Kimi call: the header is the id, its middle the name; arguments trimmed (`{}` if empty)."""
    return header, name_from_header(header), arguments.strip() or "{}"


KIMI: Final = SectionSyntax("kimi", MARKERS, kimi_call_parts)
"""Kimi K2 / K2.5 / K2-Thinking."""


class KimiParser(SectionParser, SYNTAXES=(KIMI,)):
    """Streaming parser for Kimi K2 tool-call tokens (`--format kimi`)."""
