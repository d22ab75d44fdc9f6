"""ChoiceState: one choice's rewrite state, and the hot path that needs no rewrite.

`ChoiceRewriter` (`choice.py`) is built on it. The state: a format parser per text field,
the call indexes, the undecided text of held events, `--stream-arguments` and `--think`
helpers, whether the role was sent. The hot path: most chunks of a tool-heavy stream only
add text to open syntax, and leave nothing to send (`absorb`, `take_run`, `feed_ahead`);
what is fed ahead and hands pieces back waits in `_fed` for the rewrite of that very chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .call_indexes import CallIndexes
from .choice_result import ChoiceResult
from .deltas import lone_text, scanned_fields
from .events import Piece, ToolCall
from .fed_pieces import markup_only, reasoning_whole, streams_only
from .quotes import Quotes, Unread
from .streamed_calls import CallPart, StreamedCalls
from .undecided import UndecidedText

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..formats import ToolSyntax
    from .content_thinking import ContentThinking
    from .streamed_calls import Part

CallId = Callable[[int, ToolCall | None], str]
"""Gives the id of the call with this output index (the parsed call, or None if legacy)."""


class ChoiceState:
    """Per-choice state (parsers by field, tool-call indexes, role) and the hot path."""

    def __init__(
        self, index: int, make_parser: Callable[[], ToolSyntax] | None, call_id: CallId, legacy: bool = True,
        stream_arguments: bool = False, think: ContentThinking | None = None, unread: Unread | None = None,
    ):  # fmt: skip
        """`unread`: the stream's count of events that passed unread (a stream's choices share it)."""
        self.index = index
        self._make_parser = make_parser
        self._call_id = call_id
        self._parsers: dict[str, ToolSyntax] = {}
        self._quotes: dict[str, Quotes] = {}  # by field: each field's parsers read it in turn
        self._unread = unread or Unread()
        self._read_to = self._born = self._unread.events  # the stream's unread events when it last read
        parser = self._spare = None if make_parser is None else make_parser()  # (unfed: `_reader_ahead`)
        if parser is not None and getattr(parser, "reads_from_start", False):  # (it must see the content from
            self._parsers["content"], self._spare = parser, None  # its first text: Llama's bare calls)
            parser.quotes = self._quotes["content"] = Quotes()
            parser.holder = self._parsers  # type: ignore[attr-defined]  # (a gate's: `WholeAnswerParser`)
        self._undecided = UndecidedText()
        self._indexes = CallIndexes()
        self._legacy = legacy  # whether legacy `function_call` deltas become `tool_calls`
        self._streamed = StreamedCalls(self._indexes) if stream_arguments else None
        self._think = think
        self._role_seen = False
        self._reasoning_field = "reasoning_content"  # `reasoning` once the stream has used it
        self._fed: tuple[str, str, list[Piece]] | None = None  # see `feed_ahead`
        self._last_field = ""  # the field text last went to: a stop sequence cuts that one

    @property
    def call_id(self) -> CallId:
        """Gives the id of this choice's call with an output index."""
        return self._call_id

    @property
    def calls(self) -> int:
        """How many calls this choice has emitted (recovered and legacy)."""
        return self._indexes.calls

    @property
    def pending(self) -> bool:
        """True while any field's parser holds text back, or `--think` must see all content."""
        for parser in self._parsers.values():  # a loop, not any(): this runs once per rewritten chunk
            if parser.pending:
                return True
        return self._thinking

    @property
    def watching(self) -> bool:
        """True while some field's parser must read every text (`ToolSyntax.watching`)."""
        for parser in self._parsers.values():  # noqa: SIM110 (a loop, not any(): once per rewritten chunk)
            if parser.watching:
                return True
        return False

    @property
    def declines(self) -> bool:
        """True while `absorb` declines any text, so the general path would `rewrite` the next event:
        characters held undecided (their events held whole), or a text fed ahead out of a busy think block."""
        busy = self._think is not None and self._think.tags.busy  # (then it may take it as moved markup)
        return bool(self._undecided.runs) or (self._fed is not None and not busy)

    def held_whole(self, choice: dict[str, Any]) -> ChoiceResult | None:
        """What `_rewrite` makes of a choice whose one content text, fed ahead, its parser left all
        undecided after held events only (`UndecidedText.held_whole`): the event held whole, as
        `ChoiceRewriter._hold` holds it, without the plan; else None (then `_rewrite` runs)."""
        fed = self._fed
        if fed is None or fed[2] or fed[0] != "content" or lone_text(choice, self._role_seen) != fed[:2]:
            return None
        own = self._undecided.held_whole("content", self._parsers["content"].undecided, len(fed[1]))
        if own is None:
            return None
        self._fed, self._last_field = None, "content"
        result = ChoiceResult(notices=[], role_seen=self._role_seen, source=choice, undecided=own[1])
        own[0] = result
        return result

    @property
    def exposed(self) -> bool:
        """True while some field's quote state is `Quotes.exposed`: no event may pass unread."""
        for quotes in self._quotes.values():  # noqa: SIM110 (a loop, not any(): asked of idle events)
            if quotes.exposed:
                return True
        return False

    def absorb(
        self, choice: dict[str, Any], parts: list[Part] | None = None
    ) -> tuple[str, str] | tuple[str, str, str] | None:
        """Feed a choice whose one text leaves nothing to send (it lands in open syntax);
        its field and text (`lone_text`), or None. Its parser takes the text without searching it
        when it can (`ToolSyntax.absorb`), else it is fed ahead (`feed_ahead`): then None
        means `rewrite` must run next, on this very choice. Given `parts` (with
        `--stream-arguments`), a text that only streams more of the open call's arguments
        is taken too: its parts are added there, and they are all the choice sends. A content
        text that all goes to the reasoning field (harmony's analysis channel: taken unfed,
        `ToolSyntax.absorb_reasoning`, or fed ahead) is taken too: then that field's name
        follows the field and text, the text in it all the choice sends (`ChoiceThoughts.moved_choice`).
        Inside a think block, a content text moved into the reasoning field's syntax as markup alone
        is taken too (`_markup_moved`). A field's first text makes its parser, as `_rewrite` would."""
        if self._undecided.runs:
            return None
        think = self._think
        if think is not None and think.tags.busy and (self._fed is not None or not think.quiet(choice)):
            found = lone_text(choice, self._role_seen) if parts is None else None
            if found is None or found[0] != "content":
                return None
            if self._fed is None and self._absorb_moved((found[1],)):
                return found
            return found if self._markup_moved(found[1]) else None
        if self._fed is not None:
            return None
        found = lone_text(choice, self._role_seen)  # (a delta, one text, nothing else to send)
        if found is None:
            return None
        name, text = found
        parser = self._parsers.get(name)
        if parser is None and self._make_parser is not None:  # (a field's first text: `rewrite` would
            self._read_on()  # read on, then `_rewrite` make its parser, now)
            parser = self._parser(name)
        if parser is None:
            return None
        if parts is None or self._streamed is None:
            if parser.absorb((text,)):
                self._last_field = name
                return found
        else:
            streamed = parser.absorb_argument(text)
            if streamed is not None:
                if streamed:  # (`StreamedCalls.add` for one text, inlined: it runs once per live token)
                    entry = self._streamed.open[name]
                    entry[1] += len(streamed)
                    parts.append((entry[0], streamed))
                self._last_field = name
                return found
        if self._think is None or self._think.passes(name, text):
            if name == "content" and parser.absorb_reasoning(text):
                self._last_field = name
                return name, text, self._reasoning_field  # (what `_feed_ahead` says of it, unfed)
            taken = self._feed_ahead(parser, name, text, parts, True)
            if isinstance(taken, str):  # (the text all went to this reasoning field)
                return name, text, taken
            if taken:
                return found
        return None

    def take_run(self, name: str, texts: list[str], start: int) -> int:
        """How many of the field `name`'s `texts` from `start` on (one event's each) leave nothing
        to send: `ToolSyntax.absorb` (see `absorb`) and `feed_ahead` in turn, in one call, the guards
        they share asked once (they hold for the run: neither changes them); the first text neither
        takes stops it (fed ahead, its pieces wait in `_fed`). An empty text stops it too: its event
        has no text to scan, `rewrite` sends it unchanged. Inside a think block, a content text is
        taken as `absorb` takes it there (`_absorb_moved`, `_markup_moved`)."""
        count, stop = start, len(texts)
        if self._undecided.runs or self._fed is not None:
            return count
        if name == "content" and self._thinking:  # (both take it as a moved text: `_absorb_moved`)
            while True:
                count += self._absorb_moved(texts, count)
                if count == stop or not texts[count] or not self._markup_moved(texts[count]):
                    return count
                count += 1
        parser = self._parsers.get(name)
        if parser is None or self._splits(name):  # (then `feed_ahead` declines it too: `passes`)
            return count
        cut = stop
        if "" in texts:
            cut = next((at for at in range(count, stop) if not texts[at]), stop)
        self._last_field, think = name, self._think
        while True:
            count += parser.absorb(texts[count:cut] if count or cut < stop else texts)  # (no copy at first)
            if count == stop or (think is not None and not think.passes(name, texts[count])):
                return count
            if self._feed_ahead(parser, name, texts[count]) is not True:
                return count
            count += 1

    def _absorb_moved(self, texts: Sequence[str], start: int = 0) -> int:
        """How many of the leading lone content `texts` the think block moves whole to the reasoning
        field (`ContentThinking.moving`), where that field's open call takes them (`ToolSyntax.absorb`):
        they leave nothing to send, as the split and the rewrite would find (MiniMax M2's calls
        under its id without a think block: all of its answer is moved)."""
        think = self._think
        content = self._parsers.get("content")
        if think is None or (content is not None and content.pending):  # (in a call: `split` leaves it)
            return 0
        field = think.field
        parser = self._parsers.get(field)
        if parser is None or not parser.pending:  # (no open call: nothing to take; `thoughts` moves runs)
            return 0
        count = think.moving(texts, start, "")
        if not count:
            return 0
        self._read_on()
        taken = parser.absorb(texts[start : start + count] if start else texts[:count])
        if taken:
            self._last_field = field
            if field == "reasoning":
                self._reasoning_field = field
            run = texts[start] if taken == 1 else "".join(texts[start : start + taken])
            think.moved(run)  # (kept as one: `_thought_run`)
        return taken

    def _markup_moved(self, text: str) -> bool:
        """Whether a lone content `text` the think block moves whole went into the reasoning field's
        syntax as markup alone, fed ahead (`_feeds_moved`, or by `thoughts`): it leaves nothing to
        send, as the split and the rewrite find (MiniMax M2's `<invoke` with no think block)."""
        fed = self._fed
        if fed is None and self._feeds_moved(text):
            fed = self._fed
        think = self._think
        if fed is None or think is None or fed[0] != think.field or fed[1] != text:
            return False
        if self._parsers[fed[0]].undecided or not markup_only(fed[2]):
            return False
        self._fed = None
        if fed[0] == "reasoning":
            self._reasoning_field = "reasoning"
        think.moved(text, fed[2])
        return True

    def _feeds_moved(self, text: str) -> bool:
        """Whether a lone content `text` that the think block moves whole (`ContentThinking.moves`,
        `moves_searched` for one holding a closer's lead) was fed ahead to the reasoning field's
        parser, its pieces waiting in `_fed`: one holding such a lead (no run moves it), or any
        other while that parser is in a call (its `absorb` declined it: a marker)."""
        think = self._think
        if think is None or (leads := think.tags.moving) is None or self._make_parser is None:
            return False
        field = think.field
        for lead in leads:  # (a loop, not any(): once per moved token an open call declined)
            if lead in text:
                if not think.moves_searched(text):
                    return False
                break
        else:  # (outside a call, `thought` takes it)
            parser = self._parsers.get(field)
            if parser is None or not parser.pending or not think.moves(text):
                return False
        content = self._parsers.get("content")
        if content is not None and content.pending:  # (in a call: `split` leaves it)
            return False
        self._read_on()
        self._last_field = field
        self._fed = (field, text, self._parser(field).feed(text))
        return True

    def feed_ahead(self, name: str, text: str, parts: list[Part] | None = None) -> bool:
        """Feed the field `name` the text of the next event, one `absorb` took the like of
        but not this text (a marker, most likely). True when it leaves nothing to send,
        as `absorb` (given `parts`: or only streams argument parts, added there). Else its
        pieces wait for `rewrite` of that very event, which comes next. Inside a think block, a
        content text is taken as `absorb` takes it there once its open call declined it
        (`_markup_moved`; not given `parts`, as `absorb` takes none then)."""
        think = self._think
        if think is not None and name == "content" and think.tags.busy:
            return parts is None and text != "" and not self._undecided.runs and self._fed is None \
                and self._markup_moved(text)
        parser = self._parsers.get(name)
        if parser is None or self._undecided.runs or self._fed is not None:
            return False
        if think is not None and not think.passes(name, text):
            return False
        return self._feed_ahead(parser, name, text, parts) is True

    def _feed_ahead(
        self, parser: ToolSyntax, name: str, text: str, parts: list[Part] | None = None, moves: bool = False
    ) -> bool | str:
        """`feed_ahead`; `moves` (the choice carries nothing else, `lone_text`): a content text
        that all went to the reasoning field gives that field's name (`moved_choice`)."""
        if not text:
            return False
        self._read_on()
        self._last_field = name
        pieces = parser.feed(text)
        if parser.undecided:
            self._fed = (name, text, pieces)
            return False
        if moves and name == "content" and reasoning_whole(pieces, text) and parser.pending:
            return self._reasoning_field  # (first: harmony's analysis tokens are many)
        if markup_only(pieces):  # all of it went into syntax: `rewrite` would find the choice blank
            return True
        # (`pieces` is not empty here: `markup_only` holds for none)
        streamed = self._streamed if parts is not None and type(pieces[0]) is ToolCall else None
        if streamed is not None and parts is not None and streamed.ended(name, pieces, parts):
            return True  # (a streamed call's end: `rewrite` would send its last part alone, if any)
        if not parser.pending:
            self._fed = (name, text, pieces)
            return False
        if parts is not None and self._streamed is not None and streams_only(pieces):
            for part in self._streamed.parts(name, pieces):  # (as `_account` and `_extra` make them)
                assert isinstance(part, CallPart)
                header = part.call is not None
                parts.append(part.delta(self._call_id) if header else (part.index, part.arguments))
            return True
        self._fed = (name, text, pieces)
        return False

    def _read_on(self) -> None:
        """Before this choice's parsers read a text: events that passed unread since they last
        read may have been theirs (`Quotes.skipped`); a field first read after them, of one
        not started (`Quotes.unknown_start`, in `_parser`). An int's test when none passed."""
        if self._unread.events != self._read_to:
            self._read_to = self._unread.events
            for quotes in self._quotes.values():
                quotes.skipped()

    def read_quotes(self, delta: dict[str, Any]) -> None:
        """The texts of an event of this choice that passes unchanged while the stream is idle and
        no parser reads it: each field's quote state reads them (`quotes.py`), nothing else does."""
        self._read_on()
        for name, text in scanned_fields(delta).items():
            self._field_quotes(name).read(text)

    def _field_quotes(self, name: str) -> Quotes:
        """The field's quote state; a field not read before that text may have passed unread
        (since the choice began) does not begin at a line start (`Quotes.unknown_start`)."""
        quotes = self._quotes.get(name)
        if quotes is None:
            quotes = self._quotes[name] = Quotes()
            if self._unread.events != self._born:
                quotes.unknown_start()
        return quotes

    def _parser(self, name: str) -> ToolSyntax:
        parser = self._parsers.get(name)
        if parser is None:  # (the unfed one made first, once no answer can be stranded: `_stranded`)
            assert self._make_parser is not None
            spare = self._spare if self._think is None or not self._think.tags.assumed else None
            if spare:
                self._spare = None
            parser = self._parsers[name] = spare or self._make_parser()
            parser.quotes = self._field_quotes(name)
        return parser

    def _splits(self, name: str) -> bool:
        """Whether lone texts of field `name` must reach the content's splitter (busy: `passes`)."""
        return self._think is not None and self._think.tags.busy and not self._think.passes(name, "")

    @property
    def _thinking(self) -> bool:
        """True while `--think` moves content or holds a tag prefix: content must reach it."""
        return self._think is not None and self._think.tags.busy

