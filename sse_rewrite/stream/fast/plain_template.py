"""PlainTemplate: which look-alike events hold a needle, searched in their literals alone (sans-IO).

While a stream is idle, an event passes unchanged unless it holds one of the stream's needles
(`PlainRuns`). Searching every byte of every event costs as many passes as there are needle
searches, and the catalogue adds needles. But most events of a stream are look-alikes: the
same bytes around one string literal, the token, and its mirrors (`TokenTemplate`). Learned
from two events that differ there only, the bytes around the slots are searched once; after
that only each look-alike's literal is, with the few bytes around it that a needle may share
with it. A needle in a look-alike lies wholly in the bytes around the slots (then no template
is made), or overlaps a literal: it then begins with bytes the part before that slot ends with
(`"f"` takes the literal's opening quote) and ends with bytes the part after it begins with,
which are searched with the literal (`_context`). A part between two slots at least as long as
every needle keeps a needle from spanning two literals. So a look-alike holds a needle exactly
when its literal, so framed, does: the same answer as a search of its bytes.
"""

from __future__ import annotations

import re

import orjson

from ..deltas import scanned_fields
from ..needle_groups import grouped
from ..sse import DATA, EVENT_END
from .token_template import STRING, TokenTemplate

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_PROBE: Final = "\x00probe"
_SEP: Final = b"\x00"  # between the framed literals searched: in no needle and no part
_LITERAL: Final = re.compile(STRING)
_OBJECT: Final = DATA + b"{"
_NOT_IN_LINE: Final = (b"\n", b"\r", _SEP)  # (one line, and no byte the search puts between literals)


class PlainTemplate:
    """The look-alikes of one event, and where the first of them holding a needle is."""

    __slots__ = ("_behind", "_finds", "_frames", "_patterns", "_per_event", "_searches", "_slots", "quoted",
                 "template")

    def __init__(self, parts: list[bytes], needles: tuple[bytes, ...], soft: tuple[bytes, ...] = (),
                 words: tuple[bytes, ...] = ()) -> None:  # fmt: skip
        """`soft`: the needles (among `needles`) of an event a quote state may read (`Hits.hard`);
        `words`: those `Hits` leaves to its caller (the held words: `HeldStarts.unended` finds them)."""
        self.template = TokenTemplate(parts)
        hard = [needle for needle in needles if needle not in soft]
        self._behind = {needle: tuple(sorted((other for other in hard if other.startswith(needle)), key=len))
                        for needle in needles}  # fmt: skip
        """By needle, the needles that are not `soft` and begin with it (itself too, if it is one):
        a search for it stands for them (`grouped`), and its hit is one of them where one begins there."""
        searched = tuple(needle for needle in needles if needle not in words)
        self._searches: tuple[Any, ...] = tuple(search for search, _ in grouped(searched))
        self.quoted = _quoted(parts) if soft else None
        """The choice index and the field of the slot, when it is the look-alikes' one text to read."""
        self._slots = len(parts) - 1
        self._per_event = sum(map(len, parts)) + len(EVENT_END)
        searches = [search for search, _ in grouped(needles)]
        self._finds = tuple(search for search in searches if isinstance(search, bytes))
        self._patterns = tuple(search for search in searches if not isinstance(search, bytes))
        # The bytes searched around each slot's literal (one search for the slots framed alike),
        # and what joins two framed literals.
        frames = dict.fromkeys(
            (parts[i][len(parts[i]) - _context(parts[i], needles, True):],
             parts[i + 1][: _context(parts[i + 1], needles, False)])
            for i in range(self._slots)
        )  # fmt: skip
        self._frames = tuple((before, after, after + _SEP + before) for before, after in frames)

    @classmethod
    def learn(cls, a: bytes, b: bytes, needles: tuple[bytes, ...], soft: tuple[bytes, ...] = (),
              words: tuple[bytes, ...] = ()) -> PlainTemplate | None:  # fmt: skip
        """The template of two events (their lines, `a` first), when they are look-alikes, one
        `data: {...}` line each, with needle-free bytes around their slots; else None."""
        global _DIFFER  # (a hint, as `_LEARNED` is a cache: no answer depends on it)
        if not needles:
            return None
        if not (a.startswith(_OBJECT) and a.endswith(b"}")) or any(byte in a for byte in _NOT_IN_LINE):
            return None
        at = _DIFFER = _common_prefix(a, b, _DIFFER)
        quote = a.rfind(b'"', 0, at + 1)  # the literal that differs opens there, if any
        one, other = _LITERAL.match(a, quote), _LITERAL.match(b, quote)
        if at == len(a) or quote == -1 or one is None or other is None:
            return None
        parts = a.split(one.group())
        if other.group().join(parts) != b:
            return None
        key = (tuple(parts), needles, soft, words)
        if key in _LEARNED:
            return _LEARNED[key]
        longest = max(map(len, needles))
        known = None
        valid = all(needle and _SEP not in needle for needle in needles)  # (an empty needle: none)
        if valid and all(len(part) >= longest for part in parts[1:-1]) and not any(
                needle in part for part in parts for needle in needles):  # fmt: skip
            known = cls(parts, needles, soft, words)
        if len(_LEARNED) >= _MAX_LEARNED:
            _LEARNED.clear()
        _LEARNED[key] = known
        return known

    def clear(self, literals: list[bytes]) -> int:
        """How many of the look-alikes of `literals` lead that hold no needle."""
        first = len(literals)
        for before, after, joint in self._frames:
            framed = before + (literals[0] if len(literals) == 1 else joint.join(literals)) + after
            for needle in self._finds:
                at = framed.find(needle)
                if at != -1:
                    first = min(first, framed.count(_SEP, 0, at))
            for pattern in self._patterns:
                found = pattern.search(framed)
                if found is not None:
                    first = min(first, framed.count(_SEP, 0, found.start()))
        return first

    def span(self, literals: list[bytes]) -> int:
        """The bytes the look-alikes of `literals` take."""
        return self._per_event * len(literals) + self._slots * len(b"".join(literals))  # (one C call)


