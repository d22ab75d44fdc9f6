"""TokenRuns: feed the tokens of look-alike chunks into the open call they land in.

Most events of a tool-heavy stream are tokens of an open call's arguments, in chunks
that differ only in their token. While a choice holds text back (`StreamChoices.pending`),
this accelerator decodes one event itself and offers it to the stream's choices
(`StreamChoices.absorbed`: the open call takes it and nothing is left to send, exactly
what the general path would conclude). If it is taken, the event becomes the template
(`TokenTemplate`) for the next ones: their tokens are read from the raw bytes, a run at
a time, and offered to the same choice's field together (`ChoiceRewriter.take_run`).
A look-alike whose token the call declines (a marker, most likely) is fed to it ahead
(`ChoiceRewriter.feed_ahead`): if that leaves nothing to send, the run goes on; else that
event, and any that is not a look-alike, is left to the general path.
What was read past it is kept for the next take in the same read (the tokens are the
bytes' own, whatever the general path did meanwhile), so each event is read about once.

It keeps only the template (bytes), the choice and field it names, and the run last read
(bytes and the tokens they hold): no rewrite state.
"""

from __future__ import annotations

import orjson

from ..chunks import moved_choice, with_choice
from ..deltas import with_texts
from ..sse import EVENT_END, data_value
from . import Taken
from .thought_events import thought_events, thought_parts
from .token_template import TokenRun, TokenTemplate

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from ..choice import ChoiceRewriter
    from ..chunks import Chunk
    from ..events import Output
    from ..streamed_calls import Part
    from . import StreamView

_FIRST_WINDOW: Final = 16  # events read at first; the window doubles while the call takes them all
_MAX_MISSES: Final = 8  # templates that failed in a row before the stream stops learning them


