"""The `<tool_call>...</tool_call>` family: Hermes / Qwen2.5 JSON, Qwen3-Coder XML, GLM-4.5.

All three share the tag and differ in the body right after the opener (`{`, `<function=`,
or a bare name); see `tool_call_bodies` for the bodies themselves.

Theory of operation
-------------------
- TEXT: hand text back at once; hold only a trailing prefix of `<tool_call>`.
- OPENED: after the opener, the first non-space byte picks the body: `{` (followed by
  `"` or `}`) is JSON, `<function=` XML, a name GLM. Anything else, or a GLM "name"
  with spaces in it, means the tag was prose: the opener is released as text and
  scanning resumes after it.
- JSON: a `JsonScanner` finds the end of the object (string- and escape-aware, so a
  `</tool_call>` inside a string is data); then only spacing may come before the close.
- TAGGED (XML and GLM): scan `<`-led markers; inside a parameter or argument value
  only the value's own closer counts, so a `</tool_call>` in a value is data.
A finished body that does not parse comes out as its raw text with a notice, as does
anything held past `max_section_bytes` or at the end of input (unless the call there
is already complete and only its closing tag is missing).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable

import orjson

from ..events import Notice, Piece, ToolCall
from ._json import is_json
from ._machine import ScanningParser
from ._scanner import ANGLE_SNIFF, DEFAULT_MAX_SECTION_BYTES, NEED_MORE
from .tool_call_bodies import FUNCTION, Call, glm_call, hermes_call, is_name, qwen_xml_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

OPEN: Final = b"<tool_call>"
"""Opens one call."""
CLOSE: Final = b"</tool_call>"
"""Closes one call."""
# Inside a body: marker -> the closer that ends the value it opens (None: the call's close).
_BODY_MARKERS: Final[dict[bytes, bytes | None]] = {
    b"<parameter=": b"</parameter>",
    b"<arg_value>": b"</arg_value>",
    CLOSE: None,
}
_NON_SPACE: Final = re.compile(rb"[^ \t\r\n]")
_LOOKAHEAD: Final = 300  # bytes after a body's first byte within which it must show its kind


class State(enum.Enum):
    """Where the parser is: plain text, just after an opener, or inside a body."""

    TEXT = enum.auto()
    OPENED = enum.auto()
    JSON = enum.auto()
    TAGGED = enum.auto()


class ToolCallTagParser(ScanningParser):
    """Streaming parser for `<tool_call>` tags holding a Hermes, Qwen3-Coder or GLM body."""

    TEXT = State.TEXT

    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def __init__(self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES) -> None:
        super().__init__(max_section_bytes)
        self._body: Callable[[str], Call | None] = hermes_call
        self._value_end: bytes | None = None  # inside a TAGGED value: the closer that ends it
        self._json_end: int | None = None  # JSON: where the object ended, once it has

    def _finish(self, out: list[Piece]) -> None:
        """A complete call missing only its close is kept, else the raw text comes out."""
        scan = self._scan
        body_end = self._json_end if self._state is State.JSON else scan.cursor
        in_body = self._state in (State.JSON, State.TAGGED) and body_end is not None
        call = self._parse(scan.text(scan.mark, body_end)) if in_body and body_end is not None else None
        if self._state is State.TEXT:
            self._emit_text(out, scan.end)
        elif call is not None and self._value_end is None:
            out.append(Notice("recovered-call", f"stream ended before </tool_call>: {call[0]} recovered"))
            self._emit_call(out, call, scan.end)
        else:
            self._release(out, scan.end, "truncated-call", "stream ended inside <tool_call>")

    # -- state handlers: each returns True when it made progress and should run again

    def _step_text(self, out: list[Piece]) -> bool:
        scan = self._scan
        while (pos := scan.find(b"<", scan.cursor)) != -1:
            found = scan.match(pos, {OPEN: True})
            if found is None:
                scan.cursor = pos + 1
                continue
            self._emit_text(out, pos)
            if found == NEED_MORE:
                scan.cursor = pos
                return False
            scan.mark = scan.cursor = pos + len(OPEN)
            self._state = State.OPENED
            return True
        self._emit_text(out, scan.end)
        return False

    def _step_opened(self, out: list[Piece]) -> bool:
        scan = self._scan
        first = _NON_SPACE.search(scan.view, scan.cursor)
        if first is None:
            scan.cursor = scan.end
            return False
        pos = first.start()
        if scan.view[pos] == 0x7B:  # '{': JSON, if a key or the object's end follows
            after = _NON_SPACE.search(scan.view, pos + 1, pos + _LOOKAHEAD)
            if after is None:
                return scan.end - pos >= _LOOKAHEAD and self._release_prose(out)
            if scan.view[after.start()] not in b'"}':
                return self._release_prose(out)
            self._json.reset(pos)
            self._json_end = None
            scan.mark, scan.cursor, self._body, self._state = pos, pos, hermes_call, State.JSON
            return True
        if scan.view[pos] == 0x3C:  # '<': XML, or prose
            found = scan.match(pos, {FUNCTION.encode(): True})
            if found == NEED_MORE:
                return False
            if found is None:
                return self._release_prose(out)
            self._body = qwen_xml_call
        else:  # GLM: a bare name, then `<arg_key>` or the close
            lt = scan.find(b"<", pos, pos + _LOOKAHEAD)
            name = scan.text(pos, min(scan.end, pos + _LOOKAHEAD) if lt == -1 else lt).strip()
            if not is_name(name) or (lt == -1 and scan.end - pos >= _LOOKAHEAD):
                return self._release_prose(out)
            if lt == -1:
                return False
            found = scan.match(lt, {b"<arg_key>": True, CLOSE: True})
            if found == NEED_MORE:
                return False
            if found is None:
                return self._release_prose(out)
            self._body = glm_call
        scan.mark, scan.cursor, self._value_end, self._state = pos, pos, None, State.TAGGED
        return True

    def _step_json(self, out: list[Piece]) -> bool:
        scan = self._scan
        if self._json_end is None:  # still inside the object
            self._json_end = self._json.advance(scan.view, scan.end)
            if self._json_end is None:
                return False
            scan.cursor = self._json_end
        body_end = self._json_end
        after = _NON_SPACE.search(scan.view, scan.cursor)
        if after is None:
            scan.cursor = scan.end
            return False
        scan.cursor = after.start()
        found = scan.match(after.start(), {CLOSE: True})
        if found == NEED_MORE:
            return False
        if found is None:  # no close after the object: keep a complete call, else release it
            call = self._parse(scan.text(scan.mark, body_end))
            if call is None:
                return self._release(out, body_end, "malformed-call", "<tool_call> body is not a call")
            out.append(Notice("missing-close", f"call {call[0]} has no </tool_call>"))
            self._emit_call(out, call, body_end)
            self._state = State.TEXT
            return True
        return self._close(out, body_end, after.start() + len(CLOSE))

    def _step_tagged(self, out: list[Piece]) -> bool:
        scan = self._scan
        while (pos := scan.find(b"<", scan.cursor)) != -1:
            table: dict[bytes, bytes | None] = {self._value_end: None} if self._value_end else _BODY_MARKERS
            found = scan.match(pos, table)
            if found == NEED_MORE:
                scan.cursor = pos
                return False
            if found is None:
                scan.cursor = pos + 1
                continue
            scan.cursor = pos + found[1]
            if self._value_end:
                self._value_end = None
            elif found[0] is None:  # the call's close
                return self._close(out, pos, scan.cursor)
            else:
                self._value_end = found[0]
        scan.cursor = scan.end
        return False

    _STEPS: ClassVar = {
        State.TEXT: _step_text,
        State.OPENED: _step_opened,
        State.JSON: _step_json,
        State.TAGGED: _step_tagged,
    }

    # -- helpers

    def _parse(self, body: str) -> Call | None:
        try:
            return self._body(body) if body.strip() else None
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            return None

    def _close(self, out: list[Piece], body_end: int, end: int) -> bool:
        call = self._parse(self._scan.text(self._scan.mark, body_end))
        if call is None:
            return self._release(out, end, "malformed-call", "<tool_call> body is not a call")
        self._emit_call(out, call, end)
        self._state = State.TEXT
        return True

    def _emit_call(self, out: list[Piece], call: Call, end: int) -> None:
        name, arguments = call
        if not is_json(arguments):  # passed on as written: the client decides
            out.append(Notice("invalid-arguments", f"call {name}: arguments are not valid JSON"))
        out.append(ToolCall(None, name, arguments, self._scan.take(end)))

    def _release_prose(self, out: list[Piece]) -> bool:
        """The opener was prose: release it as text and rescan what followed it."""
        scan = self._scan
        self._emit_text(out, scan.start + len(OPEN))
        scan.cursor = scan.start
        self._state = State.TEXT
        return True

    def _release(self, out: list[Piece], end: int, code: str, message: str) -> bool:
        """Hand back the raw text up to `end` unchanged, with a notice."""
        self._emit_text(out, end)
        out.append(Notice(code, f"{message}: passed through as text"))
        self._state = State.TEXT
        return True
