"""MiniMax M2 blocks whose tags lost their angle brackets (MiniMax ids and `--format minimax`).

    minimax:tool_call>
    invoke name="bash">
    parameter name="command">ls -la/parameter>
    /invoke>
    /minimax:tool_call>

M2.x sometimes writes every tag without its `<` (closers `/invoke>`, or without `</`:
`invoke>`). A bare `invoke` is then a prefix of its own closer, which the invoke machine's
marker tables cannot hold, so this small machine reads such a block from its opener,
`minimax:tool_call>` (a word prose does not write), and gives each invoke the angles back
for `_invoke_syntax.read_invoke`: values are read and typed as in M2's own tags. Each call
goes out at its invoke's closer (docs/behaviour.md, "Invoke/parameter XML").
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece, Text
from ..catalogue.lists import MiniMaxM1Parser
from ..catalogue.minimax import MINIMAX_M2, MiniMaxParser
from ._compose import ComposedParser
from ._invoke_syntax import invoke_name, read_invoke
from ._machine import MachineState, ScanningParser
from ._scanner import NON_SPACE, MarkerTable
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

OPENER: Final = b"minimax:tool_call>"
HELD_FROM: Final = {OPENER: 4}
"""A text ending in a start of the opener glued to a word is held from `mini` on (`from`, `item`
go on at once); after a non-word byte from `m` on."""
SNIFF: Final = (b"minimax:", b'm"', b'mi"', b'min"', b'mini"', b'minima"', b'minimax"')
"""An event is read for the opener when it holds its first word whole, or its text ends in a start of
it (`m"`, its JSON string's end, covers `minim`): the opener cut across events, one character per
event, reads as it does whole."""
_HEADER: Final = re.compile(
    rb"""<?invoke[ \t\r\n]+name[ \t]*=[ \t]*(?:"[^"<>\n]*"|'[^'<>\n]*')[ \t\r\n]*>"""
)
_HEADER_START: Final = re.compile(
    rb"<?invoke[ \t\r\n]*(?:n(?:a(?:m(?:e[ \t]*(?:=[^>\n]*)?)?)?)?)?|<?i(?:n(?:v(?:o(?:k)?)?)?)?|<"
)
"""What an invoke header not yet complete may look like at the end of the input."""
_BLOCK_END: Final = re.compile(rb"(?:</|/)?minimax:tool_call>")
_INVOKE_END: Final = re.compile(rb"(?:</|/)?invoke>")
_PARAMETER_OPEN: Final = re.compile(r"<?parameter(?=[ \t\r\n]+name[ \t]*=)")
_PARAMETER_CLOSE: Final = re.compile(r"(?:</|/)?parameter>")
_TRUNCATED: Final = "stream ended inside a tool call: passed through as text"


class State(MachineState):
    """Where the parser is: text, between invokes of a block, inside an invoke's body."""

    TEXT = enum.auto()
    BLOCK = enum.auto()
    BODY = enum.auto()


def angled(body: str) -> str:
    """An invoke body with the angles of its parameter tags given back."""
    return _PARAMETER_CLOSE.sub("</parameter>", _PARAMETER_OPEN.sub("<parameter", body))


