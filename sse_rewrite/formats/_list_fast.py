"""ListFastPaths: the list machine's ways to take texts inside a value without scanning them.

Inside a value, a text without a closing bracket cannot end it: it is appended unscanned,
and the value's `BracketScanner` reads it with the rest when the value step next looks
(an open string or bracket carries over, so nothing is misread). With `--stream-arguments`
such a text is also what the value step would stream (docs/behaviour.md, "Streamed
arguments"). `ListParser` (`_list_machine.py`) is built on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._machine import MachineState, ScanningParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class ListFastPaths(ScanningParser):
    """`absorb`, `absorb_argument(s)` of the list machine, in its `VALUE` state."""

    VALUE: ClassVar[MachineState]
    _seen: int  # streamed argument text ends here

    def absorb(self, texts: Sequence[str]) -> int:
        """Inside a value not streamed, take the leading texts without a closing bracket."""
        if self._state is not self.VALUE or self._announced is not None:
            return 0
        taken = self._unclosing(texts)
        if taken:
            self._scan.append("".join(texts[:taken]))
        return taken

    def _unclosing(self, texts: Sequence[str]) -> int:
        """How many leading texts hold no closing bracket and stay within the cap."""
        taken, room = 0, self._max - self._scan.buffered
        for text in texts:
            room -= 4 * len(text)  # (4 bytes a character bound its UTF-8 size)
            if room < 0 or "}" in text or "]" in text or ")" in text:
                break
            taken += 1
        return taken

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` for one text, without the lists (it runs once per live event)."""
        scan = self._scan
        if self._announced is None or self._state is not self.VALUE:
            return "" if self.absorb((text,)) else None
        if self._seen != scan.end or "}" in text or "]" in text or ")" in text or text[-1:] == "\\":
            return None  # (the value step holds back a backslash whose escaped byte has not come)
        if scan.buffered + 4 * len(text) > self._max:
            return None
        scan.append(text)
        scan.cursor = self._seen = scan.end
        self._sent.append(text)
        return text

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """In the announced call's value, the texts `absorb` would take: appended (the value's
        `BracketScanner` catches up when it next looks) and streamed whole, as the value step
        would stream them; elsewhere what `absorb` takes streams nothing."""
        scan = self._scan
        if self._announced is None or self._state is not self.VALUE:
            return [""] * self.absorb(texts)
        if self._seen != scan.end:  # (something is still to look at)
            return []
        taken = []
        for text in texts[: self._unclosing(texts)]:
            if text[-1:] == "\\":  # (see `absorb_argument`)
                break
            taken.append(text)
        if taken:
            scan.append(taken[0] if len(taken) == 1 else "".join(taken))
            scan.cursor = self._seen = scan.end
            self._sent += taken
        return taken
