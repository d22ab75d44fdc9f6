"""HeldStarts: where an idle event's text ends in the start of a stripped word, in raw bytes (sans-IO).

A parser holds back the end of a text that may begin a marker ("Hold the event, not the bytes",
docs/behaviour.md), but while a stream is idle an event reaches a parser only with a needle. A
word marker that a server left without its tokens (Kimi's `functions.`, K3's `tools<|sep|>`) may
be cut anywhere (`fu` | `nctions.read:0{…}`), and a needle for each of its starts would cost every
idle event a search. So its parts declare the word (`Part.held_words`: the word, and from how many
bytes its start is held wherever it stands; a shorter one only where no word goes on into it),
and the stream holds an event whose text ends so raw, unparsed, until the next event shows
whether the word goes on (`StreamRewriter`). Only where the next text may go on do the two events
take the general path (the held-start rule, docs/behaviour.md "Chunking"). A run of look-alikes is
read as their texts run together (`HeldStarts.unended`): it stops where a word stands whole in them,
in one text or across several, or where a start of one runs to its last text; a start that the
next texts go on with but that the word does not complete passes, since read, every one of those
events would go out byte for byte.

The check costs an idle event about what two needles did: the stream learns where its events'
text lies (the bytes before it, `_Shape`), so an event shaped alike is looked at in its text's
last byte; one shaped otherwise is searched for its text fields and teaches the shape.
"""

from __future__ import annotations

import functools
import re

import orjson

from .sse import looks_like_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_WORD: Final = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
"""Bytes a word goes on with (as `machines._scanner`'s)."""
_TEXT_KEYS: Final = (b'content":', b'reasoning":')  # (`content`, `reasoning_content`, `reasoning`)
_ESCAPED: Final = re.compile(rb"\\(?:[nrtbf]|u[0-9a-fA-F]{4})\Z")  # a JSON escape no word goes on from
_SEP: Final = b"\0"  # between the literals searched: no JSON string holds it raw
_JOINED: Final = b'["\0]*'  # (a pattern) where a word goes on into the next text, or past empty ones
_INDEX: Final = b'"index":'
_ESCAPES: Final = b"nrtbf"  # (the letters of the escapes `_ESCAPED` finds, but `\\u`)
_MIRROR: Final = b'"text":'  # a `reasoning_details` entry's copy of the reasoning (`deltas.py`)
_FEW: Final = 4  # (words `rest` searches one by one; more are looked up by their starts)
_AFTER: Final = 16  # bytes after a text's closing quote that must match the learned shape's
_RARE: Final = tuple(bytes((byte,)) for byte in b"|<>={}[]():.")  # (bytes prose seldom holds, rarest first)
_Spanning = tuple[tuple[re.Pattern[bytes], bytes], ...]  # (each pattern, and the byte searched before it)
_Rests = tuple[bytes, ...]  # (`HeldStarts.rest`: what goes on into each word whose start a text ends in)
_Words = tuple[tuple[bytes, int], ...]  # (each word, and from how many bytes its start is held)


