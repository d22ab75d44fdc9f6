"""PlainRuns: pass a run of events that cannot need work through as one slice.

While the stream is idle (nothing held back), the general path sends every event whose
raw bytes hold none of the stream's needles and whose data looks like one JSON object
(`{...}`; anything else is parsed, and warned about if it is not one) unchanged. So does
this, without the decoder: it finds the first needle (`NeedleIndex`, which searches each
needle through a read about once), checks the shape of the whole events before it, and
copies them out in one slice.

A run also ends before any CR or run of three LFs, and before any event that is not one
`data:` line or one comment line: without those, every blank line ends exactly one event
of one line, so the slice and the counts are exactly the general path's.

Look-alike events (the same bytes around their token) are searched in their tokens alone
(`PlainTemplate`, learned from two events): a run of them costs about the bytes of its
tokens, not of its events, however many needles the stream has. Between them, an event that
is not one is searched as above, alone, until learning templates fails `_MAX_MISSES` times in
a row; then the stream's runs are searched as above only.
"""

from __future__ import annotations

import orjson

from ..quotes import NEEDLES as QUOTE_NEEDLES
from ..sse import DATA, EVENT_END
from . import Taken
from .needles import NeedleIndex
from .plain_template import Hits, PlainTemplate

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from . import StreamView

_OBJECT: Final = DATA + b"{"
_NEXT_OBJECT: Final = EVENT_END + _OBJECT
_OBJECT_END: Final = b"}" + EVENT_END
_FRAMING: Final = (b"\r", b"\n\n\n")  # where one blank line might not end one one-line event
_FIRST_WINDOW: Final = 8192  # bytes searched for needles at first; the window doubles
_FIRST_EVENTS: Final = 32  # look-alikes read at first; the window doubles while all are clear
_MAX_MISSES: Final = 8  # templates not learned in a row before the stream stops learning them
_PROBE: Final = "\x00awaited"  # a look-alike's text, to read what its fixed bytes hold


