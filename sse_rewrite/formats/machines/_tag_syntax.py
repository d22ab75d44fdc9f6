"""TagSyntax: the declaration of one tag-around-a-body syntax (Hermes, Qwen3-Coder, GLM).

    <tool_call>BODY</tool_call>        BODY: {"name": …, "arguments": …}       (Hermes JSON)
                                             <function=NAME><parameter=K>V…  (Qwen3-Coder XML)
                                             NAME<arg_key>K</arg_key>…       (GLM)
    <function=NAME>…</function>        the XML body without its wrapper (Qwen3-Coder)

A syntax declares the bodies it reads inside `<tool_call>` (any other body means the tag
was prose) and whether a bare `<function=NAME>` opens a call. The machine is
`tool_call_tag.ToolCallTagParser`; a parser of the family is one `SYNTAX` line (`hermes.py`,
`qwen_xml.py`, `glm.py`), read by `TagSyntaxParser`.
"""

from __future__ import annotations

from ...stream.events import Notice, Piece
from ._scanner import NON_SPACE, MarkerTable
from ._tag_calls import CLOSE, FUNCTION_CLOSE, OPEN, State
from .tool_call_bodies import FUNCTION, Body, is_name
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final


class TagSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    __slots__ = ("bare_function", "bodies", "name")

    def __init__(self, name: str, bodies: frozenset[Body], *, bare_function: bool = False) -> None:
        self.name = name
        self.bodies = bodies  # what `<tool_call>` may hold
        self.bare_function = bare_function  # a `<function=NAME>` without the wrapper opens a call


_WRAPPED: Final[MarkerTable[bool | bytes]] = MarkerTable({OPEN: False, CLOSE: CLOSE})
_WRAPPED_OR_BARE: Final[MarkerTable[bool | bytes]] = MarkerTable(
    {OPEN: False, FUNCTION.encode(): True, CLOSE: CLOSE, FUNCTION_CLOSE: FUNCTION_CLOSE}
)
_FUNCTION: Final = FUNCTION.encode()
_LOOKAHEAD: Final = 300  # bytes within which a bare function's name must end in `>`


class TagSyntaxParser(ToolCallTagParser):
    """`ToolCallTagParser` reading the `SYNTAX` a subclass declares."""

    SYNTAX: ClassVar[TagSyntax]
    PROSE = True  # (Hermes, Qwen3-Coder, GLM: prose can hold a `<tool_call>` tag)

    def __init_subclass__(cls) -> None:
        if "SYNTAX" in cls.__dict__:
            cls.BODIES = cls.SYNTAX.bodies
            cls.OPENERS = _WRAPPED_OR_BARE if cls.SYNTAX.bare_function else _WRAPPED
        super().__init_subclass__()

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
