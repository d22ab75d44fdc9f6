"""Qwen3-Coder: `<function=…>` XML, inside `<tool_call>` tags or bare.

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Dallas
    </parameter>
    </function>
    </tool_call>

Qwen3-Coder is seen to drop the `<tool_call>` wrapper, so a bare `<function=NAME>` is
an opener too (a stray `</tool_call>` after it is dropped with it). The tag machine is
`ToolCallTagParser`; the body is read by `qwen_xml_call`.
"""

from __future__ import annotations

from .tool_call_bodies import FUNCTION, Body
from .tool_call_tag import CLOSE, OPEN, ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

_OPENERS: dict[bytes, bool | None] = {OPEN: False, FUNCTION.encode(): True, CLOSE: None}


class QwenXmlParser(ToolCallTagParser):
    """Streaming parser for Qwen3-Coder XML bodies only (`--format qwen3-coder`)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.XML})
    OPENERS: ClassVar[dict[bytes, bool | None]] = _OPENERS


class QwenParser(ToolCallTagParser):
    """What `auto` reads for a Qwen model: Hermes JSON (Qwen2.5, Qwen3) and XML (Qwen3-Coder)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.JSON, Body.XML})
    OPENERS: ClassVar[dict[bytes, bool | None]] = _OPENERS
