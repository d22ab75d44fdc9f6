"""BracketScanner: where a JSON, Python or Gemma 4 value ends, found incrementally.

A value starts at an opening bracket and ends where its brackets balance, brackets inside
strings not counted. What a string is depends on the syntax (`Quotes`): JSON's `"…"` with
backslash escapes, Python's `"…"` and `'…'` likewise, or a quote token written on both sides
with no escapes: Gemma 4's `<|"|>…<|"|>`, FunctionGemma's `<escape>…<escape>` (with the
tokens stripped by a server there are no strings at all). The
scanner keeps its position, depth and open string, so a token-per-chunk stream is scanned
once; bracket kinds are not matched against each other (the reader that parses the value
afterwards rejects a mismatch).
"""

from __future__ import annotations

import enum
import re

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class Quotes(enum.Enum):
    """How strings are written inside a value."""

    JSON = enum.auto()
    PYTHON = enum.auto()
    GEMMA = enum.auto()
    ESCAPE = enum.auto()


_TOKENS: Final = {Quotes.GEMMA: b'<|"|>', Quotes.ESCAPE: b"<escape>"}
_NEXT: Final = {
    Quotes.JSON: re.compile(rb'["{}\[\]]'),
    Quotes.PYTHON: re.compile(rb"[\"'{}\[\]()]"),
    Quotes.GEMMA: re.compile(rb'<\|"\|>|[{}\[\]()]'),
    Quotes.ESCAPE: re.compile(rb"<escape>|[{}\[\]()]"),
}
_OPENING: Final = frozenset(b"{[(")
# Inside a string quoted by the byte, all of it up to the closing quote, escapes skipped
_STRING_REST: Final = {
    quote: re.compile(b"[^" + bytes([quote]) + rb"\\]*(?:\\.[^" + bytes([quote]) + rb"\\]*)*", re.DOTALL)
    for quote in b"\"'"
}


class BracketScanner:
    """Position, bracket depth and open string (a quote byte, or 0) of one value."""

    __slots__ = ("depth", "following", "pos", "quote", "token")

    def __init__(self, pos: int, quotes: Quotes) -> None:
        self.pos, self.depth, self.quote = pos, 0, 0
        self.following = _NEXT[quotes]  # (looked up once: an Enum hashes in Python code)
        self.token = _TOKENS.get(quotes, b"")  # (a quote token, or none)

    def state(self) -> tuple[int, int, int]:
        """Where the scan stands, for `restore`."""
        return self.pos, self.depth, self.quote

    def restore(self, state: tuple[int, int, int]) -> None:
        """Go back to a `state()`."""
        self.pos, self.depth, self.quote = state

    def advance(self, view: bytes | bytearray, upto: int) -> int | None:
        """Scan `view[pos:upto]`; the offset just past the bracket that closes the value, or None."""
        pos, depth, quote, following = self.pos, self.depth, self.quote, self.following
        while pos < upto:
            if quote == 0x3C:  # inside a string between quote tokens: up to the next one
                end = view.find(self.token, pos, upto)
                if end == -1:
                    pos = max(pos, upto - len(self.token) + 1)  # (the token may be cut)
                    break
                pos, quote = end + len(self.token), 0
                continue
            if quote:
                rest = _STRING_REST[quote].match(view, pos, upto)
                at = upto if rest is None else rest.end()
                if at < upto and view[at] == quote:
                    pos, quote = at + 1, 0
                    continue
                pos = at  # (the end, or a backslash whose escaped byte has not come yet)
                break
            found = following.search(view, pos, upto)
            if found is None:
                pos = upto
                break
            at = found.start()
            byte = view[at]
            if byte == 0x3C:  # a quote token (a partial one at the end waits for more)
                pos, quote = found.end(), 0x3C
            elif byte in b"\"'":
                pos, quote = at + 1, byte
            elif byte in _OPENING:
                pos, depth = at + 1, depth + 1
            else:
                pos, depth = at + 1, depth - 1
                if depth <= 0:
                    self.pos, self.depth, self.quote = pos, 0, 0
                    return pos
        token = self.token
        if token and not quote:  # a quote token may be cut at the end
            cut = view.rfind(b"<", max(pos - len(token) + 1, self.pos), upto)
            if cut != -1 and token.startswith(bytes(view[cut:upto])):
                pos = cut
        self.pos, self.depth, self.quote = pos, depth, quote
        return None
