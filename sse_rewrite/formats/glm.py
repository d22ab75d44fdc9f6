"""GLM-4.5 / 4.6: a name and key/value tag pairs inside `<tool_call>` tags.

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Dallas</arg_value>
    </tool_call>

The tag machine is `ToolCallTagParser`; the body is read by `glm_call`.
"""

from __future__ import annotations

from .tool_call_bodies import Body
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class GlmParser(ToolCallTagParser):
    """Streaming parser for GLM bodies only (`--format glm`)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.GLM})
