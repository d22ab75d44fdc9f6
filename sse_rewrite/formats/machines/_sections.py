"""SectionParser: the state machine shared by the special-token syntaxes (Kimi, DeepSeek).

Both wrap calls in a section of special tokens, a header before an argument marker
and a call-end marker; they differ only in the spellings and in how a header and its
argument text become a call, which each declares (`_section_syntax.SectionSyntax`): a
parser of the family names the syntaxes it reads (`SYNTAXES`).

Theory of operation
-------------------
The parser is a four-state machine over a `MarkerScanner`; every state handler looks
only at bytes after the cursor, so total work is linear in the input however it is cut.

- TEXT: text is handed back as soon as it is known not to start a marker; only a
  trailing `<`, `<|tool_ca`... is held back. `section_begin` enters SECTION;
  `call_begin` without a section opens one implicitly (HEADER); orphan closers are
  dropped with a notice.
- SECTION: between calls. Whitespace and frame tokens are syntax. `call_begin` starts a call,
  `section_end` returns to TEXT, a word that may be a header starts one whose
  `call_begin` was lost (HEADER), and anything else means the opener was prose: all
  held text is released unchanged and scanning goes on in TEXT.
- HEADER: the text up to the argument marker, frame tokens included, or up to a body's
  opening token, which the argument text begins with (Step-3's `<steptml:invoke`). A
  header with inner whitespace, a `<`, or over `MAX_HEADER` bytes is prose, released as
  above (without `call_begin`, so is one with other than name characters). A header closed
  by `call_begin`, `call_end` or `section_end` instead has no arguments: an orphan, dropped
  with a notice (a header after `call_begin` closed by `call_end` is a call with no arguments).
- ARGS: the argument text up to `call_end`. A JSON string state is kept while scanning
  (`JsonScanner`), so a closing marker *inside* a JSON string is data, unless what
  follows it is another marker or the end of input (then the arguments were malformed
  and the marker is the close). A missing `call_end` is supplied by the next
  `call_begin` or by `section_end`.

A section that grows past `max_section_bytes` is released as plain text. `flush()`
recovers a truncated call whose arguments are already one complete JSON value and
drops an opener followed only by whitespace. The hot path (`absorb`) and the
streaming of argument text (`--stream-arguments`) are in `SectionBase`.
"""

from __future__ import annotations

import re

from ...stream.events import Markup, Notice, Piece, Text
from ._json import is_json
from ._machine import ScanningParser
from ._scanner import NEED_MORE
from ._section_base import MAX_HEADER, SectionBase, State, is_prose_header
from ._section_syntax import Token

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final


# A header whose call-begin marker is missing must look like one (`functions.bash:15`, `get_weather`).
_HEADER_START: Final = re.compile(rb"[A-Za-z0-9_]")


