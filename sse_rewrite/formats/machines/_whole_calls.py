"""WholeCallParser: the steps of the parsers that read a call's body whole before they emit it
(`TOOL:` lines), written once.

A body read whole ends in one of two ways: it is a call, emitted with an `invalid-arguments`
notice when its arguments are not JSON (`_emit_call`), or it is not, and it stays text where it
stands with a `malformed-call` notice (`_not_a_call`). A parser whose body is one state that
only a `<`-led marker ends (`BODY`) also takes texts without `<` there unsearched (`absorb`), and
compacts in every state, since it keeps no offsets of its own. In a body, `MarkerScanner.find_marker` finds
the marker that may end it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...stream.events import Notice, Piece
from ._json import is_json
from ._machine import MachineState, ScanningParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class WholeCallParser(ScanningParser):
    """A `ScanningParser` whose calls come out whole (see the module docstring)."""

    BODY: ClassVar[MachineState | None] = None
    """The state a body is read in, where a text without `<` decides nothing; None: no such state."""

    def absorb(self, texts: Sequence[str]) -> int:
        """In `BODY`, texts without `<` (they decide nothing), within the cap; else the base's."""
        scan, text = self._scan, "".join(texts)
        if self.BODY is None:
            return super().absorb(texts)
        if self._state is not self.BODY or scan.cursor != scan.end or "<" in text:
            return 0
        if scan.buffered + 4 * len(text) > self._max:  # (4 bytes a character bound the UTF-8 size)
            return 0
        scan.append(text)
        scan.cursor = scan.end
        return len(texts)

    def _compact(self) -> None:
        """With a `BODY`, compact in every state (only the scanner's own offsets are kept, and
        move with it); else the base's."""
        if self.BODY is None:
            super()._compact()
        else:
            self._scan.compact()

    def _emit_call(self, out: list[Piece], name: str, arguments: str, end: int) -> None:
        """The call whose text ends at `end` (noting arguments that are not JSON)."""
        if not is_json(arguments):
            out.append(Notice("invalid-arguments", f"call {name}: arguments are not valid JSON"))
        self._call(out, None, name, arguments, self._take(end))

    def _not_a_call(self, out: list[Piece], end: int, what: str) -> bool:
        """`what` (the syntax's body) up to `end` is not a call: text, with a notice; back to TEXT."""
        self._emit_text(out, end)
        out.append(Notice("malformed-call", f"{what} is not a call: kept as text"))
        self._state = self.TEXT
        return True
