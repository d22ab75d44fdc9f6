"""TokenTemplate: read the tokens of look-alike chunks from their raw bytes alone (sans-IO).

Servers send the tokens of an answer as chunks that differ only in the token: the same
id, model, provider, role and nulls around `"content":"TOKEN"`, or around the token and
its mirrors (`"reasoning":"TOKEN","reasoning_details":[{..."text":"TOKEN"...}]`). Once one
such event is known, the next is `parts[0] + LIT + parts[1] + LIT + ... + parts[-1]`, the
same string literal `LIT` in every slot, with the very same parts. That is enough to know
the whole chunk without parsing it:

- swapping string literals for others leaves every other value of the document as it
  was, and changes only those strings;
- bytes that begin and end with a quote are one string literal exactly when, on their
  own, they parse as a JSON document (a literal cannot hold an unescaped quote or a raw
  line break, so nothing can close it early, add structure, or end the SSE line).

`learn` checks the first claim on the example it is given, by parsing the event with a
probe string in every slot; `run` checks the second on every event it reads, and that
every slot holds the same bytes.
"""

from __future__ import annotations

import orjson

from ..deltas import with_texts
from ..sse import DATA, EVENT_END

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_PROBE: Final = "\x00probe"


class TokenRun:
    """The tokens of a run of look-alike events, and the raw bytes they span.

    `whole` says the run took every event it was given.
    """

    __slots__ = ("_lines", "tokens", "whole")

    def __init__(self, tokens: list[str], lines: list[bytes], whole: bool) -> None:
        self.tokens = tokens
        self.whole = whole
        self._lines = lines  # each event's bytes, without its blank line

    def span(self, count: int) -> int:
        """Bytes taken by the first `count` events of the run."""
        return sum(map(len, self._lines[:count])) + len(EVENT_END) * count


class TokenTemplate:
    """The bytes around the token slots of one known single-line `data:` event.

    `_parts` are the bytes before the first slot, between slots, and after the last
    (without the blank line); the slots hold the token's literal, quotes included.
    """

    __slots__ = ("_fixed", "_head", "_middles", "_tail")

    def __init__(self, parts: list[bytes]) -> None:
        self._head, *self._middles, self._tail = parts
        self._fixed = sum(map(len, parts))

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
    def size(self) -> int:
        """The length of a look-alike event with a one-byte token."""
        return self._fixed + 3 * (len(self._middles) + 1) + len(EVENT_END)

    def run(self, data: bytes, start: int, stop: int) -> TokenRun:
        """The tokens of the look-alike events that `data[start:stop]` begins with.

        `stop` is just past a blank line; reading ends at the first event that is not the
        template's with another token.
        """
        head, tail, middles = self._head, self._tail, self._middles
        slots, fixed, first = len(middles) + 1, self._fixed, len(head)
        tokens: list[str] = []
        lines = data[start:stop].split(EVENT_END)
        rest = lines.pop()  # what follows the last blank line: nothing, or a lone line break
        if not middles:  # one slot: the literal is what lies between head and tail, quotes kept
            loads, error, last = orjson.loads, orjson.JSONDecodeError, len(tail)
            head, tail = head + b'"', b'"' + tail
            for at, line in enumerate(lines):
                if not (line.startswith(head) and line.endswith(tail)):
                    return TokenRun(tokens, lines[:at], False)
                try:
                    tokens.append(loads(line[first : len(line) - last]))
                except error:
                    return TokenRun(tokens, lines[:at], False)
            return TokenRun(tokens, lines, not rest)
        for at, line in enumerate(lines):
            if not (line.startswith(head) and line.endswith(tail)):
                return TokenRun(tokens, lines[:at], False)
            size, odd = divmod(len(line) - fixed, slots)
            literal = line[first : first + size]
            if odd or literal[:1] != b'"' or literal[-1:] != b'"':
                return TokenRun(tokens, lines[:at], False)
            pos = first + size
            for middle in middles:  # the same literal in every slot, the same bytes between
                if not line.startswith(middle, pos) or not line.startswith(literal, pos + len(middle)):
                    return TokenRun(tokens, lines[:at], False)
                pos += len(middle) + size
            try:  # a document between two quotes: exactly one string literal
                tokens.append(orjson.loads(literal))
            except orjson.JSONDecodeError:
                return TokenRun(tokens, lines[:at], False)
        return TokenRun(tokens, lines, not rest)
