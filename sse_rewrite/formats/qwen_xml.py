"""Qwen3-Coder: `<function=…>` XML, inside `<tool_call>` tags or bare.

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Dallas
    </parameter>
    </function>
    </tool_call>

Qwen3-Coder is seen to drop the `<tool_call>` wrapper, so a bare `<function=NAME>` is
an opener too (a stray `</tool_call>` after it is dropped with it). The tag machine is
`ToolCallTagParser`; the body is read by `qwen_xml_call`.
"""

from __future__ import annotations

from ..events import Notice, Piece
from ._scanner import NON_SPACE, MarkerTable
from ._tag_calls import CLOSE, FUNCTION_CLOSE, OPEN, State
from .tool_call_bodies import FUNCTION, Body, is_name
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_OPENERS: Final[MarkerTable[bool | bytes]] = MarkerTable(
    {OPEN: False, FUNCTION.encode(): True, CLOSE: CLOSE, FUNCTION_CLOSE: FUNCTION_CLOSE}
)
_FUNCTION: Final = FUNCTION.encode()
_LOOKAHEAD: Final = 300  # bytes within which a bare function's name must end in `>`


class QwenXmlParser(ToolCallTagParser):
    """Streaming parser for Qwen3-Coder XML bodies only (`--format qwen3-coder`)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.XML})
    OPENERS: ClassVar[MarkerTable[bool | bytes]] = _OPENERS

    def _bare_name_ends(self, pos: int, out: list[Piece]) -> bool:
        """Whether a bare `<function=NAME>` at `pos` is complete and followed by markup.

        A name cut by spacing or `<` before its `>` is no call (text, notice); prose
        after the `>` is no call either (text). Otherwise wait for more input.
        """
        scan = self._scan
        name_end = scan.find(b">", pos, pos + _LOOKAHEAD)
        name = scan.text(pos + len(_FUNCTION), scan.end if name_end == -1 else name_end)
        if name_end == -1 and scan.end - pos < _LOOKAHEAD and (not name or is_name(name)):
            return False
        if name_end == -1 or not is_name(name):
            out.append(Notice("malformed-call", "<function= without a name and '>': kept as text"))
            self._release_prose(out)
            return False
        after = NON_SPACE.search(scan.view, name_end + 1)
        if after is not None and scan.view[after.start()] != 0x3C:  # '<'
            self._release_prose(out)
        return after is not None and self._state is not State.TEXT


class QwenParser(QwenXmlParser):
    """What `auto` reads for a Qwen model: Hermes JSON (Qwen2.5, Qwen3) and XML (Qwen3-Coder)."""

    BODIES: ClassVar[frozenset[Body]] = frozenset({Body.JSON, Body.XML})
