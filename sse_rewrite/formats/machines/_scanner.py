"""MarkerScanner: the growing buffer every format parser scans with a kept cursor.

Text is stored as UTF-8 in a `bytearray`, so appending is amortized O(1) and
`find(needle, cursor)` searches only what has not been looked at yet. Three offsets
index the buffer, always `start <= mark <= cursor <= len(buffer)` in spirit:

- `start`: first byte not yet handed back to the caller (as text or as a call);
- `mark`: where the field being accumulated begins (a call header, its arguments);
- `cursor`: how far scanning has got; nothing before it is searched again.

All markers of all formats are ASCII-led, so cutting the buffer at a marker position
never splits a UTF-8 sequence, and `take()` always decodes cleanly. `match` looks markers
up in a `MarkerTable`, indexed once when the table is built.
"""

from __future__ import annotations

import enum
import functools
import itertools
import re

from ...stream.events import Piece, Text

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal, Protocol, TypeVar

    K = TypeVar("K")
    S = TypeVar("S")

    class ValueScanner(Protocol[S]):
        """A value's scanner (`_json.JsonScanner`, `_brackets.BracketScanner`)."""

        def advance(self, view: bytes | bytearray, upto: int) -> int | None: ...
        def state(self) -> S: ...
        def restore(self, state: S) -> None: ...

DEFAULT_MAX_SECTION_BYTES: Final = 1 << 20
"""An open tool section larger than this is released as plain text (`--max-section-bytes`)."""

ANGLE_SNIFF: Final = (b"<", b"\\u003")
"""Sniff bytes for `<`-led markers; `<` may arrive JSON-escaped (Go escapes it as \\u003c).

`\\u003` covers both spellings of the escape in one search (and `\\u0030`-`\\u003f`, which
only cost a decode)."""


def word_sniff(word: bytes) -> tuple[bytes, ...]:
    """Sniff bytes for a marker that is a word (`call:`, `functools`, `Action:`): the raw JSON
    holds it whole, or a text field ends with its start before the closing quote."""
    return (word, *(word[:n] + b'"' for n in range(1, len(word))))


NON_SPACE: Final = re.compile(rb"[^ \t\r\n]")
"""The first byte that is not spacing (space, tab, CR, LF)."""

_WORD: Final = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
"""Bytes a word goes on with (`MarkerTable.held_from`)."""


@functools.cache
def _lead_pattern(leads: bytes) -> re.Pattern[bytes]:
    return re.compile(b"[" + re.escape(leads) + b"]")


class Partial(enum.Enum):
    """Sentinel type of `NEED_MORE`."""

    NEED_MORE = "need-more"


NEED_MORE: Final = Partial.NEED_MORE
"""Returned by `match` when the buffer ends inside what may still become a marker."""

# Compact once the consumed front is this large and at least half the buffer, so the
# cost of moving the tail is amortized over what was consumed (linear overall).
_COMPACT_AT: Final = 4096


