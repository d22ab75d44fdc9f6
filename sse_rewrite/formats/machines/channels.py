"""ChannelParser: channel messages with recipients, one of them a call (harmony, Muse, Beam).

    <|channel|>analysis<|message|>Need the weather.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.weather <|constrain|>json<|message|>{"x": 1}<|call|>
    <|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>

A subclass names its syntax, a `recipients.ChannelSyntax` (`catalogue/channels.py`).

Theory of operation
-------------------
- TEXT: content. An opener opens a header (HEADER). An end marker ends an open content
  message (dropped as markup); with none open it is the text's own words.
- HEADER: up to `<|message|>` (`ChannelSyntax.kind`). A header that can no longer become
  one (prose after the opener, an unknown channel) releases its opener as text at once.
  A reasoning message goes to REASONING, a call to OPENED (a JSON body) or RAW (a body in
  an invoke grammar), anything else back to TEXT, as content.
- REASONING: the text comes out as `Reasoning` as it arrives, up to an end marker
  (consumed) or the next header.
- OPENED: the body's first byte: `{` or `[` is JSON (JSON, string-aware, so an end marker
  inside a string is data), anything else raw text up to an end marker (RAW). A JSON
  body then expects its end (CLOSING); a missing one costs a notice only.
- At the end of input a call whose body is complete is recovered; else its raw text comes
  out (`channel_calls`).
"""

from __future__ import annotations

from ...stream.events import Markup, Notice, Piece, Text
from . import declare
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, MarkerTable
from .channel_calls import ChannelCalls, State
from .channel_words import MESSAGE_TEXT
from .recipients import MESSAGE, Kind

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from .recipients import ChannelSyntax

SNIFF: Final = (b"to=", b'to"', b't"')  # (a text ending in a start of `to=`, cut before its `=`)
"""Where an opener has no `<` (Muse's `to=`): `to=`, or an event ending in ` to` (its `=` follows)."""
_TEXT, _HEADER, _REASONING = State.TEXT, State.HEADER, State.REASONING
_OPENED, _CLOSING = State.OPENED, State.CLOSING
"""The states read once (see `channel_calls`), and the kinds of message:"""
_CALL, _CONTENT, _REASONING_KIND = Kind.CALL, Kind.CONTENT, Kind.REASONING


