"""TagSyntax: the declaration of one tag-around-a-body syntax (Hermes, Qwen3-Coder, GLM, ...).

    <tool_call>BODY</tool_call>        BODY: {"name": …, "arguments": …}       (Hermes JSON)
                                             <function=NAME><parameter=K>V…  (Qwen3-Coder XML)
                                             NAME<arg_key>K</arg_key>…       (GLM)
    <function=NAME>…</function>        the XML body without its wrapper (Qwen3-Coder)

A syntax declares the bodies it reads inside its tags (any other body means the tag was
prose), its spelling (`_tag_spelling.TagSpelling`: the tags, GLM's key and value tags, a
name separator, a block around the calls, the JSON arguments key) and whether a bare
`<function=NAME>` opens a call. The machine is `tool_call_tag.ToolCallTagParser`; a parser
of the family is one `SYNTAX` line (`catalogue/tool_call.py`, `tags.py`), read by
`TagSyntaxParser`.
"""

from __future__ import annotations

from ...stream.events import Notice, Piece
from . import declare
from ._scanner import NON_SPACE, MarkerTable
from ._tag_calls import State
from ._tag_spelling import FUNCTION_END, FUNCTION_OPEN, TOOL_CALL, TagSpelling
from .tool_call_bodies import Body, is_name
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final


class TagSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    __slots__ = ("bare_function", "bodies", "ends", "name", "tags", "verbatim")

    def __init__(
        self, name: str, bodies: frozenset[Body], *, bare_function: bool = False,
        tags: TagSpelling = TOOL_CALL, verbatim: bool = False, ends: tuple[bytes, ...] = (),
    ) -> None:
        self.name = name
        self.ends = ends  # end-of-turn tokens: with nothing open, orphan closers (Ling's `<|role_end|>`)
        self.bodies = bodies  # what the tags may hold
        self.bare_function = bare_function  # a `<function=NAME>` without the wrapper opens a call
        self.tags = tags
        self.verbatim = verbatim  # XML values keep the newlines next to their tags (MiMo)

    def openers(self) -> MarkerTable[bool | bytes | None]:
        """What opens a call (False), a bare one (True), a block (None); closers stand for themselves."""
        tags = self.tags
        closers = [tags.close, *([tags.block_end] if tags.block else []), *self.ends]
        block = {tags.block: None} if tags.block else {}
        bare: dict[bytes, bool | bytes] = {FUNCTION_OPEN: True, FUNCTION_END: FUNCTION_END}
        if not self.bare_function:
            bare = {}
        return MarkerTable({**dict.fromkeys(tags.opens, False), **block, **bare, **{c: c for c in closers}})

    def closers(self) -> frozenset[bytes]:
        """Closers that mean something with nothing open (orphans: `_orphans.py`)."""
        return frozenset({self.tags.close, FUNCTION_END, *([self.tags.block_end] if self.tags.block else []),
                          *self.ends})  # fmt: skip


_LOOKAHEAD: Final = 300  # bytes within which a bare function's name must end in `>`


class TagSyntaxParser(ToolCallTagParser):
    """`ToolCallTagParser` reading the `SYNTAX` a subclass declares."""

    SYNTAX: ClassVar[TagSyntax]
    PROSE = True  # (Hermes, Qwen3-Coder, GLM: prose can hold a `<tool_call>` tag)

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        if "SYNTAX" in cls.__dict__:
            cls.BODIES, cls.TAGS, cls.VERBATIM = cls.SYNTAX.bodies, cls.SYNTAX.tags, cls.SYNTAX.verbatim
            cls.OPENERS, cls.ORPHANS = cls.SYNTAX.openers(), cls.SYNTAX.closers()
        super().__init_subclass__()

    def _bare_name_ends(self, pos: int, out: list[Piece]) -> bool:
        """Whether a bare `<function=NAME>` at `pos` is complete and followed by markup.

        A name cut by spacing or `<` before its `>` is no call (text, notice); prose
        after the `>` is no call either (text). Otherwise wait for more input.
        """
        scan = self._scan
        name_end = scan.find(b">", pos, pos + _LOOKAHEAD)
        name = scan.text(pos + len(FUNCTION_OPEN), scan.end if name_end == -1 else name_end)
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
