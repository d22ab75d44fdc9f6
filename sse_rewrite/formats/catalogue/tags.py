"""The other tag-around-a-body syntaxes (FORMATS-2.md §B, §E), each a `TagSyntax` declaration.

    LongCat      <longcat_tool_call>{json}</longcat_tool_call>, or NAME<longcat_arg_key>K…
    InternLM     <|action_start|><|plugin|>\\n{"name": …, "parameters": {…}}<|action_end|>
    IQuest Q1    <iquest_tool_call>NAME\\n<arg_key>K</arg_key><arg_value>V</arg_value>…
    Hy3          <tool_calls>\\n<tool_call>NAME<tool_sep>\\n<arg_key>K</arg_key>…</tool_call>\\n</tool_calls>
    Hy4          Hy3 without <tool_sep>, every tag suffixed (`<tool_call:6124c78e>`)
    K2 Horizon   <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>
                 [<ifm|arg_type>T</ifm|arg_type>]<ifm|arg_value>V</ifm|arg_value>…

The machine is `tool_call_tag.ToolCallTagParser`; the syntaxes that only rename Hermes,
GLM or Qwen3-Coder (Granite 4, ERNIE 4.5, Ling 3, Laguna, Step-3.5, ...) are rows of
`routing.FAMILIES`, not declarations. InternLM's tokens are special: read in every stream.
"""

from __future__ import annotations

from ..machines._tag_spelling import TagSpelling
from ..machines._tag_syntax import TagSyntax, TagSyntaxParser
from ..machines.tool_call_bodies import Body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_JSON: Final = frozenset({Body.JSON})
_GLM: Final = frozenset({Body.GLM})


def _spelled(prefix: str, suffix: str = "", sep: str = "", **more: str) -> TagSpelling:
    """Every tag spelled `<{prefix}WORD{suffix}>` (LongCat's `longcat_`, K2 Horizon's `ifm|`,
    Hunyuan's checkpoint suffixes): `tool_call`, `arg_key`, `arg_value`, and `more`'s (`block`, `kind`)."""
    words = {"call": "tool_call", "key": "arg_key", "value": "arg_value", **more}
    tag = {role: (f"<{prefix}{word}{suffix}>", f"</{prefix}{word}{suffix}>") for role, word in words.items()}
    opens, close = tag.pop("call")
    return TagSpelling((opens,), close, sep=sep, **tag)


LONGCAT: Final = TagSyntax("longcat", _JSON | _GLM, tags=_spelled("longcat_"))
INTERNLM: Final = TagSyntax("internlm", _JSON, tags=TagSpelling(
    ("<|action_start|><|plugin|>", "<|action_start|> <|plugin|>"), "<|action_end|>"))
IQUEST: Final = TagSyntax("iquest", _GLM, tags=TagSpelling(("<iquest_tool_call>",), "</iquest_tool_call>"))
HY3: Final = TagSyntax("hy3", _GLM, tags=_spelled("", "", "<tool_sep>", block="tool_calls"))
HY3_OPENSOURCE: Final = TagSyntax(
    "hy3", _GLM, tags=_spelled("", ":opensource", "<tool_sep:opensource>", block="tool_calls"))
HY4: Final = TagSyntax("hy4", _GLM, tags=_spelled("", ":6124c78e", block="tool_calls"))
K2_HORIZON: Final = TagSyntax("k2-horizon", _GLM, tags=_spelled("ifm|", block="tool_calls", kind="arg_type"))


class LongCatParser(TagSyntaxParser, SYNTAX=LONGCAT):
    """LongCat Flash's JSON and LongCat 2601 / Lite's key/value bodies (`--format longcat`)."""


class InternLmParser(TagSyntaxParser, SYNTAX=INTERNLM):
    """InternLM 2.5 / Intern-S1 plugin calls (`--format internlm`)."""


class IQuestParser(TagSyntaxParser, SYNTAX=IQUEST):
    """IQuest Q1 key/value calls (`--format iquest`)."""


class Hy3Parser(TagSyntaxParser, SYNTAX=HY3):
    """Hy3 key/value calls in their `<tool_calls>` block (`--format hy3`)."""


class Hy3OpenSourceParser(TagSyntaxParser, SYNTAX=HY3_OPENSOURCE):
    """Hy3 with the open-source checkpoint's `:opensource` tag suffix."""


class Hy4Parser(TagSyntaxParser, SYNTAX=HY4):
    """Hy4 key/value calls, each tag suffixed (`--format hy4`)."""


class K2HorizonParser(TagSyntaxParser, SYNTAX=K2_HORIZON):
    """K2 Horizon's `<ifm|…>` key/value calls, optionally typed (`--format k2-horizon`)."""
