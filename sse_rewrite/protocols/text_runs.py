"""Runs of text-only chunks taken for a translated front straight from a read's bytes (sans-IO).

Most events of a stream are one token of text and nothing else, in look-alike envelopes.
While the rewriter is idle, such an event holds no needle and no parser reads it: the general
path decodes it, hands the chunk to the translated output, whose emitter finds it is only
one text of choice 0 (`emitting.lone_text`) continuing the open text, and encodes it from a
template (`ChunkEmitter.lone_texts`). `TextRuns` gives that answer for a run of them at once:

- a look-alike's envelope is learned (`PlainTemplate`, the bytes around its token's literal
  and the literal's mirrors) from an event that `lone_text` reads as one text, and checked
  with a probe text in its slots: any other non-empty text there reads the same way;
- a run is the look-alikes of that envelope holding no needle of the stream
  (`PlainTemplate.clear`) and no empty text; their literals are parsed together (bad escapes
  or UTF-8 end the run: the general path takes those);
- the emitter encodes their texts back to back, or declines (its open text is another).

It holds no rewrite state: idleness and needles are the rewriter's, the rest the emitter's.
`FrontRewriter` asks it at every event boundary of a read, a live model's read of one event
too (a run of one: about 70 % of the general path's cost, `bench/fronts.py --per-event`), and
hands the events it does not take to `StreamRewriter.feed` (the general path, and its own
accelerators). The counts are the general path's: an event in, an event out, unread
(`quotes.Unread`).
"""

from __future__ import annotations

import orjson

from ..stream.fast.plain_template import PlainTemplate
from ..stream.rewrite import StreamRewriter
from ..stream.sse import DATA, EVENT_END, complete_end, events_end
from . import stream_output
from .emitting import lone_text
from .translated import TranslatedOutput

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..rewrite_options import RewriteOptions
    from ..stream.events import Output
    from . import StreamOutput

_PROBE: Final = "\x00probe"  # a text no look-alike's envelope holds
_EMPTY: Final = b'""'
_OBJECT: Final = DATA + b"{"
_FIRST_EVENTS: Final = 16  # look-alikes read at first; the window doubles while all are clear
_MAX_DOUBLINGS: Final = 4  # at most 2**4 events handed on between asks (a failed ask reads one event)


class TextRuns:
    """Takes runs of look-alike text-only chunks for a translated output (see module docstring)."""

    def __init__(self, stream: StreamRewriter, output: TranslatedOutput) -> None:
        self._stream, self._output = stream, output
        self._needles: tuple[bytes, ...] | None = None  # the stream's, as last asked
        self._template: PlainTemplate | None = None  # the last envelope learned (for these needles)
        self._reasoning = False  # whether its text is reasoning

    def take(self, data: bytes, pos: int, stop: int) -> tuple[bytes, int] | None:
        """The events of the run of text-only look-alikes at `pos` (before `stop`, just past a
        blank line), and where it ends; None when none is there to take."""
        stream = self._stream
        if not stream.idle:
            return None
        needles = stream.needles
        if needles is not self._needles:  # (they change rarely: the tuple is kept)
            self._needles, self._template = needles, None
        template = self._template
        literals = [] if template is None else _look_alikes(template, data, pos, stop)
        if template is None or not literals:  # another envelope (or a stale one, whose slots took a copy)
            template = self._template = self._learn(data, pos, stop, needles)
            if template is None:
                return None
            literals = _look_alikes(template, data, pos, stop)
        starts = stream.starts  # (a text that ends in a held start is the general path's: `held_starts.py`)
        texts = _strings(literals if starts is None else literals[: starts.unended(literals)])
        out = self._output.lone_texts(self._reasoning, texts) if texts else None
        if out is None:
            return None
        stats, count = stream.stats, len(texts)
        stats.events_in += count
        stats.events_out += count
        stream.unread.events += count
        return out, pos + template.span(literals[:count])

    def _learn(self, data: bytes, pos: int, stop: int, needles: tuple[bytes, ...]) -> PlainTemplate | None:
        """The envelope of the event at `pos`, when it is one text of choice 0 in any look-alike."""
        line = data[pos : data.find(EVENT_END, pos, stop)]
        lone = _lone(line)
        if lone is None:
            return None
        parts = line.split(orjson.dumps(lone[1]))
        if len(parts) < 2 or _lone(orjson.dumps(_PROBE).join(parts)) != (lone[0], _PROBE):
            return None
        self._reasoning = lone[0]
        return PlainTemplate.learn(line, _EMPTY.join(parts), needles)


