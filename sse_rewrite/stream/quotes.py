"""Quotes: whether a marker is quoted as code, from the text of its field read so far.

Syntax inside an inline code span (backticks), inside a fenced block of a message that is
prose, or on a markdown table row is quoted: the model shows it, it does not call
(docs/behaviour.md, "Damage"). `Quotes` follows one field's text:

- a run of backticks opens a code span, and the next run of the same length closes it; a line
  end closes it too (a stray backtick does not quote the rest of the message);
- a run of three or more backticks or tildes at a line's start (only spacing before it on the
  line) opens a fence, and a run of the same character, as long or longer, at a line's start
  closes it; a fence quotes only when prose (text other than spacing) came before it: a
  message that is one fenced block is the call itself, as some models wrap it;
- a line whose first character, spacing aside, is `|` is a table row up to its end.

A run split across texts is one run: it is settled at the next other character (or at the
marker). The parser reads the texts it hands back (`_orphans.Surroundings`). Every text that
holds one of `NEEDLES` reaches it in a stream (`StreamRewriter.needles`); texts of an idle
choice without one may pass it unread: they can only have been prose on the current line
(`skipped`). While a state is `exposed` (a line start, no prose yet, a run not settled) no
event passes unread, so the unread text of another field or choice cannot move it. One `Quotes`
follows a field for the choice (`ChoiceState`), whichever parser reads it.
"""

from __future__ import annotations

import re

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

NEEDLES: Final = (b"`", b"~", b"|", b"\\n", b"\\r")
"""Raw SSE bytes of the texts that can open or close a quote, or end a line (JSON escapes them:
a lone CR ends a line too, as in CommonMark)."""

class Unread:
    """How many events of a stream passed unread: no parser saw their text (`Quotes.skipped`)."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events = 0


_QUOTING: Final = re.compile(r"`+|~+|[\r\n]|\|")
_FENCE: Final = 3  # a fence's shortest run


class Quotes:
    """The quoting state of one field's text read so far (see module docstring)."""

    __slots__ = ("_ended", "_fence", "_fence_quotes", "_head", "_prose", "_row", "_run", "_run_head", "_span")

    def __init__(self) -> None:
        self._span = 0  # the length of the run that opened the code span, 0 outside one
        self._fence = ""  # the run that opened the fenced block we are in, "" outside one
        self._fence_quotes = False  # the open fence came after prose
        self._row = False  # the current line is a table row
        self._head = True  # only spacing read on the current line (the field's start is a line start)
        self._prose = False  # text other than spacing was read
        self._run = ""  # backticks or tildes read last, not settled yet
        self._run_head = False  # whether that run began at a line's start
        self._ended = False  # a line end was read (the field's start is no line start for `line_start`)

    def quoted(self) -> bool:
        """Whether a marker right after the text read is quoted."""
        self._settle()
        return bool(self._span or self._row or (self._fence and self._fence_quotes))

    def read(self, text: str) -> None:
        """Plain text of the field, in order."""
        if self._run or "`" in text or "|" in text or "~" in text:
            self._read_marks(text)
        elif "\n" in text or "\r" in text:  # a line end closes a span or a row
            self._span, self._row, self._ended = 0, False, True
            self._head = not text[max(text.rfind("\n"), text.rfind("\r")) + 1 :].strip(" \t")
            if not self._prose and text.strip(" \t\r\n"):
                self._prose = True
        elif (self._head or not self._prose) and text.strip(" \t"):  # (most texts: four tests)
            self._head, self._prose = False, True

    @property
    def exposed(self) -> bool:
        """Whether text passed unread could change what this state says (at a line's start, before
        any prose, or within a run of backticks or tildes): then the stream reads every event, so
        that another field's or choice's text is never taken for this one's (`skipped`)."""
        return self._head or not self._prose or bool(self._run)

    @property
    def line_start(self) -> bool:
        """Whether a line end was read and only spacing since (an orphan closer alone on its line,
        `_orphans.Surroundings`, sees line ends that passed its parser unread here)."""
        self._settle()
        return self._head and self._ended

    def skipped(self) -> None:
        """Text passed unread: it held no backtick, tilde, bar or line end, so it was prose
        on the current line, or nothing (then a line start or a fence is missed, never made)."""
        self._settle()
        self._head, self._prose = False, True

    def unknown_start(self) -> None:
        """Text of the field may have passed unread before it was first read: its first read
        text is not at a line start (a fence or row is missed there, never made)."""
        self._head = False

    def _read_marks(self, text: str) -> None:
        """`read` for a text that may open or close a quote."""
        pos = 0
        for found in _QUOTING.finditer(text):
            self._plain(text[pos : found.start()])
            mark, pos = found.group(), found.end()
            if mark[0] in "`~":
                if self._run and self._run[0] != mark[0]:
                    self._settle()
                if not self._run:
                    self._run_head = self._head
                self._run += mark
                self._head = False
                continue
            self._settle()
            if mark == "|":
                self._row = self._row or (self._head and not self._fence)
                self._head, self._prose = False, True
            else:
                self._span, self._row, self._head, self._ended = 0, False, True, True
        self._plain(text[pos:])

    def carry(self, other: Quotes) -> None:
        """Take over `other`'s state (a parser that replaces another)."""
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))

    def _plain(self, text: str) -> None:
        """Text holding no backtick, tilde, bar or line end."""
        if text:
            self._settle()
            if text.strip(" \t"):
                self._head, self._prose = False, True

    def _settle(self) -> None:
        """The run read last ended: it opens or closes a fence or a span."""
        run, self._run = self._run, ""
        if not run:
            return
        fence = self._fence
        if self._run_head and len(run) >= _FENCE and not self._span:
            if not fence:
                self._fence, self._fence_quotes = run, self._prose
            elif run[0] == fence[0] and len(run) >= len(fence):
                self._fence = ""
            self._prose = True
        elif not fence and run[0] == "`":
            self._span = 0 if self._span == len(run) else self._span or len(run)
            self._prose = True
        elif not fence:
            self._prose = True
