"""GLM-4.5 / 4.6: a name and key/value tag pairs inside `<tool_call>` tags.

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Dallas</arg_value>
    </tool_call>

`GLM` declares the syntax (`_tag_syntax.TagSyntax`); the tag machine is
`ToolCallTagParser`, and the body is read by `glm_call`.
"""

from __future__ import annotations

from ..machines._tag_syntax import TagSyntax, TagSyntaxParser
from ..machines.tool_call_bodies import Body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

GLM: Final = TagSyntax("glm", frozenset({Body.GLM}), ends=(b"<|role_end|>",))
"""(Ling 3.0, on GLM's tags, ends its turn with `<|role_end|>`, which servers may leave in the text.)"""


class GlmParser(TagSyntaxParser, SYNTAX=GLM):
    """Streaming parser for GLM bodies only (`--format glm`)."""