class TokenRuns:
    """Accelerator for runs of token events inside an open call (see module docstring)."""

    def __init__(self, stream: StreamView) -> None:
        self._stream = stream
        self._template: TokenTemplate | None = None
        self._choice = 0  # the choice index and field the template's token goes to
        self._field = ""
        self._misses = 0
        self._moved_count = 0  # how many tokens `_moved` took
        self._chunk: Chunk | None = None  # the template's event, decoded (its envelope, streaming)
        self._example: tuple[bytes, tuple[str, str]] | None = None  # its raw bytes, field and token
        self._thought: tuple[bytes, bytes] | None = None  # its moved event's parts (`thought_parts`)
        # The last run read, in which read, where, for which template: the general path
        # takes the event the call declined, then the rest may be taken from it.
        self._left: tuple[bytes, int, TokenTemplate, TokenRun] | None = None

    def take(self, data: bytes, start: int, stop: int) -> Taken | None:
        """The run of token events from `start` that the open call absorbs, or None."""
        choices = self._stream.choices
        if not (choices.pending or choices.watching) or choices.awaiting:  # (awaiting: `PlainRuns`' runs,
            # or the general path; watching: a call just ended, its parser reads the text after it)
            return None
        taken, pos = 0, start
        out: list[Output] = []
        if self._template is None:
            if self._misses >= _MAX_MISSES or not choices.pending:  # (learned in a call only)
                return None
            pos = self._learn(data, pos, stop, out)
            if pos == start:
                return None
            taken = 1
        rewriter = choices.get(self._choice)
        template = self._template
        if rewriter is None or template is None:
            return Taken(out, pos, taken, 0) if taken else None
        window = _FIRST_WINDOW * template.size
        parts: list[Part] | None = [] if self._stream.streams_arguments else None
        while pos < stop:
            run = self._run(template, data, pos, stop, window)
            tokens = run.tokens
            if not tokens and pos == start:  # not even the first: the template is stale
                self._template = None
                self._misses += 1
                return None
            self._misses = 0
            if parts is None:
                done = self._absorb(rewriter, tokens, out, run.event_of(template))
            else:
                done = self._stream_parts(rewriter, tokens, parts, out)
            taken += done
            if done < len(tokens) or not run.whole:
                end = pos + run.span(done)
                self._left = (data, end, template, run.rest(done))  # read, not taken: for the next takes
                return Taken(out + self._sent(parts), end, taken, 0)
            pos += run.span(done)
            window *= 2
        return Taken(out + self._sent(parts), pos, taken, 0)

    def take_one(self, data: bytes) -> Taken | None:
        """`take` for a read that is one whole event (a live stream, one token a read): the
        template checks it whole; None where `take` would not run or the event is no look-alike."""
        choices, template = self._stream.choices, self._template
        if not (choices.pending or choices.watching) or choices.awaiting:
            return None
        out: list[Output] = []
        if template is None:
            if self._misses >= _MAX_MISSES or not choices.pending:
                return None
            end = self._learn(data, 0, len(data), out)
            return Taken(out, end, 1 if end else 0, 0)
        token = template.one(data)
        rewriter = choices.get(self._choice)
        if token is None or rewriter is None:
            return None
        self._left = None
        parts: list[Part] | None = None
        if self._stream.streams_arguments:
            part = rewriter.absorb_live(self._field, token)  # (the one token, without the run's lists)
            if part is not None:  # taken: its part goes out (`_sent`), or nothing ("": an XML value's)
                chunk, example = self._chunk, self._example
                if isinstance(part, str) or chunk is None:
                    return Taken([], len(data), 1, 0)
                if example is None:
                    return Taken(self._stream.send_parts(chunk, self._choice, [part]), len(data), 1, 0)
                return Taken(self._stream.send_parts(chunk, self._choice, [part], *example), len(data), 1, 0)
            streamed: list[Part] = []
            done, parts = self._stream_parts(rewriter, [token], streamed, out, 0), streamed
        else:
            done = self._absorb(rewriter, [token], out, data)
        if out or not done:
            return Taken(out + self._sent(parts), len(data) if done else 0, done, 0)
        return Taken(self._sent(parts, True) if parts else [], len(data), 1, 0)

    def _sent(self, parts: list[Part] | None, live: bool = False) -> list[Output]:
        """What the run's argument parts send (streaming), in the template's envelope (`live`:
        one event's part, encoded by the template's event as the output's own template)."""
        if not parts or self._chunk is None:
            return []
        if live and self._example is not None and len(parts) == 1:
            part = parts[0]  # (one token's text, or a run of one: a part of the live event)
            if type(part) is tuple and type(part[1]) is str:
                return self._stream.send_parts(self._chunk, self._choice, parts, *self._example)
            if type(part) is tuple and type(part[1]) is list and len(part[1]) == 1:
                live_part: list[Part] = [(part[0], part[1][0])]
                return self._stream.send_parts(self._chunk, self._choice, live_part, *self._example)
        return self._stream.send_parts(self._chunk, self._choice, parts)

    def _run(self, template: TokenTemplate, data: bytes, pos: int, stop: int, window: int) -> TokenRun:
        """The look-alikes from `pos`: those left over from the last take if they start
        there, else those of about `window` bytes read now."""
        left, self._left = self._left, None
        if left is not None and left[0] is data and left[1] <= pos and left[2] is template:
            run = left[3].after(pos - left[1])
            if run is not None and run.tokens:
                return run
        cut = data.rfind(EVENT_END, pos, min(stop, pos + window)) + 2
        if cut < pos + 2:  # no event ends inside the window: take the next one whole
            cut = data.find(EVENT_END, pos, stop) + 2
        return template.run(data, pos, cut)

    def _absorb(
        self, rewriter: ChoiceRewriter, tokens: list[str], out: list[Output],
        event: Callable[[int], bytes] | bytes,
    ) -> int:  # fmt: skip
        """How many of the leading `tokens` the call takes, leaving nothing to send: those it
        absorbs, and between them those it is fed ahead (`ChoiceRewriter.feed_ahead`), or
        whose text all goes to the reasoning field, or that made calls only or came back as
        they were (`_called`; their chunks, or raw bytes (`event` of a token's index, or the
        live read's one event), are added to `out`)."""
        count = rewriter.take_run(self._field, tokens, 0)
        while count < len(tokens):
            if rewriter.fed_answered:  # (calls, or the text as it was: never moved nor a thought, so first)
                if self._called(event if isinstance(event, bytes) else event(count), tokens[count], out):
                    return count + 1  # (the run ends there: the choices were recounted, idle or not)
            elif self._moved(tokens, count, out) or self._thoughts(tokens, count, out):
                count = rewriter.take_run(self._field, tokens, count + self._moved_count)
                continue
            raw = event if isinstance(event, bytes) else event(count)
            held = self._rewritten(rewriter, raw, tokens[count], out)
            if held is None:
                break
            if not held:
                return count + 1  # (it sent something, or the stream stopped pending: the run ends there)
            count = rewriter.take_run(self._field, tokens, count + 1)
        return count

    def _called(self, raw: bytes, token: str, out: list[Output]) -> bool:
        """After the choice was fed `token`, of the look-alike `raw`, and holds its pieces: whether
        they are calls only, or its text as it was, so that the event goes out as `rewrite` sends
        it (`StreamChoices.fed_calls`: the calls' chunks, or `raw` unchanged), sent to `out`. Its
        chunk is the learned one with `token` in its slots, not decoded (`TokenTemplate.learn`
        checked that a look-alike decodes to that, with its probe)."""
        learned = self._chunk
        if learned is None:
            return False
        choice = with_texts(learned["choices"][0], {self._field: token})
        planned = self._stream.choices.fed_calls({**learned, "choices": [choice]}, choice, raw)
        if planned is None:
            return False
        out += self._stream.send(planned)
        return True

    def _rewritten(self, rewriter: ChoiceRewriter, raw: bytes, token: str, out: list[Output]) -> bool | None:
        """After the choice declined `token`, of the look-alike `raw`, while it declines any text
        (`ChoiceState.declines`: held characters, or a text fed ahead), so that `absorbed` would
        too: the event rewritten as the general path would (`StreamChoices.rewrite`), of the
        learned chunk with `token` in its slots, not decoded (as `_called`), sent to `out` (most
        often nothing: its text held, as stripped Kimi's `functions` and `.NAME` are). True when
        nothing went out and the stream still waits inside syntax (the run goes on), False when
        the run ends there; None: not rewritten (the general path's)."""
        learned = self._chunk
        if learned is None or not rewriter.declines:
            return None
        choices = self._stream.choices
        choice = with_texts(learned["choices"][0], {self._field: token})
        sent = self._stream.send(choices.rewrite(raw, {**learned, "choices": [choice]}))
        out += sent
        return not sent and choices.pending and not choices.awaiting

    def _moved(
        self, tokens: list[str], count: int, out: list[Output], parts: list[Part] | None = None
    ) -> bool:  # fmt: skip
        """After the choice was fed `tokens[count]` and holds its pieces: whether its event is
        done here because its text all goes to the reasoning field (harmony's analysis text),
        as one chunk the choices plan (`StreamChoices.moved`, asked of the learned chunk: a
        look-alike differs only in its token, which the choice was just fed), sent to `out`;
        then the tokens after it that go there whole too (`StreamChoices.moved_on`), fed and
        sent the same way (after the argument `parts` taken before them, if any). `_moved_count`
        says how many tokens that took."""
        chunk = self._chunk
        moved = None if chunk is None else self._stream.choices.moved(chunk)
        if chunk is None or moved is None:
            return False
        more, make = self._stream.choices.moved_on(chunk, self._choice, tokens[count + 1 :])
        if parts:
            out += self._sent(parts)
            parts.clear()
        sent = self._stream.send(moved)
        out += sent
        texts = [text for text in more if text]
        around = thought_parts(make, sent, tokens[count]) if texts else None  # (by bytes where exact)
        if around is not None:
            out += thought_events(around, texts)
            self._stream.stats.events_out += len(texts)
        elif texts:
            out += self._stream.send([make(text) for text in texts])
        self._moved_count = 1 + len(more)
        return True

    def _thoughts(
        self, tokens: list[str], count: int, out: list[Output], parts: list[Part] | None = None
    ) -> bool:  # fmt: skip
        """Whether `tokens[count]` and those after it move to the reasoning field inside a think
        block, as the learned chunk's content may (`StreamChoices.thoughts`): their chunks are
        sent to `out` (by the byte template when it holds, `thought_events`), after the argument
        `parts` taken before them, if any; `_moved_count` says how many tokens that took."""
        chunk = self._chunk
        if chunk is None or self._field != "content":
            return False
        moved = self._stream.choices.thoughts(chunk, self._choice, tokens[count:])
        if not moved:
            return False
        if parts:
            out += self._sent(parts)
            parts.clear()
        if self._thought is not None:
            out += thought_events(self._thought, moved)
            self._stream.stats.events_out += len(moved)
        else:
            out += self._stream.send([self._thought_chunk(chunk, text) for text in moved])
        self._moved_count = len(moved)
        return True

    def _thought_chunk(self, chunk: Chunk, text: str) -> Chunk:
        """The chunk a look-alike of `chunk` with content `text` becomes when the text moves."""
        rewriter = self._stream.choices.get(self._choice)
        assert rewriter is not None  # (it took the learned chunk)
        return {**chunk, "choices": [rewriter.thought_choice(chunk["choices"][0], text)]}

    def _stream_parts(
        self, rewriter: ChoiceRewriter, tokens: list[str], parts: list[Part], out: list[Output],
        count: int | None = None,
    ) -> int:  # fmt: skip
        """`_absorb`, streaming arguments: how many of the leading `tokens` the call takes,
        leaving nothing to send but the argument parts they stream (added to `parts`), or
        the chunks of text moved to the reasoning field (added to `out`, after the parts
        before them). `count`: how many the call absorbed already (`take_one`: none)."""
        field = self._field
        if count is None:
            count = rewriter.absorb_streamed(field, tokens, parts)
        while count < len(tokens):
            if rewriter.feed_ahead(field, tokens[count], parts):
                count += 1
            elif self._moved(tokens, count, out, parts) or self._thoughts(tokens, count, out, parts):
                count += self._moved_count
            else:
                break
            if count < len(tokens):  # (a live event's one token: nothing after it to absorb)
                count += rewriter.absorb_streamed(field, tokens[count:], parts)
        return count

    def _learn(self, data: bytes, start: int, stop: int, out: list[Output]) -> int:
        """Offer the event at `start` to the choices; past it if taken (and learn its
        template, and add what it sends to `out`: streaming, its argument parts), else `start`."""
        end = data.find(EVENT_END, start, stop) + 2
        raw = data[start:end] if end > 1 else b""
        value = data_value(raw)
        if value is None:
            self._misses += 1
            return start
        try:
            chunk = orjson.loads(value)
        except orjson.JSONDecodeError:
            chunk = None
        parts: list[Part] | None = [] if self._stream.streams_arguments else None
        absorbed = self._stream.choices.absorbed(chunk, parts) if type(chunk) is dict else None
        self._thought = None
        if type(chunk) is dict and absorbed is None:
            return self._learn_thought(raw, chunk, start, end, out)
        if chunk is None or absorbed is None:
            self._misses += 1
            return start
        self._choice, fed = absorbed
        if len(fed) == 3:  # (its content all went to the reasoning field `fed[2]`)
            out += self._stream.send([with_choice(chunk, moved_choice(self._choice, fed[2], fed[1]))])
        self._field = fed[0]
        self._chunk, self._example = chunk, (raw, (fed[0], fed[1]))
        out += self._sent(parts)
        self._template = TokenTemplate.learn(raw, chunk, self._field)
        self._misses = 0 if self._template is not None else self._misses + 1
        return end

    def _learn_thought(self, raw: bytes, chunk: Chunk, start: int, end: int, out: list[Output]) -> int:
        """`_learn` for an event whose content moves to the reasoning field inside a think block
        (`StreamChoices.thought`): past it if so (its chunk sent to `out`), else `start`."""
        choices = self._stream.choices
        moved = choices.thought(chunk)
        if moved is None:
            self._misses += 1
            return start
        sent = self._stream.send([moved])
        out += sent
        index = chunk["choices"][0].get("index")
        self._choice, self._field, self._chunk = index if isinstance(index, int) else 0, "content", chunk
        self._example = None
        self._template = TokenTemplate.learn(raw, chunk, "content")
        self._misses = 0 if self._template is not None else self._misses + 1
        text = chunk["choices"][0]["delta"]["content"]
        self._thought = thought_parts(lambda probe: self._thought_chunk(chunk, probe), sent, text)
        return end
