"""TokenTemplate: read the tokens of look-alike chunks from their raw bytes alone (sans-IO).

Servers send the tokens of an answer as chunks that differ only in the token: the same
id, model, provider, role and nulls around `"content":"TOKEN"`, or around the token and
its mirrors (`"reasoning":"TOKEN","reasoning_details":[{..."text":"TOKEN"...}]`). Once one
such event is known, the next is `LIT.join(parts)`: the same string literal `LIT` in every
slot, with the very same parts around. That is enough to know the whole chunk without
parsing it:

- swapping string literals for others leaves every other value of the document as it
  was, and changes only those strings;
- a JSON string literal is a quote, then bytes that are neither a quote, a backslash nor
  a control character (a line break among them) or a backslash and the byte after it,
  then a quote (`STRING`): it ends at its first unescaped quote, so nothing in it can
  close it early, add structure or end the SSE line. Its escapes and its UTF-8 are
  valid exactly when orjson parses it.

`learn` checks the first claim on the example it is given, by parsing the event with a
probe string in every slot. `run` checks the second on every event it reads. It finds
where a window's literals would be from the parts' lengths alone (`_slotted`: any bytes
as long as each part, `STRING` in the first slot, the same bytes in the others), then
rebuilds the window from those literals and the parts and compares: equal, the window is
exactly look-alikes of these literals, each of them one string literal by its shape. The
literals are then parsed together, as one JSON array (escapes, UTF-8). Where the window
is not all look-alikes, it checks event by event, up to the first other one.
"""

from __future__ import annotations

import re
from itertools import repeat

import orjson

from ..deltas import with_texts
from ..sse import DATA, EVENT_END

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

_PROBE: Final = "\x00probe"
_PLAIN: Final = rb'[^"\\\x00-\x1f]*+'  # string bytes that need no escape (`*+`: no backtracking)
STRING: Final = rb'"' + _PLAIN + rb"(?:\\[^\x00-\x1f]" + _PLAIN + rb')*+"'
"""One JSON string literal, quotes included (a pattern)."""


class TokenRun:
    """The tokens of a run of look-alike events, and the raw bytes they span.

    `whole` says the run took every event it was given.
    """

    __slots__ = ("_literals", "_per_event", "_slots", "tokens", "whole")

    def __init__(self, tokens: list[str], literals: list[bytes], per_event: int, slots: int,
                 whole: bool) -> None:
        self.tokens = tokens
        self.whole = whole
        self._literals = literals  # each event's slot bytes, quotes included
        self._per_event = per_event  # the bytes of an event besides its slots
        self._slots = slots

    def span(self, count: int) -> int:
        """Bytes taken by the first `count` events of the run."""
        return self._per_event * count + self._slots * sum(map(len, self._literals[:count]))

    def event_of(self, template: TokenTemplate) -> Callable[[int], bytes]:
        """The raw bytes of the run's events by index, look-alikes of `template`."""
        parts, literals = template.parts, self._literals
        return lambda index: literals[index].join(parts)

    def after(self, size: int) -> TokenRun | None:
        """The run without the events its first `size` bytes hold; None unless those end
        at an event's end."""
        count, literals = 0, self._literals
        while size > 0 and count < len(literals):
            size -= self._per_event + self._slots * len(literals[count])
            count += 1
        return None if size else self.rest(count)

    def rest(self, count: int) -> TokenRun:
        """The run without its first `count` events."""
        if not count:
            return self
        return TokenRun(self.tokens[count:], self._literals[count:], self._per_event, self._slots, self.whole)


