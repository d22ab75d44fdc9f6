"""Kimi K3 XTML whose `<|open|>`/`<|close|>` tokens the server dropped (Kimi model ids only).

    tools<|sep|>call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep|>
    ls argument<|sep|>call<|sep|>tools<|sep|>

The words before each `<|sep|>` are its marker; each call is respelled with all three tokens
and read by the K3 declaration (`kimi_k3.k3_call`). This stays a parser of its own: the markers
are the words between two `<|sep|>`, whatever spacing they hold, which no table of spellings
the machines scan for can say. Why only Kimi ids, what is held and what is not read:
docs/behaviour.md, "Kimi K3 with `<|open|>`/`<|close|>` dropped".
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece
from ..machines._machine import MachineState, ScanningParser
from ..machines._scanner import MarkerTable
from .kimi_k3 import k3_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

SEP: Final = b"<|sep|>"
OPENER: Final = b"tools<|sep|>"
HELD_FROM: Final = {OPENER: len(b"tools")}
"""A text ending in `tools` (or `tools<`, `tools<|`…) is held wherever it stands; a shorter start
(`t` … `tool`) only where no word goes on into it (`.to`, not `into`)."""
SNIFF: Final = (b"tools",)
"""An event is read while nothing is held when it holds the word whole; one whose text ends in a
shorter start is held raw until the next shows whether the word goes on (`routing.SEP_XTML`'s
held word, `stream/held_starts.py`)."""
_SP: Final = rb"[ \t\r\n]*"
_OPEN_WORD: Final = re.compile(rb"(?:<\|open\|>)?" + _SP + rb"(call|argument)\b((?:[^<\n]|\n(?!\n))*)\Z")
_CLOSE_WORD: Final = re.compile(_SP + rb"(?:<\|close\|>)?" + _SP + rb"(call|tools)" + _SP + rb"\Z")
_VALUE_END: Final = re.compile(rb"(?:<\|close\|>" + _SP + rb"| ?)argument" + _SP + rb"\Z")
_MAX_SEGMENT: Final = 65536  # bytes between two `<|sep|>` while a section is read


class State(MachineState):
    """Where the parser is: text, a section between calls, a call, an argument's value."""

    TEXT = enum.auto()
    SECTION = enum.auto()
    CALL = enum.auto()
    VALUE = enum.auto()


class SepXtmlParser(ScanningParser):
    """K3 calls whose open and close tokens were dropped (a part of the Kimi `auto` format)."""

    TEXT = State.TEXT
    OPENERS: ClassVar[MarkerTable[bool]] = MarkerTable({OPENER: True}, HELD_FROM)
    sniff: ClassVar[tuple[bytes, ...]] = SNIFF

    def _setup(self) -> None:
        self._calls = 0  # calls read in the open section
        self._canonical: list[str] = []  # the open call, spelled with all three tokens

    def _open(self, _: bool, pos: int, length: int, out: list[Piece]) -> None:
        self._scan.mark, self._scan.cursor = pos, pos + length
        self._calls, self._state = 0, State.SECTION

    def _segment(self) -> tuple[bytes, int] | None:
        """The text from the cursor to the next `<|sep|>`, and the end past it; None while it has not come."""
        scan = self._scan
        sep = scan.find(SEP, scan.cursor)
        if sep == -1:
            if scan.end - scan.cursor > _MAX_SEGMENT:
                return (b"\0", scan.end)  # (matches nothing: the section is given up)
            return None
        return bytes(scan.view[scan.cursor : sep]), sep + len(SEP)

    def _step_section(self, out: list[Piece]) -> bool:
        found = self._segment()
        if found is None:
            return False
        segment, end = found
        scan = self._scan
        closing = _CLOSE_WORD.match(segment)
        opening = _OPEN_WORD.match(segment)
        if closing is not None and closing[1] == b"tools":
            if not self._calls:
                return self._give_up(out)
            out.append(Markup(scan.take(end)))
            self._state = State.TEXT
        elif opening is not None and opening[1] == b"call":
            if self._calls and scan.cursor > scan.start:
                out.append(Markup(scan.take(scan.cursor)))
            self._canonical = [f"<|open|>call{opening[2].decode('utf-8', 'surrogatepass')}<|sep|>"]
            scan.mark, scan.cursor, self._state = scan.cursor, end, State.CALL
        else:
            return self._give_up(out)
        return True

    def _step_call(self, out: list[Piece]) -> bool:
        found = self._segment()
        if found is None:
            return False
        segment, end = found
        closing = _CLOSE_WORD.match(segment)
        opening = _OPEN_WORD.match(segment)
        if closing is not None and closing[1] == b"call":
            return self._end_call(out, end)
        if opening is not None and opening[1] == b"argument":
            self._canonical.append(f"<|open|>argument{opening[2].decode('utf-8', 'surrogatepass')}<|sep|>")
            self._scan.cursor, self._state = end, State.VALUE
            return True
        return self._give_up(out)

    def _step_value(self, out: list[Piece]) -> bool:
        found = self._segment()
        if found is None:
            return False
        segment, end = found
        value_end = _VALUE_END.search(segment)
        if value_end is None:
            return self._give_up(out)
        value = segment[: value_end.start()].decode("utf-8", "surrogatepass")
        self._canonical.append(f"{value}<|close|>argument<|sep|>")
        self._scan.cursor, self._state = end, State.CALL
        return True

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.SECTION: _step_section,
        State.CALL: _step_call,
        State.VALUE: _step_value,
    }

    def _end_call(self, out: list[Piece], end: int) -> bool:
        call = k3_call("".join(self._canonical), self._tools)
        if call is None:
            return self._give_up(out)
        self._call(out, None, call[0], call[1], self._scan.take(end))
        self._scan.cursor, self._calls, self._state = end, self._calls + 1, State.SECTION
        return True

    def _give_up(self, out: list[Piece]) -> bool:
        """Not this syntax: before the first call, the opener's word is text and the scan goes on
        after it; after a call, the section lost its close and what follows is read as text."""
        scan = self._scan
        if self._calls:
            out.append(Notice("missing-close", "tools<|sep|> not closed"))
            scan.cursor = scan.start
        else:
            scan.cursor = scan.start + len(b"tools")
        self._state = State.TEXT
        return True

    def _finish(self, out: list[Piece]) -> None:
        """A call whose arguments are all closed is recovered; anything else held is text."""
        scan = self._scan
        if self._state is State.CALL and not scan.view[scan.cursor : scan.end].strip():
            call = k3_call("".join(self._canonical), self._tools)
            if call is not None:
                out.append(Notice("recovered-call", f"stream ended inside call {call[0]}: call recovered"))
                self._call(out, None, call[0], call[1], scan.take(scan.end))
                return
        if self._state is State.SECTION and self._calls:  # (spacing or prose after the last call)
            scan.cursor, self._state = scan.start, State.TEXT
        elif self._state is not State.TEXT:
            if self._state is not State.SECTION:
                out.append(Notice("truncated-call", "stream ended inside a tool call: kept as text"))
            self._give_up(out)
        while self._STEPS[self._state](self, out):  # (what follows is scanned again)
            pass
        self._emit_text(out, scan.end)
