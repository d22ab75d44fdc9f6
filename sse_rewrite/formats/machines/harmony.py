"""gpt-oss harmony: channel messages, one of them a tool call.

    <|channel|>analysis<|message|>Need the weather.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.weather <|constrain|>json<|message|>{"x": 1}<|call|>
    <|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>

Theory of operation
-------------------
- TEXT: content. `<|start|>` or `<|channel|>` opens a header (HEADER). `<|end|>`,
  `<|return|>`, `<|call|>` end an open content message (dropped as markup); with none
  open they are the text's own words.
- HEADER: up to `<|message|>` (`harmony_headers`). A header that can no longer become
  one (prose after the opener, an unknown channel) releases its opener as text at once.
  `analysis` goes to REASONING, a recipient `functions.NAME` to OPENED (a call), anything
  else (`final`, `commentary` without a recipient) back to TEXT, as content.
- REASONING: the text comes out as `Reasoning` as it arrives, up to an end marker
  (consumed) or the next header.
- OPENED: the body's first byte: `{` or `[` is JSON (JSON, string-aware, so a `<|call|>`
  inside a string is data), anything else raw text up to an end marker (RAW). A JSON
  body then expects its `<|call|>` (CLOSING); a missing one costs a notice only.
- At the end of input a call whose body is one complete JSON value is recovered; else
  its raw text comes out (`harmony_calls`).
"""

from __future__ import annotations

