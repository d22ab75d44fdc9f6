"""Qwen3-Coder: `<function=…>` XML, inside `<tool_call>` tags or bare.

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Dallas
    </parameter>
    </function>
    </tool_call>

Qwen3-Coder is seen to drop the `<tool_call>` wrapper, so a bare `<function=NAME>` is
an opener too (a stray `</tool_call>` after it is dropped with it). `QWEN3_CODER` declares
the syntax (`_tag_syntax.TagSyntax`), `QWEN` what a Qwen model id reads (Hermes JSON too);
the tag machine is `ToolCallTagParser`, and the body is read by `qwen_xml_call`.
"""

from __future__ import annotations

from ..machines._tag_syntax import TagSyntax, TagSyntaxParser
from ..machines.tool_call_bodies import Body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

QWEN3_CODER: Final = TagSyntax("qwen3-coder", frozenset({Body.XML}), bare_function=True)
QWEN: Final = TagSyntax("qwen", frozenset({Body.JSON, Body.XML}), bare_function=True)
QWEN_OR_GLM: Final = TagSyntax("qwen-or-glm", frozenset({Body.JSON, Body.XML, Body.GLM}), bare_function=True)
MIMO_XML: Final = TagSyntax("mimo", frozenset({Body.XML}), bare_function=True, verbatim=True)
"""Qwen3-Coder's XML as MiMo V2 writes it: its values keep their whitespace (vLLM's `mimo`)."""


class QwenXmlParser(TagSyntaxParser, SYNTAX=QWEN3_CODER):
    """Streaming parser for Qwen3-Coder XML bodies only (`--format qwen3-coder`)."""


class QwenParser(QwenXmlParser, SYNTAX=QWEN):
    """What `auto` reads for a Qwen model: Hermes JSON (Qwen2.5, Qwen3) and XML (Qwen3-Coder)."""


class MiMoXmlParser(QwenXmlParser, SYNTAX=MIMO_XML):
    """What MiMo V2 ids read: Qwen3-Coder XML, each value as written (`MIMO_XML`)."""


class QwenOrGlmParser(QwenXmlParser, SYNTAX=QWEN_OR_GLM):
    """`<tool_call>` with a Hermes, Qwen3-Coder or GLM body: what the request's tools let any id read."""
