"""ChoiceRewriter: rewrites the deltas of one choice (`choices[i]`) across a stream.

It owns one format parser per text field (`reasoning`, `reasoning_content`,
`content`), hands out `tool_calls` indexes that never collide with native ones, turns
legacy `function_call` deltas into `tool_calls`, keeps mirrored reasoning in step with
the text it rewrites (`deltas.py`), and fixes `finish_reason`. It works on decoded JSON
objects only. Its state, and the hot path that needs no rewrite (`absorb`, `feed_ahead`),
are `ChoiceState`'s (`choice_state.py`); content moved inside a think block, `ChoiceThoughts`'s
(`choice_thoughts.py`).

Held events (docs/behaviour.md, "Hold the event, not the bytes"): when a choice's text
ends in characters that may begin a marker and nothing else in it would change, its
result is held (`ChoiceResult.undecided > 0`) rather than rebuilt without them, until
later pieces decide them (`undecided.py`). The next event of the choice that does not
continue the field decides them as text: that field's parser is flushed.

With `--stream-arguments` the parsers' call pieces become `tool_calls` deltas in parts
(`streamed_calls.py`). With `--think`, content is split first (`content_thinking.ContentThinking`):
the reasoning it held joins the reasoning field, where it is parsed like any reasoning.
"""

from __future__ import annotations

from .call_indexes import CUT_FINISH, LEGACY_CALL, NATIVE_CALLS, NORMAL_FINISHES, rewritten_finish
from .choice_result import ChoiceResult
from .choice_thoughts import ChoiceThoughts, hands_back
from .chunks import tool_call_delta
from .deltas import carries_nothing, lone_text, scanned_fields, set_text, split_pieces
from .events import Markup, Notice, Piece, Reasoning, Text, ToolCall
from .fed_pieces import calls_only, reasoning_text
from .streamed_calls import CallPart

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..formats import ToolSyntax
    from .content_thinking import Stranded

    Item = tuple[str, Piece | CallPart]


