"""JSON helpers for format parsers: `is_json`, `is_placeholder`, and `JsonScanner`, which tracks JSON string
and bracket state incrementally over a growing byte buffer.

Format parsers use the scanner to tell markup from data: a closing tag inside a JSON string is
data, and a JSON object ends where its brackets balance. It only looks at quotes,
backslashes and brackets, and resumes where it stopped (a string left unfinished at the
end of the text is read again, once, from its quote).
"""

from __future__ import annotations

import re

import orjson

from ...stream.events import Notice, Piece

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# Inside a string, all of it up to its closing quote, escapes skipped in one match (it stops
# short of a backslash whose escaped byte is not there yet; `*+`: possessive, see below)
_STRING_REST: Final = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
# Outside strings, everything up to the next bracket or unfinished string, whole strings skipped in the
# same match (one match per bracket: arguments have many strings, few brackets). Possessive: an unfinished
# string at the end is given up once, not retried a byte shorter at a time (3x the scan of a call's body)
_TO_BRACKET: Final = re.compile(rb'[^"{}\[\]]*+(?:"[^"\\]*+(?:\\.[^"\\]*+)*+"[^"{}\[\]]*+)*+', re.DOTALL)


def is_json(text: str) -> bool:
    """True when `text` is one complete JSON value."""
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


# A JSON string, closed (its content is data: an elision in it is the model's text)
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
# An elision written where a value or member belongs
_ELISION: Final = re.compile(r"\.\.\.|…")
# A word in angle brackets standing for the arguments (`<args>`, `<arguments>`)
_STAND_IN: Final = re.compile(r"<[A-Za-z_][\w -]*>")


def is_placeholder(arguments: str) -> bool:
    """True when `arguments` only stand for arguments: an elision outside its strings (`{...}`,
    `…`, `{"a": 1, ...}`) or a word in angle brackets (`<args>`). Such a call is never made
    (docs/behaviour.md, "Damage"): valid JSON never is one."""
    text = arguments.strip()
    if _STAND_IN.fullmatch(text):
        return True
    if ("..." not in text and "…" not in text) or is_json(text):
        return False
    return _ELISION.search(_STRING.sub('""', text)) is not None


def unwrapped(arguments: str, name: str, out: list[Piece]) -> str:
    """Arguments encoded twice become the object they hold, with a notice; others stay."""
    inner = encoded_twice(arguments)
    if inner is None:
        return arguments
    out.append(Notice("arguments-encoded-twice", f"call {name}: arguments unwrapped from a string"))
    return inner


def encoded_twice(arguments: str) -> str | None:
    """The object inside `arguments` when they are one JSON string whose content is a JSON
    object (arguments encoded twice, as some servers send them); else None."""
    if arguments[:1] != '"':
        return None
    try:
        inner = orjson.loads(arguments)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(inner, str) or inner.strip()[:1] != "{":
        return None
    try:
        return inner.strip() if isinstance(orjson.loads(inner), dict) else None
    except orjson.JSONDecodeError:
        return None


class JsonScanner:
    """String state and bracket depth of JSON text, advanced by `advance(buffer, upto)`."""

    __slots__ = ("depth", "in_string", "pos")

    def __init__(self, pos: int = 0, in_string: bool = False, depth: int = 0) -> None:
        self.pos = pos
        self.in_string = in_string
        self.depth = depth

    def reset(self, pos: int) -> None:
        """Start tracking a new value at `pos`."""
        self.pos, self.in_string, self.depth = pos, False, 0

    def state(self) -> tuple[int, bool, int]:
        """Where the scan stands, for `restore`."""
        return self.pos, self.in_string, self.depth

    def restore(self, state: tuple[int, bool, int]) -> None:
        """Go back to a `state()`."""
        self.pos, self.in_string, self.depth = state

    def advance(self, view: bytes | bytearray, upto: int) -> int | None:
        """Scan `view[pos:upto]`; return the offset just past the bracket that closes the
        outermost object or array, or None while it is still open."""
        pos, in_string, depth = self.pos, self.in_string, self.depth
        closed: int | None = None
        while pos < upto:
            if in_string:
                rest = _STRING_REST.match(view, pos, upto)
                at = upto if rest is None else rest.end()  # (it always matches, if only nothing)
                if at < upto and view[at] == 0x22:  # the closing quote
                    in_string, pos = False, at + 1
                    continue
                pos = upto if at == upto else at + 2  # (a backslash at the end: skip its escaped byte)
                break
            at = _TO_BRACKET.match(view, pos, upto).end()  # type: ignore[union-attr]  # (it always matches)
            if at == upto:
                pos = upto
                break
            byte = view[at]
            if byte == 0x22:  # '"': a string that does not end before `upto`
                in_string = True
                pos = at + 1
            elif byte in b"{[":
                depth += 1
                pos = at + 1
            else:
                depth -= 1
                pos = at + 1
                if depth <= 0:
                    closed = pos
                    depth = 0
                    break
        self.pos, self.in_string, self.depth = pos, in_string, depth
        return closed