class Hits:
    """Where the needles are in the look-alikes of `literals`, searched once and looked up as a run
    reads on (`PlainRuns._look_alikes` reads a look-alike whose needles are all soft, and goes on
    after it): a search that hit goes on, from the next look-alike, only once the run is past its hit."""

    __slots__ = ("_behind", "_cursors", "_done", "_literals", "joined", "next")

    def __init__(self, template: PlainTemplate, literals: list[bytes]) -> None:
        self._literals, self._behind = literals, template._behind
        self._done = (0, 0)  # (a look-alike, the bytes of the literals before it)
        # A search that hit, by frame: its hit's look-alike, the search, where the hit is, the frame,
        # the size of its joint, and the needle it found there.
        self._cursors: list[list[Any]] = []
        first = len(literals)
        self.joined: bytes | None = None
        """The literals joined by a NUL, where a frame is just that (`HeldStarts.unended` reads them)."""
        for before, after, joint in template._frames:
            framed = before + (literals[0] if len(literals) == 1 else joint.join(literals)) + after
            if joint == _SEP:
                self.joined = framed
            for search in template._searches:  # (as `_find` does, inline: most find nothing)
                if type(search) is bytes:
                    at = framed.find(search)
                    found = search
                else:
                    match = search.search(framed)
                    at, found = (-1, b"") if match is None else (match.start(), match.group())
                if at != -1:
                    index = framed.count(_SEP, 0, at)
                    self._cursors.append([index, search, at, framed, len(joint), found])
                    first = index if index < first else first
        self.next = first
        """The first look-alike holding a needle of those the run is not past (`len(literals)`: none)."""

    def first(self, start: int) -> int:
        """The first look-alike from `start` on that holds a needle (`len(literals)`: none)."""
        if start <= self.next:
            return self.next
        first = len(self._literals)
        for cursor in self._cursors:
            if cursor[0] < start:
                self._find(cursor, start, self._framed_at(start, cursor[4]))
            if cursor[0] < first:
                first = cursor[0]
        self.next = first
        return first

    def hard(self, index: int) -> bool:
        """Whether look-alike `index` (none before it is asked after it) holds a needle that is not
        soft (a pattern's soft hit there is searched on, within it)."""
        for cursor in self._cursors:
            if cursor[0] < index:
                self._find(cursor, index, self._framed_at(index, cursor[4]))
            while cursor[0] == index:
                if self._hard_at(cursor[3], cursor[2], cursor[5]):
                    return True
                if type(cursor[1]) is bytes and not self._behind[cursor[1]]:  # (all its hits are soft)
                    break
                self._find(cursor, index, cursor[2] + 1)
        return False

    def _framed_at(self, index: int, joint: int) -> int:
        """Where look-alike `index`'s framed bytes begin (right after a separator; `joint`: its size)."""
        done, size = self._done
        if index != done:
            size += sum(map(len, self._literals[done:index]))
            self._done = (index, size)
        return size + index * joint

    def _find(self, cursor: list[Any], index: int, pos: int) -> None:
        """`cursor`'s first hit at or after `pos`, which lies in look-alike `index`'s framed bytes
        (none: its look-alike is past them all)."""
        search, framed = cursor[1], cursor[3]
        if type(search) is bytes:
            at = framed.find(search, pos)
            found = search
        else:
            match = search.search(framed, pos)
            at, found = (-1, b"") if match is None else (match.start(), match.group())
        cursor[0] = len(framed) if at == -1 else index + framed.count(_SEP, pos, at)
        cursor[2], cursor[5] = at, found

    def _hard_at(self, framed: bytes, at: int, found: bytes) -> bool:
        """Whether the hit of needle `found` at `at` is a needle that is not soft (one it stands for)."""
        behind = self._behind[found]
        if behind and behind[0] == found:  # (`found` is one: `_behind` lists it first, the shortest)
            return True
        for needle in behind:  # noqa: SIM110 (a loop, not any(): a generator costs as much as a search)
            if framed.startswith(needle, at):
                return True
        return False


