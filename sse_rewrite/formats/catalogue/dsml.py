"""DeepSeek DSML (V3.2, V4, V4.1): invoke/parameter tags behind the `｜DSML｜` marker.

    <｜DSML｜tool_calls>
    <｜DSML｜invoke name="get_weather">
    <｜DSML｜parameter name="city" string="true">杭州</｜DSML｜parameter>
    <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
    </｜DSML｜invoke>
    </｜DSML｜tool_calls>

The block is `function_calls` (V3.2), `tool_calls` (V4) or `calls` (V4.1, which also puts a
space after the marker). Leaks spell the marker with doubled bars, `‖`, or ASCII `| DSML |`;
the bars and the space combine freely (`<｜｜DSML｜｜ calls>`), so every combination is read
(`MARKS`), and tags of different spellings mix. `string="true"` values are raw
strings, `string="false"` JSON (the raw string if it is not); a lone `arguments` or `input`
parameter the tool does not declare, holding an object of its parameters, is unwrapped (V4).
A leaked `<｜DSML｜toolcall>NAME` followed by a fenced JSON object is a call too (`fenced_calls`).
Under DeepSeek ids the same grammar without the marker is read too (`<function_calls>`, a bare
`<invoke name=…>`).
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._invoke_syntax import PLAIN, InvokeSyntax, Spelling

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

BARS: Final = ("｜", "｜｜", "‖", "|", " | ")
"""The bars around `DSML`: as V3.2/V4 write them, and as leaks spell them."""
MARKS: Final = tuple(f"{bar}DSML{bar}{space}" for bar in BARS for space in ("", " "))
"""The marker in every spelling: any bars, with or without the space V4.1 puts after it."""
_MARKED: Final = tuple(Spelling(f"<{mark}", f"</{mark}") for mark in MARKS)

DSML: Final = InvokeSyntax("dsml", _MARKED, ("function_calls", "tool_calls", "calls"), (*_MARKED, PLAIN),
                           unwraps=True, fenced_words=("toolcall",))  # fmt: skip
"""Blocks and invokes opened by a marked tag (inner tags may lack the marker): read in every stream."""
DSML_ANY_MARKER: Final = DSML.but(blocks=(*_MARKED, PLAIN), bare_plain=True)
"""With and without the marker, and a bare `<invoke>`: DeepSeek ids and `--format dsml`."""


class DsmlParser(InvokeParser, SYNTAXES=(DSML_ANY_MARKER,)):
    """DSML in every spelling, with or without the marker (`--format dsml`)."""
