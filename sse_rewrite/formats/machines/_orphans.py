"""Orphan closers: where a closer with nothing open is syntax left over, and where it is words.

A closer found in plain text (`</tool_call>`, `<|tool_call_end|>`) is dropped, with a notice,
only where it adjoins syntax (the three cases of docs/behaviour.md, "Damage"): right after a
call or section the parser closed; alone on its line; a vocabulary token (not a tag closer
`</...>`) that ends the message. Anywhere else it is the model's words, kept byte for byte.
Only what the parser read counts (the start of a field is not a line start here); a closer
whose line, or message, is not over waits in the scanner (the parser is `pending`).

`Surroundings` is what the parser knows of the text before its cursor: the pieces a feed hands
back (`begin`, `catch_up`) and the plain texts handed back at once (`text`). While it can still
drop a later closer (`watching`), every event of the field must reach the parser (`choice_state.py`).
"""

from __future__ import annotations

import re

from ...stream.events import Markup, Notice, Piece, Text, ToolCall
from ...stream.quotes import Quotes
from ._scanner import NEED_MORE, NON_SPACE, MarkerScanner, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Final

_SPACING: Final = " \t\r\n"
_NOT_BLANK: Final = re.compile(rb"[^ \t]")
_NONE: Final[MarkerTable[None]] = MarkerTable({b"<": None})  # (a table is not empty; unused without closers)
_TAG_CLOSER: Final = b"</"  # how a tag closer begins; every other closer is a vocabulary token


class Surroundings:
    """What precedes the scan cursor, as far as an orphan closer, or a quote (`stream/quotes.py`),
    cares (see module docstring)."""

    __slots__ = ("_out", "_seen", "after_syntax", "at_end", "blocks", "closers", "last", "line_start",
                 "markers", "owed", "quotes", "reads_all")  # fmt: skip

    def __init__(self, markers: MarkerTable[Any], closers: bool = True) -> None:
        self.markers = markers  # what counts as a marker on a closer's line
        self.closers = closers  # whether a closer can be an orphan here (else only quotes are followed)
        self.quotes = Quotes()  # whether a marker read next is quoted as code (the choice's: `quotes`)
        self.after_syntax = False  # a call or section closed, and only spacing came after it
        self.line_start = False  # a newline was read, and only spacing came after it
        self.at_end = False  # the field ended: a line still open ends here
        self.last = ""  # the last character of the text read, "" at the start or after syntax
        self.reads_all = False  # a part needs `last` (`ListSyntax.word_start`): every text is read
        # Closers owed as words (their openers were released as prose), by the owing part's value for
        # them or by their bytes, and closers of blocks whose calls were read (markup, no notice): the
        # parts of a composition share them, since the first part holding a closer is the one to find it
        self.owed: dict[Any, int] = {}
        self.blocks: set[bytes] = set()
        self._out: list[Piece] = []
        self._seen = 0

    @property
    def watching(self) -> bool:
        """Whether a closer read next could be dropped: every text must be read until it is not.
        (A quote needs no watching: every text that opens or closes one is read, `Quotes`.)"""
        return (self.closers and (self.after_syntax or self.line_start)) or self.reads_all

    def begin(self, out: list[Piece]) -> None:
        """A feed starts: its pieces go to `out`."""
        self._out, self._seen = out, 0

    def catch_up(self) -> None:
        """Read the pieces handed back since the last look."""
        out = self._out
        for index in range(self._seen, len(out)):
            piece = out[index]
            kind = type(piece)
            if kind is Text:
                self.text(piece.text)  # type: ignore[union-attr]
            elif kind is ToolCall or kind is Markup:
                self.after_syntax, self.line_start, self.last = True, False, ""
        self._seen = len(out)

    def quoted(self) -> bool:
        """Whether a marker right after what was handed back is quoted as code (then it is text)."""
        self.catch_up()
        return self.quotes.quoted()

    def take_over(self, other: Surroundings) -> None:
        """Read on from where `other` stopped (a parser that replaces another: `_lazy`)."""
        self.line_start, self.last, self.quotes = other.line_start, other.last, other.quotes

    def text(self, text: str) -> None:
        """Plain text handed back."""
        self.quotes.read(text)
        if text:
            self.last = text[-1]
        if not self.closers:  # (the lines below only serve closers)
            return
        cut = max(text.rfind("\n"), text.rfind("\r"))
        if cut >= 0:
            self.line_start = not text[cut + 1 :].strip(" \t")
            if self.after_syntax and text.strip(_SPACING):
                self.after_syntax = False
        elif (self.line_start or self.after_syntax) and text.strip(" \t"):
            self.line_start = self.after_syntax = False

    def adjoins(self, scan: MarkerScanner, pos: int, length: int) -> bool | None:
        """Whether the closer at `pos` adjoins syntax (drop it); None while its line, or for a
        vocabulary token its message, is not over."""
        self.catch_up()
        if self.after_syntax:
            return True
        token = not scan.view.startswith(_TAG_CLOSER, pos)
        line_start = self.line_start or self.quotes.line_start  # (its line end may have passed unread)
        if not (line_start or token):
            return False
        view, at = scan.view, pos + length
        blank = _NOT_BLANK if line_start else NON_SPACE  # (a token's message runs past its line)
        while True:  # only spacing and markers up to the line's (message's) end?
            found = blank.search(view, at)
            if found is None:
                return True if self.at_end else None
            at = found.start()
            if view[at] in b"\r\n":  # (a line start's line ends here)
                return True
            marker = scan.match(at, self.markers)
            if marker is NEED_MORE:
                return False if self.at_end else None
            if marker is None:
                return False
            at += marker[1]


