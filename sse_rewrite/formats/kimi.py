"""Kimi K2 / K2.5 / K2-Thinking tool-call tokens.

    <|tool_calls_section_begin|>
    <|tool_call_begin|>functions.bash:15<|tool_call_argument_begin|>{"cmd": "ls"}<|tool_call_end|>
    <|tool_calls_section_end|>

Theory of operation
-------------------
The parser is a four-state machine over a `MarkerScanner`; every state handler looks
only at bytes after the cursor, so total work is linear in the input however it is cut.

- TEXT: text is handed back as soon as it is known not to start a marker; only a
  trailing `<`, `<|tool_ca`... is held back. `section_begin` enters SECTION;
  `tool_call_begin` without a section opens one implicitly (HEADER); orphan closers are
  dropped with a notice.
- SECTION: between calls. Whitespace is syntax. `tool_call_begin` starts a call,
  `section_end` returns to TEXT, and anything else means the opener was prose: all held
  text is released unchanged and scanning goes on in TEXT.
- HEADER: `functions.NAME:IDX` up to `tool_call_argument_begin`. A header with inner
  whitespace, a `<`, or over `_MAX_HEADER` bytes is prose, released as above.
- ARGS: the argument text up to `tool_call_end`. A JSON string state is kept while
  scanning (quotes and backslashes only), so a closing marker *inside* a JSON string
  is data, unless what follows it is another marker or the end of input (then the
  arguments were malformed and the marker is the close). A missing `tool_call_end` is
  supplied by the next `tool_call_begin` or by `section_end`.

A section that grows past `max_section_bytes` is released as plain text. `flush()`
recovers a truncated call whose arguments are already one complete JSON value.
"""

from __future__ import annotations

import enum
import re
from typing import ClassVar, Final

import orjson

from ..events import Markup, Notice, Piece, Text, ToolCall
from ._scanner import ANGLE_SNIFF, DEFAULT_MAX_SECTION_BYTES, NEED_MORE, MarkerScanner


class Token(enum.Enum):
    """Kimi's special tokens, by role."""

    SECTION_BEGIN = enum.auto()
    SECTION_END = enum.auto()
    CALL_BEGIN = enum.auto()
    ARGUMENT_BEGIN = enum.auto()
    CALL_END = enum.auto()


MARKERS: Final[dict[bytes, Token]] = {
    b"<|tool_calls_section_begin|>": Token.SECTION_BEGIN,
    b"<|tool_call_section_begin|>": Token.SECTION_BEGIN,  # singular spelling, seen in engines
    b"<|tool_calls_section_end|>": Token.SECTION_END,
    b"<|tool_call_section_end|>": Token.SECTION_END,
    b"<|tool_call_begin|>": Token.CALL_BEGIN,
    b"<|tool_call_argument_begin|>": Token.ARGUMENT_BEGIN,
    b"<|tool_call_end|>": Token.CALL_END,
}

_CLOSERS: Final = (Token.CALL_END, Token.SECTION_END)
_MAX_HEADER: Final = 256  # bytes of header before the opener is taken for prose
_NON_SPACE: Final = re.compile(rb"[^ \t\r\n]")
_QUOTE_OR_BACKSLASH: Final = re.compile(rb'["\\]')
_HEADER_INDEX: Final = re.compile(r":\d+$")


class State(enum.Enum):
    """Where the parser is in the Kimi grammar."""

    TEXT = enum.auto()
    SECTION = enum.auto()
    HEADER = enum.auto()
    ARGS = enum.auto()


def name_from_header(header: str) -> str:
    """`functions.NAME:IDX` -> `NAME` (only the leading `functions.` and trailing `:digits` go)."""
    name = header.removeprefix("functions.")
    return _HEADER_INDEX.sub("", name) or name