class SectionParser(SectionBase):
    """Section/call/arguments state machine; subclasses name their `SYNTAXES`."""

    def _setup(self) -> None:
        self._header = ""
        self._opener = b""  # the call-begin marker of the current call (else its argument marker)
        self._calls_in_section = 0  # (`_json` holds the JSON string state of ARGS, up to `_json.pos`)
        self._seen, self._held, self._quoted = 0, [], False

    def _compact(self) -> None:
        """Compact in every state (a flood of calls never returns to TEXT); the JSON
        position moves with the buffer, the scanner's own offsets move themselves."""
        shift = self._scan.compact()
        self._json.pos -= shift
        self._seen -= shift

    # -- state handlers: each returns True when it made progress and should run again

    ORPHANS: ClassVar[frozenset[Token]] = frozenset({Token.SECTION_END, Token.CALL_END})

    def _open(self, token: Token, pos: int, length: int, out: list[Piece]) -> None:
        self._scan.cursor = pos + length
        self._calls_in_section = 0
        if token is Token.SECTION_BEGIN:
            self._state = State.SECTION
        else:
            self._begin_header(pos)

    def _step_section(self, out: list[Piece]) -> bool:
        scan = self._scan
        after = scan.after_spacing(self.MARKERS)
        if after is None:
            return False
        pos, found = after
        token, length = found if found is not None else (None, 0)
        if token is Token.CALL_BEGIN:
            scan.cursor = pos + length
            self._begin_header(pos)
        elif token is Token.SECTION_END:
            out.append(Markup(scan.take(pos + length)))
            self._state = State.TEXT
        elif token is Token.CALL_END and not self._calls_in_section:  # an opener, then a closer: words
            self._release_prose(out, pos)
        elif token is Token.FRAME:  # (PLaMo's request closer after its arguments' closer)
            out.append(Markup(scan.take(pos + length)))
        elif token is Token.CALL_END:  # after a call of the section: syntax left over
            out.append(Markup(scan.take(pos + length)))
            out.append(Notice("orphan-marker", f"dropped {self._spelling(token)} with no call open"))
        elif token is None and _HEADER_START.match(scan.view, pos):
            # A header whose call-begin marker is missing, or prose: the header step tells.
            scan.mark = scan.cursor = pos
            self._opener = b""
            self._state = State.HEADER
        else:  # markup after an opener: it was never a section
            self._release_prose(out, pos)
        return True

    def _step_header(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.find(b"<", scan.cursor)
        limit = scan.end if pos == -1 else pos
        header = scan.text(scan.mark, min(limit, scan.mark + MAX_HEADER + 1)).strip()
        explicit = bool(self._opener)
        if limit - scan.mark > MAX_HEADER or is_prose_header(header, explicit):
            return self._release_prose(out)
        if pos == -1:
            scan.cursor = scan.end
            return False
        found = scan.match(pos, self.MARKERS)
        if found == NEED_MORE:
            scan.cursor = pos
            return False
        token, length = found if found is not None else (None, 0)
        if token is Token.FRAME:  # part of the header (its syntax's `call_parts` reads it)
            scan.cursor = pos + length
        elif (token is Token.ARGUMENT_BEGIN and header) or (token is Token.BODY_BEGIN and explicit):
            self._header = header
            if not explicit:  # the argument marker tells whose syntax the call is
                self._opener = bytes(scan.view[pos : pos + length])
            scan.mark = scan.cursor = pos + length if token is Token.ARGUMENT_BEGIN else pos
            self._json.reset(scan.cursor)
            self._state = State.ARGS
            self._start_arguments(out)
        elif token is Token.CALL_END and header and explicit:  # a call with no arguments at all
            self._header = header
            self._emit_call(out, "", pos + length)
        elif token in (Token.CALL_BEGIN, Token.SECTION_END, Token.CALL_END) and header and explicit:
            # A call-begin marker's header with no argument marker: an orphan, syntax rather than
            # text (without the marker, such a "header" is only words between markers: prose).
            end = pos if token is Token.CALL_BEGIN else pos + length
            out.append(Markup(scan.take(end)))
            out.append(Notice("orphan-header", f"call header {header!r} has no arguments: dropped"))
            self._state = State.SECTION if token is Token.CALL_END else State.TEXT
            if token is Token.CALL_BEGIN:
                scan.cursor = pos + length
                self._begin_header(pos)
        else:
            return self._release_prose(out)
        return True

    def _step_args(self, out: list[Piece]) -> bool:
        scan = self._scan
        while True:
            pos = scan.find(b"<", scan.cursor)
            upto = scan.end if pos == -1 else pos
            while self._json.advance(scan.view, upto) is not None:
                pass  # only the string state matters here, not where a value ends
            if pos == -1:
                scan.cursor = scan.end
                return False
            found = scan.match(pos, self.MARKERS)
            if found == NEED_MORE:
                scan.cursor = pos
                return False
            if not isinstance(found, tuple):
                scan.cursor = pos + 1
                continue
            token, length = found
            if self._json.in_string:
                if token is not Token.CALL_END:
                    scan.cursor = pos + length
                    continue
                # A close marker inside a JSON string: data, unless a marker or EOF follows.
                follows = scan.followed_by(pos + length, self.MARKERS)
                if follows is None:
                    scan.cursor = pos
                    return False
                if not follows:
                    scan.cursor = pos + length
                    continue
            if token is Token.CALL_END:
                self._emit_call(out, scan.text(scan.mark, pos), pos + length)
            elif token is Token.CALL_BEGIN:
                self._emit_call(out, scan.text(scan.mark, pos), pos)
                out.append(Notice("implicit-close", f"call {self._header} closed by the next call"))
                scan.cursor = pos + length
                self._begin_header(pos)
            elif token is Token.SECTION_END:
                self._emit_call(out, scan.text(scan.mark, pos), pos)
                out.append(Markup(scan.take(pos + length)))
                self._state = State.TEXT
            else:
                scan.cursor = pos + length
                continue
            return True

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.SECTION: _step_section,
        State.HEADER: _step_header,
        State.ARGS: SectionBase._step_args_and_stream,
    }

    # -- helpers

    def _begin_header(self, opener_at: int) -> None:
        scan = self._scan
        self._opener = bytes(scan.view[opener_at : scan.cursor])
        scan.mark = scan.cursor
        self._state = State.HEADER

    def _spelling(self, token: Token) -> str:
        return next(marker.decode() for marker, role in self.MARKERS.items() if role is token)

    def _emit_call(self, out: list[Piece], arguments: str, end: int) -> None:
        call_id, name, arguments = self._call_parts(self._header, arguments)
        if not is_json(arguments):
            out.append(Notice("invalid-arguments", f"call {self._header}: arguments are not valid JSON"))
        self._call(out, call_id, name, arguments, self._scan.take(end))
        self._calls_in_section += 1
        self._state = State.SECTION

    def _release_prose(self, out: list[Piece], end: int | None = None) -> bool:
        """The opener was prose: release everything held up to the opener's end (or `end`),
        rescan the rest. The closers of the openers released are words too."""
        scan = self._scan
        text = scan.take(scan.mark if end is None else end)
        out.append(Text(text))
        for marker, token in self.MARKERS.items():
            if token is Token.SECTION_BEGIN or token is Token.CALL_BEGIN:
                closer = Token.SECTION_END if token is Token.SECTION_BEGIN else Token.CALL_END
                self._owe(closer, text.count(marker.decode()))
        self._state = State.TEXT
        return True

    def _release_all(self, out: list[Piece]) -> None:
        self._emit_text(out, self._scan.end)
        self._state = State.TEXT

    def _finish(self, out: list[Piece]) -> None:
        scan, state = self._scan, self._state
        if state is State.TEXT:
            self._emit_text(out, scan.end)
        elif state is State.SECTION:
            # Only whitespace or a cut-off marker can be held here.
            if scan.buffered:
                out.append(Markup(scan.take(scan.end)))
            if self._calls_in_section == 0:
                out.append(Notice("dangling-opener", "tool section opened but no call followed: dropped"))
        elif state is State.HEADER and not scan.text(scan.mark, scan.end).strip():
            out.append(Markup(scan.take(scan.end)))  # a dangling call opener
            out.append(Notice("dangling-opener", "tool call opened but nothing followed: dropped"))
        elif state is State.HEADER:
            if self._opener:  # without a call-begin marker the held text was only ever text
                out.append(Notice("truncated-call", "stream ended in a call header: passed through as text"))
            self._release_all(out)
        else:
            self._flush_args(out)

    def _flush_args(self, out: list[Piece]) -> None:
        scan = self._scan
        # The cursor rests at the end, on a cut-off marker, or on a close marker seen
        # inside a JSON string and followed by nothing more: then it was the close.
        at_cursor = scan.match(scan.cursor, self.MARKERS)
        arguments = scan.text(scan.mark, scan.cursor)
        if isinstance(at_cursor, tuple):
            self._emit_call(out, arguments, scan.end)
            return
        if not arguments.strip() or not is_json(self._call_parts(self._header, arguments)[2]):
            message = f"stream ended inside call {self._header}"
            if self._complete_broken(out, scan.end, "truncated-call", message):
                return
            out.append(Notice("truncated-call", f"{message}: passed through as text"))
            self._release_all(out)
            return
        out.append(Notice("recovered-call", f"stream ended inside call {self._header}: call recovered"))
        self._emit_call(out, arguments, scan.end)


