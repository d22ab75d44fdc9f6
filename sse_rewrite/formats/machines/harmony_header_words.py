"""A harmony header read a text at a time without its step (`HeaderWords`), and, as gpt-oss
streams it, one token a text, as a table of its words.

    <|start|> assistant <|channel|> commentary " to" "=functions" ".NAME" " <|constrain|>" json

A header that is these texts so far, in this order, is no prose and can still end, and at its
`<|message|>` its kind is known without reading it again: what the header checks
(`HarmonyCalls._keeps_header`, `header_kind`) would find in it, for each place in the table
(tests/formats/test_harmony_header_words.py walks every path). Any other text leaves the
table, and those checks read the header from then on.

`HeaderWords` is the part of `HarmonyParser` that absorbs header texts (`harmony_calls`).
"""

from __future__ import annotations

import re
import string

from ._machine import ScanningParser
from .harmony_headers import (
    CHANNEL,
    CONSTRAIN,
    MAX_HEADER,
    MESSAGE,
    OPENER_WORDS,
    START,
    Kind,
    call_name,
    header_kind,
    maybe_prose,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

OPENED: Final = {START: 0, CHANNEL: 2}
"""Where a header begins in the table, by its opener."""
_FUNCTIONS: Final = 7
NAME: Final = 8
"""The place after `.NAME` (the name may go on)."""
_TYPED: Final = 10
NEXT: Final = {
    (0, "assistant"): 1,
    (1, CHANNEL.decode()): 2,
    (2, "analysis"): 3,
    (2, "commentary"): 4,
    (2, "final"): 5,
    (4, " to"): 6,
    (6, "=functions"): _FUNCTIONS,
    (NAME, " " + CONSTRAIN.decode()): 9,
    (NAME, CONSTRAIN.decode()): 9,
    (9, "json"): _TYPED,
}
"""The next place, by the place and the text that follows it (a name's texts aside: `name_goes_on`)."""
_NAME_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_-")
_KINDS: Final = {3: (Kind.REASONING, ""), 4: (Kind.CONTENT, ""), 5: (Kind.CONTENT, "")}


def name_goes_on(place: int, text: str) -> bool:
    """Whether `text` after `place` is (more of) the tool's name: `.NAME` after `=functions`,
    name characters after it (ASCII word characters and `-`: what else a name holds leaves the table)."""
    if place == _FUNCTIONS:
        return len(text) > 1 and text[0] == "." and _NAME_CHARS.issuperset(text[1:])
    return place == NAME and bool(text) and _NAME_CHARS.issuperset(text)


def kind_at(place: int, name: str) -> tuple[Kind, str] | None:
    """The kind of a header that ends at `place` (`name`: the tool's, as its texts gave it);
    None where the table does not say (`header_kind` reads it)."""
    if place == NAME:
        return Kind.CALL, call_name(name, None)
    if place == _TYPED:
        return Kind.CALL, name
    return _KINDS.get(place)


_HEADER_PIECE: Final = re.compile(r"(?:[\w \t.=:/@\-]++|<\|(?:start|channel|constrain)\|>)*+")
"""A text of header characters and markers a header may hold, whole (as `maybe_prose` has them)."""
_HEADER_MARKERS: Final = (START, CHANNEL, CONSTRAIN)
_OPENER_WORDS: Final = tuple((marker, marker.decode(), word) for marker, word in OPENER_WORDS)
_SETTLED_WORD: Final = re.compile(rb"[ \t]*+\w*+.", re.DOTALL)
"""The word after a marker, and a character after it: no text appended can change that word."""
MESSAGE_TEXT: Final = MESSAGE.decode()
_MESSAGE_TAIL: Final = len(MESSAGE) - 1
"""Bytes of a `<|message|>` that may wait at the header's end for the text that completes it."""


class HeaderWords(ScanningParser):
    """Absorbs the texts of an open harmony header (its state, `_words*`, is `HarmonyCalls._setup`'s)."""

    _words: int
    _words_at: int
    _header_name: str
    _words_settled: bool

    def _absorb_header(self, texts: Sequence[str]) -> int:
        """Header words and markers (`assistant`, `<|channel|>`, ` to`, `=functions`, `.bash`,
        ` <|constrain|>`, `json`): what the header step would append, minus its searches, up to a
        text it must read (a `<|message|>`, a marker's start, prose; see `_keeps_header`)."""
        scan, taken = self._scan, 0
        room = self._max - scan.end + scan.start
        for text in texts:
            room -= 4 * len(text)  # (4 bytes a character bound its UTF-8 size)
            if room < 0:  # (a header over the cap is released by `feed`)
                break
            if scan.cursor < scan.end - _MESSAGE_TAIL:  # (where a `<|message|>` the text may complete begins)
                break
            if text == MESSAGE_TEXT:  # (the header step reads it: `_keeps_header` says so too)
                break
            place = self._next_word(text)
            if place is None and not self._keeps_header(text):
                break
            scan.append(text)
            scan.cursor = scan.end - _MESSAGE_TAIL
            if place is not None:
                self._words, self._words_at = place, scan.end - scan.mark
            taken += 1
        return taken

    def _next_word(self, text: str) -> int | None:
        """The header's place in `harmony_header_words` with `text` after it; None when the header
        is not in the table or `text` takes it out (then `_keeps_header` decides)."""
        scan = self._scan
        size = scan.end - scan.mark
        if size != self._words_at or size + len(text) > MAX_HEADER:
            return None
        place = NEXT.get((self._words, text))
        if place is None and name_goes_on(self._words, text):
            self._header_name = text[1:] if self._words != NAME else self._header_name + text
            return NAME
        return place

    def _header_kind(self) -> tuple[Kind, str] | None:
        """The open header's kind (`header_kind`), from its place in the table where it says."""
        scan = self._scan
        if scan.end - scan.mark == self._words_at and (kind := kind_at(self._words, self._header_name)):
            return kind
        return header_kind(scan.text(scan.mark, scan.end))

    def _keeps_header(self, text: str) -> bool:
        """Whether `text` appended leaves the open header one, still open: the header so far is
        not prose (its step or this method said so as it grew), so `text` cannot make it prose
        or end it when it stays short, is header characters and whole `<|start|>`, `<|channel|>`
        and `<|constrain|>` alone, the header's last `<` begins such a marker (no marker's start
        waits for its end), and the word after the first `<|start|>` and `<|channel|>` is
        followed by a character already (it is settled) or, with `text`, is still a word of
        harmony's or the start of one (once both words are there and settled, they stay so:
        `_words_settled`). Else the step must read it, unless `maybe_prose` says that a text
        without `<` keeps the header."""
        scan = self._scan
        view, mark, end = scan.view, scan.mark, scan.end
        if end - mark + len(text) <= MAX_HEADER and _HEADER_PIECE.fullmatch(text):
            last = view.rfind(b"<", mark, end)
            if last == -1 or view.startswith(_HEADER_MARKERS, last):
                if self._words_settled:
                    return True
                settled = 0
                for opener, name, word in _OPENER_WORDS:
                    at = view.find(opener, mark, end)
                    if at != -1:
                        at += len(opener)
                        if _SETTLED_WORD.match(view, at, end):
                            settled += 1
                        elif word.match(scan.text(at, end) + text) is None:
                            return False
                    elif (inside := text.find(name)) != -1 and word.match(text, inside + len(name)) is None:
                        return False
                self._words_settled = settled == len(_OPENER_WORDS)
                return True
        return "<" not in text and not maybe_prose(scan.text(mark, end) + text)
