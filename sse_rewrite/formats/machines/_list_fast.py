"""ListFastPaths: the list machine's ways to take texts inside a value without scanning them.

Inside a value, a text without a closing bracket cannot end it: it is appended unscanned,
and the value's `BracketScanner` reads it with the rest when the value step next looks
(an open string or bracket carries over, so nothing is misread). With `--stream-arguments`
such a text is also what the value step would stream (docs/behaviour.md, "Streamed
arguments"). `ListParser` (`_list_machine.py`) is built on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._brackets import BracketScanner
from ._list_syntax import MAX_HEADER, ListSyntax
from ._machine import MachineState, ScanningParser
from ._streamed_call import settled_texts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_CLOSERS: Final = re.compile(r"[}\])]")
"""A text with none of these cannot close a value."""


class ListFastPaths(ScanningParser):
    """`absorb`, `absorb_argument(s)` of the list machine, in its `VALUE` state."""

    HEAD: ClassVar[MachineState]
    VALUE: ClassVar[MachineState]
    _syntax: ListSyntax | None  # the open block's
    _head_at: int  # where the header (or value) of the next call may begin
    _seen: int  # streamed argument text ends here
    _brackets: BracketScanner  # the open value's

    def absorb(self, texts: Sequence[str]) -> int:
        """Inside a value not streamed, take the leading texts without a closing bracket; in a
        header, those of header characters alone (`_absorb_header`)."""
        state = self._state
        if state is not self.VALUE:
            return self._absorb_header(texts) if state is self.HEAD else 0
        if self._announced is not None:
            return 0
        scan = self._scan
        if len(texts) == 1:  # (the one-text case inlined: it runs once per live event)
            text = texts[0]
            if "}" in text or "]" in text or ")" in text or scan.end - scan.start + 4 * len(text) > self._max:
                return 0
            scan.append(text)
            return 1
        taken = len(settled_texts(texts, scan.buffered, self._max, _CLOSERS))
        if taken:
            scan.append("".join(texts[:taken]))
        return taken

    def _absorb_header(self, texts: Sequence[str]) -> int:
        """The leading texts of header characters alone, within `MAX_HEADER` (and its `header_start`): the
        head step, which waits at the header's start for a byte that ends it, would wait on them too."""
        scan, syntax = self._scan, self._syntax
        if syntax is None or syntax.header is None or syntax.header_bytes is None:
            return 0
        if scan.end - self._head_at < len(syntax.text_header):  # (the head step decides it)
            return 0
        for taken, text in enumerate(texts):
            data = text.encode("utf-8", "surrogatepass")
            if not data or syntax.header_bytes.search(data) is not None:
                return taken
            end = scan.end + len(data)
            if end - scan.cursor > MAX_HEADER or end - scan.start > self._max:
                return taken
            if scan.cursor == scan.end and (  # (the header's first bytes: where the step looks)
                data[0] in syntax.values if syntax.header_optional else scan.end != self._head_at
            ):
                return taken
            scan.append(text)
            shape = syntax.header_start  # (one that must keep its shape as it arrives, from its first byte)
            if shape is not None and (scan.view[scan.cursor] in b" \t\r\n" or not shape.fullmatch(
                    scan.view, scan.cursor, scan.end)):  # fmt: skip
                scan.cut_back(end - len(data))
                return taken
        return len(texts)

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` for one text, without the lists (it runs once per live event): a
        text without a closing bracket or a trailing backslash is streamed unscanned, with the
        backslash held before it, if any; another is scanned as the value step would scan it,
        and taken unless it closes the value."""
        scan = self._scan
        if self._announced is None or self._state is not self.VALUE:
            return "" if self.absorb((text,)) else None
        if scan.end - scan.start + 4 * len(text) > self._max:
            return None
        if "}" in text or "]" in text or ")" in text or text[-1:] == "\\":
            return self._scan_argument(text)
        seen = self._seen
        scan.append(text)
        if seen != scan.end - len(text):  # (not ASCII, or a backslash held: decode what it streams)
            text = scan.text(seen, scan.end)
        scan.cursor = self._seen = scan.end
        self._sent.append(text)
        return text

    def _scan_argument(self, text: str) -> str | None:
        """`absorb_argument` for a text that may close the value: scanned by its `BracketScanner`
        (it catches up over the texts taken unscanned, which cannot close it); None, with
        everything as it was, when it closes the value (the value step ends it)."""
        scan, brackets = self._scan, self._brackets
        if not scan.append_unless_closing(text, brackets):
            return None
        streamed = scan.text(self._seen, brackets.pos)
        self._seen, scan.cursor = brackets.pos, scan.end
        if streamed:
            self._sent.append(streamed)
        return streamed

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """In the announced call's value, the texts `absorb` would take: appended (the value's
        `BracketScanner` catches up when it next looks) and streamed whole, as the value step
        would stream them; elsewhere what `absorb` takes streams nothing."""
        scan = self._scan
        if self._announced is None or self._state is not self.VALUE:
            return [""] * self.absorb(texts)
        if self._seen != scan.end:  # (something is still to look at)
            return []
        taken = settled_texts(texts, scan.buffered, self._max, _CLOSERS)
        if "\\\x00" in "\x00".join(taken) + "\x00":  # (a trailing backslash waits: `absorb_argument`)
            taken = taken[: next((i for i, text in enumerate(taken) if text[-1:] == "\\"), len(taken))]
        if taken:
            scan.append(taken[0] if len(taken) == 1 else "".join(taken))
            scan.cursor = self._seen = scan.end
            self._sent += taken
        return taken
