"""The plain-text convention some agent prompts ask for, one call per pair of lines.

    TOOL: read
    ARGUMENTS: {"filePath": "test.txt"}

`TOOL:` counts only at the start of a line. The JSON object may span lines and hold
braces in strings: its end is found with a `JsonScanner`. A `TOOL:` line that is not
followed by a name, an `ARGUMENTS:` label and a `{` is prose, and comes out as text
as soon as that is clear. The convention gives no call id.
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece
from ._machine import MachineState
from ._scanner import NEED_MORE, NON_SPACE, MarkerTable
from ._whole_calls import WholeCallParser
from .tool_call_bodies import is_name

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

TOOL: Final = b"TOOL:"
"""Starts a call, at the start of a line; the tool name follows on the same line."""
ARGUMENTS: Final = b"ARGUMENTS:"
"""Leads the JSON object of arguments, after the `TOOL:` line."""
_TOOL: Final = MarkerTable({TOOL: True})
_ARGUMENTS: Final = MarkerTable({ARGUMENTS: True})
_LINE_END: Final = re.compile(rb"\r\n?|\n")
_MAX_LINE: Final = 300  # bytes of a `TOOL:` line before it is taken for prose


class State(MachineState):
    """Plain text, the rest of a `TOOL:` line, before the JSON, inside the JSON."""

    TEXT = enum.auto()
    NAME = enum.auto()
    LABEL = enum.auto()
    JSON = enum.auto()


class PlainTextParser(WholeCallParser):
    """Streaming parser for `TOOL: name` / `ARGUMENTS: {json}` line pairs."""

    TEXT = State.TEXT

    # Whether `TOOL:` starts a line depends on every character before it, so every
    # event must reach the parser: the empty needle matches all (no fast path).
    sniff: ClassVar[tuple[bytes, ...]] = (b"",)

    def _setup(self) -> None:
        self._streams = False  # `stream_arguments` is ignored: a call comes out whole, once complete
        self._name = ""
        self._line_start = True  # whether `scan.start` is at the start of a line

    def _finish(self, out: list[Piece]) -> None:
        """Text still held back comes out unchanged; a `TOOL:` with nothing after it is dropped."""
        scan = self._scan
        if self._state is State.NAME and not scan.text(scan.mark, scan.end).strip():
            out.append(Markup(scan.take(scan.end)))
            out.append(Notice("dangling-opener", "TOOL: with nothing after it at the end: dropped"))
            return
        if self._state is not State.TEXT:
            out.append(Notice("truncated-call", "stream ended inside a TOOL: call: passed through as text"))
        self._emit_text(out, self._scan.end)

    # -- state handlers: each returns True when it made progress and should run again

    def _step_text(self, out: list[Piece]) -> bool:
        scan, view = self._scan, self._scan.view
        pos = scan.cursor
        while pos < scan.end:
            at_line_start = view[pos - 1] in b"\r\n" if pos > scan.start else self._line_start
            if at_line_start:
                found = scan.match(pos, _TOOL)
                if found == NEED_MORE:
                    break
                if found is not None:
                    self._emit_text(out, pos)
                    scan.mark = scan.cursor = pos + len(TOOL)
                    self._state = State.NAME
                    return True
            newline = _LINE_END.search(view, pos)
            pos = scan.end if newline is None else newline.end()
        self._emit_text(out, pos)
        scan.cursor = pos
        return False

    def _step_name(self, out: list[Piece]) -> bool:
        scan = self._scan
        newline = _LINE_END.search(scan.view, scan.cursor, scan.mark + _MAX_LINE)
        end = min(scan.end, scan.mark + _MAX_LINE) if newline is None else newline.start()
        self._name = scan.text(scan.mark, end).strip()
        if newline is None:  # a name cannot hold spacing: words after `TOOL:` are prose at once
            scan.cursor = end
            if scan.end - scan.mark >= _MAX_LINE or not is_name(self._name or "x"):
                return self._release_prose(out)
            return False
        if not is_name(self._name):
            return self._release_prose(out)
        scan.cursor = newline.end()
        self._state = State.LABEL
        return True

    def _step_label(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.skip_spacing()
        if pos is None:
            return False
        found = scan.match(pos, _ARGUMENTS)
        if found == NEED_MORE:
            return False
        after_label = pos + len(ARGUMENTS)
        brace = NON_SPACE.search(scan.view, after_label, after_label + _MAX_LINE) if found else None
        if brace is None and found is not None:
            return scan.end - after_label >= _MAX_LINE and self._release_prose(out)
        if brace is None or scan.view[brace.start()] != 0x7B:  # no `ARGUMENTS: {`: prose
            return self._release_prose(out)
        scan.mark = brace.start()
        self._json.reset(scan.mark)
        self._state = State.JSON
        return True

    def _step_json(self, out: list[Piece]) -> bool:
        scan = self._scan
        end = self._json.advance(scan.view, scan.end)
        if end is None:
            scan.cursor = scan.end
            return False
        self._emit_call(out, self._name, scan.text(scan.mark, end), end)
        self._state = State.TEXT
        return True

    _STEPS: ClassVar = {
        State.TEXT: _step_text,
        State.NAME: _step_name,
        State.LABEL: _step_label,
        State.JSON: _step_json,
    }

    # -- helpers

    def _take(self, end: int) -> str:
        taken = self._scan.take(end)
        if taken:
            self._line_start = taken[-1] in "\r\n"
        return taken

    def _release_prose(self, out: list[Piece]) -> bool:
        """The `TOOL:` line was prose: release it and rescan what followed it on the next line."""
        scan = self._scan
        newline = _LINE_END.search(scan.view, scan.start, scan.cursor)
        self._emit_text(out, scan.start + len(TOOL) if newline is None else newline.start())
        scan.cursor = scan.start
        self._state = State.TEXT
        return True

