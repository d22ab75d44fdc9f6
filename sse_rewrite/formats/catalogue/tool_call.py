"""`<tool_call>` around one body: Hermes JSON, Qwen3-Coder XML, GLM key/value tags.

Hermes / Qwen2.5 / NousResearch: a JSON object inside `<tool_call>` tags.

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Dallas"}}
    </tool_call>

Qwen3-Coder: `<function=…>` XML, inside `<tool_call>` tags or bare.

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Dallas
    </parameter>
    </function>
    </tool_call>

GLM-4.5 / 4.6: a name and key/value tag pairs inside `<tool_call>` tags.

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Dallas</arg_value>
    </tool_call>

Qwen3-Coder is seen to drop the `<tool_call>` wrapper, so a bare `<function=NAME>` is
an opener too (a stray `</tool_call>` after it is dropped with it). `HERMES`, `QWEN3_CODER`
and `GLM` declare the syntaxes (`_tag_syntax.TagSyntax`), `QWEN` what a Qwen model id reads
(Hermes JSON too); the tag machine is `ToolCallTagParser`, and the bodies are read by
`hermes_call`, `qwen_xml_call` and `glm_call`.
"""

from __future__ import annotations

from ..machines._tag_syntax import TagSyntax, TagSyntaxParser
from ..machines.tool_call_bodies import Body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

HERMES: Final = TagSyntax("hermes", frozenset({Body.JSON}))
GLM: Final = TagSyntax("glm", frozenset({Body.GLM}), ends=(b"<|role_end|>",))
"""(Ling 3.0, on GLM's tags, ends its turn with `<|role_end|>`, which servers may leave in the text.)"""
QWEN3_CODER: Final = TagSyntax("qwen3-coder", frozenset({Body.XML}), bare_function=True)
QWEN: Final = TagSyntax("qwen", frozenset({Body.JSON, Body.XML}), bare_function=True)
QWEN_OR_GLM: Final = TagSyntax("qwen-or-glm", frozenset({Body.JSON, Body.XML, Body.GLM}), bare_function=True)
MIMO_XML: Final = TagSyntax("mimo", frozenset({Body.XML}), bare_function=True, verbatim=True)
"""Qwen3-Coder's XML as MiMo V2 writes it: its values keep their whitespace (vLLM's `mimo`)."""


class HermesParser(TagSyntaxParser, SYNTAX=HERMES):
    """Streaming parser for Hermes JSON bodies only (`--format hermes`)."""


class GlmParser(TagSyntaxParser, SYNTAX=GLM):
    """Streaming parser for GLM bodies only (`--format glm`)."""


class QwenXmlParser(TagSyntaxParser, SYNTAX=QWEN3_CODER):
    """Streaming parser for Qwen3-Coder XML bodies only (`--format qwen3-coder`)."""


class QwenParser(QwenXmlParser, SYNTAX=QWEN):
    """What `auto` reads for a Qwen model: Hermes JSON (Qwen2.5, Qwen3) and XML (Qwen3-Coder)."""


class MiMoXmlParser(QwenXmlParser, SYNTAX=MIMO_XML):
    """What MiMo V2 ids read: Qwen3-Coder XML, each value as written (`MIMO_XML`)."""


class QwenOrGlmParser(QwenXmlParser, SYNTAX=QWEN_OR_GLM):
    """`<tool_call>` with a Hermes, Qwen3-Coder or GLM body: what the request's tools let any id read."""