class TokenTemplate:
    """The bytes around the token slots of one known single-line `data:` event.

    `parts` are the bytes before the first slot, between slots, and after the last
    (the blank line included); the slots hold the token's literal, quotes included.
    """

    __slots__ = ("_between", "_head", "_parts", "_per_event", "_slots", "_slotted", "_tail")

    def __init__(self, parts: list[bytes]) -> None:
        head, tail = parts[0], parts[-1] + EVENT_END
        self._slots = len(parts) - 1
        self._parts = (*parts[:-1], tail)  # an event is `literal.join(_parts)`
        self._per_event = sum(map(len, self._parts))
        self._head, self._tail, self._between = head, tail, tail + head
        self._slotted = _slotted(tuple(map(len, self._parts)))

    @classmethod
    def learn(cls, raw: bytes, chunk: dict[str, Any], field: str) -> TokenTemplate | None:
        """The template of `raw`, whose decoded `chunk` holds its token in choice 0's
        `delta[field]` and that field's mirrors; None unless every slot is certain."""
        if not (raw.startswith(DATA) and raw.endswith(EVENT_END)) or raw.find(b"\n") != len(raw) - 2:
            return None
        if b"\r" in raw:
            return None
        choice = chunk["choices"][0]
        encoded = orjson.dumps(choice["delta"][field])
        parts = raw[: -len(EVENT_END)].split(encoded)
        if len(parts) < 2 or len(parts[0]) < len(DATA):
            return None
        probe = orjson.dumps(_PROBE).join(parts)[len(DATA) :]
        expected = {**chunk, "choices": [with_texts(choice, {field: _PROBE})]}
        try:
            if orjson.loads(probe) != expected:
                return None
        except orjson.JSONDecodeError:
            return None
        return cls(parts)

    @property
    def parts(self) -> tuple[bytes, ...]:
        """The bytes around the slots: a look-alike is `literal.join(parts)`, for its token's literal."""
        return self._parts

    @property
    def size(self) -> int:
        """The length of a look-alike event with a one-byte token."""
        return self._per_event + 3 * self._slots

    def run(self, data: bytes, start: int, stop: int) -> TokenRun:
        """The tokens of the look-alike events that `data[start:stop]` begins with.

        `stop` is just past a blank line; reading ends at the first event that is not the
        template's with another token.
        """
        literals, whole = self.literals(data, start, stop)
        try:
            tokens = orjson.loads(b"[" + b",".join(literals) + b"]")
        except orjson.JSONDecodeError:  # a bad escape or bad UTF-8: the run ends before it
            tokens = _leading_strings(literals)
            literals, whole = literals[: len(tokens)], False
        return TokenRun(tokens, literals, self._per_event, self._slots, whole)

    def one(self, data: bytes) -> str | None:
        """`run` for `data` that is one whole event (a live stream's read): its token if it is
        a look-alike, else None."""
        if not (data.startswith(self._head) and data.endswith(self._tail)):
            return None
        if self._slots == 1:
            literal = data[len(self._head) : len(data) - len(self._tail)]
            if literal[:1] != b'"' or literal[-1:] != b'"':  # (then only one string literal decodes)
                return None
        else:
            event = self._slotted.fullmatch(data)
            if event is None or event[1].join(self._parts) != data:
                return None
            literal = event[1]
        try:
            token: str = orjson.loads(literal)
        except orjson.JSONDecodeError:  # (a bad escape or bad UTF-8: the general path says so)
            return None
        return token

    def literals(self, data: bytes, start: int, stop: int) -> tuple[list[bytes], bool]:
        """`run` without decoding: the literals of the look-alikes `data[start:stop]` begins
        with (each one string literal by its shape), and whether they are all of it."""
        if not data.startswith(self._head, start):  # not even the first (a stale template, say)
            return [], start == stop
        literals, end = self._slotted.findall(data, start, stop), stop
        if not self._rebuilds(literals, data, start, stop):  # not all look-alikes: one by one
            literals, end, match, parts = [], start, self._slotted.match, self._parts
            while (event := match(data, end, stop)) is not None and event[1].join(parts) == event[0]:
                literals.append(event[1])
                end = event.end()
        return literals, end == stop

    def _rebuilds(self, literals: list[bytes], data: bytes, start: int, stop: int) -> bool:
        """Whether `data[start:stop]` is the look-alikes of these literals, back to back
        (compared in place: the window is not copied)."""
        if not literals:
            return False
        if self._slots == 1:  # (the head is checked: `literals`; two concatenations cost 3x the join)
            joined, head, tail = self._between.join(literals), len(self._head), self._tail
            return len(joined) + head + len(tail) == stop - start and data.startswith(joined, start + head) \
                and data.endswith(tail, start, stop)
        rebuilt = b"".join(map(bytes.join, literals, repeat(self._parts)))
        return len(rebuilt) == stop - start and data.startswith(rebuilt, start)


# Compiled patterns by the parts' lengths (a pure cache): a stream whose envelope changes
# learns a template every few events, and compiling costs more than reading them.
_SLOTTED: dict[tuple[int, ...], re.Pattern[bytes]] = {}
_MAX_SLOTTED: Final = 64


def _slotted(lengths: tuple[int, ...]) -> re.Pattern[bytes]:
    """Where a look-alike's literals would be, by the lengths of its parts alone: any bytes
    as long as each part, `STRING` in the first slot, the same bytes in the others."""
    pattern = _SLOTTED.get(lengths)
    if pattern is None:
        if len(_SLOTTED) >= _MAX_SLOTTED:
            _SLOTTED.clear()
        first, *rest = [b".{%d}" % length for length in lengths]
        pattern = re.compile(b"(?s)" + first + b"(" + STRING + b")" + b"(?:\\1)".join(rest))
        _SLOTTED[lengths] = pattern
    return pattern


def _leading_strings(literals: list[bytes]) -> list[str]:
    """The strings of the leading `literals` that parse as JSON."""
    tokens = []
    for literal in literals:
        try:
            tokens.append(orjson.loads(literal))
        except orjson.JSONDecodeError:
            break
    return tokens
