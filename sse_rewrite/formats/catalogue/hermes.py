"""Hermes / Qwen2.5 / NousResearch: a JSON object inside `<tool_call>` tags.

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Dallas"}}
    </tool_call>

`HERMES` declares the syntax (`_tag_syntax.TagSyntax`); the tag machine is
`ToolCallTagParser`, and the body is read by `hermes_call`.
"""

from __future__ import annotations

from ..machines._tag_syntax import TagSyntax, TagSyntaxParser
from ..machines.tool_call_bodies import Body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

HERMES: Final = TagSyntax("hermes", frozenset({Body.JSON}))


class HermesParser(TagSyntaxParser, SYNTAX=HERMES):
    """Streaming parser for Hermes JSON bodies only (`--format hermes`)."""