class MarkerTable(dict[bytes, "K"]):  # (a string: `K` exists for type checkers only)
    """Markers and the value each stands for, indexed for `MarkerScanner.match`.

    The index is made by the constructor: build a table once (at import, or once per
    class) and never change it. No marker may be a prefix of another, so at most one
    matches at a position. `by_head` holds the markers by their first `head` bytes (the
    shortest marker's length), as `(marker, value, length)`; `starts` every start of a marker
    shorter than `head` (`b""` too), True where it is held even after a word byte (`held_from`).
    """

    __slots__ = ("_stops", "by_head", "head", "held_from", "leads", "longest", "starts")

    def __init__(self, markers: dict[bytes, K], held_from: dict[bytes, int] | None = None) -> None:
        super().__init__(markers)
        # How long the end of the input must be to be held as a marker's start where it follows
        # a word byte (default 1): a marker led by a letter (`functions.`) holds a shorter start
        # (`f`) only where no word goes on into it (` of` is not held; `.f` and `f` alone are).
        self.held_from = held_from or {}
        ordered = sorted(self)  # (a marker that is a prefix of another is one of the next one)
        for marker, following in itertools.pairwise(ordered):
            if following.startswith(marker):
                raise ValueError(f"marker {marker!r} is a prefix of {following!r}")
        self.head = min(map(len, self))
        # The bytes a marker can start with (`b"<"` for most formats): where plain text may stop.
        self.leads = bytes(sorted({marker[0] for marker in self}))
        self.longest = max(map(len, self))
        self.by_head: dict[bytes, list[tuple[bytes, K, int]]] = {}
        for marker, value in self.items():
            self.by_head.setdefault(marker[: self.head], []).append((marker, value, len(marker)))
        # (from the heads: a start shorter than the head is one of a head, held as its markers are)
        self.starts: dict[bytes, bool] = {}
        starts = self.starts
        for key, group in self.by_head.items():
            held = min([self.held_from.get(marker, 1) for marker, _, _ in group]) if self.held_from else 1
            for n in range(self.head):
                starts[key[:n]] = n >= held or starts.get(key[:n], False)
        self._stops: re.Pattern[str] | None = None  # (`hands_back`'s, made on its first use)

    def hands_back(self, text: str) -> bool:
        """Whether `scan_text` hands a text scanned alone (nothing held before it) all back: no
        marker in it, and no end of it that `match` holds (one search, derived from the table)."""
        stops = self._stops
        if stops is None:  # (a marker, or an end that is a start of one: held after a word byte, or not)
            found = [re.escape(marker.decode()) for marker in self]
            for marker, word in ((marker, marker.decode()) for marker in self):  # (its starts: whole
                for n in range(1, len(word)):  # characters, as no text ends inside one)
                    glued = len(word[:n].encode()) >= self.held_from.get(marker, 1)
                    found.append(("" if glued else "(?<![0-9A-Za-z_])") + re.escape(word[:n]) + "\\Z")
            stops = self._stops = re.compile("|".join(dict.fromkeys(found)))
        return stops.search(text) is None

    def __deepcopy__(self, memo: dict[int, object]) -> MarkerTable[K]:
        """The table itself: it never changes, so a copied parser shares it (`--think` copies the
        content's parser inside a call: `stream/choice.py`'s `_reader_ahead`)."""
        return self


