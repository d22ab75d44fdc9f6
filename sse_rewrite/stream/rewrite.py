"""StreamRewriter: raw SSE bytes in; rewritten SSE bytes and notices out (sans-IO).

One event's way through (docs/behaviour.md, "One event, from stdin to stdout"):
`feed` -> `SSEDecoder.blocks` -> `_on_event` (`[DONE]`, comments, invalid JSON, the format
chosen from the first chunk's `model`, error chunks) -> `StreamChoices.rewrite` -> one
`ChoiceRewriter` per choice -> planned output -> the protocol's `output.py` encodes it. An event
nothing changes leaves as its raw bytes.

A body that starts with `{` is a non-streaming `chat.completion`, rewritten whole at end
of input (`body.py`). Accelerators (`fast/`, switched by `RewriteOptions`) may read a run
of events in place of the decoder; this module only hands them the reads and answers
their questions (the `fast.StreamView` properties).
"""

from __future__ import annotations

import orjson

from ..protocols import stream_output
from ..protocols.openai.output import OpenAIOutput
from ..rewrite_options import RewriteOptions
from ..stats import Stats
from .call_indexes import STOP_WORD
from .events import Notice, Output
from .needle_groups import as_text, holds_any
from .quotes import NEEDLES as QUOTE_NEEDLES
from .quotes import Unread
from .sse import BOM, SSEDecoder, looks_like_object
from .stream_format import choose
from .streamed_calls import part_counts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal

    from ..protocols import StreamOutput
    from .choices import Planned, StreamChoices
    from .chunks import Chunk
    from .held_starts import HeldStarts
    from .streamed_calls import Part

__all__ = ["Output", "RewriteOptions", "Stats", "StreamRewriter"]

_DONE: Final = b"[DONE]"


