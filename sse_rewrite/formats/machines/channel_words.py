"""A channel header read a text at a time without its step (`HeaderWords`), where the syntax
declares the header as its model streams it, one token a text (`recipients.HeaderTable`).

    <|start|> assistant <|channel|> commentary " to" "=functions" ".NAME" " <|constrain|>" json

A header that is these texts so far, in this order, is no prose and can still end, and at its
`<|message|>` its kind is known without reading it again: what the header checks
(`_keeps_header`, `ChannelSyntax.kind`) would find in it, for each place in the table
(tests/formats/test_harmony_marker_paths.py walks every path). Any other text leaves the
table, and those checks read the header from then on.

`HeaderWords` is the part of `ChannelParser` that absorbs header texts (`channel_calls`).
"""

from __future__ import annotations

import re

from ._machine import ScanningParser
from .recipients import MAX_HEADER, MESSAGE

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import ClassVar, Final

    from .recipients import ChannelSyntax, Kind

_SETTLED_WORD: Final = re.compile(rb"[ \t]*+\w*+.", re.DOTALL)
"""The word after a marker, and a character after it: no text appended can change that word."""
MESSAGE_TEXT: Final = MESSAGE.decode()
_MESSAGE_TAIL: Final = len(MESSAGE) - 1
"""Bytes of a `<|message|>` that may wait at the header's end for the text that completes it."""


class HeaderWords(ScanningParser):
    """Absorbs the texts of an open header (its state, `_words*`, is `ChannelCalls._setup`'s)."""

    SYNTAX: ClassVar[ChannelSyntax]
    _words: int
    _words_at: int
    _header_name: str
    _words_settled: bool

    def _absorb_header(self, texts: Sequence[str]) -> int:
        """Header words and markers (`assistant`, `<|channel|>`, ` to`, `=functions`, `.bash`,
        ` <|constrain|>`, `json`): what the header step would append, minus its searches, up to a
        text it must read (a `<|message|>`, a marker's start, prose; see `_keeps_header`)."""
        scan = self._scan
        if self.SYNTAX.words is None:  # (the step reads every header text)
            return 0
        room = self._max - scan.end + scan.start
        for taken, text in enumerate(texts):
            room -= 4 * len(text)  # (4 bytes a character bound its UTF-8 size)
            if room < 0:  # (a header over the cap is released by `feed`)
                return taken
            if scan.cursor < scan.end - _MESSAGE_TAIL:  # (where a `<|message|>` the text may complete begins)
                return taken
            if text == MESSAGE_TEXT:  # (the header step reads it: `_keeps_header` says so too)
                return taken
            place = self._next_word(text)
            if place is None and not self._keeps_header(text):
                return taken
            scan.append(text)
            scan.cursor = scan.end - _MESSAGE_TAIL
            if place is not None:
                self._words, self._words_at = place, scan.end - scan.mark
        return len(texts)

    def _next_word(self, text: str) -> int | None:
        """The header's place in the syntax's `HeaderTable` with `text` after it; None when the
        header is not in the table or `text` takes it out (then `_keeps_header` decides)."""
        scan, words = self._scan, self.SYNTAX.words
        assert words is not None  # (`_absorb_header` asks only where there is a table)
        size = scan.end - scan.mark
        if size != self._words_at or size + len(text) > MAX_HEADER:
            return None
        place = words.next.get((self._words, text))
        if place is None and words.name_goes_on(self._words, text):
            self._header_name = text[1:] if self._words != words.name else self._header_name + text
            return words.name
        return place

    def _header_kind(self) -> tuple[Kind, str] | None:
        """The open header's kind (`ChannelSyntax.kind`), from its place in the table where it says."""
        scan, syntax = self._scan, self.SYNTAX
        words = syntax.words
        if words is not None and scan.end - scan.mark == self._words_at:
            kind = words.kind_at(self._words, self._header_name)
            if kind is not None:
                return kind
        return syntax.kind(scan.text(scan.mark, scan.end))

    def _keeps_header(self, text: str) -> bool:
        """Whether `text` appended leaves the open header one, still open: the header so far is
        not prose (its step or this method said so as it grew), so `text` cannot make it prose
        or end it when it stays short, is header characters and whole header markers alone
        (`<|start|>`, `<|channel|>`, `<|constrain|>`), the header's last `<` begins such a marker
        (no marker's start waits for its end), and the word after the first of each opener of
        `opener_words` is followed by a character already (it is settled) or, with `text`, is
        still one of its words or the start of one (once all are there and settled, they stay
        so: `_words_settled`). Else the step must read it, unless `maybe_prose` says that a text
        without `<` keeps the header."""
        scan, syntax = self._scan, self.SYNTAX
        view, mark, end = scan.view, scan.mark, scan.end
        words = syntax.words
        assert words is not None  # (`_absorb_header` asks only where there is a table)
        if end - mark + len(text) <= MAX_HEADER and words.piece.fullmatch(text):
            last = view.rfind(b"<", mark, end)
            if last == -1 or view.startswith(words.markers, last):
                if self._words_settled:
                    return True
                settled = 0
                for opener, name, word in syntax.opener_words:
                    at = view.find(opener, mark, end)
                    if at != -1:
                        at += len(opener)
                        if _SETTLED_WORD.match(view, at, end):
                            settled += 1
                        elif word.match(scan.text(at, end) + text) is None:
                            return False
                    elif (inside := text.find(name)) != -1 and word.match(text, inside + len(name)) is None:
                        return False
                self._words_settled = settled == len(syntax.opener_words)
                return True
        return "<" not in text and not syntax.maybe_prose(scan.text(mark, end) + text)