class HeldStarts:
    """The starts of the declared words that a parser holds at a text's end, found in raw JSON."""

    __slots__ = ("_after", "_apart", "_ends_with", "_firsts", "_longest", "_marks", "_prefix", "_rares",
                 "_spanning", "_starts", "_tails", "_words", "ends", "last_two", "named", "tail", "words")

    def __init__(self, words: tuple[tuple[bytes, int], ...], named: tuple[bytes, ...] = ()) -> None:
        """`words`: each word, and from how many bytes its start is held wherever it stands."""
        self._words, self.named = words, named
        """(`named`: those a declared tool's name made, `held_starts`: needles too)"""
        self.words = tuple(word for word, _ in words)
        """The words, whole: `unended` finds them in look-alikes (`PlainTemplate`'s searches leave them)."""
        (self._marks, self.ends, self._spanning, self._starts, self._tails, self._ends_with, self._apart,
         self._rares) = _searches(words)
        self._longest = max(map(len, self.words))
        self._firsts = tuple(dict.fromkeys(word[:1] for word in self.words))
        self._prefix: bytes | None = None  # the learned shape: the bytes before the text...
        self._after = b""  # ... and the first bytes after it
        self.tail = _SEP
        """The learned shape's bytes from its text's closing quote (or its mirror's) to the event's
        end (none yet: a NUL, which ends no event)."""
        self.last_two = slice(-3, -1)
        """Where an event that ends in `tail` has its text's last two bytes."""

    def rest(self, data: bytes, begin: int, close: int) -> _Rests | None:
        """What may follow for the text `data[begin:close]` (raw JSON string bytes) to go on into
        a word its parser holds the end of (each such word's rest: `=func` goes on into Kimi's
        `functions.read:` and harmony's `=functions.write`), or None when it ends in no such start."""
        if len(self._words) > _FEW:
            return self._rest_by_starts(data, begin, close)
        rests: _Rests = ()
        for word, held_from in self._words:
            at = data.rfind(word[:1], max(begin, close - len(word) + 1), close)
            while at != -1:
                size = close - at
                if data.startswith(word[:size], at) and (size >= held_from or _bounded(data, begin, at)):
                    rests += (word[size:],)
                    break
                at = data.rfind(word[:1], max(begin, close - len(word) + 1), at)
        return rests or None

    def _rest_by_starts(self, data: bytes, begin: int, close: int) -> _Rests | None:
        """`rest` for many words (a request's tool names make three each): where the text's last bytes
        hold a first byte, what follows looked up in the set of every start, not a search a word."""
        found: dict[int, bytes] = {}  # (by word: the rest after its shortest start the text ends in)
        lowest = max(begin, close - self._longest + 1)
        for first in self._firsts:
            at = data.rfind(first, lowest, close)
            while at != -1:
                start = data[at:close]
                if start in self._starts:
                    boundary = _bounded(data, begin, at)
                    for index, (word, held_from) in enumerate(self._words):
                        if index not in found and len(word) > len(start) and word.startswith(start) and (
                                len(start) >= held_from or boundary):  # fmt: skip
                            found[index] = word[len(start) :]
                at = data.rfind(first, lowest, at)
        return tuple(found[index] for index in sorted(found)) or None

    def event(self, data: bytes) -> _Rests | None:
        """The `rest` of the first text field of the event `data` (raw JSON) that ends in a held
        start, or None. An event shaped as the last one taught is looked at in its text alone:
        first its last two bytes (`ends`, where `tail` ends it), then the text."""
        prefix = self._prefix
        if prefix is not None and data.endswith(self.tail):
            close = len(data) - len(self.tail)
            begin = data.rfind(b'"', 0, close) + 1
            if begin and data[begin - 2] != 0x5C and data[close - 1] != 0x5C and data.startswith(prefix):
                return self.rest(data, begin, close)
        if prefix is not None and data.startswith(prefix):
            begin = len(prefix)
            close = data.find(b'"', begin)
            if close >= begin and data[close - 1] != 0x5C and data.startswith(self._after, close):
                return self.rest(data, begin, close)
        found = self.first(data, 0, len(data), True)
        return None if found is None else found[1]

    def first(self, data: bytes, pos: int, end: int, learn: bool = False) -> tuple[int, _Rests] | None:
        """The first text field in `data[pos:end]` (raw JSON) that ends in a held start: where its
        string opens, and its `rest`; or None (`learn`: one event, whose shape is then learned)."""
        if not learn:
            for mark in self._marks:  # (a loop, not any(): a filter for the search below)
                if data.find(mark, pos, end) != -1:
                    break
            else:
                return None
        found: tuple[int, _Rests] | None = None
        last = (-1, -1)
        for key in _TEXT_KEYS:
            at = data.find(key, pos, end)
            while at != -1 and (found is None or at < found[0]):
                value = _opening_quote(data, at + len(key), end)
                close = -1 if value == -1 else _closing_quote(data, value + 1, end)
                rest = None if close == -1 else self.rest(data, value + 1, close)
                if rest is not None:
                    found = (value, rest)
                    if all(data.find(other, close) == -1 for other in _TEXT_KEYS):  # (the last text: learned)
                        last = (value, close)
                    break
                if close != -1 and value > last[0]:
                    last = (value, close)
                at = data.find(key, at + 1, end)
        if learn and last[0] != -1 and (found is None or found[0] == last[0]):
            self._learn(data, *last)
        return found

    def _learn(self, data: bytes, value: int, close: int) -> None:
        """The shape of the event `data` whose last text field opens at `value` and closes at `close`."""
        self._prefix, self._after = data[: value + 1], data[close : close + _AFTER]
        literal = data[value : close + 1]
        mirror = data.rfind(_MIRROR + literal, close)  # (its copy, after it: the tail is after that)
        end = close if mirror == -1 else mirror + len(_MIRROR) + len(literal) - 1
        self.tail = data[end:]
        self.last_two = slice(-2 - len(self.tail), -len(self.tail))

    def goes_on(self, rests: _Rests, data: bytes, begin: int, close: int) -> bool:
        """Whether the text `data[begin:close]` may go on with one of `rests` (empty, a `\\u` escape
        at its head, or a start of it): if not, the parser would let the held start go at once."""
        for rest in rests:
            head = data[begin : min(close, begin + len(rest))]
            if rest.startswith(head) or head.startswith(b"\\u"):
                return True
        return False

    def next_goes_on(self, rest: _Rests, held: bytes, data: bytes) -> bool:
        """Whether the event `data` (raw JSON) may go on with the start the event `held` ends in:
        another choice's event, one without a text field that cannot go on, may (the general
        path decides it); one of the same choice whose texts cannot go on, or none, may not."""
        prefix = self._prefix
        if prefix is not None and held.startswith(prefix) and data.startswith(prefix):
            begin = len(prefix)  # (both shaped as learned: the same choice, the text at `begin`)
            close = data.find(b'"', begin)
            if close != -1 and data[close - 1] != 0x5C and data.startswith(self._after, close):
                return self.goes_on(rest, data, begin, close)
        if _choice(held) != _choice(data):
            return True
        for key in _TEXT_KEYS:
            at = data.find(key)
            while at != -1:
                value = _opening_quote(data, at + len(key), len(data))
                close = -1 if value == -1 else _closing_quote(data, value + 1, len(data))
                if close == -1 or self.goes_on(rest, data, value + 1, close):
                    return True
                at = data.find(key, at + 1)
        return False

    def unended(self, literals: list[bytes], joined: bytes | None = None) -> int:
        """How many of the look-alikes of `literals` (JSON strings, quotes included: their texts,
        `PlainRuns`) lead before the first that the general path must read: the first of `stops`."""
        return min(self.stops(literals, joined))

    def stops(self, literals: list[bytes], joined: bytes | None = None) -> tuple[int, int]:
        """Where in the look-alikes of `literals` a declared word begins that stands whole in their
        texts run together (in one text or across several: `_spanning`), and where a start of one
        begins that the texts after it go on with to the last (each `len(literals)`: none). A start
        that a later text goes on with but that the word does not complete passes: read, its events
        would go out byte for byte. `joined`: the literals joined by a NUL, where the caller has them."""
        if not literals:
            return 0, 0
        if self._rares and joined:  # (most windows: no rare byte of any word, so no word whole in them)
            for rare in self._rares:
                if joined.find(rare) != -1:
                    break
            else:
                return len(literals), self._start(literals)
        joined = _SEP.join(literals) if joined is None else joined
        first = len(literals)
        for spanning, last in self._spanning:  # (one pass a first byte, where a word's last byte is in them)
            found = spanning.search(joined) if not last or joined.find(last) != -1 else None
            if found is not None:
                first = min(first, joined.count(_SEP, 0, found.start()))
        return first, self._start(literals)

    def alone(self, values: list[bytes], rest: _Rests, data: bytes | None) -> bool:
        """Whether one event held (`values`, its `rest`) goes out as it was, `data` (an object) not going
        on with it, as `next_goes_on` says where no two words share a first byte (a text ends one start)."""
        return (self._apart and len(values) == 1 and data is not None and looks_like_object(data)
                and not self.next_goes_on(rest, values[0], data))  # fmt: skip

    def settle(self, values: list[bytes], rest: _Rests, data: bytes | None) -> tuple[int, bool]:
        """Of the events held raw (`values`, their data, the first's text ending in a held start, whose
        `rest` it is) and the next (`data`; None: it has none): how many held lead that pass as they
        were, and whether those after them take the general path with `data` (True: a word stands
        whole from there on, or `data` may go on and its text is not shaped as learned, or begins
        with a `\\u` escape) or stay held with it (False: a start runs on to its text's end; none
        after them: `data` is read as any event)."""
        if data == b"[DONE]":
            return len(values), False
        if data is None or not looks_like_object(data):
            return 0, True
        literals: list[bytes] = []
        prefix = self._prefix or _SEP  # (no event begins with a NUL)
        for value in (*values, data):
            close = value.find(b'"', len(prefix)) if value.startswith(prefix) else -1
            if close == -1 or value[close - 1] == 0x5C or not value.startswith(self._after, close):
                break
            literals.append(value[len(prefix) - 1 : close + 1])
        if len(literals) <= len(values) or literals[-1].startswith(b'"\\u'):  # (`data` not read alike)
            if len(values) > 1:  # (the start those held end in, together, if they read alike)
                held = b"".join(literal[1:-1] for literal in literals[: len(values)])
                rests = self.rest(held, 0, len(held)) if len(literals) >= len(values) else None
                if rests is None:
                    return 0, True
                rest = rests
            gone = not self.next_goes_on(rest, values[-1], data)
            return (len(values), False) if gone else (0, True)
        word, start = self.stops(literals)
        return (word, True) if word <= start and word < len(values) else (min(start, len(values)), False)

    def _unstarted(self, end: bytes) -> bool:
        """Whether the literal `end` surely ends in no start, whatever the texts before it: its last
        three bytes end no start of three or more, nor its last two or one a start; a text of two bytes
        ends in no two bytes of a word (`ends`); a shorter one in no byte a start ends with."""
        if len(end) > 4:
            return end[-4:-1] not in self._tails and end[-3:-1] not in self._starts and (
                end[-2:-1] not in self._firsts)  # fmt: skip
        if len(end) == 4:
            return end[-3:-1] not in self.ends
        return len(end) == 3 and end[-2] not in self._ends_with

    def _start(self, literals: list[bytes]) -> int:
        """Where in `literals` a start of a word begins that runs to the last text's end
        (`len(literals)`: none): most end in none, as their last bytes say (`_unstarted`)."""
        end = literals[-1]
        if self._unstarted(end) or end[-2] not in self._ends_with:  # (or in no byte a start ends in)
            return len(literals)
        index, tail = len(literals), b""
        while index and len(tail) < self._longest:
            index -= 1
            tail = literals[index][1:-1] + tail
        lowest = max(0, len(tail) - self._longest + 1)
        at = len(tail)
        for first in self._firsts:  # (the longest start first: a set holds every start, however short)
            found = tail.find(first, lowest, at)
            while found != -1 and tail[found:] not in self._starts:
                found = tail.find(first, found + 1, at)
            at = at if found == -1 else found
        if at == len(tail):
            return len(literals)
        while at >= len(literals[index]) - 2:  # (where in the look-alikes from `index` it begins)
            at -= len(literals[index]) - 2
            index += 1
        return index


