"""ContentThinking: `--think` for one choice's deltas, before the tool parsers see them.

A `think.ThinkSplitter` reads the choice's `content`: the reasoning found there joins the
delta's reasoning field (`reasoning_content`, or `reasoning` once the stream has used that),
where the tool parsers still look for leaked calls (docs/behaviour.md, "Think tags").

What moved only because the prompt was assumed to open the reasoning is kept (up to the section
cap): a choice that finishes normally without the closer gets it back as its answer (`Stranded`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..formats.machines._scanner import DEFAULT_MAX_SECTION_BYTES
from .events import Markup, Notice, Reasoning, Text, ToolCall
from .think import ThinkSplitter, Thought

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Final

    from ..formats import ToolSyntax
    from .events import Piece
    from .think_markers import MarkerSet

    Words = tuple[tuple[str, ...], tuple[str, ...]]
    Search = Callable[[str], re.Match[str] | None]

_REASONING_FIELDS: Final = ("reasoning", "reasoning_content")
_WINDOW: Final = 16  # texts `moving` searches at once, at first
_CUT: Final = "length"  # the one finish after which a missing closer may still have been coming


_END: Final = "\x00"  # after each text `moving` joins, where `words` are given: where a start may be held


@functools.lru_cache(maxsize=64)
def _any_of(closes: tuple[str, ...], leads: str, words: Words | None) -> Search:
    """The search for a character of `closes` (characters) or of `leads` in a text, or with
    `words`, for one of the words whole or a start of one before `_END`."""
    found = dict.fromkeys(sorted({*closes, *leads}), "")  # (each string, and what must follow it)
    if words is not None:
        found.update({start: _END for start in words[1]}, **dict.fromkeys(words[0], ""))
    return re.compile(_trie(found)).search


def _trie(found: dict[str, str]) -> str:
    """A pattern for any string of `found` followed by what it maps to, each alternative led by a
    character (so that `re` skips to those characters), those sharing one under it."""
    ends = [then for text, then in found.items() if not text]  # (what follows a string that ends here)
    if "" in ends:
        return ""  # (found already)
    nodes: dict[str, dict[str, str]] = {}
    for text, then in found.items():
        if text:
            nodes.setdefault(text[0], {})[text[1:]] = then
    branches = [*ends, *(re.escape(lead) + _trie(rest) for lead, rest in nodes.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


@dataclass(frozen=True, slots=True)
class Stranded:
    """Text a choice sent as reasoning on the assumption that the prompt opened it, when the
    choice finished normally without the closer: the model answered without thinking.

    `text` is that text, to be sent again as the answer; None when it outgrew the section cap
    (`size` UTF-8 bytes): then only a notice says so. `closer`: the closer that did not come."""

    text: str | None
    size: int
    closer: str


@dataclass(slots=True)
class Split:
    """What `ContentThinking.split` made of one choice.

    `choice` is the choice with its content split (None when its content is unchanged). A
    tag start at the end of an otherwise unchanged content is `tail` characters long: the
    choice may hold the event whole for them (`held_whole`) instead of sending it without
    them. Characters held that way by an earlier event are decided here: `lead` is their
    text (it continues the content before this event's own), `tag` is their text as a tag.
    `stranded`: the choice finished here with its answer in the reasoning field.
    """

    choice: dict[str, Any] | None
    lead: str = ""
    tag: str = ""
    tail: int = 0
    stranded: Stranded | None = None


class ContentThinking:
    """One choice's `--think` state: a `ThinkSplitter` over its `content`, and the reasoning field."""

    __slots__ = ("_cap", "_field", "_moved", "_moved_size", "_owed", "_read", "answering", "tags")

    def __init__(self, markers: MarkerSet, cap: int = DEFAULT_MAX_SECTION_BYTES) -> None:
        self.tags = ThinkSplitter(markers=markers)
        """The tag splitter (read only). While it is `busy`, every content event must come here."""
        self._field = "reasoning_content"
        self._owed = 0  # held characters whose event was held whole for them (`held_whole`)
        self._cap = cap
        self._moved: list[str] | None = []  # moved while `tags.assumed` (None: past the cap)
        self._moved_size = 0  # its UTF-8 bytes
        self.answering: list[str] | None = []
        """The text the reasoning field's parser gave back of what moved on the assumption (`answered`),
        the stranded answer's; None where it is not known (read only)."""
        self._read = 0  # the characters of the pieces it gave back (its raw spans): all it read, once flushed

    @property
    def held(self) -> int:
        """How many characters of content are held back as a possible tag start."""
        return self.tags.held

    def held_whole(self, count: int) -> None:
        """The choice held its event whole for the `tail` characters of the last split."""
        self._owed += count

    def quiet(self, choice: dict[str, Any]) -> bool:
        """Whether `split` would leave `choice` unchanged and keep nothing (nothing owed; not busy
        and no marker's first character in its content, or no content text and no finish: a
        provider's reasoning event inside an assumed block): the choice may skip it. Notes the
        stream's reasoning field as `split` does (busy: and that the provider reasons)."""
        delta = choice.get("delta")
        if type(delta) is not dict:
            return True
        content = delta.get("content")
        if self.tags.busy:
            if self._owed or (type(content) is str and content) or choice.get("finish_reason") is not None:
                return False
            for name in _REASONING_FIELDS:  # (as `split` reads them)
                if type(delta.get(name)) is str and delta[name]:
                    self.tags.provider_reasons()
                    self.answering = None  # (the reasoning parser reads the provider's text too)
                    if name == "reasoning":
                        self._field = name
            return True
        if "reasoning" in delta and type(delta["reasoning"]) is str and delta["reasoning"]:
            self._field = "reasoning"
        if self._owed:
            return False
        return type(content) is not str or not any(lead in content for lead in self.tags.leads)

    @property
    def awaiting(self) -> bool:
        """True while the splitter is busy only waiting for a closer at the content's very start
        (`ThinkSplitter.awaiting`) and nothing is owed: a choice with no content text and no
        finish changes nothing here (`skips`) but the reasoning field noted (`quiet`)."""
        return self.tags.awaiting and not self._owed

    def skips(self, choice: dict[str, Any]) -> bool:
        """Whether `quiet` would say so of `choice` and change nothing: no content text, no finish,
        nothing owed, no implicit start to undo, and no `reasoning` text unless that field is noted."""
        delta = choice.get("delta")
        if type(delta) is not dict or self._owed or self.tags.implicit:
            return False
        content = delta.get("content")
        if (type(content) is str and content) or choice.get("finish_reason") is not None:
            return False
        return self._field == "reasoning" or not delta.get("reasoning")

    @property
    def field(self) -> str:
        """The reasoning field moved text goes to (`reasoning_content`, or `reasoning` once the
        stream has used that)."""
        return self._field

    def moves(self, text: str) -> bool:
        """Whether `split` would move all of a choice's lone content `text` (no other text, no
        finish) to the reasoning field and keep nothing (`ThinkSplitter.moves`, nothing owed):
        then `moved` does what `split` does besides."""
        return not self._owed and self.tags.moves(text)

    def moves_searched(self, text: str) -> bool:
        """`moves` for a text holding a closer's lead, searched (`ThinkSplitter.moves_searched`)."""
        return not self._owed and self.tags.moves_searched(text)

    def moving(self, texts: Sequence[str], start: int, leads: str, words: Words | None = None) -> int:
        """How many of `texts` from `start` on `moves` would move one by one, none of them empty
        nor holding a character of `leads` (a run that may move as one text, `moved`), nor with
        `words` (`WordLedComposed.plain_words`), one of those words whole or ending in a start of one
        (nor, then, holding a start before `_END`: a run may end early, never late)."""
        closes = self.tags.moving
        if closes is None or self._owed:
            return 0
        search, end_of = _any_of(closes, leads, words), "" if words is None else _END
        end, stop, size = start, len(texts), _WINDOW
        if stop - start == 1:  # (one event's text, as the general path's chunks have it: searched alone)
            return 1 if texts[start] and search(texts[start] + end_of) is None else 0
        while end < stop:  # (texts joined a window at a time, doubling: one search for many)
            window = texts[end : end + size]
            joined = end_of.join(window) + end_of
            found = search(joined)
            if found is not None or "" in window:
                limit = len(joined) if found is None else found.start()
                for text in window:  # up to an empty one, or the one the character found is in
                    if not text or len(text) > limit:
                        break
                    limit -= len(text) + len(end_of)
                    end += 1
                break
            end += len(window)
            size *= 2
        return end - start

    def moved(self, text: str, pieces: Sequence[Piece] | None = ()) -> None:
        """`split`'s bookkeeping for a `text` that `moves`: kept for the stranded-answer rule, and
        the `pieces` the reasoning field's parser gave back for it, if any (`answered`; None: the
        text itself, whole, as a run no marker may begin in is)."""
        if self.tags.assumed:
            self._keep(text)
            answer = self.answering
            if answer is not None and pieces is None:  # (most moved texts: no call for them)
                answer.append(text)
                self._read += len(text)
            elif pieces:
                self.answered(pieces)
        else:
            self._moved, self._moved_size, self.answering = [], 0, None

    def answered(self, pieces: Sequence[Piece]) -> None:
        """The reasoning field's parser gave back `pieces` while the reasoning is assumed: their text
        is what it left of the moved text as text (the stranded answer, `answer`), and their text and
        raw spans count the characters it read (the pieces re-join to its input)."""
        answer = self.answering
        if answer is None:
            return
        for piece in pieces:
            if type(piece) is Text:
                answer.append(piece.text)
                self._read += len(piece.text)
            elif type(piece) is Markup or type(piece) is ToolCall:
                self._read += len(piece.raw)
            elif type(piece) is Reasoning:  # (sent in the reasoning field, as the parser's text is not)
                self._read += len(piece.text)
            elif type(piece) is not Notice:  # (a streamed call's parts: no raw span to count)
                self.answering = None
                return

    def answer(self, text: str) -> str | None:
        """The stranded answer `text` as the reasoning field's parser left it, flushed (`answered`),
        when that parser read it all and nothing else: its pieces span as many characters, and no
        provider's reasoning came (else None: a fresh parser must read it again)."""
        answer, read = self.answering, self._read
        self.answering, self._read = None, 0  # (a choice strands once)
        return "".join(answer) if answer is not None and read == len(text) else None

    def passes(self, name: str, text: str) -> bool:
        """Whether `split` would leave a delta of this one text in field `name` (and no finish)
        unchanged and keep nothing: then the text may go to its parser without it (the fast
        paths' feed ahead). A reasoning field's text passes while busy too (`quiet`), once the
        implicit start is undone."""
        if self._owed:
            return False
        if name == "content":
            return not self.tags.busy and self.tags.passes(text)
        if self.tags.implicit:  # (busy: `provider_reasons` must undo the implicit start first, `quiet`)
            return False
        if name == "reasoning":  # (what `split` notes of such a delta)
            self._field = name
        self.answering = None  # (its parser reads the provider's text: `answered`)
        return True

    def split(self, choice: dict[str, Any], in_call: bool = False,
              syntax: Callable[[], ToolSyntax] | None = None) -> Split:
        """Split the choice's content: reasoning moves to the reasoning field (see `Split`).

        A finish_reason ends the content: a held tag prefix comes out then. A tag inside a
        tool call is the call's text (a file being written may hold `<think>`): a content
        holding a tag is first read by a parser from `syntax` (a fresh one, or with `in_call`,
        the content's tool parser being inside a call, a copy of that one), whose calls and
        markers pass whole; with `in_call`, any other content passes unsplit.
        """
        delta = choice.get("delta")
        if type(delta) is not dict:
            return Split(None)
        for name in _REASONING_FIELDS:
            if type(delta.get(name)) is str and delta[name]:
                self.tags.provider_reasons()
                self.answering = None  # (the reasoning parser reads the provider's text too: `answered`)
                if name == "reasoning":
                    self._field = name
        content = delta.get("content")
        text = content if type(content) is str else ""
        owed = self._owed
        if syntax is not None and (self.tags.mentions(text) or (in_call and self.tags.ends_in_start(text))):
            pieces = self._feed_around_syntax(text, syntax, in_call)  # (in a call: its parser copied)
        elif in_call:  # a held prefix is text, and so is all of this content
            pieces = [*self.tags.flush(), *([Text(text)] if text else [])]
        else:
            pieces = self.tags.feed(text)
        finish = choice.get("finish_reason")
        if finish is not None or (owed and not text):
            pieces += self.tags.flush()  # the end, or content not continued: a held prefix is text
        stranded = self._strand(pieces, finish)
        lead, tag = "", ""
        if owed and pieces:  # decided: the first piece covers the owed characters (a tag, or text)
            self._owed = 0
            first = pieces[0]
            if isinstance(first, Markup):
                tag = first.raw[:owed]
            elif isinstance(first, Text):  # text: it continues the content before this event's own
                lead = first.text[:owed]
                pieces = ([Text(first.text[owed:])] if len(first.text) > owed else []) + pieces[1:]
        if pieces == ([Text(text)] if text else []):
            return Split(None, lead, tag, stranded=stranded)
        tail = 0 if self.tags.inside else self.tags.held - self._owed
        if tail and (tail > len(text) or pieces != ([Text(text[:-tail])] if len(text) > tail else [])):
            # more changed than a tag start at the end, or the start began in an event that went
            # out without it: no holding the event whole
            tail = 0
        answer, thought = self._texts(pieces)
        new_delta = dict(delta)
        if "content" in delta or answer:
            new_delta["content"] = answer
        if thought:
            new_delta[self._field] = (delta.get(self._field) or "") + thought
        return Split({**choice, "delta": new_delta}, lead, tag, tail, stranded)

    def _strand(self, pieces: list[Text | Thought | Markup], finish: object) -> Stranded | None:
        """Keep what moved on the assumption alone; at a normal finish still on it, that text."""
        if not self.tags.assumed:
            self._moved, self._moved_size, self.answering = [], 0, None  # a tag came: the reasoning was real
            return None
        for piece in pieces:
            if type(piece) is Thought:
                self._keep(piece.text)
        if finish is None or finish == _CUT or not self._moved_size:
            return None
        text = None if self._moved is None else "".join(self._moved)
        stranded = Stranded(text, self._moved_size, self.tags.awaited[0] if self.tags.awaited else "closer")
        self._moved, self._moved_size = [], 0
        return stranded

    def _keep(self, text: str) -> None:
        """Keep text moved on the assumption alone, up to the cap (past it, its size alone)."""
        self._moved_size += len(text.encode())
        if self._moved_size > self._cap:
            self._moved = self.answering = None
        elif self._moved is not None:
            self._moved.append(text)

    def _feed_around_syntax(
        self, text: str, syntax: Callable[[], ToolSyntax], in_call: bool
    ) -> list[Text | Thought | Markup]:  # fmt: skip
        """Split `text` as it would be split one character an event: while a parser of `syntax`
        (fresh, of the stream's syntax, fed the answer as it is split) is inside a call, the text
        is the call's (data, a tag included, as `in_call` makes it); elsewhere the splitter reads
        it. The parser's state can matter only where a marker may begin, so the text is read in
        runs that each start at a marker's first character (docs/behaviour.md, "Think tags"). It
        is made for the first text it reads (`in_call`: at once, a copy inside a call): till then
        it would be in no call (a fresh one, or fed a held marker start: undecided), and a closer
        alone needs none."""
        pieces: list[Text | Thought | Markup] = []
        leads = self.tags.leads
        starts = [at for at, character in enumerate(text) if character in leads and at]
        parser = syntax() if in_call else None
        for begin, end in zip([0, *starts], [*starts, len(text)], strict=True):
            run = text[begin:end]
            if parser is not None and parser.pending and not parser.undecided:  # inside a call: a held
                split = [*self.tags.flush(), Text(run)]  # prefix was text
            else:
                split = self.tags.feed(run)
            for piece in split:
                if type(piece) is Text:
                    parser = parser or syntax()
                    parser.feed(piece.text)
            pieces += split
        merged: list[Text | Thought | Markup] = []
        for item in pieces:  # one piece per run, as a plain feed gives
            last = merged[-1] if merged else None
            if isinstance(item, Text) and isinstance(last, Text):
                merged[-1] = Text(last.text + item.text)
            elif isinstance(item, Thought) and isinstance(last, Thought):
                merged[-1] = Thought(last.text + item.text)
            else:
                merged.append(item)
        return merged

    def flush(self) -> dict[str, str]:
        """End of stream: the held tag prefix, by the field it goes to."""
        answer, thought = self._texts(self.tags.flush())
        return {name: text for name, text in ((self._field, thought), ("content", answer)) if text}

    @staticmethod
    def _texts(pieces: list[Text | Thought | Markup]) -> tuple[str, str]:
        answer = "".join(p.text for p in pieces if isinstance(p, Text))
        return answer, "".join(p.text for p in pieces if isinstance(p, Thought))
