"""Accelerators: take runs of events straight from a read's raw bytes (sans-IO).

The general path (`rewrite.py`) decodes every event. Where it would give a known answer
for a run of events, an accelerator gives the same answer without the SSE decoder, the
chunk dicts or the routing: `PlainRuns` passes events that cannot need work through in
one slice; `TokenRuns` feeds the tokens of look-alike chunks into the open call they
land in. Each accelerator

- is asked at an event boundary, `take(data, pos, stop)`, where `stop` is just past the
  read's last blank line, and answers `Taken` (what it emitted, how far it got, how
  many events it took; nothing taken means "this event is the general path's, but ask
  again right after it") or None (nothing for it here: the general path takes a few);
- holds no rewrite state of its own: it asks the stream (`StreamView`) and its choices;
- is switched by one `RewriteOptions` field (`plain_runs`, `token_runs`).

`Reader` is the loop that asks them and gives every other event to the general path.
The tests run every stream test with accelerators on and off, and compare each one
switched off alone with all on (tests/test_fast.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sse import EVENT_END, complete_end, events_end

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, Protocol

    from ...rewrite_options import RewriteOptions
    from ...stats import Stats
    from ..choices import Planned, StreamChoices
    from ..chunks import Chunk
    from ..events import Output
    from ..held_starts import HeldStarts
    from ..quotes import Unread
    from ..streamed_calls import Part

    class StreamView(Protocol):
        """What an accelerator may ask of the stream it reads for (`StreamRewriter`)."""

        stats: Stats

        @property
        def resolved(self) -> bool: ...  # the format is known (a chunk was decoded)

        @property
        def at_boundary(self) -> bool: ...  # the decoder holds nothing

        @property
        def idle(self) -> bool: ...  # nothing held back: events without needles pass unchanged

        @property
        def awaiting(self) -> bool: ...  # not idle only for splitters awaiting a content's start

        def quiet(self, chunk: Chunk, noting: bool = True) -> bool: ...  # awaiting: no work in it

        @property
        def keeps_bytes(self) -> bool: ...  # unchanged events go out as their raw bytes

        @property
        def needles(self) -> tuple[bytes, ...]: ...  # bytes without which an idle event needs no work

        @property
        def choices(self) -> StreamChoices: ...

        def decode(self, data: bytes) -> list[Output]: ...  # the general path, for whole events

        def send(self, items: list[Planned]) -> list[Output]: ...  # encode planned output, and count it

        streams_arguments: bool  # `--stream-arguments`
        starts: HeldStarts | None  # a text ending in a start of a held word: the general path's
        unread: Unread  # events passed unread, which the runs taken add to

        def send_parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = b"",
                       fed: tuple[str, str] | None = None) -> list[Output]: ...
        # argument parts of `choice`, in the envelope of `chunk`, encoded and counted (`raw`,
        # `fed`: a live event's bytes and the token it fed, for the OpenAI output's template)

    class Accelerator(Protocol):
        """Takes a run of events at an event boundary, or None."""

        def take(self, data: bytes, pos: int, stop: int) -> Taken | None: ...

    TakeOne = Callable[[bytes], "Taken | None"]
    """Takes a read that is one whole event (`TokenRuns.take_one`), or None."""

_MAX_DOUBLINGS: Final = 7  # at most 2**7 events decoded before the accelerators are asked again


@dataclass(slots=True)  # not frozen: one is made per run, and frozen ones are slower to make
class Taken:
    """A run an accelerator took: what it emitted, where it ends, how many events it took,
    and how many of them went out unchanged (in `out`, as their raw bytes); `unread`: how many
    of those no parser or quote state read, not yet counted (`quotes.Unread`; None: `passed`)."""

    out: list[Output]
    end: int
    events: int
    passed: int
    unread: int | None = None


class Reader:
    """The read loop with accelerators: `feed(data)` in place of the general path's."""

    def __init__(
        self, stream: StreamView, accelerators: list[Accelerator], one: TakeOne | None = None
    ) -> None:  # fmt: skip
        self._stream = stream
        self._accelerators = accelerators
        self._misses = 0  # asks in a row that no accelerator took anything at
        self._one = one  # asked of a read that is one whole event

    def feed(self, data: bytes) -> list[Output]:
        """Rewrite a read: runs the accelerators take, the general path for the rest.

        The decoder is indifferent to how its input is cut, so the events it sees are the
        same either way. Where no accelerator takes anything (prose full of `<`, a long
        `<tool_call>` body), events go to the decoder in doubling batches between attempts,
        so that trying costs little. Until the format is known (the first chunk decoded,
        usually the read's first event) nothing is asked. A read of one event or less (a live
        stream, one token a read) goes to the decoder whole: no run pays for asking.
        """
        stream, out = self._stream, []
        if data.find(EVENT_END) == len(data) - 2 >= 0:  # one whole event, first: a live stream's read
            if self._one is not None and stream.resolved and stream.at_boundary:
                taken = self._one(data)
                if taken is not None:
                    stream.stats.events_in += taken.events
                    return taken.out if taken.end else taken.out + stream.decode(data)
            return stream.decode(data)
        pos, stop = 0, complete_end(data)
        if data.find(EVENT_END, 0, stop) + 2 >= stop:
            return stream.decode(data)
        while pos < stop:
            if not stream.resolved:  # the format is known from the first chunk decoded: only then
                self._misses += 1  # can the accelerators take anything (events wait in doubling batches)
            elif stream.at_boundary:
                taken = self._take(data, pos, stop)
                if taken is None:
                    self._misses += 1
                else:  # taken, or declined at `pos`: decode that event, then ask again
                    stream.stats.events_in += taken.events
                    stream.stats.events_out += taken.passed
                    stream.stats.passed_through += taken.passed
                    # (no parser read them: `quotes.Unread`)
                    stream.unread.events += taken.passed if taken.unread is None else taken.unread
                    out += taken.out
                    self._misses = 0
                    if taken.end > pos:
                        pos = taken.end
                        continue
            # 1, 1, 2, 4... events between attempts: the first miss after a take may be an
            # event that changes what the accelerators can do (a call opens), so it is one
            end = events_end(data, pos, stop, 1 << min(max(self._misses - 1, 0), _MAX_DOUBLINGS))
            if end == pos:
                break
            out += stream.decode(data[pos:end])
            pos = end
        if pos < len(data):
            out += stream.decode(data[pos:] if pos else data)
        return out

    def _take(self, data: bytes, pos: int, stop: int) -> Taken | None:
        declined = None
        for accelerator in self._accelerators:
            taken = accelerator.take(data, pos, stop)
            if taken is not None:
                if taken.end > pos:
                    return taken
                declined = taken
        return declined


def reader(stream: StreamView, options: RewriteOptions) -> Reader | None:
    """A `Reader` with the accelerators `options` switch on; None when none is."""
    accelerators: list[Accelerator] = []
    one = None
    if options.token_runs:
        from .token_runs import TokenRuns

        token_runs = TokenRuns(stream)
        accelerators.append(token_runs)
        one = token_runs.take_one
    if options.plain_runs:
        from .plain_runs import PlainRuns

        accelerators.append(PlainRuns(stream))
    return Reader(stream, accelerators, one) if accelerators else None