class FrontRewriter(StreamRewriter):
    """A `StreamRewriter` for a serve front: with a translated output (and `plain_runs` on), runs
    of text-only chunks are taken by `TextRuns`; every other event goes through `feed` as ever."""

    def __init__(self, options: RewriteOptions, output: StreamOutput | None = None) -> None:
        output = output or stream_output(options.to)
        super().__init__(options, output)
        self._text_runs: TextRuns | None = None
        if options.plain_runs and isinstance(output, TranslatedOutput):
            self._text_runs = TextRuns(self, output)
        self._text_misses = 0  # asks in a row that took nothing
        self._text_skip = 0  # events to hand on before the next ask (across reads: a live model's are one)

    def feed(self, data: bytes) -> list[Output]:
        """Consume the next bytes of input; return what can be written now."""
        runs = self._text_runs
        if runs is None:
            return super().feed(data)
        if self._text_skip and data.find(EVENT_END) == len(data) - 2:  # one event (a live model's read)
            self._text_skip -= 1  # (and no ask due)
            return super().feed(data)
        out: list[Output] = []
        pos, stop = 0, complete_end(data)
        while pos < stop:
            if not self._text_skip and self.resolved and self.at_boundary:  # (the first chunk tells
                taken = runs.take(data, pos, stop)  # the format: only then)
                if taken is not None:
                    out.append(taken[0])
                    pos, self._text_misses = taken[1], 0
                    continue
            if not self._text_skip:  # (an ask took nothing, or none could be made)
                self._text_misses += 1
                # 1, 1, 2, 4... events handed on between asks (the rewriter's accelerators take runs in them)
                self._text_skip = 1 << min(max(self._text_misses - 1, 0), _MAX_DOUBLINGS)
            end = events_end(data, pos, stop, self._text_skip)
            if end == pos:
                break
            self._text_skip -= data.count(EVENT_END, pos, end)
            out += super().feed(data[pos:end])
            pos = end
        if pos < len(data):
            out += super().feed(data[pos:] if pos else data)
        return out


def _lone(line: bytes) -> tuple[bool, str] | None:
    """`lone_text` of the chunk in a one-line `data:` event; None if it is no chunk."""
    if not line.startswith(_OBJECT):
        return None
    try:
        chunk = orjson.loads(line[len(DATA) :])
    except orjson.JSONDecodeError:
        return None
    return lone_text(chunk) if type(chunk) is dict else None


def _look_alikes(template: PlainTemplate, data: bytes, pos: int, stop: int) -> list[bytes]:
    """The literals of the look-alikes at `pos` that hold no needle and no empty text."""
    if data.find(EVENT_END, pos, stop) + 2 == stop:  # one event (a live model's read): no window
        literals = template.template.literals(data, pos, stop)[0]
        return literals if template.clear(literals) and literals != [_EMPTY] else []
    taken: list[bytes] = []
    window = _FIRST_EVENTS * template.template.size
    while pos < stop:
        cut = data.rfind(EVENT_END, pos, min(stop, pos + window)) + 2
        if cut < pos + 2:  # no event ends inside the window: the next one whole
            cut = data.find(EVENT_END, pos, stop) + 2
        literals, whole = template.template.literals(data, pos, cut)
        clear = template.clear(literals)
        if _EMPTY in literals[:clear]:
            clear = literals.index(_EMPTY)
        taken += literals[:clear]
        if clear < len(literals) or not whole:
            break
        pos += template.span(literals)
        window *= 2
    return taken


def _strings(literals: list[bytes]) -> list[str]:
    """The texts of the leading `literals` that parse (a bad escape or bad UTF-8 ends them)."""
    try:
        texts: list[str] = orjson.loads(b"[" + b",".join(literals) + b"]")
    except orjson.JSONDecodeError:
        texts = []
        for literal in literals:
            try:
                texts.append(orjson.loads(literal))
            except orjson.JSONDecodeError:
                break
    return texts
