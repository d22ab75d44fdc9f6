"""Hermes / Qwen2.5 / NousResearch: a JSON object inside `<tool_call>` tags.

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Dallas"}}
    </tool_call>

The tag machine is `ToolCallTagParser`; the body is read by `hermes_call`.
"""

from __future__ import annotations

from .tool_call_bodies import Body
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class HermesParser(ToolCallTagParser):
    """Streaming parser for Hermes JSON bodies only (`--format hermes`)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.JSON})