class ChoiceRewriter(ChoiceThoughts):
    """Rewrites one choice: its deltas, role and finish handling (see module docstring)."""

    def rewrite(self, choice: dict[str, Any]) -> ChoiceResult:
        """Rewrite one incoming choice object (under `--think`, its content split first)."""
        self._read_on()
        if self._think is None or self._think.quiet(choice):
            fed = self._fed  # (a text fed ahead and held whole: the plan has nothing to do, `held_whole`)
            held = None if fed is None or fed[2] else self.held_whole(choice)
            return self._rewrite(choice, False) if held is None else held
        parser = self._parsers.get("content")  # inside a call: pending, and not for a marker's start
        in_call = parser is not None and parser.pending and not parser.undecided
        split = self._think.split(choice, in_call, None if self._make_parser is None else self._reader_ahead)
        lead: list[Item] = []
        if split.tag:  # held characters of earlier events were a tag: those events lose them
            parser = self._parsers.get("content")
            if parser is not None and parser.undecided:  # what it holds before the tag was text
                self._account("content", self._parsers.pop("content").flush(), lead)
            self._undecided.decide("content", [Markup(split.tag)], 0)
        elif split.lead:  # they were text, which continues the content
            self._account("content", self._parser("content").feed(split.lead), lead)
        if split.choice is None or (split.tail and self._make_parser is not None):
            # unchanged, or changed only by a tag start at the end, for which the event may be
            # held whole (not without a parser, `--format none`: then it goes out without them)
            return self._rewrite(choice, False, lead, split.tail, split.stranded)
        result = self._rewrite(split.choice, True, lead, stranded=split.stranded)
        if result.choice is None and not result.emptied:  # kept as given: the split alone changed it
            result.choice = split.choice
            result.blank = carries_nothing(split.choice, result.role_seen)
        return result

    @property
    def awaits(self) -> bool:
        """True while `pending` only because the content's splitter waits for a closer at its very
        start (`ContentThinking.awaiting`: the provider reasons in a field of its own) and no
        parser holds or watches anything: an event with no content text and no finish, and no
        needle, needs no work (`quiet`)."""
        think = self._think
        if think is None or not think.awaiting:
            return False
        for parser in self._parsers.values():  # noqa: SIM110 (a loop, not all(): once per rewritten chunk)
            if parser.pending or parser.watching:
                return False
        return True

    def quiet(self, choice: dict[str, Any], noting: bool = True) -> bool:
        """Whether the content's split leaves `choice` unchanged (`ContentThinking.quiet`, which notes
        what it must; not `noting`: `ContentThinking.skips`, nothing to note); without `--think`, True."""
        think = self._think
        return think is None or (think.quiet(choice) if noting else think.skips(choice))

    def _reader_ahead(self) -> ToolSyntax:
        """A parser for the split to read ahead with (`ContentThinking.split`): inside a call, a
        copy of the content's own (where the call closes in this chunk, what follows is split as
        it would be one character an event); else a fresh one of its syntax, fed what the
        content's own holds undecided (a call opener cut across events, `<to` | `ol_call>`): the
        one the choice made first while it is unfed (`_spare`: a `</think>`'s split reads with it,
        and a stranded answer, which only a choice without a closer has, makes its own)."""
        assert self._make_parser is not None
        own = self._parsers.get("content")
        if own is not None and own.pending and not own.undecided:
            import copy  # (rarely needed: start-up stays light)

            return copy.deepcopy(own)
        parser, self._spare = self._spare or self._make_parser(), None
        if own is not None and own.undecided:
            parser.feed(own.held)
        return parser

    def _stranded(self, stranded: Stranded) -> list[Item]:
        """The answer the reasoning field got (docs/behaviour.md, "Think tags"), to be sent again in
        `content`: its text as the reasoning's parser left it (its calls were made there), and a
        notice; past the section cap, the notice alone. Where that parser read the moved text alone,
        the text it gave back as it read (`ContentThinking.answer`); else a fresh parser's read."""
        if stranded.text is None:
            note = (f"the choice finished without the {stranded.closer} its prompt was assumed to open: its "
                    f"{stranded.size} bytes of reasoning may be its answer, too long to send again")
            return [("content", Notice("stranded-answer", note))]
        text, think = stranded.text, self._think
        if self._make_parser is not None and think is not None:  # (only a split strands an answer)
            parser, self._spare = self._spare or self._make_parser(), None
            read = not hands_back(parser, text)  # (else: no marker may begin in it, read or not)
            kept = think.answer(text) if read else None
            if kept is not None:
                text = kept
            elif read:
                pieces = [*parser.feed(text), *parser.flush(True)]
                text = "".join(piece.text for piece in pieces if type(piece) is Text)
        note = (f"the choice finished without the {stranded.closer} its prompt was assumed to open: its "
                f"reasoning ({stranded.size} bytes) is sent again as its answer in content")
        return [("content", Notice("stranded-answer", note)), *([("content", Text(text))] if text else [])]

    def moved(self, choice: dict[str, Any]) -> dict[str, Any] | None:
        """What `rewrite` makes of `choice` when its content, fed ahead, went to the reasoning field
        (harmony's analysis channel; a marker's start held or released with it: `reasoning_text`)
        and nothing else in it needs sending: that one field's
        choice, without the plan; else None (then `rewrite` runs, as it would have)."""
        fed = self._fed
        if fed is None or fed[0] != "content" or (text := reasoning_text(fed[2])) is None \
                or self._undecided.runs:
            return None
        parser = self._parsers["content"]
        if parser.undecided or not parser.pending:
            return None
        delta = choice.get("delta")
        if type(delta) is not dict or NATIVE_CALLS in delta or LEGACY_CALL in delta:
            return None
        if not carries_nothing(choice, self._role_seen, ("content",)):
            return None
        self._fed = None
        return self.moved_choice(text)

    @property
    def fed_answered(self) -> bool:
        """Whether the text fed ahead came back as calls (and markup) only, or as it was: then
        `fed_calls` may answer its choice (asked before the choice is decoded)."""
        fed = self._fed
        if fed is None:
            return False
        pieces = fed[2]
        if len(pieces) == 1 and type(pieces[0]) is Text:
            return pieces[0].text == fed[1]
        return calls_only(pieces)

    def fed_calls(self, choice: dict[str, Any]) -> list[dict[str, Any]] | None:
        """What `rewrite` makes of `choice` when its one text, fed ahead, made only calls (and
        markup), and nothing else in it needs sending: the calls' choices, one each (`_extra`,
        as `_rebuild` makes them), without the plan; else None (then `rewrite` runs). A content
        text the think block moved whole into the reasoning field's syntax counts as that field's
        (fed ahead by `absorb` or `thoughts`: the split would move it there). No calls, [], for a
        text that came back as it was (`_fed_text`): the choice goes out unchanged."""
        fed = self._fed
        if fed is None or self._streamed is not None or self._undecided.runs:
            return None
        if not calls_only(fed[2]):
            return self._fed_text(choice, fed)
        found = lone_text(choice, self._role_seen)
        think = self._think
        moved = think is not None and found == ("content", fed[1]) and fed[0] == think.field
        if found != fed[:2] and not moved:  # (the choice carries nothing else)
            return None
        self._fed = None
        if moved:
            assert think is not None
            think.moved(fed[1], fed[2])
        if fed[0] == "reasoning":  # (as `_rewrite` reads the field: the stream's reasoning field)
            self._reasoning_field = "reasoning"
        return [self._called(piece) for piece in fed[2] if type(piece) is ToolCall]

    def _fed_text(self, choice: dict[str, Any], fed: tuple[str, str, list[Piece]]) -> list[Any] | None:
        """`fed_calls` of a lone text that came back as it was (one `Text`, nothing undecided, the
        split quiet, as `rewrite` asks first: a reasoning field's text while the splitter awaits a
        closer at the content's start, too): no calls, `rewrite` sends the choice unchanged; else None."""
        pieces, think = fed[2], self._think
        if len(pieces) != 1 or type(pieces[0]) is not Text or pieces[0].text != fed[1]:
            return None
        if self._parsers[fed[0]].undecided or (think is not None and not think.quiet(choice)):
            return None
        if lone_text(choice, self._role_seen) != fed[:2]:
            return None
        self._fed = None  # (what `_rewrite` and `_rebuild` do with it, minus the work)
        if fed[0] == "reasoning":
            self._reasoning_field = "reasoning"
        return []

    def _rewrite(self, choice: dict[str, Any], moved: bool, lead: list[Item] | None = None,
                 tail: int = 0, stranded: Stranded | None = None) -> ChoiceResult:
        """Rewrite `choice` (`moved`: its content was split by `--think`). `lead`: pieces of held
        content decided as text; `tail`: characters at the end of the content that `--think`
        holds as a tag start (kept from the parser; the event is held whole for them if it can);
        `stranded`: a stranded answer, sent after everything else the choice says (`_stranded`)."""
        delta = choice.get("delta")
        if type(delta) is not dict:
            delta = {}
        role_seen = self._role_seen
        if "role" in delta:
            self._role_seen = True
        scanned = scanned_fields(delta) if self._make_parser is not None else {}
        if "reasoning" in scanned:  # the stream's reasoning field, where `Reasoning` pieces go
            self._reasoning_field = "reasoning"
        finish = choice.get("finish_reason")
        items: list[Item] = lead or []
        own: list[tuple[str, list[Any]]] = []  # this event's undecided characters, by field
        fed, self._fed = self._fed, None
        assert fed is None or scanned.get(fed[0]) == fed[1], "`feed_ahead` fed this very event"
        for name, value in scanned.items():
            self._last_field = name
            parser = self._parser(name)
            held = tail if name == "content" else 0
            pieces = fed[2] if fed is not None and fed[0] == name else parser.feed(value[: len(value) - held])
            if pieces or self._undecided.runs or parser.undecided or held:
                after = self._think.held if held and self._think is not None else 0  # all it holds
                entry = self._account(name, pieces, items, after, len(value))
                if entry is not None:
                    own.append((name, entry))
        if self._undecided.runs:
            for name in [n for n in self._undecided.fields() if n not in scanned]:  # not continued: text
                self._account(name, self._parsers.pop(name).flush(), items)
        if finish is not None:
            items += self._flush_parsers(finish in NORMAL_FINISHES, finish == CUT_FINISH)
        plain = finish is None and NATIVE_CALLS not in delta and LEGACY_CALL not in delta
        if plain and not own and scanned and _markup_only(items):
            # Every text went into syntax (open, or dropped as `Markup`): the choice is its texts
            # emptied, made only if it goes out.
            emptied = tuple(scanned)
            blank = carries_nothing(choice, role_seen, emptied)
            return ChoiceResult(emptied=emptied, blank=blank, role_seen=role_seen, source=choice)
        result = ChoiceResult(role_seen=role_seen)
        if own and plain and not moved and self._undecided.may_hold(scanned, own, items):
            if tail and self._think is not None:
                self._think.held_whole(tail)
            return self._hold(choice, result, own, items)
        return self._rebuild(choice, delta, scanned, items, result, stranded)

    def flush(self) -> ChoiceResult:
        """End of stream: everything the parsers still hold, as extra choice objects."""
        result = ChoiceResult()
        items: list[Item] = []
        for name, text in (self._think.flush() if self._think is not None else {}).items():
            if self._make_parser is None:
                items.append((name, Text(text)))
            else:
                self._account(name, self._parser(name).feed(text), items)
        head, tail, result.notices = split_pieces(items + self._flush_parsers())
        texts = {k: "".join(v) for k, v in head.items()}
        segments: list[dict[str, str] | ToolCall | CallPart] = [texts] if texts else []
        result.extras = [self._extra(segment, {}, result) for segment in segments + tail]
        return result

    # -- held characters

    def _account(self, name: str, pieces: list[Piece], items: list[Item], after: int = 0,
                 fresh: int = 0) -> list[Any] | None:
        """Add the field's pieces to `items`, minus text already in held events' bytes; the
        run of this feed's characters left undecided, if any (`after`: more of them, past
        what the parser holds: a tag start `--think` holds; `fresh`: the characters the event
        added to the field, see `UndecidedText.decide`)."""
        parser = self._parsers.get(name)
        held = (0 if parser is None else parser.undecided) + after
        if (think := self._think) is not None and think.answering is not None and name == think.field:
            think.answered(pieces)  # (a stranded answer's text)
        kept, entry = self._undecided.decide(name, pieces, held, fresh)
        parts = kept if self._streamed is None else self._streamed.parts(name, kept)
        for piece in parts:  # harmony's reasoning channel read in `content` goes to the reasoning field
            if type(piece) is Reasoning:
                items.append((self._reasoning_field if name == "content" else name, Text(piece.text)))
            else:
                items.append((name, piece))
        return entry

    def _hold(
        self, choice: dict[str, Any], result: ChoiceResult, own: list[tuple[str, list[Any]]],
        items: list[Item],
    ) -> ChoiceResult:
        result.notices = [piece for _, piece in items if isinstance(piece, Notice)]
        result.source = choice
        for _, entry in own:
            entry[0] = result
            result.undecided += entry[1]
        return result

    # -- rebuilding

    def _rebuild(
        self, choice: dict[str, Any], delta: dict[str, Any], scanned: dict[str, str],
        items: list[Item], result: ChoiceResult, stranded: Stranded | None,
    ) -> ChoiceResult:
        """`choice` with its texts, calls and finish as `items` make them; a `stranded` answer
        (`_stranded`, its parsers flushed) in a chunk of its own after them, which takes the finish."""
        new_delta = dict(delta)
        changed = self._indexes.remap_native(new_delta)
        legacy = None
        if self._legacy:
            legacy = self._indexes.convert_legacy(new_delta, lambda index: self._call_id(index, None))
        if legacy is not None:
            changed = True
            result.calls += legacy >= 0
        head, tail, result.notices = split_pieces(items)
        if stranded is not None:
            answer_head, _, notices = split_pieces(self._stranded(stranded))
            result.notices += notices
            tail += [{"content": "".join(texts)} for texts in answer_head.values()]
        for name, value in scanned.items():
            text = "".join(head.pop(name, []))
            if text != value:
                changed = True
                set_text(new_delta, delta, name, text)
        before = []
        for name, texts in head.items():  # a field this delta has (empty), or one it lacks
            if name in delta:
                changed = True
                set_text(new_delta, delta, name, "".join(texts))
            else:
                before.append(self._extra({name: "".join(texts)}, {}, result))
        result.before = before
        extras = result.extras = [self._extra(segment, delta, result) for segment in tail]
        finish = choice.get("finish_reason")
        new_finish = rewritten_finish(finish, self._legacy, self._indexes.calls)
        if not (changed or result.extras or new_finish != finish):
            return result
        new_choice = {**choice, "delta": new_delta}
        if extras:
            if "finish_reason" in choice:  # a rewritten chunk gains no key
                new_choice["finish_reason"] = None
            extras[-1]["finish_reason"] = new_finish
        elif new_finish != finish:
            new_choice["finish_reason"] = new_finish
        result.choice = new_choice
        result.blank = carries_nothing(new_choice, result.role_seen)
        return result

    def _flush_parsers(self, finished: bool = False, cut: bool = False) -> list[Item]:
        """Flush every parser (`finished`: the choice finished normally, `cut`: at `length`, see
        `ToolSyntax.flush`: only the field written last can have been cut, by either)."""
        items: list[Item] = []
        for name, parser in list(self._parsers.items()):
            del self._parsers[name]
            last = name == self._last_field
            self._account(name, parser.flush(finished and last, cut and last), items)
        return items

    def _extra(
        self, segment: dict[str, str] | ToolCall | CallPart, source: dict[str, Any], result: ChoiceResult
    ) -> dict[str, Any]:
        if isinstance(segment, ToolCall):
            result.calls += 1
            return self._called(segment)
        delta: dict[str, Any] = {}
        if isinstance(segment, CallPart):
            result.calls += segment.call is not None
            delta["tool_calls"] = [segment.delta(self._call_id)]
        else:
            for name, text in segment.items():
                set_text(delta, source, name, text)
        return {"index": self.index, "delta": delta, "finish_reason": None}

    def _called(self, call: ToolCall) -> dict[str, Any]:
        """The choice that sends the complete `call`, at the next index we emit."""
        index = self._indexes.take()
        call_id = self._call_id(index, call)
        delta = {"tool_calls": [tool_call_delta(index, call_id, call.name, call.arguments)]}
        return {"index": self.index, "delta": delta, "finish_reason": None}


def _markup_only(items: list[Item]) -> bool:
    """Whether every piece is syntax that carries no text (none at all, or `Markup`)."""
    for _, piece in items:  # noqa: SIM110 (a loop, not all(): this runs once per rewritten choice)
        if type(piece) is not Markup:
            return False
    return True
