"""More invoke/parameter syntaxes: GigaChat 3.5 GCML, dots3.note, MiMo V2.5, MiniCPM 5, Muse ATEM.

    GCML:     <｜GCML｜tool_calls>
              <｜GCML｜invoke name="NAME">
              <｜GCML｜parameter name="P" string="true">V</｜GCML｜parameter>
              </｜GCML｜invoke>
              </｜GCML｜tool_calls>
    dots3:    <dots_function_call>
              <invoke name="NAME">        (or name=NAME)
              <parameter name="P">V</parameter>
              </invoke>
              </dots_function_call>
    MiMo:     <tml:function_calls> … </tml:function_calls>   (plain invokes, as dots3's)
    MiniCPM5: <function name="NAME"><param name="K">V</param></function>   (no block; values may be CDATA)
    ATEM:     <atem:function_calls><atem:invoke name="NAME"><atem:parameter name="P">V</atem:parameter>…

GCML is DSML with `｜GCML｜`: `string="true"` values raw and unstripped, `string="false"` JSON;
its marker is read in every stream (`invoke_markers`). The others are word-like tags prose may
hold: each is read under its model ids only (`routing.FAMILIES`). dots3's and MiniCPM 5's
values are stripped and typed by the tool's schema; dots3 writes attribute values bare too.
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._invoke_syntax import PLAIN, InvokeSyntax, Spelling
from .dsml import DSML
from .minimax import MINIMAX_M2, MINIMAX_M3

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_GCML: Final = Spelling("<｜GCML｜", "</｜GCML｜")
GCML: Final = InvokeSyntax("gcml", (_GCML,), ("tool_calls",), (_GCML, PLAIN))
"""GigaChat 3.5's blocks (inner tags may lack the marker): read in every stream."""
DOTS3: Final = InvokeSyntax("dots3", (PLAIN,), ("dots_function_call",), (PLAIN,), strip_values=True,
                            json_blocks=True)  # fmt: skip
"""dots3.note's `<dots_function_call>` blocks (invokes, or one JSON call object): dots3 ids."""
_TML: Final = Spelling("<tml:", "</tml:", distinctive=False)
MIMO_TML: Final = InvokeSyntax("mimo-tml", (_TML,), ("function_calls",), (PLAIN,), strip_values=True)
"""MiMo V2.5's `<tml:function_calls>` blocks: MiMo V2.5 ids."""
MINICPM5: Final = InvokeSyntax("minicpm5", (), (), (PLAIN,), strip_values=True, bare_plain=True, unwraps=True,
                               words=("function", "param"), byte_level=True)  # fmt: skip
"""MiniCPM 5's `<function name=…>` calls, no block around them: MiniCPM 5 ids; spaces and newlines
may be spelled `Ġ`, `Ċ` (byte-level BPE left undecoded)."""
_ATEM: Final = Spelling("<atem:", "</atem:", distinctive=False)
ATEM: Final = InvokeSyntax("atem", (_ATEM,), ("function_calls",), (_ATEM,))
"""Muse's ATEM blocks: Muse ids."""
_EVERYWHERE: Final = (DSML, GCML, MINIMAX_M2, MINIMAX_M3)


class Dots3InvokeParser(InvokeParser, SYNTAXES=(DOTS3, *_EVERYWHERE)):
    """For dots3 ids: its blocks, and the invoke markers read in every stream."""


class MiMoInvokeParser(InvokeParser, SYNTAXES=(MIMO_TML, *_EVERYWHERE)):
    """For MiMo V2.5 ids: its `<tml:function_calls>` blocks, and the invoke markers read in every stream."""


class MiniCpm5InvokeParser(InvokeParser, SYNTAXES=(MINICPM5, *_EVERYWHERE)):
    """For MiniCPM 5 ids: its `<function name=…>` calls, and the invoke markers read in every stream."""