class MarkerScanner:
    """A UTF-8 byte buffer with a release point (`start`), a `mark` and a search `cursor`.

    `view` is the buffer itself, for searches with compiled patterns (read only!); `end` is
    its length (one past its last byte), kept by the methods that change it.
    """

    __slots__ = ("cursor", "end", "mark", "start", "view")

    def __init__(self) -> None:
        self.view = bytearray()
        self.start = 0
        self.mark = 0
        self.cursor = 0
        self.end = 0

    def append(self, text: str, scanned: bool = False) -> None:
        """Add text at the end of the buffer (`scanned`: holding nothing to scan, the cursor goes past it)."""
        buf = self.view
        buf += text.encode("utf-8", "surrogatepass")
        self.end = len(buf)
        if scanned:
            self.cursor = self.end

    def append_unless_closing(self, text: str, value: ValueScanner[Any]) -> bool:
        """Append `text` and advance `value` over it; when that closes the value, undo both
        and say False (the value's own step then reads the text)."""
        before, saved = self.end, value.state()
        self.append(text)
        if value.advance(self.view, self.end) is None:
            return True
        self.cut_back(before)
        value.restore(saved)
        return False

    def cut_back(self, end: int) -> None:
        """Drop what was appended after `end` (an append undone)."""
        del self.view[end:]
        self.end = end

    @property
    def buffered(self) -> int:
        """Bytes held back from the caller (from `start` to the end)."""
        return self.end - self.start

    def find(self, needle: bytes, pos: int, end: int | None = None) -> int:
        """Position of `needle` at or after `pos` (before `end`), or -1."""
        return self.view.find(needle, pos, self.end if end is None else end)

    def skip_spacing(self) -> int | None:
        """Where the first byte that is not spacing lies, at or after the cursor; None when
        only spacing is left (the cursor then moves to the end: it need not be read again)."""
        found = NON_SPACE.search(self.view, self.cursor)
        if found is None:
            self.cursor = self.end
            return None
        return found.start()

    def after_spacing(self, table: MarkerTable[K]) -> tuple[int, tuple[K, int] | None] | None:
        """Past the spacing from the cursor: where the next byte is, and the marker of `table`
        standing there (None: none); None while spacing runs to the end or the input cuts that
        marker (the cursor waits on it)."""
        first = NON_SPACE.search(self.view, self.cursor)  # (`skip_spacing` written out: a call less)
        if first is None:
            self.cursor = self.end
            return None
        found = self.match(pos := first.start(), table)
        if found is NEED_MORE:
            self.cursor = pos
            return None
        return pos, found

    def followed_by(self, at: int, table: MarkerTable[Any]) -> bool | None:
        """Whether a marker of `table` stands next after `at`, spacing aside; None while the
        input cannot tell (only spacing follows, or a marker may still be cut)."""
        first = NON_SPACE.search(self.view, at)
        found = None if first is None else self.match(first.start(), table)
        return None if first is None or found is NEED_MORE else found is not None

    def find_lead(self, leads: bytes, pos: int) -> int:
        """Position of the first byte of `leads` at or after `pos`, or -1 (one pass whatever their number)."""
        if len(leads) == 1:
            return self.view.find(leads, pos, self.end)
        found = _lead_pattern(leads).search(self.view, pos, self.end)
        return -1 if found is None else found.start()

    def find_marker(self, table: MarkerTable[K]) -> tuple[K, int, int] | None:
        """The first marker of `table` at or after the cursor, as `(value, position, length)`;
        None when the text ran out (the cursor then rests where a marker may still begin, or at
        the end)."""
        while (pos := self.find_lead(table.leads, self.cursor)) != -1:
            found = self.match(pos, table)
            if found is None:
                self.cursor = pos + 1
                continue
            if found is NEED_MORE:
                self.cursor = pos
                return None
            return found[0], pos, found[1]
        self.cursor = self.end
        return None

    def match(self, pos: int, table: MarkerTable[K]) -> tuple[K, int] | Literal[Partial.NEED_MORE] | None:
        """Which marker of `table` starts at `pos`: `(value, length)`; NEED_MORE when the
        buffer ends inside what may still become one; else None."""
        buf = self.view
        candidates = table.by_head.get(bytes(buf[pos : pos + table.head]))
        if candidates is not None:
            for marker, value, length in candidates:
                if buf.startswith(marker, pos):
                    return value, length
        if self.end - pos < table.longest:
            tail = bytes(buf[pos:])
            if len(tail) < table.head:  # (one lookup: most tails, and every walk of the whole table)
                held = table.starts.get(tail)
                if held is not None and (held or pos == 0 or buf[pos - 1] not in _WORD):
                    return NEED_MORE
            elif candidates is not None:  # (longer: only a marker that shares its head may begin so)
                glued = pos > 0 and buf[pos - 1] in _WORD
                held_from = table.held_from
                for marker, _, _ in candidates:
                    if marker.startswith(tail) and (not glued or len(tail) >= held_from.get(marker, 1)):
                        return NEED_MORE
        return None

    def text(self, begin: int, end: int) -> str:
        """Decode `buffer[begin:end]` without consuming it."""
        return self.view[begin:end].decode("utf-8", "surrogatepass")

    def take(self, end: int) -> str:
        """Hand back `buffer[start:end]` as text and move `start` (and lagging offsets) to `end`."""
        out = self.view[self.start : end].decode("utf-8", "surrogatepass")
        self.start = end
        if self.mark < end:  # (conditionals, not `max`: a builtin call costs about ten times as much)
            self.mark = end
        if self.cursor < end:
            self.cursor = end
        return out

    def compact(self) -> int:
        """Drop the consumed front when that is cheap relative to what was consumed.

        Returns how far every offset moved back (0 when nothing was dropped), so a
        parser can move offsets of its own along.
        """
        start = self.start
        if start == self.end:
            self.view.clear()
        elif start < _COMPACT_AT or start < self.end - start:
            return 0
        else:
            del self.view[:start]
        self.end -= start
        self.start = 0
        self.mark -= start
        self.cursor -= start
        return start


def plain_leads(table: MarkerTable[Any] | None) -> str | None:
    """The characters a text must hold for `scan_text` over `table` to hand back anything but
    all of it (`<` with no table); None when a marker starts outside ASCII (never so far)."""
    leads = b"<" if table is None else table.leads
    return leads.decode() if leads.isascii() else None


def scan_text(scan: MarkerScanner, table: MarkerTable[Any], out: list[Piece]) -> tuple[Any, int, int] | None:
    """Hand back plain text up to the first marker of `table`: `(value, position, length)`.

    None when the text ran out, holding back only a suffix that may still become a marker.
    """
    found = scan.find_marker(table)
    upto = scan.cursor if found is None else found[1]
    if upto > scan.start:
        out.append(Text(scan.take(upto)))
    return found
