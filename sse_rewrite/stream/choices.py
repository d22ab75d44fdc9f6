"""StreamChoices: every choice of one stream, and what each chunk becomes (sans-IO).

It routes a decoded chunk's choices to their `ChoiceRewriter` (by `index`), and turns
the results into what goes out, in order: the chunk unchanged, or the chunks before it,
the rewritten chunk (unless it carries nothing: `deltas.carries_nothing`) and the
chunks after it. A chunk with undecided text is held whole (see choice.py); whatever
comes after it waits behind it in `_queue` until it is decided.

What goes out is planned, not encoded: a `Planned` item is a notice, an event unchanged
(with its decoded chunk when there is one), or a chunk to encode. The rewriter encodes
them (`protocols/NAME/output.py`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..formats import NATIVE_TOOL_CALLS
from .choice import ChoiceRewriter
from .choice_result import ChoiceResult
from .chunks import derived_call_id, envelope, with_choice
from .content_thinking import ContentThinking
from .events import Notice, ToolCall

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..formats import ToolSyntax
    from ..rewrite_options import RewriteOptions
    from ..stats import Stats
    from .chunks import Chunk
    from .quotes import Unread
    from .streamed_calls import Part
    from .think_markers import MarkerSet

    Unchanged = bytes | tuple[bytes, Chunk]  # an event's raw bytes (with its decoded chunk)
    Planned = Notice | Unchanged | Chunk


@dataclass(slots=True)
class _Held:
    """A chunk held whole while some of its choices' text is undecided."""

    raw: bytes
    chunk: Chunk
    results: list[tuple[int, ChoiceResult]]


