"""ChoiceThoughts: a choice's content moved to the reasoning field, the short way.

Inside a think block the prompt opened (`--think`), a content token's chunk goes out with the
token moved to the reasoning field. `ContentThinking.split` and the rewrite do that for any
chunk; for a chunk whose lone text is that content, `thought` does it without them, and
`thoughts` moves the look-alikes after it (runs of them as one text where no marker may
begin), exactly as the split and the rewrite would (tests/test_thought_events.py). Harmony's
analysis channel read in `content` goes to the reasoning field too: `moved_on` takes the
tokens after one its parser sent there whole (`moved_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .choice_streaming import ChoiceStreaming
from .chunks import moved_choice, thought_choice
from .deltas import lone_text
from .events import Text
from .fed_pieces import reasoning_text

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..formats import ToolSyntax
    from .events import Piece


class ChoiceThoughts(ChoiceStreaming):
    """`ChoiceStreaming` and the short way for content moved to the reasoning field (see module docstring)."""

    def moved_choice(self, text: str) -> dict[str, Any]:
        """The choice that sends `text` of the content to the reasoning field (harmony's analysis)."""
        return moved_choice(self.index, self._reasoning_field, text)

    def moved_on(self, texts: Sequence[str]) -> list[str]:
        """After `moved` sent a fed content text to the reasoning field (harmony's analysis channel):
        what the leading `texts` that go there send, each fed as `feed_ahead` would (a text, or less
        or more where a marker's start is held or released: `reasoning_text`); it stops after one that
        sends nothing ("", a call's opener). It stops before a text with a `<` (a marker, for
        `feed_ahead`), and at a fed text that does anything else: that one waits in `_fed`, and
        `moved` declines it, as it would have after `feed_ahead` (a text the content's reasoning
        markers would split too: `ContentThinking.passes`)."""
        parser, think = self._parsers.get("content"), self._think
        if parser is None or self._undecided.runs or self._fed is not None or (think and think.tags.busy):
            return []
        self._read_on()
        moved = []
        for text in texts:
            if not text or "<" in text or (think is not None and not think.passes("content", text)):
                break
            if parser.absorb_reasoning(text):  # (what the feed below would find, unfed)
                moved.append(text)
                continue
            pieces = parser.feed(text)
            reasoning = reasoning_text(pieces)  # (the text, or less or more: a marker's start held, released)
            if parser.undecided or not parser.pending or (pieces and reasoning is None):
                self._fed = ("content", text, pieces)
                break
            if reasoning is None:  # (into syntax, a call's opener: `take_run` reads on, absorbs its body)
                moved.append("")
                break
            moved.append(reasoning)
        return moved

    def thought(self, choice: dict[str, Any]) -> dict[str, Any] | None:
        """What `rewrite` makes of `choice` when its lone content text (`lone_text`) all moves to
        the reasoning field (`--think` inside a block: `ContentThinking.moves`) and that field's
        parser gives it back as text: the choice with it moved (`chunks.thought_choice`); else
        None (the parser's pieces, if it was fed, wait in `_fed`: `rewrite` runs next)."""
        think = self._think
        if think is None or not think.tags.busy:
            return None
        fed = self._fed
        if (fed is not None or self._undecided.runs) and not self._held_on(think.field):
            return None
        found = lone_text(choice, self._role_seen)
        if found is None or found[0] != "content" or (fed is not None and fed[1] != found[1]):
            return None  # (fed: by `thoughts`, this very text, or not at all)
        moved = self._thinks(found[1], True)
        return None if moved is None else self.thought_choice(choice, moved)

    def _held_on(self, field: str) -> bool:
        """Whether the only undecided characters are the reasoning `field`'s, of events that went
        out without them (no owner: the text that decides them goes out with them), and the
        parser's pieces waiting in `_fed`, if any, are that field's (`thoughts` fed them)."""
        runs, fed = self._undecided.runs, self._fed
        if fed is not None and fed[0] != field:
            return False
        return not runs or (len(runs) == 1 and all(run[0] is None for run in runs.get(field, [[0]])))

    def thought_choice(self, choice: dict[str, Any], text: str) -> dict[str, Any]:
        """`choice`, whose lone text is its content, with `text` there moved as `thought` moves it."""
        assert self._think is not None
        return thought_choice(choice, self._think.field, text)

    def thoughts(self, texts: Sequence[str]) -> list[str]:
        """After `thought` took a look-alike of these (the same choice but for its content,
        `texts`): what `thought` moves to the reasoning field of each of the leading ones it
        takes (the text, or where the parser holds or releases a start, the text it gave back)."""
        think = self._think
        if think is None or self._fed is not None:
            return []
        count = 0 if self._undecided.runs else self._thought_run(texts, 0)
        moved = list(texts[:count])
        while count < len(texts) and texts[count]:
            if self._undecided.runs and not self._held_on(think.field):
                break
            text = self._thinks(texts[count], True)
            if text is None:
                break
            moved.append(text)
            count += 1
            if not self._undecided.runs:
                run = self._thought_run(texts, count)
                moved += texts[count : count + run]
                count += run
        return moved

    def _thought_run(self, texts: Sequence[str], start: int) -> int:
        """`_thinks` for the run of `texts` from `start` on in which no marker may begin (of the
        think block's closers, nor of the reasoning parser's, `plain_leads`): fed as one text
        (its parser hands that back whole) and kept as one (`ContentThinking.moved`); how many."""
        think = self._think
        assert think is not None
        content = self._parsers.get("content")
        if content is not None and content.pending and not content.undecided:
            return 0  # (inside a call: as `_thinks`)
        field, parser, leads, words = think.field, None, "", None
        if self._make_parser is not None:
            parser = self._parser(field)
            plain: str | None = getattr(parser, "plain_leads", None)  # (a parser without it: none known)
            if plain is None:
                return 0
            leads = plain
            worded = getattr(parser, "plain_words", None)  # (letter-led openers: `WordLedComposed`)
            if worded is not None:
                leads, words = worded
        count = think.moving(texts, start, leads, words)
        if not count:
            return 0
        text = texts[start] if count == 1 else "".join(texts[start : start + count])
        if parser is not None:
            self._read_on()
            self._last_field = field
            parser.feed(text)  # (handed back whole: no lead in it)
            if field == "reasoning":
                self._reasoning_field = field
        think.moved(text, () if parser is None else None)
        return count

    def _thinks(self, text: str, held: bool = False) -> str | None:
        """Move a lone content `text` as `thought` does: the text that went (its reasoning parser
        gave it back as text, holding nothing; with `held`, any text, all its pieces' and not
        empty, the characters it holds or decides noted as the rewrite notes them); else None,
        nothing moved (the parser's pieces, if fed, wait in `_fed`)."""
        think = self._think
        assert think is not None
        if not think.moves(text):
            return None
        content = self._parsers.get("content")
        if content is not None and content.pending and not content.undecided:
            return None  # (inside a call: `split` leaves the content as it is)
        field, moved = think.field, text
        pieces: list[Piece] | None = []  # (what the reasoning parser gave back, for `moved`)
        if self._make_parser is not None:  # (`--format none`: no parser reads the reasoning)
            self._read_on()
            self._last_field = field
            parser = self._parser(field)
            fed = self._fed
            if fed is None:
                pieces = parser.feed(text)
            else:
                pieces, self._fed = fed[2], None
            whole = len(pieces) == 1 and type(pieces[0]) is Text and pieces[0].text == text
            if self._undecided.runs or parser.undecided or not whole:
                moved = "".join(piece.text for piece in pieces if type(piece) is Text) if held else ""
                if not moved or not all(type(piece) is Text for piece in pieces):
                    self._fed = (field, text, pieces)
                    return None
                self._undecided.decide(field, pieces, parser.undecided, len(text))  # (no owner: as sent)
            else:
                pieces = None  # (given back whole: `moved` keeps the text itself)
            if field == "reasoning":
                self._reasoning_field = field
        think.moved(text, pieces)
        return moved


def hands_back(parser: ToolSyntax, text: str) -> bool:
    """Whether `parser`, fed `text` now, would hand it back whole as one `Text` and hold nothing:
    it holds none of the characters without which it does (`plain_leads`), nor, for letter-led
    openers (`WordLedComposed.plain_words`), one of those words or a start of one at its end."""
    leads: str | None = getattr(parser, "plain_leads", None)  # (a parser without it: none known)
    worded = getattr(parser, "plain_words", None)
    if leads is None:
        return False
    if worded is not None:
        leads, (words, starts) = worded
        if text.endswith(starts) or any(word in text for word in words):
            return False
    return not any(lead in text for lead in leads)