@functools.cache
def _searches(words: _Words) -> tuple[tuple[bytes, ...], frozenset[bytes], _Spanning, frozenset[bytes],
                                     frozenset[bytes], frozenset[int], bool, tuple[bytes, ...]]:  # fmt: skip
    """What `HeldStarts` searches for `words` (made once a process): the marks every held start
    leaves in raw JSON (the word's first held bytes, or a shorter start and its closing quote:
    `fu`, `f"`); the last two bytes of every text that ends in a held start (and of a few more:
    `ends`); for look-alikes (`unended`), each word whole in one text or across several joined,
    every start of a word (a set, however short), and the bytes a start may end with
    (a quote too: an empty text's); whether no two words share a first byte (`settle`), and a rare byte
    of each word where every word has one (`_rarest`; `unended`: a window without any holds none)."""
    marks = [word[: max(held_from, 2)] for word, held_from in words]  # (a mark of two bytes at least)
    marks += [word[:size] + b'"' for word, held_from in words for size in range(1, max(held_from, 2))]
    ends = {word[size - 2 : size] for word, _ in words for size in range(2, len(word))}
    ends |= {bytes((byte,)) + word[:1] for word, held_from in words for byte in range(256)
             if held_from == 1 or byte not in _WORD or byte in _ESCAPES}  # fmt: skip
    firsts = dict.fromkeys(word[:1] for word, _ in words)  # (one search a first byte)
    spanning = tuple((re.compile(_spanning(led)), _rarest(led)) for first in firsts
                     if (led := [word for word, _ in words if word[:1] == first]))  # fmt: skip
    starts = frozenset(word[:size] for word, _ in words for size in range(1, len(word)))
    tails = frozenset(start[-3:] for start in starts if len(start) >= 3)
    ends_with = frozenset((0x22, *(byte for word, _ in words for byte in word[:-1])))
    apart = len({word[:1] for word, _ in words}) == len(words)  # (no two share a first byte)
    rares = tuple(dict.fromkeys(rare for _, rare in spanning))  # (a window without any holds no word)
    return (tuple(dict.fromkeys(marks)), frozenset(ends), spanning, starts, tails, ends_with, apart,
            rares if all(rares) else ())


