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
    from typing import Final

_PROBE: Final = "\x00probe"
_SEP: Final = b"\x00"  # between the framed literals searched: in no needle and no part
_LITERAL: Final = re.compile(STRING)
_OBJECT: Final = DATA + b"{"
_NOT_IN_LINE: Final = (b"\n", b"\r", _SEP)  # (one line, and no byte the search puts between literals)


class PlainTemplate:
    """The look-alikes of one event, and where the first of them holding a needle is."""

    __slots__ = ("_finds", "_frames", "_hard", "_patterns", "_per_event", "_slots", "quoted", "template")

    def __init__(self, parts: list[bytes], needles: tuple[bytes, ...], soft: tuple[bytes, ...] = ()) -> None:
        """`soft`: the needles (among `needles`) of an event a quote state may read (`hard`)."""
        self.template = TokenTemplate(parts)
        self._hard = grouped(tuple(needle for needle in needles if needle not in soft)) if soft else ()
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
    def learn(cls, a: bytes, b: bytes, needles: tuple[bytes, ...], soft: tuple[bytes, ...] = ()
              ) -> PlainTemplate | None:  # fmt: skip
        """The template of two events (their lines, `a` first), when they are look-alikes, one
        `data: {...}` line each, with needle-free bytes around their slots; else None."""
        if not needles or any(not needle or _SEP in needle for needle in needles):
            return None  # (an empty needle: every event is read)
        if not (a.startswith(_OBJECT) and a.endswith(b"}")) or any(byte in a for byte in _NOT_IN_LINE):
            return None
        at = _common_prefix(a, b)
        quote = a.rfind(b'"', 0, at + 1)  # the literal that differs opens there, if any
        one, other = _LITERAL.match(a, quote), _LITERAL.match(b, quote)
        if at == len(a) or quote == -1 or one is None or other is None:
            return None
        parts = a.split(one.group())
        if other.group().join(parts) != b:
            return None
        key = (tuple(parts), needles, soft)
        if key in _LEARNED:
            return _LEARNED[key]
        longest = max(map(len, needles))
        known = None
        if all(len(part) >= longest for part in parts[1:-1]) and not any(
                needle in part for part in parts for needle in needles):  # fmt: skip
            known = cls(parts, needles, soft)
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

    def hard(self, literal: bytes) -> bool:
        """Whether the look-alike of `literal` holds a needle besides the `soft` ones."""
        for before, after, _ in self._frames:
            framed = before + literal + after
            for search, _ in self._hard:  # (`find`, not `in`: bytes' `in` tries an int first, an exception)
                if isinstance(search, bytes) and framed.find(search) != -1:
                    return True
                if not isinstance(search, bytes) and search.search(framed) is not None:
                    return True
        return False

    def span(self, literals: list[bytes]) -> int:
        """The bytes the look-alikes of `literals` take."""
        return self._per_event * len(literals) + self._slots * sum(map(len, literals))


# Templates by their parts and needles (a pure cache: a template holds no state, and what it
# is follows from these alone). A stream relearns its envelope after every call and every
# marker; making one (`_context`, `grouped`, `_quoted`'s probe) costs more than a run of text.
_LEARNED: dict[tuple[tuple[bytes, ...], tuple[bytes, ...], tuple[bytes, ...]], PlainTemplate | None] = {}
_MAX_LEARNED: Final = 64


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


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest start `a` and `b` share (a binary search: a few compares)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low
