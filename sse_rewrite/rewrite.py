"""StreamRewriter: raw SSE bytes in; rewritten SSE bytes and notices out (sans-IO).

The pipeline per block is: SSE decode -> fast path (raw bytes out when the block
cannot hold leaked syntax and nothing is pending) -> JSON decode -> per-choice rewrite
(`ChoiceRewriter`) -> encode. Unchanged blocks always leave as their original bytes.
A body that starts with `{` is a non-streaming `chat.completion` and is rewritten
whole at end of input (`rewrite_completion`).

With `to="anthropic"` every chunk that would go out (rewritten or not) goes to an
`AnthropicEmitter` instead, so no original OpenAI bytes reach the output: only
Anthropic events, and comments (keep-alives) re-encoded as comments.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from .choice import ChoiceResult, ChoiceRewriter
from .chunks import derived_call_id, envelope, message_tool_call
from .events import Notice, SSEEvent, ToolCall
from .formats import DEFAULT_MAX_SECTION_BYTES, FORMATS, NATIVE_TOOL_CALLS, select_format
from .needles import NeedleIndex
from .sse import BOM, SSEDecoder, encode_event
from .token_template import TokenTemplate

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal

    from .anthropic_events import AnthropicEmitter
    from .chunks import Chunk
    from .formats import ToolSyntax

Output = bytes | Notice
"""What the rewriter produces: bytes to write, or a notice for stderr."""

# Events holding this are always decoded: native calls (`"tool_calls"`) move our indexes,
# legacy `"function_call"` deltas are converted. One needle for both: one search of a read.
_ALWAYS_SNIFF: Final = (b"_call",)
_DONE: Final = "[DONE]"
_PLAIN_HAZARDS: Final = (b"[DONE]", b"\r", b"\n\n\n")  # see `_skip_plain`
_FIRST_HOT_WINDOW: Final = 4  # events, see `_hot_run`
_FIRST_PLAIN_WINDOW: Final = 8192  # bytes searched for needles at first, see `_skip_plain`
_MAX_DECODE_NEXT: Final = 128  # events decoded at most before `_skip_ahead` tries again
_MAX_HOT_MISSES: Final = 8  # token templates that failed in a row before the stream stops learning them


@dataclass(frozen=True, slots=True)
class RewriteOptions:
    """How to rewrite: `format` (a `--format` name), id style, section cap, output protocol."""

    format: str = "auto"
    id_style: Literal["native", "openai"] = "native"
    max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES
    to: Literal["openai", "anthropic"] = "openai"


@dataclass(slots=True)
class Stats:
    """Counters for `--stats` and `replay --view`."""

    events_in: int = 0
    events_out: int = 0
    passed_through: int = 0
    tool_calls: int = 0
    notices: int = 0
    format: str | None = None
    format_reason: str = "no chunk seen"


class StreamRewriter:
    """Incremental rewriter for one stream: `feed(bytes)`, then `flush()` at end of input."""

    def __init__(self, options: RewriteOptions | None = None) -> None:
        self.options = options or RewriteOptions()
        self.stats = Stats()
        self._decoder = SSEDecoder()
        self._mode: Literal["sse", "json"] | None = None
        self._head: list[bytes] = []  # bytes seen before the mode is known / the JSON body
        self._choices: dict[int, ChoiceRewriter] = {}
        self._parser_type: type[ToolSyntax] | None = None
        self._resolved = False
        self._sniff: tuple[bytes, ...] = ()
        self._pending = False
        self._watch_stop = False
        self._stream_id = ""
        self._last: Chunk = {}  # the last chunk rewritten: synthesized chunks copy its envelope
        self._hot: tuple[TokenTemplate, ToolSyntax] | None = None  # see `_absorbed`
        self._hot_misses = 0
        self._declined = False  # the open call declined the event being decoded, see `_hot_run`
        self._decode_next = 1  # events to decode before `_skip_ahead` tries again
        self._needles: NeedleIndex | None = None  # of the current read, see `_skip_plain`
        self._flushed = False
        self._emitter: AnthropicEmitter | None = None
        if self.options.to == "anthropic":  # imported here: start-up pays only for what it uses
            from .anthropic_events import AnthropicEmitter

            self._emitter = AnthropicEmitter()
        self._unchanged = "passed through" if self._emitter is None else "dropped"

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
        return self._decode(data)

    def _decode(self, data: bytes) -> list[Output]:
        """Decode a read's events and rewrite them, skipping the decoder where it can.

        Once the format is known, events go to the decoder a few at a time, and at every
        block boundary `_skip_ahead` may first take a run of events straight from the
        raw bytes (and says how many events to decode before it is worth trying again).
        The decoder is indifferent to how its input is cut, so the events it sees are the
        same either way.
        """
        out: list[Output] = []
        pos, size = 0, len(data)
        stop = data.rfind(b"\n\n") + 2  # just past the read's last blank line
        self._needles = None  # (equal reads may be one object: small bytes objects are shared)
        while pos < stop and self._resolved:
            if self._decoder.at_boundary:
                pos = self._skip_ahead(data, pos, stop, out)
            end = pos
            for _ in range(self._decode_next):  # the next events' blank lines
                found = data.find(b"\n\n", end, stop)
                if found == -1:
                    break
                end = found + 2
            if end == pos:
                break
            for event in self._decoder.feed(data[pos:end]):
                out += self._on_event(event)
            self._declined = False
            pos = end
        if pos < size:
            for event in self._decoder.feed(data[pos:] if pos else data):
                out += self._on_event(event)
        return self._count(out)

    def flush(self) -> list[Output]:
        """End of input: flush held-back text and calls; rewrite a non-streaming body."""
        if self._flushed:
            return []
        self._flushed = True
        if self._mode == "json":
            return self._flush_body(b"".join(self._head))
        if self._mode is None:
            return self._count([b"".join(self._head)] if self._head else [])
        out: list[Output] = []
        tail: list[Output] = []
        for event in self._decoder.flush():
            out.append(Notice("truncated-event", "input ended inside an event (no blank line)"))
            for item in self._on_event(event):
                # Its raw bytes lack the blank line: anything written after them would join
                # their last line, so the unterminated event goes out last.
                (tail if item is event.raw else out).append(item)
        out += self._flush_choices()
        if self._emitter is not None:
            out += self._emitter.flush()
        return self._count(out + tail)

    def _flush_body(self, raw: bytes) -> list[Output]:
        body, notices, calls = rewrite_completion(raw, self.options)
        self.stats.events_in += 1
        self.stats.tool_calls += calls
        if self._emitter is not None:
            body, more = _completion_to_anthropic(body)  # it judges the body's shape itself
            notices = [n for n in notices if n.code != "not-a-completion"] + more
        if body == raw:
            self.stats.passed_through += 1
        try:
            completion = orjson.loads(raw)
        except orjson.JSONDecodeError:
            completion = None
        self._resolve(completion.get("model") if isinstance(completion, dict) else None)
        return self._count([*notices, body])

    def _skip_ahead(self, data: bytes, pos: int, stop: int, out: list[Output]) -> int:
        """Take the events from `pos` that need no decoding; return where they end.

        With a call open, those are token events that the open call absorbs (read
        through the token template, see `_absorbed`); otherwise, events that `_on_event`
        would pass through unchanged. `stop` is just past the read's last blank line.
        """
        if self._pending and self._hot is not None:
            taken, end, self._declined = self._hot_run(data, pos, stop)
            self.stats.events_in += taken
            self._decode_next = 1
            return end
        end = pos
        if not self._pending and self._emitter is None:
            end = self._skip_plain(data, pos, stop, out)
        # Backing off while nothing can be skipped keeps the cost of trying low where the
        # general path takes every event (prose full of `<`, a long `<tool_call>` body).
        self._decode_next = 1 if end > pos else min(2 * self._decode_next, _MAX_DECODE_NEXT)
        return end

    def _skip_plain(self, data: bytes, pos: int, stop: int, out: list[Output]) -> int:
        """Pass the events from `pos` up to the first that may need work through in one slice.

        With the format known and nothing pending, `_on_event` passes through every
        event whose raw bytes hold no sniff needle (nor `[DONE]`, nor `"stop"` once
        calls were made), so the slice ends before the first such needle. It also ends
        before any CR or run of three LFs: without them every `\n\n` ends exactly one
        block, so the event counts stay exact. Needles are looked for in windows that
        double, so a short run does not pay for searching the whole read.
        """
        needles = (*self._sniff, *_PLAIN_HAZARDS, *((b'"stop"',) if self._watch_stop else ()))
        index = self._needles
        if index is None or index.needles != needles:
            index = self._needles = NeedleIndex(data, needles)
        start, window = pos, _FIRST_PLAIN_WINDOW
        while data[pos : pos + 1] != b"\n":  # a block that starts with a blank line
            end = min(stop, pos + window)
            hazard = index.first(pos, end)
            cut = data.rfind(b"\n\n", pos, hazard)
            if cut != -1:
                pos = cut + 2
            if hazard < end or end == stop:
                break
            window *= 2
        if pos == start:
            return pos
        events = data.count(b"\n\n", start, pos)
        self.stats.events_in += events
        self.stats.events_out += events - 1  # `_count` counts the slice as one
        self.stats.passed_through += events
        out.append(data[start:pos])
        return pos

    # -- per event

    def _on_event(self, event: SSEEvent) -> list[Output]:
        self.stats.events_in += 1
        data = event.data
        if data is None:
            return self._passthrough(event)
        if data == _DONE:
            if self._emitter is not None:  # Anthropic streams have no [DONE]: the message ends
                return [*self._flush_choices(), *self._emitter.flush()]
            return [*self._flush_choices(), *self._passthrough(event)]
        fast = self._emitter is None and self._resolved
        if fast and (self._parser_type is None or not (self._pending or self._sniffed(event.raw))):
            return self._passthrough(event)
        try:
            chunk = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            note = Notice("invalid-json", f"event {self.stats.events_in}: {error}; {self._unchanged}")
            return [note, *self._passthrough(event)]
        if not isinstance(chunk, dict):
            message = f"event {self.stats.events_in}: not a JSON object; {self._unchanged}"
            note = Notice("not-a-chunk", message)
            return [note, *self._passthrough(event)]
        if not self._resolved:
            self._resolve(chunk.get("model"))
        if "error" in chunk:
            # An error chunk (OpenRouter: top-level `error`, finish_reason "error") ends the
            # stream: held-back text goes out in chunks of its own, the error chunk unchanged.
            return [*self._flush_choices(), *self._passthrough(event, chunk)]
        if self._parser_type is None and self._emitter is None:  # --format none, or native tool_calls
            return self._passthrough(event)
        if self._pending and not self._declined and self._absorbed(event, chunk):
            return []  # a token inside an open call: nothing to send yet
        return self._rewrite_chunk(event, chunk)

    def _absorbed(self, event: SSEEvent, chunk: Chunk) -> bool:
        """True when a one-choice chunk's text all went into an open call (the hot path).

        See `ChoiceRewriter.absorb`; `_rewrite_chunk` would drop such a chunk too. The
        event also becomes the template for the next ones (`_hot_run`), unless
        templates keep failing to match (then the stream's chunks differ in more than
        their token, and learning would cost more than it saves).
        """
        choices = chunk.get("choices")
        if type(choices) is not list or len(choices) != 1 or chunk.get("usage"):
            return False
        if type(choices[0]) is not dict:
            return False
        index = choices[0].get("index")
        rewriter = self._choices.get(index if isinstance(index, int) else 0)
        taken = None if rewriter is None else rewriter.absorb(choices[0])
        if taken is None:
            return False
        self._last = chunk
        if self._hot_misses < _MAX_HOT_MISSES:
            template = TokenTemplate.learn(event.raw, chunk, taken[0])
            self._hot = None if template is None else (template, taken[1])
        return True

    def _hot_run(self, data: bytes, start: int, stop: int) -> tuple[int, int, bool]:
        """What `_absorbed` does, for the events from `start` that are the template's with
        another token: how many the open call took, where they end, and whether the call
        declined the event there (then `_absorbed` would decline it too).

        Events are read in windows that start at a few events and double while the call
        takes them all, so the events read past the last one taken stay few.
        """
        assert self._hot is not None
        template, parser = self._hot
        taken, pos, window = 0, start, _FIRST_HOT_WINDOW * template.size
        while pos < stop:
            cut = data.rfind(b"\n\n", pos, min(stop, pos + window)) + 2
            if cut < pos + 2:  # no event ends inside the window: take the next one whole
                cut = data.find(b"\n\n", pos, stop) + 2
            run = template.run(data, pos, cut)
            if not run.tokens and pos == start:
                self._hot_misses += 1
                self._hot = None
                return 0, start, False
            self._hot_misses = 0
            count = parser.absorb(run.tokens)
            taken += count
            if count < len(run.tokens) or not run.whole:
                return taken, pos + run.span(count), count < len(run.tokens)
            pos = cut
            window *= 2
        return taken, pos, False

    def _sniffed(self, raw: bytes) -> bool:
        if self._watch_stop and b'"stop"' in raw:
            return True
        return any(needle in raw for needle in self._sniff)

    def _rewrite_chunk(self, event: SSEEvent, chunk: Chunk) -> list[Output]:
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            return self._passthrough(event, chunk)
        if not self._stream_id and isinstance(chunk.get("id"), str):
            self._stream_id = chunk["id"]
        self._last = chunk
        results: list[tuple[int, ChoiceResult]] = []
        out: list[Output] = []
        unchanged = dropped = True
        for position, choice in enumerate(choices):
            if isinstance(choice, dict):
                index = choice.get("index")
                result = self._choice(index if isinstance(index, int) else position).rewrite(choice)
                results.append((position, result))
                out += result.notices
                self.stats.tool_calls += result.calls
                unchanged = unchanged and result.choice is None and not result.extras
                dropped = dropped and result.droppable and not result.extras
        self._pending = False
        for rewriter in self._choices.values():  # a loop, not any(): this runs once per chunk
            if rewriter.pending:
                self._pending = True
                break
        self._watch_stop = self._watch_stop or any(c.calls for c in self._choices.values())
        if unchanged:
            return out + self._passthrough(event, chunk)
        if dropped and not chunk.get("usage") and "error" not in chunk:
            return out  # as below, without building the chunk that would be dropped
        new_choices = list(choices)
        for position, result in results:
            if result.choice is not None:
                new_choices[position] = result.choice
        head = {**chunk, "choices": new_choices}
        base = envelope(chunk)
        extras = [{**base, "choices": [c]} for _, r in results for c in r.extras]
        if extras and head.get("usage"):  # clients keep the last chunk's usage
            extras[-1]["usage"] = head["usage"]
            head["usage"] = None
        droppable = all(r.droppable or (r.choice is None and not choices) for _, r in results)
        if not (droppable and not head.get("usage") and "error" not in head):
            out += self._encode(head)
        for extra in extras:
            out += self._encode(extra)
        return out

    def _flush_choices(self) -> list[Output]:
        out: list[Output] = []
        for choice in self._choices.values():
            result = choice.flush()
            out += result.notices
            self.stats.tool_calls += result.calls
            for choice_object in result.extras:
                out += self._encode({**envelope(self._last), "choices": [choice_object]})
        self._pending = False
        return out

    # -- helpers

    def _resolve(self, model: Any) -> None:
        name, reason = select_format(model if isinstance(model, str) else None, self.options.format)
        self._resolved = True
        self.stats.format, self.stats.format_reason = name, reason
        self._parser_type = FORMATS[name] if name else None
        if self._parser_type is not None:
            self._sniff = (*self._parser_type.sniff, *_ALWAYS_SNIFF)

    def _choice(self, index: int) -> ChoiceRewriter:
        choice = self._choices.get(index)
        if choice is None:
            legacy = self.stats.format != NATIVE_TOOL_CALLS
            choice = ChoiceRewriter(index, self._new_parser(), self._call_id_for(index), legacy)
            self._choices[index] = choice
        return choice

    def _new_parser(self) -> Any:
        parser_type, cap = self._parser_type, self.options.max_section_bytes
        return None if parser_type is None else lambda: parser_type(cap)

    def _call_id_for(self, choice: int) -> Any:
        def call_id(index: int, call: ToolCall | None) -> str:
            if self.options.id_style == "native" and call is not None and call.id:
                return call.id
            return derived_call_id(self._stream_id, choice, index)

        return call_id

    def _passthrough(self, event: SSEEvent, chunk: Chunk | None = None) -> list[Output]:
        """An event needing no rewrite: its raw bytes, or (to Anthropic) its translation.

        Without a decoded `chunk` an Anthropic stream keeps only the event's comments.
        """
        if self._emitter is None:
            self.stats.passed_through += 1
            return [event.raw]
        if self._emitter_closed():
            return []
        if chunk is not None:
            return self._emitter.feed(chunk)
        comments = [line for line in event.raw.splitlines() if line.startswith(b":")]
        return [b"".join(line + b"\n" for line in comments) + b"\n"] if comments else []

    def _encode(self, chunk: Chunk) -> list[Output]:
        if self._emitter is None:
            return [encode_event(orjson.dumps(chunk))]
        return [] if self._emitter_closed() else self._emitter.feed(chunk)

    def _emitter_closed(self) -> bool:
        return self._emitter is not None and self._emitter.flushed

    def _count(self, out: list[Output]) -> list[Output]:
        for item in out:
            if isinstance(item, Notice):
                self.stats.notices += 1
            else:
                self.stats.events_out += 1
        return out


def _completion_to_anthropic(body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) completion body as an Anthropic message body; other bodies unchanged."""
    try:
        completion = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body, []  # rewrite_completion has already said so
    if not isinstance(completion, dict) or not (completion.get("choices") or completion.get("error")):
        return body, [Notice("not-a-completion", "body is no chat.completion: not converted")]
    from .anthropic_mapping import completion_to_message

    message, notices = completion_to_message(completion)
    return orjson.dumps(message) + b"\n", notices