class StreamChoices:
    """The choices of one stream: `rewrite(raw, chunk)`, `flush()`, and the held queue."""

    def __init__(
        self, make_parser: Callable[[], ToolSyntax] | None, options: RewriteOptions, stats: Stats,
        think: MarkerSet | None = None, unread: Unread | None = None, reads_start: bool = False,
        later: Callable[[], ToolSyntax] | None = None,
    ) -> None:  # fmt: skip
        """`think`: the reasoning markers each choice's content is split by (None: `--think off`);
        `unread`: the stream's count of events that passed unread (`quotes.Unread`); `reads_start`:
        a choice's parser reads its text from the first (`ToolSyntax` `reads_from_start`); `later`: the
        other choices' parser where the first's alone is gated (`formats/machines/whole_answer.py`)."""
        self.stream_id = ""
        self.pending = False
        """True while some choice's parser holds text back."""
        self.watching = False
        """True while some choice's parser must read every text (`ToolSyntax.watching`)."""
        self.awaiting = False
        """True while `pending` only because splitters wait for a closer at a content's start
        (`ChoiceRewriter.awaits`): an event without needles that is `StreamRewriter.quiet` needs no work."""
        self.calls_made = False
        """True once some choice has emitted a call (its `"stop"` will become `"tool_calls"`)."""
        self._starts_read = reads_start or (think is not None and think.prompt is not None)
        self.newcomers: tuple[bytes, ...] = _newcomer(1) if self._starts_read else ()
        """Raw bytes of the first event of a choice not seen yet (the lowest index), where a choice's
        text must be read from its start (a prompt-opened think block, `reads_start`): while the
        stream is idle, such an event is read too (`StreamRewriter.needles`)."""
        self._make_parser = make_parser
        self._later = later
        self._native_ids = options.id_style == "native"
        self._stream_arguments = options.stream_arguments
        self._think = think
        self._cap = options.max_section_bytes
        self._stats = stats
        self._unread = unread
        self._choices: dict[int, ChoiceRewriter] = {}
        self._last: Chunk = {}  # the last chunk rewritten: synthesized chunks copy its envelope
        self._queue: deque[_Held | Planned] = deque()

    def get(self, index: int) -> ChoiceRewriter | None:
        """The rewriter of choice `index`, if the stream has had one."""
        return self._choices.get(index)

    def absorbed(
        self, chunk: Chunk, parts: list[Part] | None = None
    ) -> tuple[int, tuple[str, str] | tuple[str, str, str]] | None:
        """Feed a one-choice chunk whose text lands in open syntax and leaves nothing to send
        (`ChoiceRewriter.absorb`); the choice index and (field, text) of the text taken, or None
        (then `rewrite` must run next, on this very chunk). What `rewrite` would do with it, minus the work.
        Given `parts`, a chunk that only streams argument text is taken too: its parts are
        added there, and they are all it sends (the output's `parts` encodes them). A chunk
        whose content all goes to the reasoning field (harmony's analysis text) is taken too:
        that field's name then follows its field and text, and the chunk's envelope with the
        text in it alone is all it sends (`chunks.moved_choice`)."""
        choices = chunk.get("choices")
        if type(choices) is not list or len(choices) != 1 or self._queue or chunk.get("usage"):
            return None
        choice = choices[0]
        if type(choice) is not dict or "error" in chunk:
            return None
        index = choice.get("index")
        index = index if isinstance(index, int) else 0
        rewriter = self._choices.get(index)
        taken = None if rewriter is None else rewriter.absorb(choice, parts)
        if taken is None:
            return None
        if not self.stream_id and isinstance(chunk.get("id"), str):
            self.stream_id = chunk["id"]
        self._last = chunk
        self.pending, self.awaiting = True, False  # (the choice holds text back: it took this chunk's)
        return index, taken

    @property
    def exposed(self) -> bool:
        """True while some choice's quote state is exposed (`Quotes.exposed`): every event is read,
        by `read_quotes` while idle, so that text of another choice or field cannot move it."""
        for rewriter in self._choices.values():  # noqa: SIM110 (a loop, not any(): asked of idle events)
            if rewriter.exposed:
                return True
        return False

    def read_quotes(self, chunk: Chunk) -> bool:
        """An event that passes unchanged while the stream is idle, but holds a character that
        may open or close a quote (`quotes.NEEDLES`): its choices' quote states read its texts
        (`ChoiceState.read_quotes`), no parser does. False (nothing read) for a chunk that
        is not one or names a choice not seen yet: then `rewrite` must run on it."""
        choices = chunk.get("choices")
        if type(choices) is not list or "error" in chunk:
            return False
        read: list[tuple[ChoiceRewriter, dict[str, Any]]] = []
        for position, choice in enumerate(choices):
            if type(choice) is not dict or type(choice.get("delta")) is not dict:
                continue
            index = choice.get("index")
            rewriter = self._choices.get(index if isinstance(index, int) else position)
            if rewriter is None:
                return False
            read.append((rewriter, choice["delta"]))
        for rewriter, delta in read:
            rewriter.read_quotes(delta)
        return True

    def read_texts(self, index: int, texts: dict[str, str]) -> bool:
        """`read_quotes` of a one-choice chunk of choice `index` whose delta's texts to read
        (`deltas.scanned_fields`) are `texts`; False (nothing read) for a choice not seen yet."""
        rewriter = self._choices.get(index)
        if rewriter is None:
            return False
        rewriter.read_quotes(texts)
        return True

    def rewrite(self, raw: bytes, chunk: Chunk) -> list[Planned]:
        """What a decoded chunk becomes, as far as it can go out now (for a chunk that
        `absorbed` takes, the same answer: nothing)."""
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            return self.after_held([(raw, chunk)])
        if not self.stream_id and isinstance(chunk.get("id"), str):
            self.stream_id = chunk["id"]
        self._last = chunk
        if len(choices) == 1 and not self._queue and not chunk.get("usage") and "error" not in chunk:
            called = self.fed_calls(chunk, choices[0], raw)
            if called is not None:
                return called
            thought = self._thought(chunk, choices[0])
            if thought is not None:
                return [thought]
        results: list[tuple[int, ChoiceResult]] = []
        out: list[Planned] = []
        undecided = False
        for position, choice in enumerate(choices):
            if isinstance(choice, dict):
                index = choice.get("index")
                result = self._choice(index if isinstance(index, int) else position).rewrite(choice)
                results.append((position, result))
                if result.notices:
                    out += result.notices
                if result.calls:
                    self._stats.tool_calls += result.calls
                    self.calls_made = True
                undecided = undecided or result.undecided > 0
        self._recount()
        if undecided:
            return self.after_held([*out, _Held(raw, chunk, results)])
        planned = self._assemble(raw, chunk, results)
        if self._queue:
            return self.after_held(out + planned)
        return out + planned if out else planned

    def _recount(self) -> None:
        """`pending`, `awaiting` and `watching`, from every choice, after a chunk was rewritten."""
        self.pending = self.watching = awaiting = False
        for rewriter in self._choices.values():  # a loop, not any(): this runs once per chunk
            if rewriter.pending:
                if not rewriter.awaits:
                    self.pending = True
                    break
                awaiting = True
            elif rewriter.watching:
                self.watching = True
        self.awaiting = awaiting and not self.pending
        self.pending = self.pending or awaiting

    def fed_calls(self, chunk: Chunk, choice: object, raw: bytes) -> list[Planned] | None:
        """A one-choice chunk whose text, fed ahead, made only calls (`ChoiceRewriter.fed_calls`):
        a chunk for each, as `_assemble` makes them (the emptied choice is blank), or, where it
        came back as it was, the chunk unchanged; else None (the token runs ask it as `rewrite`)."""
        if type(choice) is not dict or self._queue:
            return None
        self._last = chunk  # (as `rewrite` sets it, for the token runs)
        rewriter = self._rewriter_of(choice)
        calls = None if rewriter is None else rewriter.fed_calls(choice)
        if not calls:
            if calls is not None:  # (its text as it was: `_assemble` of an unchanged choice)
                self._recount()
            return None if calls is None else [(raw, chunk)]
        self._stats.tool_calls += len(calls)
        self.calls_made = True
        self._recount()
        base = envelope(chunk)
        return [{**base, "choices": [call]} for call in calls]

    def thought(self, chunk: Chunk) -> Chunk | None:
        """What `rewrite` makes of a one-choice chunk whose content all moves to the reasoning
        field (`--think` inside a block: `ChoiceThoughts.thought`): the chunk with it moved; else
        None (then `rewrite` must run next, on this very chunk)."""
        choices = chunk.get("choices")
        if type(choices) is not list or len(choices) != 1 or self._queue or chunk.get("usage"):
            return None
        if "error" in chunk:
            return None
        thought = self._thought(chunk, choices[0])
        if thought is not None:
            if not self.stream_id and isinstance(chunk.get("id"), str):
                self.stream_id = chunk["id"]
            self._last = chunk
        return thought

    def thoughts(self, chunk: Chunk, index: int, texts: Sequence[str]) -> list[str]:
        """After `thought` or `absorbed` took `chunk` (choice `index`'s lone content), what of the
        leading look-alikes (the same chunk but for their content, `texts`) moves to the reasoning
        field as `thought` moves one (`ChoiceThoughts.thoughts`); their chunks are the caller's to send."""
        if self._queue:
            return []
        moved = self._choices[index].thoughts(texts)
        if moved:
            self._last = chunk
            self._recount()
        return moved

    def _thought(self, chunk: Chunk, choice: object) -> Chunk | None:
        """`thought` of a chunk whose one choice is `choice` (see `rewrite`)."""
        if type(choice) is not dict:
            return None
        rewriter = self._rewriter_of(choice)
        moved = None if rewriter is None else rewriter.thought(choice)
        if moved is None:
            return None
        self._recount()
        return {**chunk, "choices": [moved]}

    def _rewriter_of(self, choice: dict[str, Any]) -> ChoiceRewriter | None:
        """The rewriter of a choice already seen, by its index (a missing or odd one is 0)."""
        index = choice.get("index")
        return self._choices.get(index if isinstance(index, int) else 0)

    def flush(self) -> list[Planned]:
        """End of the stream (`[DONE]`, an error chunk, EOF): everything held comes out."""
        out: list[Planned] = []
        for choice in self._choices.values():
            result = choice.flush()
            out += result.notices
            self._stats.tool_calls += result.calls
            out += [with_choice(self._last, extra) for extra in result.extras]
        self.pending = self.watching = self.awaiting = False
        return self.after_held(out)

    def after_held(self, items: list[Any]) -> list[Planned]:
        """`items` (notices aside) wait behind a held chunk, if any; what can go out now."""
        if not self._queue and not any(type(item) is _Held for item in items):
            return items
        out: list[Planned] = [item for item in items if isinstance(item, Notice)]
        self._queue.extend(item for item in items if not isinstance(item, Notice))
        queue = self._queue
        while queue:
            front = queue[0]
            if isinstance(front, _Held):
                if any(result.undecided for _, result in front.results):
                    break
                for _, result in front.results:
                    result.settle()
                out += self._assemble(front.raw, front.chunk, front.results)
            else:
                out.append(front)
            queue.popleft()
        return out

    def moved(self, chunk: Chunk) -> list[Planned] | None:
        """What `rewrite` makes of a one-choice chunk whose content, fed ahead by the token runs
        (`ChoiceRewriter.feed_ahead`), all went to the reasoning field (`ChoiceRewriter.moved`):
        that field's chunk (as `absorbed` makes it); else None."""
        choices = chunk.get("choices")
        if type(choices) is not list or len(choices) != 1 or self._queue or chunk.get("usage"):
            return None
        choice = choices[0]
        if type(choice) is not dict or "error" in chunk:
            return None
        rewriter = self._rewriter_of(choice)
        moved = None if rewriter is None else rewriter.moved(choice)
        if moved is None:
            return None
        if not self.stream_id and isinstance(chunk.get("id"), str):
            self.stream_id = chunk["id"]
        self._last = chunk
        self.pending, self.awaiting = True, False  # (its parser holds the open reasoning message)
        return [with_choice(chunk, moved)]

    def moved_on(
        self, chunk: Chunk, index: int, texts: Sequence[str]
    ) -> tuple[list[str], Callable[[str], Chunk]]:  # fmt: skip
        """After `moved` took `chunk` (for choice `index`), its look-alikes (the same chunk but
        for their content, `texts`) that the reasoning field takes whole too
        (`ChoiceRewriter.moved_on`): their texts ("" for one that sends nothing), and the chunk a
        text becomes there (as `moved` makes it)."""
        rewriter, base = self._choices[index], envelope(chunk)
        return rewriter.moved_on(texts), lambda text: {**base, "choices": [rewriter.moved_choice(text)]}

    def _assemble(
        self, raw: bytes, chunk: Chunk, results: list[tuple[int, ChoiceResult]]
    ) -> list[Planned]:
        changed, blank, more = False, True, False
        for _, result in results:
            if result.changed:
                changed = True
                blank = blank and result.blank
                more = more or bool(result.extras or result.before)
            else:
                blank = False  # an unchanged choice: the chunk has something to send
        if not changed:
            return [(raw, chunk)]
        if blank and not more and not chunk.get("usage") and "error" not in chunk:
            return []  # what follows, without building the chunk it would drop
        new_choices = list(chunk["choices"])
        for position, result in results:
            rewritten = result.rewritten()
            if rewritten is not None:
                new_choices[position] = rewritten
        base = envelope(chunk)
        out: list[Planned] = [{**base, "choices": [c]} for _, r in results for c in r.before]
        extras = [{**base, "choices": [c]} for _, r in results for c in r.extras]
        if new_choices == chunk["choices"] and not (extras and chunk.get("usage")):
            return [*out, (raw, chunk), *extras]  # only chunks around it: it keeps its bytes
        head = {**chunk, "choices": new_choices}
        if extras and head.get("usage"):  # clients keep the last chunk's usage
            extras[-1]["usage"] = head["usage"]
            head["usage"] = None
        if not (blank and not head.get("usage") and "error" not in head):
            out.append(head)
        return out + extras

    def _choice(self, index: int) -> ChoiceRewriter:
        choice = self._choices.get(index)
        if choice is None:
            legacy = self._stats.format not in (NATIVE_TOOL_CALLS, None)
            think = None if self._think is None else ContentThinking(self._think, self._cap)
            make = self._make_parser if self._later is None or not index else self._later
            choice = ChoiceRewriter(
                index, make, self._call_id_for(index), legacy, self._stream_arguments, think, self._unread
            )
            self._choices[index] = choice
            if self._starts_read:
                unseen = min(set(range(len(self._choices) + 1)) - self._choices.keys())  # (the lowest)
                self.newcomers = _newcomer(unseen)
        return choice

    def _call_id_for(self, choice: int) -> Callable[[int, ToolCall | None], str]:
        def call_id(index: int, call: ToolCall | None) -> str:
            if self._native_ids and call is not None and call.id:
                return call.id
            return derived_call_id(self.stream_id, choice, index)

        return call_id


def _newcomer(index: int) -> tuple[bytes, ...]:
    """How a choice object of this index begins in the raw JSON (compact, or with a space)."""
    return (b'"index":%d' % index, b'"index": %d' % index)