class KimiParser:
    """Streaming parser for Kimi K2 tool-call tokens (see the module docstring)."""

    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def __init__(self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES) -> None:
        self._scan = MarkerScanner()
        self._state = State.TEXT
        self._max = max_section_bytes
        self._header = ""
        self._in_string = False  # JSON string state of ARGS, valid up to _json_pos
        self._json_pos = 0
        self._calls_in_section = 0
        self._flushed = False

    @property
    def pending(self) -> bool:
        """True while any text is held back."""
        return self._state is not State.TEXT or self._scan.buffered > 0

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        out: list[Piece] = []
        scan = self._scan
        if self._state is State.ARGS and scan.cursor == scan.end and "<" not in text:
            # Argument text with nothing held back and no `<`: what `_step_args` would
            # do, minus its search (most tokens of a tool-heavy stream come this way).
            scan.append(text)
            self._track_json(scan.end)
            scan.cursor = scan.end
        else:
            scan.append(text)
            while self._STEPS[self._state](self, out):
                pass
        if self._state is not State.TEXT and self._scan.buffered > self._max:
            self._release_all(out)
            out.append(Notice("section-cap", f"tool section over {self._max} bytes: passed through as text"))
        self._json_pos -= self._scan.compact()
        return out

    def flush(self) -> list[Piece]:
        """End of the field: emit what is still held back (see DESIGN.md section 4)."""
        out: list[Piece] = []
        if not self._flushed:
            self._flushed = True
            self._flush_state(out)
            self._state = State.TEXT  # everything is decided: nothing is pending any more
        return out

    # -- state handlers: each returns True when it made progress and should run again

    def _step_text(self, out: list[Piece]) -> bool:
        scan = self._scan
        while True:
            pos = scan.find(b"<", scan.cursor)
            if pos == -1:
                self._emit_text(out, scan.end)
                return False
            found = scan.match(pos, MARKERS)
            if found == NEED_MORE:
                self._emit_text(out, pos)
                scan.cursor = pos
                return False
            if not isinstance(found, tuple) or found[0] is Token.ARGUMENT_BEGIN:
                scan.cursor = pos + 1
                continue
            token, length = found
            self._emit_text(out, pos)
            scan.cursor = pos + length
            if token is Token.SECTION_BEGIN:
                self._calls_in_section = 0
                self._state = State.SECTION
            elif token is Token.CALL_BEGIN:
                self._calls_in_section = 0
                self._begin_header()
            else:
                out.append(Markup(scan.take(scan.cursor)))
                out.append(Notice("orphan-marker", f"dropped {MARKERS_BY_TOKEN[token]} with nothing open"))
                continue
            return True

    def _step_section(self, out: list[Piece]) -> bool:
        scan = self._scan
        found_space = _NON_SPACE.search(scan.view, scan.cursor)
        if found_space is None:
            scan.cursor = scan.end
            return False
        pos = found_space.start()
        found = scan.match(pos, MARKERS)
        if found == NEED_MORE:
            scan.cursor = pos
            return False
        token, length = found if found is not None else (None, 0)
        if token is Token.CALL_BEGIN:
            scan.cursor = pos + length
            self._begin_header()
        elif token is Token.SECTION_END:
            out.append(Markup(scan.take(pos + length)))
            self._state = State.TEXT
        elif token is Token.CALL_END:
            out.append(Markup(scan.take(pos + length)))
            out.append(Notice("orphan-marker", "dropped <|tool_call_end|> with no call open"))
        else:  # prose after an opener: it was never a section
            out.append(Text(scan.take(pos)))
            self._state = State.TEXT
        return True

    def _step_header(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.find(b"<", scan.cursor)
        limit = scan.end if pos == -1 else pos
        header = scan.text(scan.mark, min(limit, scan.mark + _MAX_HEADER + 1)).strip()
        if limit - scan.mark > _MAX_HEADER or any(c.isspace() for c in header):
            return self._release_prose(out)
        if pos == -1:
            scan.cursor = scan.end
            return False
        found = scan.match(pos, MARKERS)
        if found == NEED_MORE:
            scan.cursor = pos
            return False
        token, length = found if found is not None else (None, 0)
        if not header or token not in (Token.ARGUMENT_BEGIN, Token.CALL_END):
            return self._release_prose(out)
        self._header = header
        end = pos + length
        if token is Token.CALL_END:  # a call with no arguments at all
            self._emit_call(out, "", end)
            return True
        scan.mark = scan.cursor = self._json_pos = end
        self._in_string = False
        self._state = State.ARGS
        return True

    def _step_args(self, out: list[Piece]) -> bool:
        scan = self._scan
        while True:
            pos = scan.find(b"<", scan.cursor)
            self._track_json(scan.end if pos == -1 else pos)
            if pos == -1:
                scan.cursor = scan.end
                return False
            found = scan.match(pos, MARKERS)
            if found == NEED_MORE:
                scan.cursor = pos
                return False
            if not isinstance(found, tuple):
                scan.cursor = pos + 1
                continue
            token, length = found
            if self._in_string:
                if token is not Token.CALL_END:
                    scan.cursor = pos + length
                    continue
                # A close marker inside a JSON string: data, unless a marker or EOF follows.
                after = _NON_SPACE.search(scan.view, pos + length)
                if after is None:
                    scan.cursor = pos
                    return False
                follow = scan.match(after.start(), MARKERS)
                if follow == NEED_MORE:
                    scan.cursor = pos
                    return False
                if follow is None:
                    scan.cursor = pos + length
                    continue
            if token is Token.CALL_END:
                self._emit_call(out, scan.text(scan.mark, pos), pos + length)
            elif token is Token.CALL_BEGIN:
                self._emit_call(out, scan.text(scan.mark, pos), pos)
                out.append(Notice("implicit-close", f"call {self._header} closed by the next call"))
                scan.cursor = pos + length
                self._begin_header()
            elif token is Token.SECTION_END:
                self._emit_call(out, scan.text(scan.mark, pos), pos)
                out.append(Markup(scan.take(pos + length)))
                self._state = State.TEXT
            else:
                scan.cursor = pos + length
                continue
            return True

    _STEPS: ClassVar = {
        State.TEXT: _step_text,
        State.SECTION: _step_section,
        State.HEADER: _step_header,
        State.ARGS: _step_args,
    }

    # -- helpers

    def _begin_header(self) -> None:
        self._scan.mark = self._scan.cursor
        self._state = State.HEADER

    def _track_json(self, upto: int) -> None:
        """Advance the JSON string state of the arguments to `upto` (quotes/backslashes only)."""
        pos, view, in_string = self._json_pos, self._scan.view, self._in_string
        while pos < upto:
            hit = _QUOTE_OR_BACKSLASH.search(view, pos, upto)
            if hit is None:
                break
            at = hit.start()
            if view[at] == 0x22:  # '"'
                in_string = not in_string
                pos = at + 1
            else:  # backslash: the next byte is escaped (inside strings)
                pos = at + 2 if in_string else at + 1
        self._json_pos, self._in_string = max(pos, upto), in_string

    def _emit_text(self, out: list[Piece], end: int) -> None:
        if end > self._scan.start:
            out.append(Text(self._scan.take(end)))

    def _emit_call(self, out: list[Piece], arguments: str, end: int) -> None:
        arguments = arguments.strip() or "{}"
        try:
            orjson.loads(arguments)
        except orjson.JSONDecodeError:
            out.append(Notice("invalid-arguments", f"call {self._header}: arguments are not valid JSON"))
        raw = self._scan.take(end)
        out.append(ToolCall(self._header, name_from_header(self._header), arguments, raw))
        self._calls_in_section += 1
        self._state = State.SECTION

    def _release_prose(self, out: list[Piece]) -> bool:
        """The opener was prose: release everything held up to the opener's end, rescan the rest."""
        scan = self._scan
        out.append(Text(scan.take(scan.mark)))
        self._state = State.TEXT
        return True

    def _release_all(self, out: list[Piece]) -> None:
        self._emit_text(out, self._scan.end)
        self._state = State.TEXT

    def _flush_state(self, out: list[Piece]) -> None:
        scan, state = self._scan, self._state
        if state is State.TEXT:
            self._emit_text(out, scan.end)
        elif state is State.SECTION:
            # Only whitespace or a cut-off marker can be held here.
            if scan.buffered:
                out.append(Markup(scan.take(scan.end)))
            if self._calls_in_section == 0:
                out.append(Notice("dangling-opener", "tool section opened but no call followed: dropped"))
        elif state is State.HEADER:
            out.append(Notice("truncated-call", "stream ended in a call header: passed through as text"))
            self._release_all(out)
        else:
            self._flush_args(out)

    def _flush_args(self, out: list[Piece]) -> None:
        scan = self._scan
        # The cursor rests at the end, on a cut-off marker, or on a close marker seen
        # inside a JSON string and followed by nothing more: then it was the close.
        at_cursor = scan.match(scan.cursor, MARKERS)
        arguments = scan.text(scan.mark, scan.cursor)
        if isinstance(at_cursor, tuple):
            self._emit_call(out, arguments, scan.end)
            return
        try:
            orjson.loads(arguments)
        except orjson.JSONDecodeError:
            message = f"stream ended inside call {self._header}: passed through as text"
            out.append(Notice("truncated-call", message))
            self._release_all(out)
            return
        out.append(Notice("recovered-call", f"stream ended inside call {self._header}: call recovered"))
        self._emit_call(out, arguments, scan.end)


MARKERS_BY_TOKEN: Final = {token: marker.decode() for marker, token in reversed(MARKERS.items())}
