"""InvokeParser: the streaming machine of the invoke/parameter XML family.

DSML, MiniMax M2 and M3, Kimi K3's XTML and the bare Anthropic-style `<invoke>` are declarations
on it (`_invoke_syntax.InvokeSyntax`); a subclass names the `SYNTAXES` it reads.

Theory of operation
-------------------
- TEXT: hand text back up to the first opener of any syntax: a block opener, an invoke
  outside a block (a distinctive spelling, or a plain `<invoke` where a model id picks it),
  or a block closer with nothing open (dropped with a notice); a markup tag (K3's `response`) is dropped;
  a closer of `orphan_words` (K3's `message`) is dropped where it adjoins syntax (`_orphans`), else text.
- THINK, HASH and FENCED: a syntax's reasoning, hash-call wrapper and fenced call (`_invoke_around`).
- BLOCK: after a block opener (its `>` may be missing) or a call, spacing, then an invoke
  or the block closer. Anything else after the opener means it was prose (released at
  once, scanning resumes after it, or after its token with `rescan_prose`); after a call it ends
  the block (notice).
- HEAD: after `<…invoke`, its ` name="…">` (or up to the syntax's `tag_end`). A header that cannot
  be one (300 bytes without its end) makes an invoke outside a block prose, and one inside a
  block malformed (text, notice).
- BODY: up to the invoke closer; the next invoke or the block closer ends it too. An invoke
  closer inside a parameter value (its closer not seen) ends it only if another tag of the block
  or the input's end follows; otherwise it is the value's data. The body is
  read whole (`read_invoke`) and the call goes out at once. An invoke outside a block must
  go on with markup (`<`, `]` or `{`) after its header, or it was prose.
At the end of input an invoke with no value left open is recovered (notice), a block opener
followed by spacing only dropped, anything else comes out as the raw text it was (with
`--stream-arguments` an announced call is completed instead: see `_invoke_stream`).
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece, Text
from . import declare
from ._invoke_around import InvokeAround
from ._invoke_heads import BYTE_SPACING
from ._invoke_stream import LOOKAHEAD, InvokeStreaming
from ._invoke_syntax import InvokeSyntax, read_invoke
from ._invoke_tags import Inside, Tag, openers
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, NEED_MORE, NON_SPACE, MarkerTable, Partial
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final


class State(MachineState):
    """Where the parser is (see the module docstring)."""

    TEXT = enum.auto()
    BLOCK = enum.auto()
    HEAD = enum.auto()
    BODY = enum.auto()
    THINK = enum.auto()
    HASH = enum.auto()
    FENCED = enum.auto()


_MARKUP_AFTER_HEADER: Final = frozenset(b"<]{")
_BYTE_SPACING: Final = re.compile(BYTE_SPACING)


class InvokeParser(InvokeStreaming, InvokeAround):
    """Streaming parser for the invoke/parameter syntaxes a subclass names in `SYNTAXES`."""

    TEXT, HEAD, BODY, BLOCK = State.TEXT, State.HEAD, State.BODY, State.BLOCK
    HASH_STATE, FENCED_STATE = State.HASH, State.FENCED
    THINK_STATE = State.THINK
    CAP_SUBJECT = "tool block"
    SYNTAXES: ClassVar[tuple[InvokeSyntax, ...]]
    """The declarations read (an earlier one's spelling wins a tie)."""
    HELD_FROM: ClassVar[dict[bytes, int] | None] = None
    """Where the end of a text is held as an opener's start (`MarkerTable.held_from`: word-led openers)."""
    OPENERS: ClassVar[MarkerTable[tuple[InvokeSyntax, Tag]]]
    _INSIDE: ClassVar[dict[InvokeSyntax, Inside]]
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF  # (every marker of the family holds `<`)

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        if "SYNTAXES" in cls.__dict__:
            cls.OPENERS = openers(cls.SYNTAXES, cls.HELD_FROM)
            cls._INSIDE = {syntax: Inside(syntax) for syntax in cls.SYNTAXES}
            cls.ORPHANS = frozenset((syntax, Tag.ORPHAN) for syntax in cls.SYNTAXES if syntax.orphan_words)
        super().__init_subclass__()

    def _setup(self) -> None:
        self._syntax = self.SYNTAXES[0]  # the open block's or invoke's syntax
        self._lead = self._INSIDE[self._syntax].lead
        self._in_block = False
        self._block_calls = 0  # calls of the open block so far
        self._opener_end = 0  # BLOCK: where the block opener's marker ends (prose resumes there)
        self._angle = False  # BLOCK: the opener's `>` may still follow
        self._invoke_end = 0  # where the `<…invoke` marker ends (prose resumes there)
        self._head_at = 0  # HEAD: where the header begins; BODY: where the body begins
        self._name = ""
        self._hash_at = 0  # HASH, FENCED: where what follows the opener begins
        self._fence_at = 0  # FENCED: where the fenced object begins (0: the head is not read yet)
        self._reset_stream()

    def _compact(self) -> None:
        """Compact in every state (invokes back to back, each read ending inside the next one's
        header, would never return to TEXT); the machine's offsets move with the buffer."""
        shift = self._scan.compact()
        if shift:  # (an offset behind the front is stale: set again before it is read)
            self._opener_end -= shift
            self._invoke_end -= shift
            self._head_at -= shift
            self._hash_at -= shift
            self._fence_at = self._fence_at - shift if self._fence_at else 0  # (0: the head is not read yet)
            self._streamed_to -= shift

    def _open(self, value: tuple[InvokeSyntax, Tag], pos: int, length: int, out: list[Piece]) -> None:
        syntax, tag = value
        scan = self._scan
        self._syntax, self._lead = syntax, self._INSIDE[syntax].lead
        if tag is Tag.END:
            out.append(Markup(scan.take(pos + length)))
            out.append(Notice("orphan-marker", f"dropped {scan.text(pos, pos + length)} with nothing open"))
        elif tag is Tag.MARKUP:
            out.append(Markup(scan.take(pos + length)))
        elif tag is Tag.THINK:
            out.append(Markup(scan.take(pos + length)))
            self._state = State.THINK
        elif tag is Tag.HASH or tag is Tag.FENCED:
            self._hash_at = scan.cursor = pos + length
            self._fence_at = 0
            self._state = State.HASH if tag is Tag.HASH else State.FENCED
        elif tag is Tag.BLOCK:
            self._in_block, self._block_calls, self._angle = True, 0, syntax.angle_optional
            self._opener_end = scan.cursor = pos + length
            self._state = State.BLOCK
        else:
            self._in_block = False
            self._begin_invoke(pos, length)

    def _begin_invoke(self, pos: int, length: int) -> None:
        scan = self._scan
        scan.mark = pos
        self._invoke_end = self._head_at = scan.cursor = pos + length
        self._reset_stream()
        self._state = State.HEAD

    def _step_block(self, out: list[Piece]) -> bool:
        scan = self._scan
        if self._angle:
            if scan.cursor == scan.end:
                return False
            self._angle = False
            scan.cursor += scan.view[scan.cursor] == 0x3E  # '>'
        after = scan.after_spacing(self._INSIDE[self._syntax].between)
        if after is None:
            return False
        pos, tag = after
        if tag is None:
            if not self._block_calls and self._syntax.json_blocks and scan.view[pos] == 0x7B:  # '{'
                self._hash_at = scan.cursor = pos  # (one JSON call up to the block's closer: dots3)
                self._state = State.HASH
                return True
            if not self._block_calls:  # the opener was prose (with `rescan_prose`, only its token)
                resume, blocks = self._opener_end, self._syntax.blocks
                if self._syntax.rescan_prose:
                    tokens = (s.open.encode() for s in blocks)
                    resume = scan.start + next(len(t) for t in tokens if scan.view.startswith(t, scan.start))
                return self._release_prose(out, resume)
            out.append(Notice("missing-close", "tool block not closed before text: ended there"))
            self._emit_text(out, pos)
            self._state = State.TEXT
        elif tag[0] is Tag.END:  # (a block of no call was words, if its syntax's blocks may be prose)
            closer, words = scan.take(pos + tag[1]), self._syntax.prose_blocks and not self._block_calls
            out.append(Text(closer) if words else Markup(closer))
            self._state = State.TEXT
        else:
            self._begin_invoke(pos, tag[1])
        return True

    def _step_head(self, out: list[Piece]) -> bool:
        scan = self._scan
        start = self._head_at
        tag_end = self._syntax.end
        angle = scan.find(tag_end, start, min(scan.end, start + LOOKAHEAD))
        if angle == -1:
            first = NON_SPACE.search(scan.view, start, scan.end)
            lead = _BYTE_SPACING.match(scan.view, start, scan.end).end()  # type: ignore[union-attr]  # (matches)
            glued = self._syntax.spaced_tags or b"name".startswith(scan.view[lead : lead + 4])
            # (the opener took the spacing; `<functionname=`, `<functionĠname=`)
            glued = glued or (self._syntax.equals_names and scan.view[start] == 0x3D)  # ('=': `<function=`)
            if scan.end - start < LOOKAHEAD and (first is None or first.start() > start or glued):
                return False  # (the header begins with spacing, or `name` glued: wait for its `>`)
            name = None
        else:
            angle += len(tag_end) - 1  # (the tag end's last byte)
            name = self._syntax.header_name(bytes(scan.view[start : angle + 1]))
        if name is None:
            if not self._in_block:
                return self._release_prose(out, start)
            return self._release(out, start, "malformed-call", "invoke without a name and '>'")
        self._name, self._head_at = name, angle + 1
        scan.cursor = angle + 1
        self._state = State.BODY
        return True

    def _step_body(self, out: list[Piece]) -> bool:
        scan = self._scan
        if not self._in_body:
            at = _BYTE_SPACING.match(scan.view, self._head_at, scan.end).end()  # type: ignore[union-attr]
            if at == scan.end:
                return False
            first = scan.view[at]
            if not self._in_block and first not in _MARKUP_AFTER_HEADER:
                return self._release_prose(out, self._invoke_end)
            self._body_settled(out, self._head_at, first)
        while (marker := self._next_marker()) is not None and marker is not NEED_MORE:
            tag, pos, end = marker
            if tag is Tag.PARAMETER:
                scan.cursor = end
                self._parameter_closed(out, end)
                continue
            if tag is Tag.INVOKE and self._syntax.spaced_tags and self._INSIDE[self._syntax].value_open(
                scan.view, self._head_at, pos
            ):  # (a value's word, `call `: a value ends at its closer)
                scan.cursor = end
                continue
            if tag is Tag.CLOSE and self._INSIDE[self._syntax].value_open(scan.view, self._head_at, pos):
                # A closer inside a value ends the invoke only if another tag of the block
                # follows it (or the input ends: `_finish`); else it is the value's data
                ends = scan.followed_by(end, self._INSIDE[self._syntax].between)
                if ends is None:  # (wait for what follows it)
                    scan.cursor = pos
                    return False
                if not ends:
                    scan.cursor = end
                    continue
            self._end_invoke(out, pos, tag, end)
            return True
        return False

    def _next_marker(self) -> tuple[Tag, int, int] | Partial | None:
        """From the cursor, the next marker ending the body or a value: `(tag, position, end)`;
        NEED_MORE at one the input cuts (the cursor stays on it); None: none (cursor at the end)."""
        scan = self._scan
        inside = self._INSIDE[self._syntax]
        table = inside.body if self._announced is None else inside.streamed_body
        if (found := scan.find_marker(table)) is None:
            return None if scan.cursor == scan.end else NEED_MORE
        tag, pos, length = found
        return tag, pos, pos + length

    def _end_invoke(self, out: list[Piece], pos: int, tag: Tag, end: int) -> None:
        """The invoke's body ends at `pos` with `tag` (its closer, the next invoke or the block closer)."""
        parameters = tool_parameters(self._tools, self._name)
        arguments = read_invoke(self._syntax, self._scan.text(self._head_at, pos), parameters=parameters)
        call_end = end if tag is Tag.CLOSE else pos
        if tag is not Tag.CLOSE:
            out.append(Notice("implicit-close", f"invoke {self._name} closed by the next tag"))
        if arguments is None:
            self._release(out, call_end, "malformed-call", f"invoke {self._name} has no valid parameters")
        else:
            self._call(out, None, self._name, arguments, self._scan.take(call_end))
            self._block_calls += type(out[-1]) is not Text  # (a `PROSE` call naming no declared tool: text)
        self._state = State.BLOCK if self._in_block else State.TEXT
        if tag is Tag.INVOKE:
            self._begin_invoke(pos, end - pos)
        elif tag is Tag.END:
            out.append(Markup(self._scan.take(end)))
            self._state = State.TEXT

    def _release_prose(self, out: list[Piece], resume: int) -> bool:
        """What looked like an opener was prose: its text comes out, scanning resumes at `resume`."""
        self._emit_text(out, resume)
        self._scan.cursor = resume
        self._state = State.TEXT
        return True

    def _release(self, out: list[Piece], end: int, code: str, message: str) -> bool:
        """Hand back the raw text up to `end`, with a notice (an announced call is completed as
        streamed); the block, if any, goes on."""
        goes_on = self._in_block and self._state is State.BODY
        self._release_raw(out, end, code, message)
        self._state = State.BLOCK if goes_on else State.TEXT
        return True

    def _finish(self, out: list[Piece]) -> None:
        """A body with no value left open is recovered, a bare block opener dropped, else text."""
        scan, state = self._scan, self._state
        if state is State.TEXT:
            self._emit_text(out, scan.end)
        elif state is State.THINK:
            while self._step_think(out, ending=True):  # (an end-of-message closer waiting: it ends it)
                pass
            self._emit_reasoning(out, scan.end)
        elif self._wrapped_call_ends(out):
            self._finish(out)
        elif state is State.BLOCK and self._syntax.prose_blocks and not self._block_calls:
            self._emit_text(out, scan.end)  # (an opener of words, nothing after it)
        elif state is State.BLOCK and NON_SPACE.search(scan.view, scan.cursor, scan.end) is None:
            out.append(Markup(scan.take(scan.end)))
            if not self._block_calls:
                out.append(Notice("dangling-opener", "tool block opened but nothing followed: dropped"))
        elif state is State.BODY and isinstance(held := self._next_marker(), tuple) and held[0] is Tag.CLOSE:
            self._end_invoke(out, held[1], Tag.CLOSE, held[2])  # (a closer followed by spacing only)
            self._finish(out)
        elif state is State.BODY and self._in_body and (
            arguments := read_invoke(self._syntax, scan.text(self._head_at, scan.end), False,
                                     tool_parameters(self._tools, self._name))
        ) is not None:
            out.append(Notice("recovered-call", f"stream ended inside invoke {self._name}: call recovered"))
            self._call(out, None, self._name, arguments, scan.take(scan.end))
        else:
            self._release(out, scan.end, "truncated-call", "stream ended inside a tool call")

    _STEPS: ClassVar = {State.TEXT: ScanningParser._step_text, State.BLOCK: _step_block,
                        State.HEAD: _step_head, State.BODY: _step_body,
                        State.THINK: InvokeAround._step_think, State.HASH: InvokeAround._step_hash,
                        State.FENCED: InvokeAround._step_fenced}  # fmt: skip

