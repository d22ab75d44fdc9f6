"""LiteralReader: Python and Gemma 4 literals read into JSON text, without `eval`.

Llama 4 and LFM2 write calls as Python (`[get_weather(city="Dublin", days=3)]`), Gemma 4 as
`call:NAME{key:<|"|>text<|"|>,n:42}`. This reader accepts exactly the literals those carry
and turns them into JSON text; anything else (a name, an expression, a positional argument)
makes the whole read fail with `NotALiteral`, so the caller keeps the text as written.

- Python: strings (quotes `'`, `"`, triple quotes, `r`/`u`/`b` prefixes, escapes), numbers
  (a JSON number keeps its text; `1_000`, `0x1F`, `.5`, `1e3`, `07` are converted), `True`,
  `False`, `None` (and `true`, `false`, `null`, which these models also write), lists,
  tuples and sets (as arrays), dicts with literal keys, and keyword calls `name(a=1)`.
- Gemma 4: objects with bare keys `{key:value}`, strings between `<|"|>` quotes (no
  escapes), JSON numbers and words; with the quote tokens stripped by the server
  (`stripped`), a bare value runs to the next `,`, `}` or `]` and is typed as the
  project's raw-text values are (`typed_object`: JSON when it parses, else a string).
- FunctionGemma: Gemma's grammar with `<escape>` as its quote token (`quote`); its values are
  raw text (`stripped`), quoted or not, typed the same way (`<escape>42<escape>` is 42).
"""

from __future__ import annotations

import re

import orjson

from .tool_call_bodies import typed_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, TypeVar

    from ...tool_schemas import Parameters

    _Item = TypeVar("_Item")

GEMMA_QUOTE: Final = '<|"|>'
"""Gemma 4's string delimiter (a special token)."""
ESCAPE_QUOTE: Final = "<escape>"
"""FunctionGemma's (a special token too)."""
_MAX_DEPTH: Final = 64
_SPACE: Final = re.compile(r"[ \t\r\n]*")
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_JSON_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_PY_NUMBER: Final = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)"
    r"(?:[eE][-+]?[0-9]+)?)"
)
_STRING_PREFIX: Final = re.compile(r"[rRuUbB]{0,2}(?=['\"])")
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0",
                   "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\n": ""}  # fmt: skip
_HEX_ESCAPE: Final = {"x": 2, "u": 4, "U": 8}
_WORDS: Final = {"True": "true", "False": "false", "None": "null", "true": "true", "false": "false",
                 "null": "null"}  # fmt: skip
_BARE_END: Final = re.compile(r"[,}\]]")


class NotALiteral(ValueError):
    """The text is not a literal this reader accepts (the caller keeps it as text)."""


