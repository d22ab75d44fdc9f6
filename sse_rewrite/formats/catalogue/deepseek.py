"""DeepSeek V3 / R1 / V3.1 tool-call tokens (full-width bars U+FF5C, `▁` U+2581).

    V3, R1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
            ```json
            {"city": "Tokyo"}
            ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
    V3.1:   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{"x": 1}<｜tool▁call▁end｜>...

`DEEPSEEK` declares the syntax (`_section_syntax.SectionSyntax`): Kimi's grammar
(`SectionParser`) with `tool▁sep` as the argument marker. The V3 header is the call type
`function`; the name then leads the argument text, and the JSON sits in a Markdown fence,
so such a header does not name its call. DeepSeek gives no call id.
"""

from __future__ import annotations

from ..machines._scanner import MarkerTable
from ..machines._section_syntax import SectionSyntax, Token
from ..machines._sections import SectionParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    "<｜tool▁calls▁begin｜>".encode(): Token.SECTION_BEGIN,
    "<｜tool▁calls▁end｜>".encode(): Token.SECTION_END,
    "<｜tool▁call▁begin｜>".encode(): Token.CALL_BEGIN,
    "<｜tool▁sep｜>".encode(): Token.ARGUMENT_BEGIN,
    "<｜tool▁call▁end｜>".encode(): Token.CALL_END,
})
"""DeepSeek's special tokens (UTF-8), mapped to their roles."""

_V3_CALL_TYPE: Final = "function"
_FENCE: Final = "```"


def deepseek_call_parts(header: str, arguments: str, tools: object = None) -> tuple[str | None, str, str]:
    """A DeepSeek call: V3 (`function` header, name + fenced JSON) or V3.1 (name header)."""
    name, text = header, arguments.strip()
    if header == _V3_CALL_TYPE and text and not text.startswith(("{", "[")):
        name, _, text = text.partition("\n")
        name, text = name.strip(), text.strip()
        if text.startswith(_FENCE):  # ```json ... ```: drop the fence line and the closing fence
            text = text.partition("\n")[2].removesuffix(_FENCE).strip()
    return None, name, text or "{}"


def names_the_call(header: str) -> bool:
    """A V3 call's name leads its fenced argument text: such a call comes out whole."""
    return header != _V3_CALL_TYPE


DEEPSEEK: Final = SectionSyntax("deepseek", MARKERS, deepseek_call_parts, names_the_call)
"""DeepSeek V3 / R1 / V3.1."""


class DeepSeekParser(SectionParser, SYNTAXES=(DEEPSEEK,)):
    """Streaming parser for DeepSeek tool-call tokens (`--format deepseek`)."""