def _rarest(words: list[bytes]) -> bytes:
    """A byte each of `words` holds, searched before the pattern that finds them: the first of `_RARE`
    they all hold (`:` in `functions.%s:` and `call:%s{`, `=` in `=functions.%s`), else none."""
    for rare in _RARE:
        if all(word.find(rare) != -1 for word in words):
            return rare
    return b""


def _spanning(words: list[bytes]) -> bytes:
    """A pattern that finds any of `words` (a byte at least each) with joints allowed between its bytes,
    their common starts searched once (`functions.read:`, `functions.write:`)."""
    branches = []
    for first in dict.fromkeys(word[:1] for word in words):
        rests = [word[1:] for word in words if word[:1] == first]
        ends = b"" in rests  # (a word ends here: where it stands, any it begins stands too)
        branches.append(re.escape(first) + (b"" if ends else _JOINED + _spanning(rests)))
    return branches[0] if len(branches) == 1 else b"(?:" + b"|".join(branches) + b")"


def _bounded(data: bytes, begin: int, at: int) -> bool:
    """Whether a start at `at` of the text that begins at `begin` begins a word there (no word byte
    before it, or a JSON escape no word goes on from)."""
    return (at == begin or data[at - 1] not in _WORD
            or _ESCAPED.search(data, max(begin, at - 6), at) is not None)  # fmt: skip