class QuotesRead:
    """The `ToolSyntax.quotes` of a parser whose `Surroundings` read its text."""

    _around: Surroundings

    @property
    def quotes(self) -> Quotes:
        """Whether a marker read next is quoted as code (`stream/quotes.py`)."""
        return self._around.quotes

    @quotes.setter
    def quotes(self, quotes: Quotes) -> None:
        self._around.quotes = quotes


class OrphanClosers(QuotesRead):
    """The orphan-closer half of `ScanningParser`: a closer found in plain text is decided here."""

    ORPHANS: ClassVar[frozenset[Any]] = frozenset()
    """The values of `OPENERS` that are closers: with nothing open, `_orphan` decides them."""

    OPENERS: ClassVar[MarkerTable[Any]]
    TEXT: ClassVar[Any]
    _state: Any
    _scan: MarkerScanner
    _around: Surroundings

    def _init_orphans(self, surroundings: Surroundings | None) -> None:
        markers = self.OPENERS if hasattr(self, "OPENERS") else _NONE  # (none: it follows quotes alone)
        self._around = surroundings or Surroundings(markers, bool(self.ORPHANS))

    @property
    def watching(self) -> bool:
        """True while a closer read next could be dropped: every text of the field must come here."""
        return self._around.watching

    def _found(self, value: Any, pos: int, length: int, out: list[Piece]) -> bool:
        """Handle the `OPENERS` marker at `pos` in plain text; False while it waits for more input.
        A marker quoted as code (`stream/quotes.py`) is text."""
        if self._around.quoted():
            out.append(Text(self._scan.take(pos + length)))  # (the text before it is out)
            return True
        if value in self.ORPHANS:
            return self._orphan(value, pos, length, out)
        self._open(value, pos, length, out)
        return True

    def _open(self, value: Any, pos: int, length: int, out: list[Piece]) -> None:
        """Handle the opener found at `pos` in plain text (text before it is out)."""
        raise NotImplementedError

    def _run(self, out: list[Piece]) -> None:
        raise NotImplementedError

    def _end_line(self, out: list[Piece]) -> None:
        """The field ends: a closer held in plain text waits for its line's end, which is here."""
        around = self._around
        if self._state is self.TEXT and self._scan.buffered:
            around.begin(out)
            around.at_end = True
            self._run(out)

    def _orphan(self, value: Any, pos: int, length: int, out: list[Piece]) -> bool:
        """A closer at `pos` with nothing open: dropped where it adjoins syntax, else words;
        False while its line is not over (the cursor waits on it)."""
        scan, owed = self._scan, self._around.owed
        key = value if value in owed else bytes(scan.view[pos : pos + length])
        count = owed.get(key)
        if count:  # the closer of an opener released as prose (by this part or another)
            owed[key] = count - 1
            out.append(Text(scan.take(pos + length)))
            return True
        adjoins = self._around.adjoins(scan, pos, length)
        if adjoins is None:
            scan.cursor = pos
            return False
        closer = scan.take(pos + length)
        if adjoins:
            out.append(Markup(closer))
            if key in self._around.blocks:  # (it ends a block whose calls were read, by any part)
                self._around.blocks.discard(key)
            else:
                out.append(Notice("orphan-marker", f"dropped {closer} with nothing open"))
        else:
            out.append(Text(closer))
        return True

    def _owe(self, closer: Any, count: int = 1) -> None:
        """Openers were released as prose: as many of their closers are words too (`closer`: its
        bytes, which any part finds it by, or this part's own value for it)."""
        if count:
            owed = self._around.owed
            owed[closer] = owed.get(closer, 0) + count