class PlainRuns:
    """Accelerator for runs of events that pass through unchanged (see module docstring)."""

    def __init__(self, stream: StreamView) -> None:
        self._stream = stream
        self._index: NeedleIndex | None = None
        self._pos = 0  # where the last run was asked for: a read restarts before it
        self._needles: tuple[bytes, ...] | None = None  # the stream's, as last asked
        self._searched: tuple[bytes, ...] = ()  # those and the framing hazards
        self._soft: tuple[bytes, ...] = ()  # those of the quote state, when it has them all (`Hits.hard`)
        self._template: PlainTemplate | None = None  # the last look-alikes' (for these needles)
        self._misses = 0  # templates not learned in a row
        self._awaited: PlainTemplate | None = None  # the template found `quiet` (`_quiet`)

    def take(self, data: bytes, pos: int, stop: int) -> Taken | None:
        """The run of plain events from `pos`, or None."""
        stream = self._stream
        if not stream.keeps_bytes:
            return None
        idle = stream.idle
        if not (idle or stream.awaiting):
            return None
        needles = stream.needles
        if needles is not self._needles:  # the stream's needles change rarely: the tuple is kept
            self._needles, self._searched = needles, (*needles, *_FRAMING)
            self._soft = QUOTE_NEEDLES if set(QUOTE_NEEDLES) <= set(needles) else ()
            self._template = None
        if self._misses < _MAX_MISSES:
            template = self._template
            first = data.find(EVENT_END, pos, stop) + 2
            if template is None or not data.startswith(template.template.parts[0], pos):
                second = data.find(EVENT_END, first, stop)
                if second != -1:  # (learned from two events: a read's last one is searched alone)
                    starts = stream.starts
                    words = () if starts is None else starts.words
                    line, other = data[pos : first - 2], data[first:second]
                    template = PlainTemplate.learn(line, other, needles, self._soft, words)
                    parts = () if template is None or starts is None else template.template.parts
                    if any(starts.first(part, 0, len(part)) is not None for part in parts if starts):
                        template = None  # (a text that ends in a start lies around the slots)
                    self._misses = 0 if template is not None else self._misses + 1
                    self._template = template or self._template
            if template is not None and data.startswith(template.template.parts[0], pos):
                if idle or self._quiet(template):
                    return self._look_alikes(template, data, pos, stop)
                return None
            stop = first  # (not a look-alike: it alone, searched)
        return self._searched_run(data, pos, stop) if idle else None

    def _quiet(self, template: PlainTemplate) -> bool:
        """While the stream is `awaiting` (splitters wait for a closer at a content's start): whether
        the look-alikes of `template` are all `quiet` (no content text, no finish: their fixed
        bytes say so, read once from a probe look-alike), so that those without needles pass."""
        if self._awaited is not template:
            probe = orjson.dumps(_PROBE).join(template.template.parts)
            try:
                chunk = orjson.loads(probe[len(DATA):])
            except orjson.JSONDecodeError:
                return False
            if type(chunk) is not dict or not self._stream.quiet(chunk, False):
                return False
            self._awaited = template
        return True

    def _look_alikes(self, template: PlainTemplate, data: bytes, pos: int, stop: int) -> Taken | None:
        """The run of look-alikes of `template` from `pos` that hold no needle, or None."""
        start, window, events, unread, exposed = pos, _FIRST_EVENTS * template.template.size, 0, 0, False
        while pos < stop:
            cut = data.rfind(EVENT_END, pos, min(stop, pos + window)) + 2
            if cut < pos + 2:  # no event ends inside the window: the next one whole
                cut = data.find(EVENT_END, pos, stop) + 2
            literals, whole = template.template.literals(data, pos, cut)
            hits = Hits(template, literals)
            starts = self._stream.starts  # (the look-alikes that may pass, at most: `held_starts.py`)
            word, held = (len(literals),) * 2 if starts is None else starts.stops(literals, hits.joined)
            unended = min(word, held)
            clear = 0 if exposed else min(hits.first(0), unended)
            while clear < unended and self._quotes_read(template, literals[clear], unread + clear,
                                                        hits.hard(clear)):  # fmt: skip
                unread = -clear - 1  # (those before it are counted now, and it was read)
                clear += 1
                exposed = self._stream.choices.exposed  # (then no event may pass unread: each is read)
                if not exposed:
                    clear = min(hits.first(clear), unended)
            del hits  # (its framed literals go before the run's slice is made: the heap as `clear` left it)
            pos = cut if whole and clear == len(literals) else pos + template.span(literals[:clear])
            events += clear
            unread += clear
            on = 0 < clear == held < word and whole and cut < stop  # (a held start ends the window: the
            if (clear < len(literals) or not whole) and not on:  # next, from its look-alike, reads on)
                break
            window *= 2
        return Taken([data[start:pos]], pos, events, events, unread) if pos > start else None

    def _quotes_read(self, template: PlainTemplate, literal: bytes, unread: int, hard: bool) -> bool:
        """Whether the look-alike of `literal`, which holds a needle or comes while a quote state is
        exposed, holds only those of the quote state (`quotes.NEEDLES`), if any (`hard`: it holds
        another, `Hits.hard`), and was read by its choice's (`StreamChoices.read_texts`), as the
        general path reads it; the `unread` events before it in the run are counted first."""
        quoted = template.quoted
        if quoted is None or hard:
            return False
        try:
            text = orjson.loads(literal)
        except orjson.JSONDecodeError:
            return False
        stream = self._stream
        stream.unread.events += unread
        if stream.choices.read_texts(quoted[0], {quoted[1]: text}):
            return True
        stream.unread.events -= unread
        return False

    def _searched_run(self, data: bytes, pos: int, stop: int) -> Taken | None:
        """The run of plain events from `pos` to `stop` at most, its bytes searched."""
        index = self._index
        if index is None or index.data is not data or index.needles is not self._searched or pos < self._pos:
            index = self._index = NeedleIndex(data, self._searched)
        self._pos = start = pos
        window = _FIRST_WINDOW
        while data[pos : pos + 1] != b"\n":  # a block that starts with a blank line
            end = min(stop, pos + window)
            hazard = index.first(pos, end)
            cut = data.rfind(EVENT_END, pos, hazard)
            if cut != -1:
                pos = cut + 2
            if hazard < end or end == stop:
                break
            window *= 2
        starts = self._stream.starts
        found = None if starts is None or pos == start else starts.first(data, start, pos)
        if found is not None:  # (a text that ends in a start: the run ends before its event)
            cut = data.rfind(EVENT_END, start, found[0])
            pos = start if cut == -1 else cut + 2
        if pos == start:
            return None
        events, end = _plain_events(data[start:pos])
        return Taken([data[start : start + end]], start + end, events, events) if events else None


def _plain_events(block: bytes) -> tuple[int, int]:
    """How many of the whole events `block` holds lead that are one comment line or one
    `data: {...}` line (see `sse.looks_like_object`), and how many bytes they span."""
    events = block.count(EVENT_END)
    # The common case, counted in C: every event one `data: {...}` line.
    if (
        block.count(b"\n") == 2 * events
        and block.startswith(_OBJECT)
        and block.count(_NEXT_OBJECT) == events - 1
        and block.count(_OBJECT_END) == events
    ):
        return events, len(block)
    count = size = 0
    for event in block.split(EVENT_END)[:-1]:
        if b"\n" in event:
            break
        if not (event.startswith(_OBJECT) and event.endswith(b"}")) and not event.startswith(b":"):
            break
        count += 1
        size += len(event) + 2
    return count, size