def _choice(data: bytes) -> bytes:
    """The bytes of the first choice index in `data` (a few bytes on from the key), or none."""
    at = data.find(_INDEX)
    return b"" if at == -1 else data[at : at + len(_INDEX) + 6]


def _opening_quote(data: bytes, pos: int, end: int) -> int:
    """Where the string value after a key's colon at `pos` opens (spacing skipped), or -1."""
    while pos < end and data[pos] in b" \t\r\n":
        pos += 1
    return pos if pos < end and data[pos] == 0x22 else -1


def _closing_quote(data: bytes, pos: int, end: int) -> int:
    """The unescaped `"` that closes a JSON string at or after `pos`, or -1."""
    close = data.find(b'"', pos, end)
    while close != -1:
        back = close - 1
        while data[back] == 0x5C:  # (a backslash)
            back -= 1
        if (close - back) % 2:
            return close
        close = data.find(b'"', close + 1, end)
    return -1


def held_starts(words: tuple[tuple[bytes, int], ...], names: list[str] | None = None) -> HeldStarts | None:
    """The `HeldStarts` of a format's declared words, or None when it declares none. A word holding
    `%s` is one word for each of the request's tool `names` (as JSON writes it: `functions.%s:`,
    `functions.read:`), none where it has none; those are the stream's needles too (`HeldStarts.named`)."""
    starts, named = _named(words, tuple(names or ()))
    return HeldStarts(starts, named) if starts else None


@functools.lru_cache(maxsize=64)
def _named(words: _Words, names: tuple[str, ...]) -> tuple[_Words, tuple[bytes, ...]]:
    """`held_starts`' words for `names` (made once for the names of the last requests): each word, and
    those a name made."""
    named = tuple((word % orjson.dumps(name)[1:-1], held) for word, held in words if word.find(b"%s") != -1
                  for name in names)  # fmt: skip
    return (*(word for word in words if word[0].find(b"%s") == -1), *named), tuple(word for word, _ in named)