# Templates by their parts and needles (a pure cache: a template holds no state, and what it
# is follows from these alone). A stream relearns its envelope after every call and every
# marker; making one (`_context`, `grouped`, `_quoted`'s probe) costs more than a run of text.
_LEARNED: dict[tuple[tuple[bytes, ...], ...], PlainTemplate | None] = {}
_MAX_LEARNED: Final = 64
_DIFFER = 0  # where the last two events learned from first differed: the next two likely do too


def _quoted(parts: list[bytes]) -> tuple[int, str] | None:
    """The choice index and field of the slots, when the look-alikes are one choice whose one
    text to read (`deltas.scanned_fields`) is theirs; else None."""
    try:
        chunk = orjson.loads(orjson.dumps(_PROBE).join(parts)[len(DATA) :])
    except orjson.JSONDecodeError:
        return None
    choices = chunk.get("choices") if type(chunk) is dict and "error" not in chunk else None
    if type(choices) is not list or len(choices) != 1 or type(choices[0]) is not dict:
        return None
    delta = choices[0].get("delta")
    fields = scanned_fields(delta) if type(delta) is dict else {}
    if len(fields) != 1 or _PROBE not in fields.values():
        return None
    index = choices[0].get("index")
    return (index if isinstance(index, int) else 0), next(iter(fields))


def _context(part: bytes, needles: tuple[bytes, ...], before: bool) -> int:
    """How many bytes of `part` a needle overlapping the slot after it (`before`) or before it
    may hold: the longest start of a needle that `part` ends with, or end that it begins with."""
    return max((size for needle in needles for size in range(1, len(needle))
                if (part.endswith(needle[:size]) if before else part.startswith(needle[-size:]))), default=0)


def _common_prefix(a: bytes, b: bytes, guess: int = 0) -> int:
    """The length of the longest start `a` and `b` share (a binary search: a few compares);
    `guess` first, in one compare (look-alikes of the last template differ first where it did)."""
    low, high = 0, min(len(a), len(b))
    if 0 < guess < high and a[guess] != b[guess] and a[:guess] == b[:guess]:
        return guess
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low
