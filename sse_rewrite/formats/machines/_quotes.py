"""Quotes: whether the text before a marker has it quoted as code, read as the text goes by.

Syntax inside an inline code span (backticks), inside a fenced block of a message that is
prose, or on a markdown table row is quoted: the model shows it, it does not call
(docs/behaviour.md, "Damage"). `Quotes` follows, over the plain text a parser reads:

- a run of backticks opens a code span, and the next run of the same length closes it; a line
  end closes it too (a stray backtick does not quote the rest of the message);
- a run of three or more at a line's start (only spacing before it on the line) opens a fence,
  or closes the open one; it quotes only when prose (text other than spacing) came before it:
  a message that is one fenced block is the call itself, as some models wrap it;
- a line whose first character, spacing aside, is `|` is a table row up to its end.

A run split across texts is one run: it is settled at the next other character (or at the
marker). Only what the parser read counts: in a stream, text of an idle choice may pass it
unread, and the start of a field is not a line start (as `_orphans.Surroundings` reads it).
While a quote is open the parser must read every text, to see where it closes (`open`).
"""

from __future__ import annotations

import re

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_QUOTING: Final = re.compile(r"`+|[\r\n]|\|")
_FENCE: Final = 3  # backticks that open or close a fence at a line's start


class Quotes:
    """The quoting state of the text read so far (see module docstring)."""

    __slots__ = ("_fence", "_fence_quotes", "_head", "_prose", "_row", "_run", "_run_head", "_span")

    def __init__(self) -> None:
        self._span = 0  # the length of the run that opened the code span, 0 outside one
        self._fence = False  # inside a fenced block
        self._fence_quotes = False  # the open fence came after prose
        self._row = False  # the current line is a table row
        self._head = False  # only spacing read on the current line (after a line end that was read)
        self._prose = False  # text other than spacing was read
        self._run = 0  # backticks read last, not settled yet
        self._run_head = False  # whether that run began at a line's start

    @property
    def open(self) -> bool:
        """Whether a quote is open (or may be): every text must be read until it closes."""
        return bool(self._span or self._row or self._fence or self._run)

    def quoted(self) -> bool:
        """Whether a marker right after the text read is quoted."""
        self._settle()
        return bool(self._span or self._row or (self._fence and self._fence_quotes))

    def read(self, text: str) -> None:
        """Plain text the parser read (handed back), in order."""
        if self._run or "`" in text or "|" in text:
            self._read_marks(text)
        elif "\n" in text or "\r" in text:  # a line end closes a span or a row
            self._span, self._row = 0, False
            self._head = not text[max(text.rfind("\n"), text.rfind("\r")) + 1 :].strip(" \t")
            if not self._prose and text.strip(" \t\r\n"):
                self._prose = True
        elif (self._head or not self._prose) and text.strip(" \t"):  # (most texts: four tests)
            self._head, self._prose = False, True

    def _read_marks(self, text: str) -> None:
        """`read` for a text that may open or close a quote."""
        pos = 0
        for found in _QUOTING.finditer(text):
            self._plain(text[pos : found.start()])
            mark, pos = found.group(), found.end()
            if mark[0] == "`":
                if not self._run:
                    self._run_head = self._head
                self._run += len(mark)
                self._head = False
                continue
            self._settle()
            if mark == "|":
                self._row = self._row or (self._head and not self._fence)
                self._head, self._prose = False, True
            else:
                self._span, self._row, self._head = 0, False, True
        self._plain(text[pos:])

    def carry(self, other: Quotes) -> None:
        """Take over `other`'s state (a parser that replaces another)."""
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))

    def _plain(self, text: str) -> None:
        """Text holding no backtick, bar or line end."""
        if text:
            self._settle()
            if text.strip(" \t"):
                self._head, self._prose = False, True

    def _settle(self) -> None:
        """The run of backticks read last ended: it opens or closes a fence or a span."""
        run, self._run = self._run, 0
        if not run:
            return
        if self._run_head and run >= _FENCE and not self._span:
            self._fence_quotes = not self._fence and self._prose
            self._fence = not self._fence
        elif not self._fence:
            self._span = 0 if self._span == run else self._span or run
        if not self._fence:
            self._prose = True