class UnangledMiniMaxParser(ScanningParser):
    """`minimax:tool_call>` blocks of invokes written without `<` and `</` (a part of MiniMax's `auto`)."""

    TEXT = State.TEXT
    OPENERS: ClassVar[MarkerTable[bool]] = MarkerTable({OPENER: True}, HELD_FROM)
    sniff: ClassVar[tuple[bytes, ...]] = SNIFF

    def _setup(self) -> None:
        self._opener_end = 0  # where the block opener ends (prose resumes there)
        self._block_calls = 0  # invokes read in the open block
        self._body_at = 0  # BODY: where the open invoke's body begins
        self._name = ""

    def _open(self, _: bool, pos: int, length: int, out: list[Piece]) -> None:
        self._opener_end = self._scan.cursor = pos + length
        self._scan.mark, self._block_calls, self._state = pos, 0, State.BLOCK

    def _step_block(self, out: list[Piece]) -> bool:
        """Spacing, then an invoke header or the block's closer; anything else ends the block."""
        scan = self._scan
        found = NON_SPACE.search(scan.view, scan.cursor, scan.end)
        if found is None:
            scan.cursor = scan.end
            return False
        pos = found.start()
        if (end := _BLOCK_END.match(scan.view, pos)) is not None:  # (a block of no call was words)
            out.append(Markup(scan.take(end.end())) if self._block_calls else Text(scan.take(end.end())))
            self._state = State.TEXT
            return True
        header = _HEADER.match(scan.view, pos)
        name = invoke_name(header.group().lstrip(b"<")[len(b"invoke") :]) if header else None
        if header is not None and name is not None:  # (what precedes it is the call's raw text)
            scan.mark, self._name = pos, name
            self._body_at = scan.cursor = header.end()
            self._state = State.BODY
            return True
        if header is None and _may_still_be_a_tag(scan.view, pos, scan.end):
            scan.cursor = pos
            return False
        if not self._block_calls:  # the opener was prose
            self._emit_text(out, self._opener_end)
            scan.cursor, self._state = self._opener_end, State.TEXT
            return True
        out.append(Notice("missing-close", "tool block not closed before text: ended there"))
        self._emit_text(out, pos)
        self._state = State.TEXT
        return True

    def _step_body(self, out: list[Piece]) -> bool:
        """Up to the invoke's closer: then its call, or its raw text (notice); the block goes on."""
        scan = self._scan
        closer = _INVOKE_END.search(scan.view, scan.cursor, scan.end)
        if closer is None:
            scan.cursor = max(scan.cursor, scan.end - len(b"</invoke>") - 1)  # (from before any `</`)
            return False
        self._end_invoke(out, closer.start(), closer.end())
        return True

    def _end_invoke(self, out: list[Piece], body_end: int, call_end: int) -> None:
        scan = self._scan
        arguments = self._arguments(body_end, complete=True)
        if arguments is None:
            self._emit_text(out, call_end)
            message = f"invoke {self._name} has no valid parameters: passed through as text"
            out.append(Notice("malformed-call", message))
        else:
            self._call(out, None, self._name, arguments, scan.take(call_end))
            self._block_calls += 1
        scan.cursor, self._state = call_end, State.BLOCK

    def _arguments(self, body_end: int, complete: bool) -> str | None:
        """The open invoke's arguments, its body read up to `body_end` with its angles given back."""
        body = angled(self._scan.text(self._body_at, body_end))
        return read_invoke(MINIMAX_M2, body, complete, tool_parameters(self._tools, self._name))

    _STEPS: ClassVar = {State.TEXT: ScanningParser._step_text, State.BLOCK: _step_block,
                        State.BODY: _step_body}  # fmt: skip

    def _finish(self, out: list[Piece]) -> None:
        """An invoke whose body reads is recovered, spacing after a block's calls dropped, anything
        else held is text (an opener with no call after it may be a word of prose)."""
        scan = self._scan
        if self._state is State.BODY:
            arguments = self._arguments(scan.end, complete=False)
            if arguments is not None:
                message = f"stream ended inside invoke {self._name}: call recovered"
                out.append(Notice("recovered-call", message))
                self._call(out, None, self._name, arguments, scan.take(scan.end))
            else:
                out.append(Notice("truncated-call", _TRUNCATED))
        elif self._state is State.BLOCK and self._block_calls:
            if NON_SPACE.search(scan.view, scan.cursor, scan.end) is None:
                out.append(Markup(scan.take(scan.end)))
            else:  # (a tag cut off at the end)
                out.append(Notice("missing-close", "tool block not closed before the end: ended there"))
        self._emit_text(out, scan.end)


def _may_still_be_a_tag(view: bytearray, pos: int, end: int) -> bool:
    """Whether the input from `pos` to its end may still become an invoke header or the block's closer."""
    tail = bytes(view[pos:end])
    closers = (b"</minimax:tool_call>", b"/minimax:tool_call>", OPENER)
    return bool(_HEADER_START.fullmatch(tail)) or any(closer.startswith(tail) for closer in closers)


class MiniMaxFormat(ComposedParser):
    """`--format minimax`: MiniMax's tags (`minimax.MiniMaxParser`), M1's `<tool_calls>`, and M2
    blocks without their angles."""

    PARTS: ClassVar[tuple[type[ScanningParser], ...]] = (
        MiniMaxParser, MiniMaxM1Parser, UnangledMiniMaxParser
    )