class StreamRewriter:
    """Incremental rewriter for one stream: `feed(bytes)`, then `flush()` at end of input."""

    def __init__(self, options: RewriteOptions | None = None, output: StreamOutput | None = None) -> None:
        """`output`: the encoder, when the protocol needs more than its name (a `serve` front's)."""
        self.options = options = options or RewriteOptions()
        self.stats = Stats()
        self._decoder = SSEDecoder()
        self._output = output or stream_output(options.to)
        self._openai = self._output if isinstance(self._output, OpenAIOutput) else None  # (see `_on_event`)
        self._mode: Literal["sse", "json"] | None = None
        self._head: list[bytes] = []  # bytes seen before the mode is known / the JSON body
        self._choices: StreamChoices | None = None  # once the format is known
        self._sniff: tuple[bytes, ...] = ()  # see `needles`; empty: no format parser, nothing to do
        self._sniff_stop: tuple[bytes, ...] = ()  # `_sniff` and the stop word, once calls were made
        self._format_sniff: tuple[bytes, ...] = ()  # `_sniff` but the choices' newcomers
        self._newcomers: tuple[bytes, ...] = ()  # the choices' newcomers in `_sniff`
        # Where a parser reads quotes (`quotes.py`): the runs' needles (`needles`, by `calls_made`)
        # add `QUOTE_NEEDLES`, and an idle event with one of them only is read for them alone.
        self._quoting: tuple[str, ...] = ()
        self._runs: tuple[tuple[bytes, ...], tuple[bytes, ...]] = ((), ())
        # The same needles as text, searched in one event's data (cheaper than in its bytes):
        self._sought: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # by `calls_made`
        self.starts: HeldStarts | None = None
        """The starts of the format's held words (`Part.held_words`) in raw bytes; None: it declares none."""
        self._held: tuple[list[bytes], list[bytes], tuple[bytes, ...]] | None = None
        """Idle events whose texts run together end in a held start, raw (their bytes, their data, the
        first's rest of the word), until the next event shows whether the word goes on (`held_starts.py`)."""
        self._flushed = False
        self.unread = Unread()
        """Events passed without any parser reading them (`quotes.Unread`; the accelerators add theirs)."""
        self.streams_arguments = options.stream_arguments  # (for the accelerators)
        self._read = self.decode
        if options.plain_runs or options.token_runs:
            from .fast import reader

            fast = reader(self, options)
            self._read = self._read if fast is None else fast.feed

    def feed(self, data: bytes) -> list[Output]:
        """Consume the next bytes of input; return what can be written now."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if not data:
            return []
        if self._mode != "sse":
            self._head.append(data)
            if self._mode is None:
                start = b"".join(self._head).removeprefix(BOM).lstrip()
                if not start:
                    return []
                self._mode = "json" if start[:1] == b"{" else "sse"
            if self._mode == "json":
                return []
            data = b"".join(self._head)
            self._head = []
        return self._read(data)

    def decode(self, data: bytes) -> list[Output]:
        """The general path: decode the events `data` completes and rewrite each."""
        out: list[Output] = []
        for raw, value, _ in self._decoder.blocks(data):
            out += self._on_event(raw, value)
        return out

    def flush(self) -> list[Output]:
        """End of input: flush held-back text and calls; rewrite a non-streaming body."""
        if self._flushed:
            return []
        self._flushed = True
        if self._mode == "json":
            return self._flush_body(b"".join(self._head))
        if self._mode is None:
            return self._count([b"".join(self._head)] if self._head else [])
        out: list[Output] = self._release() if self._held is not None else []
        tail: list[Output] = []
        for event in self._decoder.flush():
            out.append(Notice("truncated-event", "input ended inside an event (no blank line)"))
            for item in self._on_event(event.raw, None if event.data is None else event.data.encode()):
                # Its raw bytes lack the blank line: anything written after them would join
                # their last line, so the unterminated event goes out last.
                (tail if item is event.raw else out).append(item)
        if self._choices is not None:
            out += self.send(self._choices.flush())
        return out + self._count(self._output.flush()) + tail

    def _flush_body(self, raw: bytes) -> list[Output]:
        from ..body import rewrite_body  # here: a stream's start-up does not pay for it

        result = rewrite_body(raw, self.options)
        self.stats.events_in += 1
        self.stats.tool_calls += result.calls
        if result.body == raw:
            self.stats.passed_through += 1
        self._resolve(result.model)
        return self._count([*result.notices, result.body])

    # -- what accelerators may ask (fast.StreamView)

    @property
    def resolved(self) -> bool:
        """True once the format is known (from the first decoded chunk)."""
        return self._choices is not None

    @property
    def at_boundary(self) -> bool:
        """True between events: the decoder holds nothing."""
        return self._decoder.at_boundary

    @property
    def idle(self) -> bool:
        """True when nothing is held back and no quote state is exposed (`StreamChoices.exposed`):
        an event without `needles` passes unchanged."""
        choices = self._choices
        return choices is not None and self._held is None and not (
            choices.pending or choices.watching or choices.exposed
        )

    @property
    def awaiting(self) -> bool:
        """True when not `idle` only because splitters wait for a closer at a content's start
        (`StreamChoices.awaiting`) and no quote state is exposed: an event without `needles` that
        is `quiet` passes unchanged."""
        choices = self._choices
        return choices is not None and choices.awaiting and not (choices.watching or choices.exposed)

    def quiet(self, chunk: Chunk, noting: bool = True) -> bool:
        """While `awaiting`, of a chunk without needles: whether every choice in it is one seen whose
        splitter leaves it unchanged (`ChoiceRewriter.quiet`; `noting`: it notes what it must, else
        nothing may need noting, as asked of a template of events). False: the rewrite must run."""
        choices, stream = chunk.get("choices"), self._choices
        if type(choices) is not list or "error" in chunk or stream is None:
            return False
        for position, choice in enumerate(choices):
            index = choice.get("index") if type(choice) is dict else None
            rewriter = stream.get(index if isinstance(index, int) else position)
            if rewriter is None or type(choice) is not dict or not rewriter.quiet(choice, noting):
                return False
        return True

    @property
    def keeps_bytes(self) -> bool:
        """True when unchanged events go out as their raw bytes (OpenAI output)."""
        return self._output.keeps_bytes

    @property
    def needles(self) -> tuple[bytes, ...]:
        """Bytes without which an event needs no work while the stream is idle: the format's
        own (`ToolSyntax.sniff`), the words the choices act on (`choice.py`) and a choice's first
        event where it must be read (`StreamChoices.newcomers`)."""
        choices = self._choices
        if choices is not None and choices.newcomers is not self._newcomers:
            self._set_needles(choices.newcomers)
        return self._runs[choices is not None and choices.calls_made]

    @property
    def choices(self) -> StreamChoices:
        """The stream's choices (once `resolved`)."""
        assert self._choices is not None
        return self._choices

    # -- per event

    def _on_event(self, raw: bytes, value: bytes | None, read: bool = False) -> list[Output]:
        """One event, as its raw bytes and data, undecoded (None: it has no `data` field; `read`:
        read though it holds no needle, as its text ends in a held start the next may go on with)."""
        if self._held is not None:
            return self._after_start(raw, value)
        self.stats.events_in += 1
        if value is None:
            return self.send(self._after_held([raw]))
        if value == _DONE:
            out = self.send(self._choices.flush()) if self._choices is not None else []
            if self._output.keeps_bytes:
                self.stats.passed_through += 1
            return out + self._count(self._output.done(raw))
        choices = self._choices
        if choices is not None and choices.newcomers is not self._newcomers:
            self._set_needles(choices.newcomers)
        # Needles are looked for only where they decide something: while nothing is held. They
        # are looked for in the text (a search in bytes costs more).
        idle_plain = choices is not None and not (
            self._sniff
            and (choices.pending or choices.watching or holds_any(value, self._sought[choices.calls_made]))
        )
        # A text that ends in a start of a word its parser holds (`held_starts.py`): with OpenAI
        # output its event is held raw until the next one; else it is read.
        starts = self.starts if idle_plain and not read else None
        held_start = read or (
            starts is not None and not self._output.keeps_bytes and starts.event(value) is not None
        )
        idle_plain = idle_plain and not held_start
        # Splitters waiting at a content's start only (`awaiting`): an event without needles is idle
        # if none of its choices has content text or a finish (`quiet`, asked once it is decoded).
        awaits = not idle_plain and not held_start and choices is not None and choices.awaiting and not (
            choices.watching or holds_any(value, self._sought[choices.calls_made])
        )
        quoted = (idle_plain or awaits) and bool(self._quoting) and (
            holds_any(value, self._quoting) or (choices is not None and choices.exposed)
        )
        if idle_plain and self._output.keeps_bytes and looks_like_object(value):
            rest = None  # (shaped as learned, an event whose text's end is no start's is not looked at)
            if starts is not None and not (
                value.endswith(starts.tail) and value[starts.last_two] not in starts.ends
            ):
                rest = starts.event(value)
            if rest is not None and not quoted:
                self._held = ([raw], [value], rest)
                return []
            if rest is None and not quoted:
                return self._passed(raw)  # nothing in it can need work
            if rest is None and self._quotes_read(value):
                return self._passed(raw, False)
            idle_plain = False  # (a choice not seen yet: the rewrite makes it; a start its parser holds)
        try:  # (orjson reads the bytes: most events inside a call are never decoded)
            chunk = orjson.loads(value)
        except orjson.JSONDecodeError:
            try:  # not JSON, or not UTF-8: read as the text (invalid bytes replaced)
                chunk = orjson.loads(value.decode("utf-8", "replace"))
            except orjson.JSONDecodeError as error:
                note = f"event {self.stats.events_in}: {error}; {self._output.unchanged}"
                return self.send(self._after_held([Notice("invalid-json", note), raw]))
        if type(chunk) is not dict:
            message = f"event {self.stats.events_in}: not a JSON object; {self._output.unchanged}"
            return self.send(self._after_held([Notice("not-a-chunk", message), raw]))
        if choices is None:
            choices = self._resolve(chunk.get("model"))
            idle_plain = not self._sniff
        if awaits and self.quiet(chunk):
            idle_plain = True
        if "error" in chunk:
            # An error chunk (OpenRouter: top-level `error`, finish_reason "error") ends the
            # stream: held-back text goes out in chunks of its own, the error chunk unchanged.
            return self.send([*choices.flush(), (raw, chunk)])
        if idle_plain and not quoted:  # no parser (--format none, native calls), or no needle
            self.unread.events += 1
            return self.send([(raw, chunk)])
        if idle_plain and choices.read_quotes(chunk):  # (translated: its quote state read)
            return self.send([(raw, chunk)])
        # Most chunks that need work only add text to open syntax, stream more of it, or move it all to the
        # reasoning field (named third): `absorbed` takes those. A live argument part: OpenAI's template.
        parts: list[Part] | None = [] if self.streams_arguments else None
        if (taken := choices.absorbed(chunk, parts)) is None:
            return self.send(choices.rewrite(raw, chunk))
        if len(taken[1]) == 3:
            return self._count(self._output.moved(raw, chunk, taken[0], taken[1][2], taken[1][1]))
        return self.send_parts(chunk, taken[0], parts, raw, taken[1]) if parts else []

    def send_parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = b"",
                   fed: tuple[str, str] | None = None) -> list[Output]:  # fmt: skip
        """Argument parts of `choice` in `chunk`'s envelope, encoded, counted (`raw`, `fed`: see `parts`)."""
        if fed is not None and self._openai is not None and len(parts) == 1 and type(parts[0]) is tuple \
                and type(parts[0][1]) is str:
            self.stats.events_out += 1  # (a live event's one text part: one event, no call header)
            return self._openai.argument(chunk, choice, parts[0], raw, fed)
        out = self._output.parts(chunk, choice, parts, raw, fed)
        headers, events = part_counts(parts)
        if headers:  # calls emitted (as `StreamChoices.rewrite` counts them)
            self.stats.tool_calls += headers
            self.choices.calls_made = True
        if self._output.keeps_bytes:  # (only bytes, one event a header or text: no notice to count)
            self.stats.events_out += events
            return out
        return self._count(out)

    def _after_start(self, raw: bytes, value: bytes | None) -> list[Output]:
        """The event after those held raw for their texts' start (`held_starts.py`): those the word does not
        go on from pass; the rest stay held with it, or take the general path (`HeldStarts.settle`)."""
        held, starts = self._held, self.starts
        assert held is not None and starts is not None
        if starts.alone(held[1], held[2], value):  # (one held event, which this one does not go on from)
            return self._release() + self._on_event(raw, value)
        (raws, values, rest), (at, read) = held, starts.settle(held[1], held[2], value)
        out = self._release(at)
        if not read and at < len(raws) and value is not None:  # (a start runs on: they stay held, with it)
            self.stats.events_in += 1
            self._held = ([*raws[at:], raw], [*values[at:], value], rest)
            return out
        self.stats.events_in -= len(raws) - at  # (counted when held: their notices name their own numbers)
        for index in range(at, len(raws)):
            out += self._on_event(raws[index], values[index], index == at)
        return out + self._on_event(raw, value)

    def _release(self, upto: int | None = None) -> list[Output]:
        """The held events (before `upto`) as they would have gone had the word not gone on: unread."""
        assert self._held is not None
        raws = self._held[0][:upto]
        self._held = None
        return self._passed(raws[0]) if len(raws) == 1 else [out for raw in raws for out in self._passed(raw)]

    def _passed(self, raw: bytes, unread: bool = True) -> list[Output]:
        """An event that leaves unchanged while nothing is held (`idle`), as `_send` would send it
        (`unread`: no parser or quote state read its text, `quotes.Unread`)."""
        stats = self.stats
        stats.passed_through += 1
        stats.events_out += 1
        self.unread.events += unread
        return [raw]

    def _quotes_read(self, value: bytes) -> bool:
        """Whether an idle event with no needle but `QUOTE_NEEDLES` was read by its choices' quote
        states alone (`StreamChoices.read_quotes`): then it leaves unchanged; else the rewrite reads it."""
        try:
            chunk = orjson.loads(value)
        except orjson.JSONDecodeError:
            return False
        return type(chunk) is dict and self.choices.read_quotes(chunk)

    def _after_held(self, items: list[Planned]) -> list[Planned]:
        return items if self._choices is None else self._choices.after_held(items)

    def _resolve(self, model: object) -> StreamChoices:
        options, stats = self.options, self.stats
        choices, self._format_sniff, quotes, self.starts = choose(model, options, stats, self.unread)
        self._choices, self._quoting = choices, as_text(quotes)
        self._set_needles(choices.newcomers)
        return choices

    def _set_needles(self, newcomers: tuple[bytes, ...]) -> None:
        """`_sniff` and the rest, from the format's needles and the choices' `newcomers`."""
        self._newcomers = newcomers
        if not self._format_sniff:
            return  # (nothing to do in any event: no parser, no reasoning markers)
        self._sniff = (*self._format_sniff, *newcomers)
        self._sniff_stop = (*self._sniff, STOP_WORD.encode())
        self._sought = (as_text(self._sniff), as_text(self._sniff_stop))
        quotes = QUOTE_NEEDLES if self._quoting else ()
        self._runs = ((*self._sniff, *quotes), (*self._sniff_stop, *quotes))

    def send(self, items: list[Planned]) -> list[Output]:
        """Encode planned output (`choices.py`) in order, and count it."""
        if not items:
            return []
        out: list[Output] = []
        output = self._output
        for item in items:
            if isinstance(item, dict):
                out += output.chunk(item)
            elif isinstance(item, Notice):
                out.append(item)
            else:
                raw, chunk = item if isinstance(item, tuple) else (item, None)
                out += output.event(raw, chunk)
                self.stats.passed_through += output.keeps_bytes
        return self._count(out)

    def _count(self, out: list[Output]) -> list[Output]:
        for item in out:
            if isinstance(item, Notice):
                self.stats.notices += 1
            else:
                self.stats.events_out += 1
        return out
