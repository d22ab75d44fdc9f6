"""Kimi K3 XTML: tool calls in `<|open|>tools<|sep|>` channels (`xtml_bodies` has the grammar).

Theory of operation (the rules and damage rows: docs/behaviour.md, "Kimi K3 XTML")
-------------------
- TEXT: `<|open|>` or `<|close|>` begins a marker (MARKER), read whole up to `<|sep|>`: `tools`
  opens a section (SECTION), `call` a call that lost its section opener (CALL), `response` is
  markup, `think` opens the think channel (THINK); anything else is text after its first token.
- SECTION: after spacing, a call opener (CALL) or the section's close; else prose before the
  first call, a lost close after one. CALL: up to `<|close|>call<|sep|>` (or the next call or
  the section's close); THINK: reasoning up to `<|close|>think<|sep|>`.
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, MarkerTable
from ._whole_calls import WholeCallParser
from .xtml_bodies import CLOSE, OPEN, TAG, TAG_PREFIX, xtml_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final, Literal

# a marker's word, and the byte that ends it
_WORD: Final = re.compile(rb"<\|(?:open|close)\|>[ \t\r\n]*([a-z]*)(.)?", re.DOTALL)
_WORDS: Final = (b"tools", b"call", b"argument", b"response", b"think")
_CLOSES: Final = MarkerTable({CLOSE: True})
_MAX_MARKER: Final = 512  # bytes a marker (its attributes included) may take


class State(MachineState):
    """Where the parser is: text, a marker being read, a section, a call."""

    TEXT = enum.auto()
    MARKER = enum.auto()
    SECTION = enum.auto()
    CALL = enum.auto()
    THINK = enum.auto()


class XtmlParser(WholeCallParser):
    """Streaming parser for Kimi K3 XTML tool calls (`--format kimi-k3`)."""

    TEXT = State.TEXT
    BODY = State.CALL
    REASONING_AT_ONCE: ClassVar[MachineState | None] = State.THINK
    OPENERS: ClassVar[MarkerTable[bool]] = MarkerTable({OPEN: True, CLOSE: False})
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def _setup(self) -> None:
        self._calls = 0  # calls in the open section

    def _open(self, _: bool, pos: int, length: int, out: list[Piece]) -> None:
        self._scan.mark = self._scan.cursor = pos
        self._state = State.MARKER

    def _marker(self, pos: int) -> tuple[str, str, int] | Literal[True] | None:
        """The marker at `pos`: (open or close, word, end); True while it may still become
        one (the input ends inside it); None when it cannot."""
        scan = self._scan
        found = TAG.match(scan.view, pos, min(scan.end, pos + _MAX_MARKER))
        if found is not None:
            return found[1].decode(), found[2].decode(), found.end()
        word = _WORD.match(scan.view, pos, scan.end)
        if word is not None and word[2] is not None and word[1] not in _WORDS:  # prose after a token
            return None
        if scan.end - pos < _MAX_MARKER and TAG_PREFIX.fullmatch(scan.view, pos, scan.end):
            return True
        tail = bytes(scan.view[pos : scan.end])
        if len(tail) < len(CLOSE) and (OPEN.startswith(tail) or CLOSE.startswith(tail)):
            return True
        return None

    # -- state handlers: each returns True when it made progress and should run again

    def _step_marker(self, out: list[Piece]) -> bool:
        scan = self._scan
        found = self._marker(scan.mark)
        if found is True:
            return False
        opening = found is not None and (found[0] == "open" or found[1] == "response")
        if found is None or not opening or found[1] not in ("tools", "call", "response", "think"):
            # not a marker, or one that cannot stand here: its first token is text
            self._emit_text(out, scan.mark + len(OPEN if scan.view.startswith(OPEN, scan.mark) else CLOSE))
            self._state = State.TEXT
            return True
        _, word, end = found
        if word == "response" or word == "think":
            out.append(Markup(scan.take(end)))
            self._state = State.THINK if word == "think" else State.TEXT
        elif word == "tools":
            scan.cursor, self._calls, self._state = end, 0, State.SECTION
        else:
            self._calls, self._state = 0, State.CALL
            scan.cursor = end
        return True

    def _step_section(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.skip_spacing()
        if pos is None:
            return False
        found = self._marker(pos)
        if found is True:
            scan.cursor = pos
            return False
        if isinstance(found, tuple) and found[1] == "call" and found[0] == "open":
            if pos > scan.start and self._calls:  # (a section opener goes with its first call)
                out.append(Markup(scan.take(pos)))
            scan.mark, scan.cursor, self._state = pos, found[2], State.CALL
        elif isinstance(found, tuple) and found[1] == "tools" and found[0] == "close":
            out.append(Markup(scan.take(found[2])))
            self._state = State.TEXT
        elif self._calls == 0:  # prose after the opener: it is text, read on after its first token
            self._emit_text(out, scan.start + len(OPEN))
            scan.cursor, self._state = scan.start, State.TEXT  # (`tools<|sep|>…`: `xtml_sep` under Kimi ids)
        else:
            out.append(Notice("missing-close", "<|open|>tools<|sep|> not closed"))
            self._state = State.TEXT
        return True

    def _step_call(self, out: list[Piece]) -> bool:
        scan = self._scan
        while (pos := scan.find(b"<|", scan.cursor)) != -1:
            found = self._marker(pos)
            if found is True:
                scan.cursor = pos
                return False
            if not isinstance(found, tuple) or found[1] == "argument":
                scan.cursor = pos + 1 if found is None else found[2]
                continue
            if found[1] == "call" and found[0] == "close":
                return self._end_call(out, pos, found[2])
            return self._end_call(out, pos, pos, "implicit-close")
        scan.cursor = max(scan.cursor, scan.end - 1)
        return False

    def _step_think(self, out: list[Piece]) -> bool:
        found = self._reasoning_until(out, _CLOSES)
        if found is None:
            return False
        scan = self._scan
        marker = self._marker(found[1])
        if marker is True:  # (a close still arriving: held)
            scan.cursor = found[1]
            return False
        if marker is not None and marker[1] == "think":
            out.append(Markup(scan.take(marker[2])))
            self._state = State.TEXT
        else:  # another token in the reasoning: its words
            self._emit_reasoning(out, found[1] + found[2])
        return True

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.MARKER: _step_marker,
        State.SECTION: _step_section,
        State.CALL: _step_call,
        State.THINK: _step_think,
    }

    def _end_call(self, out: list[Piece], body_end: int, end: int, code: str = "") -> bool:
        scan = self._scan
        call = xtml_call(scan.text(scan.mark, body_end), self._tools)
        if call is None:
            return self._not_a_call(out, end, "K3 call")
        if code:
            out.append(Notice(code, f"call {call[0]} closed without <|close|>call<|sep|>"))
        self._emit_call(out, *call, end)
        scan.cursor = end
        self._calls += 1
        self._state = State.SECTION
        return True

    def _finish(self, out: list[Piece]) -> None:
        scan, state = self._scan, self._state
        if state is State.THINK:
            self._emit_reasoning(out, scan.end)
            return
        if state is State.CALL:
            call = xtml_call(scan.text(scan.mark, scan.end), self._tools)  # (None while an argument is open)
            if call is not None:
                out.append(Notice("recovered-call", f"stream ended inside call {call[0]}: call recovered"))
                self._call(out, None, call[0], call[1], scan.take(scan.end))
                return
            out.append(Notice("truncated-call", "stream ended inside a tool call: kept as text"))
        elif state is State.SECTION:  # (only spacing is held there)
            if not self._calls:
                out.append(Notice("dangling-opener", "<|open|>tools<|sep|> and nothing after it: dropped"))
            if scan.buffered:
                out.append(Markup(scan.take(scan.end)))
            return
        self._emit_text(out, scan.end)