class LiteralReader:
    """Reads one text from `pos`; every `read_…` method returns JSON text and moves `pos`."""

    def __init__(
        self, text: str, *, gemma: bool = False, stripped: bool = False, quote: str = GEMMA_QUOTE,
        parameters: Parameters | None = None,
    ) -> None:  # fmt: skip
        self.text = text
        self._parameters = parameters  # (the tool's schema: it types the raw values of the top object)
        self.pos = 0
        self._gemma = gemma
        self._quote = quote
        self._stripped = stripped
        self._depth = 0

    def space(self) -> None:
        """Skip spacing."""
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # (always matches)

    def at_end(self) -> bool:
        """Whether only spacing is left."""
        self.space()
        return self.pos == len(self.text)

    def expect(self, char: str) -> None:
        """Skip spacing, then `char`."""
        if not self.take(char):
            raise NotALiteral(f"expected {char!r} at {self.pos}")

    def take(self, char: str) -> bool:
        """Skip spacing; take `char` if it is next."""
        self.space()
        if self.text.startswith(char, self.pos):
            self.pos += len(char)
            return True
        return False

    def name(self) -> str:
        """A name (`get_weather`, `brave_search.call`)."""
        self.space()
        found = _NAME.match(self.text, self.pos)
        if found is None:
            raise NotALiteral(f"expected a name at {self.pos}")
        self.pos = found.end()
        return found.group()

    def value(self) -> str:
        """One literal, as JSON text."""
        self.space()
        if self._depth > _MAX_DEPTH:
            raise NotALiteral("nested too deeply")
        text, pos = self.text, self.pos
        char = text[pos : pos + 1]
        self._depth += 1
        try:
            if char == "[":
                return self._sequence("]")
            if char == "{":
                return self._gemma_object() if self._gemma else self._dict()
            if char == "(" and not self._gemma:
                return self._sequence(")")
            if self._gemma and text.startswith(self._quote, pos):
                return _json_string(self._quoted())
            if self._stripped:
                return self._bare()
            if not self._gemma and _STRING_PREFIX.match(text, pos):
                return _json_string(self._python_string())
            return self._scalar()
        finally:
            self._depth -= 1

    def keywords(self, close: str) -> str:
        """`key=value, …` (or `key: value`) up to `close`, as a JSON object."""
        return "{" + ", ".join(self.listed(close, self._keyword)) + "}"

    def call(self) -> tuple[str, str]:
        """A keyword call `name(a=1, …)`: its name and its arguments as a JSON object."""
        name = self.name()
        self.expect("(")
        return name, self.keywords(")")

    def _keyword(self) -> str:
        """One `key=value` (or `key: value`) as a JSON member."""
        key = self.name()
        if not (self.take("=") or self.take(":")):
            raise NotALiteral(f"argument {key!r} has no value")
        return f"{_json_string(key)}: {self.value()}"

    def _sequence(self, close: str) -> str:
        self.pos += 1
        return "[" + ", ".join(self.listed(close, self.value)) + "]"

    def listed(self, close: str, item: Callable[[], _Item]) -> list[_Item]:
        """What `item` reads, each once, comma-separated (a trailing comma allowed) up to `close`."""
        items: list[_Item] = []
        while not self.take(close):
            if items:
                self.expect(",")
                if self.take(close):
                    break
            items.append(item())
        return items

    def _dict(self) -> str:
        """A dict as a JSON object; a set (`{'a', 'b'}`: no item has a `:`) as an array."""
        self.pos += 1
        entries = self.listed("}", self._entry)
        if entries and all(value is None for _, value in entries):
            return "[" + ", ".join(key for key, _ in entries) + "]"
        if any(value is None for _, value in entries):
            raise NotALiteral("a set item among a dict's members, or a member among a set's items")
        return "{" + ", ".join(f"{_json_string(key)}: {value}" for key, value in entries) + "}"

    def _entry(self) -> tuple[str, str | None]:
        """A dict's `key: value` (the key as text), or a set's item (JSON text, no value)."""
        value = self.value()
        if not self.take(":"):
            return value, None
        key = orjson.loads(value)
        if isinstance(key, bool) or key is None or isinstance(key, list | dict):
            raise NotALiteral("a key that JSON cannot hold")
        return str(key), self.value()

    def _gemma_object(self) -> str:
        self.pos += 1
        members: list[tuple[str, str]] = []
        while not self.take("}"):
            if members:
                self.expect(",")
            key = self._gemma_key()
            self.expect(":")
            self.space()
            if self._stripped and self.text.startswith(self._quote, self.pos):
                members.append((key, self._quoted()))
            elif self._stripped and self.text[self.pos : self.pos + 1] not in ("{", "["):
                schema = self._parameters.property(key) if self._parameters and self._depth == 1 else None
                members.append((key, self._raw() if schema else _dotted(self._raw())))
            else:
                members.append((key, self.value()))
        if self._stripped:  # raw values typed as the project's are (containers are JSON already)
            return typed_object(members, self._parameters if self._depth == 1 else None)
        return "{" + ", ".join(f"{_json_string(key)}: {value}" for key, value in members) + "}"

    def _quoted(self) -> str:
        """The text between a quote token at `pos` and the next one."""
        start = self.pos + len(self._quote)
        end = self.text.find(self._quote, start)
        if end == -1:
            raise NotALiteral("unclosed string")
        self.pos = end + len(self._quote)
        return self.text[start:end]

    def _gemma_key(self) -> str:
        self.space()
        if self.text.startswith(self._quote, self.pos):
            return str(orjson.loads(self.value()))
        return self.name()

    def _bare(self) -> str:
        """A value whose quotes were stripped: a container, else its raw text, typed."""
        if self.text[self.pos : self.pos + 1] in ("{", "["):
            return self.value()
        return typed_object([("", _dotted(self._raw()))]).removeprefix('{"": ').removesuffix("}")

    def _raw(self) -> str:
        """The raw text up to the next `,`, `}` or `]`."""
        found = _BARE_END.search(self.text, self.pos)
        end = len(self.text) if found is None else found.start()
        raw, self.pos = self.text[self.pos : end], end
        return raw

    def _scalar(self) -> str:
        text, pos = self.text, self.pos
        word = _NAME.match(text, pos)
        if word is not None:
            if word.group() not in _WORDS:
                raise NotALiteral(f"not a literal: {word.group()!r}")
            self.pos = word.end()
            return _WORDS[word.group()]
        number = _PY_NUMBER.match(text, pos)
        if number is None or not number.group().strip("+-"):
            raise NotALiteral(f"not a literal at {pos}")
        self.pos = number.end()
        written = number.group().removeprefix("+")
        if _JSON_NUMBER.fullmatch(written):
            return written
        if self._gemma and not _JSON_NUMBER.fullmatch(written.removesuffix(".")):  # (`108.` is 108.0)
            raise NotALiteral(f"not a JSON number: {written!r}")
        digits = written.replace("_", "")
        whole = "x" in digits.lower() or not any(c in digits for c in ".eE")
        base = 0 if digits.lstrip("-")[1:2].isalpha() else 10  # (`07` is 7, as the engines read it)
        try:
            converted: float = int(digits, base) if whole else float(digits)
        except ValueError as error:
            raise NotALiteral(f"not a number: {written!r}") from error
        return orjson.dumps(converted).decode()

    def _python_string(self) -> str:
        text = self.text
        prefix = _STRING_PREFIX.match(text, self.pos)
        assert prefix is not None  # (checked by the caller)
        raw = "r" in prefix.group().lower()
        start = prefix.end()
        quote = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
        pos, parts = start + len(quote), []
        while True:
            end = text.find(quote, pos)
            escape = text.find("\\", pos)
            if end == -1:
                raise NotALiteral("unclosed string")
            if escape == -1 or escape > end:
                parts.append(text[pos:end])
                self.pos = end + len(quote)
                break
            parts.append(text[pos:escape])
            pos = self._escape(parts, escape, raw)
        return "".join(parts)

    def _escape(self, parts: list[str], at: int, raw: bool) -> int:
        """The escape at `at` (a backslash) appended to `parts`; returns where the string goes on."""
        text = self.text
        char = text[at + 1 : at + 2]
        if raw:
            parts.append(text[at : at + 2])
            return at + 2
        if char in _ESCAPES:
            parts.append(_ESCAPES[char])
            return at + 2
        if char in _HEX_ESCAPE:
            digits = text[at + 2 : at + 2 + _HEX_ESCAPE[char]]
            if len(digits) != _HEX_ESCAPE[char] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise NotALiteral("a broken escape")
            parts.append(chr(int(digits, 16)))
            return at + 2 + len(digits)
        parts.append("\\")  # an unknown escape keeps its backslash, as Python does
        return at + 1


def _dotted(raw: str) -> str:
    """A bare `108.` as `108.0`: the number its text is, quoted or not (the guess reads JSON alone)."""
    text = raw.strip()
    return text + "0" if text.endswith(".") and _JSON_NUMBER.fullmatch(text[:-1]) else raw


def _json_string(value: str) -> str:
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError as error:  # (a lone surrogate from a `\ud800` escape)
        raise NotALiteral("a string JSON cannot hold") from error