class ChannelParser(ChannelCalls):
    """Streaming parser for the channel syntax a subclass names in `SYNTAX`."""

    TEXT = State.TEXT
    OPENERS: ClassVar[MarkerTable[bytes | None]]
    _ENDS: ClassVar[MarkerTable[bool]]
    JSON_BODY: ClassVar[MachineState | None] = State.JSON
    AFTER_JSON: ClassVar[MachineState] = State.CLOSING
    SPACING: ClassVar[frozenset[MachineState]] = frozenset({State.OPENED, State.CLOSING})
    REASONING_AT_ONCE: ClassVar[MachineState | None] = State.REASONING
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        if "SYNTAX" in cls.__dict__:  # the syntax's tables (an opener stands for itself, an end for None)
            syntax = cls.SYNTAX
            cls.OPENERS = MarkerTable({**dict.fromkeys(syntax.ends), **{o: o for o in syntax.openers}})
            ends = {**dict.fromkeys(syntax.ends, True), **dict.fromkeys(syntax.next_headers, False)}
            cls._ENDS = MarkerTable(ends)
            cls._NEXT_HEADER = MarkerTable(dict.fromkeys(syntax.next_headers, True))
            cls._CALL_END = syntax.ends[0]
            cls._WHOLE_ENDS = frozenset(end.decode() for end in syntax.ends)
            cls.WHOLE_MARKERS = cls._WHOLE_ENDS | {MESSAGE_TEXT}
            cls.sniff = ANGLE_SNIFF if syntax.next_headers == syntax.openers else (*ANGLE_SNIFF, *SNIFF)
        super().__init_subclass__()

    def _open(self, opener: bytes | None, pos: int, length: int, out: list[Piece]) -> None:
        scan = self._scan
        if opener is not None:
            scan.mark, scan.cursor = pos, pos + length
            self._begin_header(opener, length)
        elif self._content_open:  # the end of a content message
            self._emit_text(out, pos)
            out.append(Markup(scan.take(pos + length)))
            self._content_open = False
        else:  # an end with nothing open: the text's own words
            self._emit_text(out, pos + length)

    _WHOLE_ENDS: ClassVar[frozenset[str]]

    def _feed_whole(self, text: str, out: list[Piece]) -> bool:
        """A header's `<|message|>` (no `<|message|>` waits in a header, nor can one begin before
        its end: the header step would find it right there), and an end marker that ends the
        reasoning text or a call's closed JSON body while nothing is held after them (their
        steps would find it right there); the steps after theirs find nothing."""
        scan, state = self._scan, self._state
        if state is _HEADER:  # (the header step's end of it)
            kind = self._header_kind() if text == MESSAGE_TEXT else None
            if kind is None:
                return False
            scan.append(text)
            self._open_body(kind, scan.end, out)
            return True
        if text not in self._WHOLE_ENDS:
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

    def _absorb_opener(self, value: bytes | None, text: str) -> bool:
        """A header's opener alone: `_open`, then the header step, which finds no `<|message|>`
        and no prose in it (`maybe_prose` of a lone opener is False)."""
        if value is None or len(text) > self._max:  # (over the cap: `feed`)
            return False
        scan = self._scan
        scan.mark = scan.end
        scan.append(text, True)
        self._begin_header(value, scan.end - scan.mark)
        return True

    def _begin_header(self, opener: bytes, length: int) -> None:
        """A header opened by `opener` (`length` bytes from the mark): nothing of it read yet."""
        self._state = _HEADER
        self._words_settled = False
        words = self.SYNTAX.words
        place = None if words is None else words.opened.get(opener)
        self._words, self._words_at = (0, -1) if place is None else (place, length)

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
            if self.SYNTAX.maybe_prose(header):
                return self._release_opener(out)
            scan.cursor = max(scan.cursor, upto - len(MESSAGE) + 1)
            return False
        kind = self.SYNTAX.kind(header)
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
            if self.SYNTAX.body is not None:  # (read whole at its end: it may hold several calls)
                self._state = State.RAW
                return
            self._state = _OPENED
            if self._streams:
                self._announce(out, None, self._name)
            return
        out.append(Markup(scan.take(body)))
        self._content_open = kind[0] is _CONTENT
        self._state = _REASONING if kind[0] is _REASONING_KIND else _TEXT

    def _step_reasoning(self, out: list[Piece]) -> bool:
        found = self._reasoning_until(out, self._ENDS)
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

    def _step_raw(self, out: list[Piece]) -> bool:
        found = self._scan.find_marker(self._ENDS)
        if found is None:
            return False
        consumed, pos, length = found
        if not consumed and self.SYNTAX.body is not None:
            out.append(Notice("missing-close", f"call {self._name} ended by the next header"))
        return self._end_call(out, pos, pos + length if consumed else pos)

    def _step_closing(self, out: list[Piece]) -> bool:
        after = self._scan.after_spacing(self._ENDS)
        if after is None:
            return False
        pos, found = after
        if found is not None and found[0]:
            return self._end_call(out, self._body_end, pos + found[1])
        out.append(Notice("missing-close", f"call {self._name} has no {self._CALL_END.decode()}"))
        return self._end_call(out, self._body_end, self._body_end)

    SYNTAX: ClassVar[ChannelSyntax]
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
        opener = next(o for o in self.SYNTAX.openers if scan.view.startswith(o, scan.mark))
        out.append(Text(scan.take(scan.mark + len(opener))))
        scan.cursor = scan.start  # (a wait for `<|message|>` may have moved it past a later opener)
        self._state = State.TEXT
        return True
