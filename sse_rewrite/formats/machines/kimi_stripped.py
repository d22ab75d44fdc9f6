"""Kimi K2 with its special tokens stripped by the server (Kimi model ids only).

    Let me look.functions.read:0{"path": "a.py"}functions.read:1{"path": "b.py"}

Decoded with `skip_special_tokens`, the five section and call tokens vanish and the calls
are glued to the text; sometimes one marker survives (`functions.read:8<|tool_call_argument_begin|>{…}`).
Prose and code may write `functions.x:0{` too, so this is read only where the model id
picks Kimi, and only what can be proven is a call: `functions.NAME:N`, the surviving argument
marker or nothing, then one JSON object that is whole and valid. The header is the call id
and gives the name by Kimi's rule (`kimi.kimi_call_parts`). Anything else is text where it
stands: the opener comes out as text and the scan goes on after it.
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Piece, Text
from ..catalogue.kimi import kimi_call_parts
from ..catalogue.special_tokens import SpecialTokensParser
from ._compose import ComposedParser
from ._json import is_json
from ._machine import MachineState, ScanningParser
from ._scanner import NON_SPACE, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

OPENER: Final = b"functions."
_ARGUMENT: Final = b"<|tool_call_argument_begin|>"
_HEAD: Final = re.compile(rb"functions\.[\w.\-]+:\d+(" + re.escape(_ARGUMENT) + rb")?\{")


def _prefixes(literal: bytes) -> bytes:
    """A pattern for any prefix of `literal` (nothing included)."""
    pattern = b""
    for byte in reversed(literal):
        pattern = b"(?:" + re.escape(bytes([byte])) + pattern + b")?"
    return pattern


# What a header not yet complete may look like at the end of the input
_HEAD_PREFIX: Final = re.compile(rb"functions\.[\w.\-]*(?::\d*" + _prefixes(_ARGUMENT) + rb")?")
_MAX_HEAD: Final = 256
HELD_FROM: Final = {OPENER: 2}
"""A text ending in `fu` … `functions` is held back (at most 9 characters) until the next text
shows whether the word goes on; a lone `f` only where no word goes on into it (`.f`, `f` alone,
not ` of`): `f` ends too many ordinary tokens, each of which would take the general path twice."""
_STARTS: Final = tuple(OPENER[:length].decode() for length in range(2, len(OPENER)))
SNIFF: Final = (b"functions", b'"f"', b'function"')
"""An event is read while nothing is held when it holds the word whole, or a text field that is
a lone `f` (one character a chunk) or ends in `function` (a tokenizer's `function` + `s.`). Other
starts are held only in events read anyway: every needle costs each idle event a search (about
0.04x the baseline loop on Kimi's no-syntax shape; all eight starts cost 1.1x, bench/README.md)."""


class State(MachineState):
    """Where the parser is: text, a header, the JSON object, a whole object."""

    TEXT = enum.auto()
    HEADER = enum.auto()
    JSON = enum.auto()
    DONE = enum.auto()


class StrippedKimiParser(ScanningParser):
    """Calls glued to the text as `functions.NAME:N{json}` (a part of the Kimi `auto` format)."""

    TEXT = State.TEXT
    OPENERS: ClassVar[MarkerTable[bool]] = MarkerTable({OPENER: True}, HELD_FROM)
    JSON_BODY: ClassVar[MachineState | None] = State.JSON
    SPACING: ClassVar[frozenset[MachineState]] = frozenset({State.DONE})
    sniff: ClassVar[tuple[bytes, ...]] = SNIFF

    def _setup(self) -> None:
        self._body_end = 0

    def _compact(self) -> None:
        """Compact in every state; the object's offsets move with the buffer."""
        shift = self._scan.compact()
        if shift:
            self._body_end, self._json.pos = max(0, self._body_end - shift), max(0, self._json.pos - shift)

    def _open(self, _: bool, pos: int, length: int, out: list[Piece]) -> None:
        self._scan.mark = self._scan.cursor = pos
        self._state = State.HEADER

    def _step_header(self, out: list[Piece]) -> bool:
        scan = self._scan
        head = _HEAD.match(scan.view, scan.mark, min(scan.end, scan.mark + _MAX_HEAD))
        if head is not None:
            self._json.reset(head.end() - 1)
            scan.cursor, self._state = head.end() - 1, State.JSON
            return True
        if scan.end - scan.mark < _MAX_HEAD and _HEAD_PREFIX.fullmatch(scan.view, scan.mark, scan.end):
            return False
        return self._release()

    def _step_json(self, out: list[Piece]) -> bool:
        scan = self._scan
        if self._json.pos == scan.cursor and not self._json.depth:  # at the `{`: a key or `}` must follow
            first = NON_SPACE.search(scan.view, scan.cursor + 1)
            if first is None:
                return False
            if scan.view[first.start()] not in b'"}':
                return self._release()
        end = self._json.advance(scan.view, scan.end)
        if end is None:
            return False
        self._json_body_ended(end)
        return True

    def _json_body_ended(self, end: int) -> None:
        self._scan.cursor = self._body_end = end
        self._state = State.DONE

    def _step_done(self, out: list[Piece]) -> bool:
        scan = self._scan
        header = scan.text(scan.mark, scan.view.index(b"{", scan.mark)).removesuffix(_ARGUMENT.decode())
        arguments = scan.text(scan.view.index(b"{", scan.mark), self._body_end)
        if not is_json(arguments):
            return self._release()
        call_id, name, arguments = kimi_call_parts(header, arguments)
        self._call(out, call_id, name, arguments, scan.take(self._body_end))
        self._state = State.TEXT
        return True

    _STEPS: ClassVar = {
        State.TEXT: ScanningParser._step_text,
        State.HEADER: _step_header,
        State.JSON: _step_json,
        State.DONE: _step_done,
    }

    def _release(self) -> bool:
        """Not a call: the opener is text (handed back by the TEXT step), read on after it."""
        self._scan.cursor = self._scan.mark + len(OPENER)
        self._state = State.TEXT
        return True

    def _finish(self, out: list[Piece]) -> None:
        """A whole, valid object is a call; anything else held is text."""
        if self._state is State.DONE:
            self._step_done(out)
        elif self._state is not State.TEXT:
            self._release()
        while self._STEPS[self._state](self, out):  # (what follows is scanned again)
            pass
        self._emit_text(out, self._scan.end)


class StrippedKimiComposed(ComposedParser):
    """Kimi's tokens and `StrippedKimiParser` (a subclass may add `PARTS`): a text that holds
    no other part's lead (`<`, `[`…) nor `functions`, and does not end with a held start of it,
    is handed back at once while nothing is held (the base's fast path needs `<`-led openers only)."""

    PARTS: ClassVar[tuple[type[ScanningParser], ...]] = (SpecialTokensParser, StrippedKimiParser)
    _OTHER_LEAD: ClassVar[re.Pattern[str]]
    """Any lead of the parts' markers but `f` (`[TOOL_CALLS]`'s `[` under Kimi ids too) and `t`
    (`xtml_sep`'s `tools<|sep|>` holds a `<`; a text ending in `tools` is not handed back)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        tables = [part.OPENERS for part in cls.PARTS]
        held_from = {marker: n for table in tables for marker, n in table.held_from.items()}
        held_only_from = {marker: n for table in tables for marker, n in table.held_only_from.items()}
        cls._OPENERS = MarkerTable(dict(cls._OPENERS), held_from, held_only_from)
        others = cls._OPENERS.leads.decode().replace("f", "").replace("t", "")
        cls._OTHER_LEAD = re.compile("[" + re.escape(others) + "]")

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if (self._active is None and not self._scan.end and not self._flushed
                and self._OTHER_LEAD.search(text) is None and "functions" not in text
                and not text.endswith(_STARTS) and text[-1:] != "f" and not text.endswith("tools")):
            self._around.text(text)  # (what precedes a closer: `_orphans.py`)
            return [Text(text)] if text else []
        return super().feed(text)
