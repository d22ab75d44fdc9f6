"""TokenTemplate: read the tokens of look-alike chunks from their raw bytes alone (sans-IO).

Servers send the tokens of an answer as chunks that differ only in the text of one field:
the same id, model, provider, role and nulls around `"content":"TOKEN"`. Once one such
event is known, the next is `prefix + "TOKEN" + suffix` with the very same prefix and
suffix bytes. That is enough to know the whole chunk without parsing it:

- swapping one JSON string literal for another leaves every other value of the document
  as it was, and changes only that string;
- the bytes between prefix and suffix are one string literal exactly when, on their own,
  they parse as a JSON string that begins and ends with their first and last byte (a
  literal cannot hold an unescaped quote or a raw line break, so nothing can close it
  early, add structure, or end the SSE line).

`learn` checks the first claim on the example it is given, by parsing the event with a
probe string in the token's place; `run` checks the second on every event it reads. The
rewriter uses this for tokens that land inside an open tool call, the bulk of a
tool-heavy stream, and reads them a run of events at a time.
"""

from __future__ import annotations

import orjson

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_PROBE: Final = "\x00probe"
_DATA: Final = b"data: "
_END: Final = b"\n\n"


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
        return sum(map(len, self._lines[:count])) + len(_END) * count


class TokenTemplate:
    """The bytes around the token of one known single-line `data:` event.

    Both parts keep the token's quotes: `prefix` ends with the opening one, `suffix`
    starts with the closing one, so every look-alike event begins with `prefix` and ends
    with `suffix` whatever its token.
    """

    __slots__ = ("_prefix", "_suffix", "_tail")

    def __init__(self, prefix: bytes, suffix: bytes) -> None:
        self._prefix = prefix
        self._suffix = suffix
        self._tail = suffix[: -len(_END)]

    @classmethod
    def learn(cls, raw: bytes, chunk: dict[str, Any], field: str) -> TokenTemplate | None:
        """The template of `raw`, whose decoded `chunk` holds its token in choice 0's
        `delta[field]`; None unless that token's place in the bytes is certain."""
        if not (raw.startswith(_DATA) and raw.endswith(_END)) or b"\n" in raw[: -len(_END)] or b"\r" in raw:
            return None
        choice = chunk["choices"][0]
        encoded = orjson.dumps(choice["delta"][field])
        at = raw.rfind(encoded)
        if at < len(_DATA):
            return None
        prefix, suffix = raw[:at], raw[at + len(encoded) :]
        probe = prefix[len(_DATA) :] + orjson.dumps(_PROBE) + suffix[: -len(_END)]
        expected = {**chunk, "choices": [{**choice, "delta": {**choice["delta"], field: _PROBE}}]}
        try:
            if orjson.loads(probe) != expected:
                return None
        except orjson.JSONDecodeError:
            return None
        return cls(prefix + b'"', b'"' + suffix)

    @property
    def size(self) -> int:
        """The length of a look-alike event with a one-byte token."""
        return len(self._prefix) + len(self._suffix) + 1

    def run(self, data: bytes, start: int, stop: int) -> TokenRun:
        """The tokens of the look-alike events that `data[start:stop]` begins with.

        `stop` is just past a blank line; reading ends at the first event that is not the
        template's with another token.
        """
        prefix, tail = self._prefix, self._tail
        first, last = len(prefix) - 1, len(tail) - 1  # the token's quotes, kept in the slice
        tokens: list[str] = []
        lines = data[start:stop].split(_END)
        rest = lines.pop()  # what follows the last blank line: nothing, or a lone line break
        for at, line in enumerate(lines):
            if not (line.startswith(prefix) and line.endswith(tail)):
                return TokenRun(tokens, lines[:at], False)
            try:  # a JSON string whose quotes are the slice's ends, so exactly one literal
                tokens.append(orjson.loads(line[first : len(line) - last]))
            except orjson.JSONDecodeError:
                return TokenRun(tokens, lines[:at], False)
        return TokenRun(tokens, lines, not rest)