def rewrite_completion(
    body: bytes, options: RewriteOptions | None = None
) -> tuple[bytes, list[Notice], int]:
    """Rewrite a non-streaming `chat.completion` body: (new body, notices, calls recovered).

    An unchanged body comes back byte for byte.
    """
    options = options or RewriteOptions()
    try:
        completion = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        return body, [Notice("invalid-json", f"body is not JSON ({error}); passed through")], 0
    choices = completion.get("choices") if isinstance(completion, dict) else None
    if not isinstance(choices, list):
        return body, [Notice("not-a-completion", "body has no choices list; passed through")], 0
    model = completion.get("model")
    name, _ = select_format(model if isinstance(model, str) else None, options.format)
    if name is None:  # --format none, or a model with native tool_calls
        return body, [], 0
    parser_type = FORMATS[name]

    def make_parser() -> ToolSyntax:
        return parser_type(options.max_section_bytes)

    stream_id = completion.get("id") if isinstance(completion.get("id"), str) else ""
    notices: list[Notice] = []
    changed = False
    total_calls = 0
    for position, choice in enumerate(choices):
        if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
            continue
        index: int = choice["index"] if isinstance(choice.get("index"), int) else position

        def call_id(i: int, call: ToolCall | None, index: int = index) -> str:
            if options.id_style == "native" and call is not None and call.id:
                return call.id
            return derived_call_id(stream_id, index, i)

        rewriter = ChoiceRewriter(index, make_parser, call_id, name != NATIVE_TOOL_CALLS)
        message = choice["message"]
        native = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
        as_delta = {**message, "tool_calls": [{**c, "index": i} for i, c in enumerate(native)]}
        finish = choice.get("finish_reason") or "stop"
        result = rewriter.rewrite({**choice, "delta": as_delta, "finish_reason": finish})
        notices += result.notices
        total_calls += result.calls
        if result.choice is None:
            continue
        changed = True
        merged = dict(result.choice["delta"])
        calls = list(native)
        for extra in result.extras:
            for key, value in extra["delta"].items():
                if key == "tool_calls":
                    calls += [message_tool_call(c["id"], **c["function"]) for c in value]
                elif isinstance(value, str):
                    merged[key] = (merged.get(key) or "") + value
        if calls:
            merged["tool_calls"] = calls
        else:
            merged.pop("tool_calls", None)
        choice["message"] = merged
        finishes = [e["finish_reason"] for e in result.extras if e["finish_reason"]]
        choice["finish_reason"] = finishes[-1] if finishes else result.choice["finish_reason"]
    if not changed:
        return body, notices, total_calls
    return orjson.dumps(completion) + b"\n", notices, total_calls