from ...stream.events import Markup, Piece, Text
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, NEED_MORE, NON_SPACE, MarkerTable
from .harmony_calls import HarmonyCalls, State
from .harmony_header_words import MESSAGE_TEXT, OPENED
from .harmony_headers import (
    CALL_ENDS,
    CHANNEL,
    MESSAGE,
    OPENERS,
    REASONING_ENDS,
    START,
    Kind,
    header_kind,
    maybe_prose,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final



_ENDS: Final = frozenset(marker.decode() for marker, consumed in CALL_ENDS.items() if consumed)
"""The markers that end a message (`<|end|>`, `<|return|>`, `<|call|>`)."""
_TEXT, _HEADER, _REASONING = State.TEXT, State.HEADER, State.REASONING
_OPENED, _CLOSING = State.OPENED, State.CLOSING
"""The states read once (see `harmony_calls`), and the kinds of message:"""
_CALL, _CONTENT, _REASONING_KIND = Kind.CALL, Kind.CONTENT, Kind.REASONING


class HarmonyParser(HarmonyCalls):
    """Streaming parser for gpt-oss harmony messages (`--format harmony`)."""

    TEXT = State.TEXT
    OPENERS: ClassVar[MarkerTable[bytes]] = OPENERS
    JSON_BODY: ClassVar[MachineState | None] = State.JSON
    SPACING: ClassVar[frozenset[MachineState]] = frozenset({State.OPENED, State.CLOSING})
    REASONING_AT_ONCE: ClassVar[MachineState | None] = State.REASONING
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def _open(self, marker: bytes, pos: int, length: int, out: list[Piece]) -> None:
        scan = self._scan
        if marker in (CHANNEL, START):
            scan.mark, scan.cursor = pos, pos + length
            self._begin_header(marker, length)
        elif self._content_open:  # the end of a content message
            self._emit_text(out, pos)
            out.append(Markup(scan.take(pos + length)))
            self._content_open = False
        else:  # an end with nothing open: the text's own words
            self._emit_text(out, pos + length)

    WHOLE_MARKERS: ClassVar[frozenset[str]] = frozenset(_ENDS | {MESSAGE_TEXT})

    def _feed_whole(self, text: str, out: list[Piece]) -> bool:
        """A header's `<|message|>` (no `<|message|>` waits in a header, nor can one begin before
        its end: the header step would find it right there), and an end marker that ends the
        reasoning text or a call's closed JSON body while nothing is held after them (their
        steps would find it right there); the steps after theirs find nothing."""
        scan, state = self._scan, self._state
        if state is _HEADER:
            return text == MESSAGE_TEXT and self._end_header(text, out)
        if text not in _ENDS:
            return False
        if state is _REASONING and scan.start == scan.end:
            scan.append(text)
            out.append(Markup(scan.take(scan.end)))
            self._state = _TEXT
            return True
        if state is _CLOSING and scan.cursor == scan.end:  # (what the cursor passed is spacing)
            scan.append(text)
            return self._end_call(out, self._body_end, scan.end)
        return False

    def _end_header(self, text: str, out: list[Piece]) -> bool:
        """`<|message|>` fed after the header: what the header step does with it."""
        scan = self._scan
        kind = self._header_kind()
        if kind is None:
            return False
        scan.append(text)
        self._open_body(kind, scan.end, out)
        return True

    def _absorb_opener(self, value: bytes, text: str) -> bool:
        """A header's opener alone: `_open`, then the header step, which finds no `<|message|>`
        and no prose in it (`maybe_prose` of a lone opener is False)."""
        if (value != CHANNEL and value != START) or len(text) > self._max:  # (over the cap: `feed`)
            return False
        scan = self._scan
        scan.mark = scan.end
        scan.append(text)
        scan.cursor = scan.end
        self._begin_header(value, scan.end - scan.mark)
        return True

    def _begin_header(self, opener: bytes, length: int) -> None:
        """A header opened by `opener` (`length` bytes from the mark): nothing of it read yet."""
        self._state = _HEADER
        self._words_settled = False
        self._words, self._words_at = OPENED[opener], length

    def _compact(self) -> None:
        """Compact in every state (calls back to back, each read ending inside the next one's
        header, would never return to TEXT); the call's offsets move with the buffer."""
        shift = self._scan.compact()
        if shift:
            # (conditionals, not `max`: a builtin call costs about ten times as much)
            self._body_at = self._body_at - shift if self._body_at > shift else 0
            self._body_end = self._body_end - shift if self._body_end > shift else 0
            self._value_at = self._value_at - shift if self._value_at > shift else 0
            self._search_at = self._search_at - shift if self._search_at > shift else 0
            self._json.pos = self._json.pos - shift if self._json.pos > shift else 0

    # -- state handlers: each returns True when it made progress and should run again

    def _step_header(self, out: list[Piece]) -> bool:
        scan = self._scan
        found = scan.find(MESSAGE, scan.cursor)
        upto = scan.end if found == -1 else found
        header = scan.text(scan.mark, upto)
        if found == -1:
            if maybe_prose(header):
                return self._release_opener(out)
            scan.cursor = max(scan.cursor, upto - len(MESSAGE) + 1)
            return False
        kind = header_kind(header)
        if kind is None:
            return self._release_opener(out)
        self._open_body(kind, found + len(MESSAGE), out)
        return True

    def _open_body(self, kind: tuple[Kind, str], body: int, out: list[Piece]) -> None:
        """The header ended where the message's body begins, at `body`: a call opens there, the
        header of another message is markup."""
        scan = self._scan
        if kind[0] is _CALL:
            self._name, self._body_at = kind[1], body
            scan.cursor = body
            self._state = _OPENED
            if self._streams:
                self._announce(out, None, self._name)
            return
        out.append(Markup(scan.take(body)))
        self._content_open = kind[0] is _CONTENT
        self._state = _REASONING if kind[0] is _REASONING_KIND else _TEXT

    def _step_reasoning(self, out: list[Piece]) -> bool:
        found = self._reasoning_until(out, REASONING_ENDS)
        if found is None:
            return False
        consumed, pos, length = found
        if consumed:
            out.append(Markup(self._scan.take(pos + length)))
        self._state = State.TEXT
        return True

    def _step_opened(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.skip_spacing()
        if pos is None:
            return False
        scan.cursor = pos
        if scan.view[pos] in b"{[":
            self._json.reset(pos)
            self._value_at = self._search_at = pos
            self._state = State.JSON
        else:
            self._state = State.RAW
        return True

    def _step_json(self, out: list[Piece]) -> bool:
        scan = self._scan
        closed = self._json.advance(scan.view, scan.end)
        if closed is None:
            if self._closer_in_string(out):
                return True
            self._stream_body(out, scan.end)
            return False
        self._stream_body(out, closed)
        self._json_body_ended(closed)
        return True

    def _json_body_ended(self, end: int) -> None:
        self._scan.cursor = self._body_end = end
        self._state = State.CLOSING

    def _step_raw(self, out: list[Piece]) -> bool:
        found = self._scan.find_marker(CALL_ENDS)
        if found is None:
            return False
        consumed, pos, length = found
        return self._end_call(out, pos, pos + length if consumed else pos)

    def _step_closing(self, out: list[Piece]) -> bool:
        scan = self._scan
        after = NON_SPACE.search(scan.view, scan.cursor)
        if after is None:
            scan.cursor = scan.end
            return False
        found = scan.match(after.start(), CALL_ENDS)
        if found is NEED_MORE:
            scan.cursor = after.start()
            return False
        if found is not None and found[0]:
            return self._end_call(out, self._body_end, after.start() + found[1])
        self._missing_end(out)
        return self._end_call(out, self._body_end, self._body_end)

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.HEADER: _step_header,
        State.REASONING: _step_reasoning,
        State.OPENED: _step_opened,
        State.JSON: _step_json,
        State.RAW: _step_raw,
        State.CLOSING: _step_closing,
    }

    # -- helpers

    def _release_opener(self, out: list[Piece]) -> bool:
        """The header cannot be one: its opener is text, and scanning resumes after it."""
        scan = self._scan
        opener = CHANNEL if scan.view.startswith(CHANNEL, scan.mark) else b"<|start|>"
        out.append(Text(scan.take(scan.mark + len(opener))))
        scan.cursor = scan.start  # (a wait for `<|message|>` may have moved it past a later opener)
        self._state = State.TEXT
        return True
