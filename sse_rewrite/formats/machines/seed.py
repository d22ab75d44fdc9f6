"""Seed-OSS: `<seed:tool_call>` around Qwen3-Coder function bodies, `<seed:think>` reasoning.

Theory of operation
-------------------
- TEXT: `<seed:tool_call>` opens a wrapper (OPENED), `<seed:think>` the reasoning
  (THINK; `SeedThinkParser` only); an orphan `</seed:tool_call>` with nothing open is the text's own words.
- OPENED (and AFTER, between two functions): after spacing, `<function=` or
  `<function name="` begins a body (BODY); `</seed:tool_call>` ends the wrapper. Anything
  else after the opener means it was prose: the opener is text, read on after it at
  once. Anything else after a function means the wrapper lost its close.
- BODY: up to `</function>`, then the call comes out at once (`seed_call`). A wrapper
  close or the next opener ends a body that lost its `</function>`.
- THINK: the text comes out as `Reasoning` as it arrives, up to `</seed:think>`.
A body that is not a call, and one held past the cap, come out as the text they were; at
the end of input a body whose parameters are complete is recovered (docs/behaviour.md).
"""

from __future__ import annotations

import enum

from ...stream.events import Markup, Notice, Piece
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, NEED_MORE, MarkerTable
from ._whole_calls import WholeCallParser
from .seed_bodies import CLOSE, END, NAMED_FUNCTION, OPEN, QWEN_FUNCTION, THINK, THINK_END, seed_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_BODY_STARTS: Final = MarkerTable({QWEN_FUNCTION: True, NAMED_FUNCTION: True, CLOSE: False})
_BODY_ENDS: Final = MarkerTable({END: True, CLOSE: False, OPEN: False})
_THINK_END: Final = MarkerTable({THINK_END: True})


class State(MachineState):
    """Where the parser is: text, a wrapper's parts, or reasoning."""

    TEXT = enum.auto()
    OPENED = enum.auto()
    BODY = enum.auto()
    AFTER = enum.auto()
    THINK = enum.auto()


class SeedParser(WholeCallParser):
    """Streaming parser for Seed-OSS tool calls (read in every stream)."""

    TEXT = State.TEXT
    BODY = State.BODY
    OPENERS: ClassVar[MarkerTable[bytes]] = MarkerTable({OPEN: OPEN, CLOSE: CLOSE})
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def _open(self, marker: bytes, pos: int, length: int, out: list[Piece]) -> None:
        scan = self._scan
        if marker == CLOSE:  # nothing open: the text's own words
            self._emit_text(out, pos + length)
            return
        scan.mark, scan.cursor = pos, pos + length
        if marker == THINK:
            out.append(Markup(scan.take(pos + length)))
        self._state = State.THINK if marker == THINK else State.OPENED

    # -- state handlers: each returns True when it made progress and should run again

    def _step_between(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.skip_spacing()
        if pos is None:
            return False
        found = scan.match(pos, _BODY_STARTS)
        if found is NEED_MORE:
            scan.cursor = pos
            return False
        if found is None and self._state is State.OPENED:  # prose after the opener
            self._emit_text(out, scan.mark + len(OPEN))
            self._state = State.TEXT
        elif found is None:  # text after a function: the wrapper lost its close
            out.append(Notice("missing-close", "<seed:tool_call> not closed"))
            self._state = State.TEXT
        elif not found[0]:
            out.append(Markup(scan.take(pos + found[1])))
            self._state = State.TEXT
        else:
            if pos > scan.start and self._state is State.AFTER:  # (an opener goes with its first call)
                out.append(Markup(scan.take(pos)))
            scan.mark, scan.cursor = pos, pos + found[1]
            self._state = State.BODY
        return True

    def _step_body(self, out: list[Piece]) -> bool:
        scan, found = self._scan, self._scan.find_marker(_BODY_ENDS)
        if found is None:
            return False
        is_end, pos, length = found
        if is_end:  # `</function>`
            scan.cursor = pos + length
            call = seed_call(scan.text(scan.mark, scan.cursor), self._tools)
            return self._close(out, call, scan.cursor)
        call = seed_call(scan.text(scan.mark, pos) + END.decode(), self._tools)
        if call is not None:
            out.append(Notice("implicit-close", f"call {call[0]} closed without </function>"))
        scan.cursor = pos
        return self._close(out, call, pos)

    def _step_think(self, out: list[Piece]) -> bool:
        found = self._reasoning_until(out, _THINK_END)
        if found is None:
            return False
        _, pos, length = found
        out.append(Markup(self._scan.take(pos + length)))
        self._state = State.TEXT
        return True

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.OPENED: _step_between,
        State.AFTER: _step_between,
        State.BODY: _step_body,
        State.THINK: _step_think,
    }

    # -- how a body ends

    def _close(self, out: list[Piece], call: tuple[str, str] | None, end: int) -> bool:
        if call is None:
            return self._not_a_call(out, end, "<seed:tool_call> body")
        self._emit_call(out, *call, end)
        self._state = State.AFTER
        return True

    def _finish(self, out: list[Piece]) -> None:
        scan, state = self._scan, self._state
        if state is State.THINK:
            self._emit_reasoning(out, scan.end)
        elif state is State.OPENED and not scan.text(scan.mark + len(OPEN), scan.end).strip():
            out.append(Markup(scan.take(scan.end)))
            out.append(Notice("dangling-opener", "<seed:tool_call> opened but nothing followed: dropped"))
        elif state is State.BODY:
            call = seed_call(scan.text(scan.mark, scan.end).rstrip() + END.decode(), self._tools)
            if call is not None and _complete_parameters(scan.text(scan.mark, scan.end)):
                out.append(Notice("recovered-call", f"stream ended inside call {call[0]}: call recovered"))
                self._close(out, call, scan.end)
            else:
                self._emit_text(out, scan.end)
                out.append(Notice("truncated-call", "stream ended inside a tool call: kept as text"))
        else:
            if state is State.AFTER and scan.buffered:
                out.append(Markup(scan.take(scan.end)))
            self._emit_text(out, scan.end)


def _complete_parameters(body: str) -> bool:
    """Whether a body cut by the end of input holds only closed parameters (none left open)."""
    return body.count("<parameter") == body.count("</parameter>")


class SeedThinkParser(SeedParser):
    """Seed-OSS tool calls and `<seed:think>` reasoning (`--format seed`, and Seed ids: a tag
    quoted in prose would otherwise move the rest of an answer to reasoning)."""

    OPENERS: ClassVar[MarkerTable[bytes]] = MarkerTable({OPEN: OPEN, THINK: THINK, CLOSE: CLOSE})
