"""ScanningParser: the feed/flush loop every format's state machine shares.

A format is a small state machine over a `MarkerScanner`: its states and handlers differ,
the rest is written once here: running handlers until none makes progress, the section cap,
compacting, `pending`, the feed-after-flush guard, and plain-text scanning up to the first
marker of `OPENERS` (`_found`, `_orphans.py`); `--stream-arguments` bookkeeping and every
call's way out (`_call`) are `StreamedCall`'s (`_streamed_call.py`). A `ComposedParser`
(`_compose.py`) runs several machines over one shared scanner.
"""

from __future__ import annotations

import bisect
import enum
import itertools
from collections.abc import Callable, Mapping, Sequence

from ...stream.events import Notice, Piece, Reasoning, Text
from ._json import JsonScanner
from ._orphans import OrphanClosers, Surroundings
from ._scanner import DEFAULT_MAX_SECTION_BYTES, MarkerScanner, MarkerTable, plain_leads, scan_text
from ._streamed_call import StreamedCall, unrecovered

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from ...tool_schemas import ToolSchemas


class MachineState(enum.Enum):
    """Base of the parsers' state enums: a state hashes by identity, as cheaply as any object.

    (`Enum`'s own hash is Python code, and `_STEPS[state]` looks a state up on every step.)
    """

    __hash__ = object.__hash__


class ScanningParser(StreamedCall, OrphanClosers):
    """Base of the format parsers (implements `ToolSyntax` with a subclass's states).

    A subclass sets `TEXT` (its state in which nothing is held back), `_STEPS` (state ->
    handler returning True when it made progress), `CAP_SUBJECT` (what the cap notice
    names), and implements `_finish(out)`, which decides everything held at flush.
    """

    TEXT: ClassVar[MachineState]
    """The subclass's state for plain text: only a possible partial marker is held back."""

    CAP_SUBJECT: ClassVar[str] = "tool call"
    """What grew past the cap, for its notice ("tool call", "tool section")."""

    _STEPS: ClassVar[Mapping[Any, Callable[[Any, list[Piece]], bool]]]

    OPENERS: ClassVar[MarkerTable[Any]]
    """Markers that mean something in plain text (openers, orphan closers), with a value for `_open`."""

    _PLAIN_AT_ONCE: ClassVar[bool]
    """Whether a text without `<`, fed while nothing is held, is handed back at once: what
    the TEXT step does with it when that step is `_step_text` and every opener starts with
    `<` (so this is set for each subclass by its steps and openers)."""
    _PLAIN_LEADS: ClassVar[str | None]
    """`plain_leads` in plain text: every opener's first character (None when the TEXT step is
    not `_step_text`, or an opener starts with a character outside ASCII)."""
    REASONING_AT_ONCE: ClassVar[MachineState | None] = None
    """A state whose step hands such a text back whole as `Reasoning` (harmony's analysis)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        steps = getattr(cls, "_STEPS", None)
        openers = getattr(cls, "OPENERS", None)
        plain_step = steps is not None and steps[cls.TEXT] is ScanningParser._step_text
        cls._PLAIN_AT_ONCE = plain_step and (openers is None or openers.leads == b"<")
        cls._PLAIN_LEADS = plain_leads(openers) if plain_step else None

    sniff: ClassVar[tuple[bytes, ...]]
    """Raw SSE bytes without which an event cannot hold this syntax (see `ToolSyntax`)."""

    def __init__(
        self,
        max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES,
        scanner: MarkerScanner | None = None,
        stream_arguments: bool = False,
        surroundings: Surroundings | None = None,  # (shared by the parts of a `ComposedParser`)
        tools: ToolSchemas | None = None,
    ) -> None:
        self._scan = scanner or MarkerScanner()
        self._tools = tools  # the request's tools: they type values and name calls, never find them
        self._init_orphans(surroundings)
        self._state: MachineState = self.TEXT
        self._max = max_section_bytes
        self._json = JsonScanner()
        self._flushed = False
        self._finished = False  # (set by `flush`: the stream ended normally)
        self._streams = stream_arguments
        self._announced: tuple[str | None, str] | None = None  # the open call's CallStart
        self._sent: list[str] = []  # its argument text streamed so far
        self._setup()

    def _setup(self) -> None:
        """Set up a subclass's own state (the last step of `__init__`)."""

    shared: frozenset[bytes] = frozenset()
    """Openers a later part of its `ComposedParser` reads too: one this part finds is not its
    syntax is handed on to that part (`handed_on`), not released as text (the body decides)."""
    handed_on: bytes = b""
    """The opener of `shared` this part just handed on, at the scanner's `start` (b"": none)."""

    @property
    def pending(self) -> bool:
        """True while any text is held back."""
        scan = self._scan  # (its `buffered` without the property's call: asked about every fed text)
        return self._state is not self.TEXT or scan.end > scan.start

    @property
    def undecided(self) -> int:
        """Characters held back only because they may begin a marker; 0 inside syntax."""
        scan = self._scan
        if self._state is not self.TEXT or scan.end == scan.start:  # (nothing `buffered`)
            return 0
        return len(scan.text(scan.start, scan.end))

    @property
    def held(self) -> str:
        """The characters `undecided` counts."""
        scan = self._scan
        return scan.text(scan.start, scan.end) if self._state is self.TEXT else ""

    @property
    def plain_leads(self) -> str | None:
        """The characters without which a text fed now is handed back whole as one `Text`,
        nothing else changed but what `Surroundings` reads (nothing held, in plain text); None
        when no such text is known now. (Then a run of such texts may be fed as one.)"""
        if self._state is not self.TEXT or self._scan.end or self._flushed:
            return None
        return self._PLAIN_LEADS

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if not self._scan.end and "<" not in text:
            # Nothing is held and nothing can begin a marker: the step would hand it all back.
            if self._state is self.REASONING_AT_ONCE:  # (orphan closers read no reasoning)
                return [Reasoning(text)] if text else []
            if self._state is self.TEXT and self._PLAIN_AT_ONCE:
                self._around.text(text)
                return [Text(text)] if text else []
        out: list[Piece] = []
        self._around.begin(out)
        self._scan.append(text)
        self._run(out)
        if self._state is not self.TEXT and self._scan.buffered > self._max:
            self._cap(out)
        self._compact()
        return out

    def _run(self, out: list[Piece]) -> None:
        """Step until no step makes progress; then `Surroundings` reads what was handed back."""
        while self._STEPS[self._state](self, out):
            pass
        if out:
            self._around.catch_up()

    def _cap(self, out: list[Piece]) -> None:
        """The open section grew past the cap: its raw text comes out (an announced call is completed)."""
        message = f"{self.CAP_SUBJECT} over {self._max} bytes"
        self._release_raw(out, self._scan.end, "section-cap", message)
        self._state = self.TEXT

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """End of the field: decide everything still held back (docs/behaviour.md, "Damage");
        `finished`: a normal finish, `cut`: a `length` one (see `ToolSyntax.flush`)."""
        if self._flushed:
            return []
        self._flushed, self._finished = True, finished
        out: list[Piece] = []
        self._end_line(out)
        announced, start = self._announced is not None, len(out)
        self._finish(out)
        if cut and not announced:
            unrecovered(out, start)
        self._state = self.TEXT
        return out

    def _step_text(self, out: list[Piece]) -> bool:
        found = scan_text(self._scan, self.OPENERS, out)
        return found is not None and self._found(*found, out)

    def _finish(self, out: list[Piece]) -> None:
        """Decide what is held back at the end of the field (called once, by `flush`)."""
        raise NotImplementedError

    JSON_BODY: ClassVar[MachineState | None] = None
    """The subclass's state whose step only advances `_json` until the body closes (then it
    moves on to a `SPACING` state, deciding nothing), if any."""

    SPACING: ClassVar[frozenset[MachineState]] = frozenset()
    """The subclass's states whose step moves its cursor to the end over spacing alone."""

    def absorb(self, texts: Sequence[str]) -> int:
        """Take the leading texts that certainly decide nothing; return how many were taken.

        The base takes them in the `JSON_BODY` state up to the one that closes the body:
        texts that together neither close it nor pass the cap decide nothing fed one at a
        time either; nor does the closing one if only spacing follows its bracket (it is
        taken, and spacing goes on being taken after it). In a `SPACING` state it takes texts
        of spacing alone, while everything held is scanned (a partial marker may end at
        spacing) and within the cap. A subclass whose hot state is another overrides it.

        Texts without a closing bracket cannot close it: they are appended unscanned, and
        `_json` catches up over them, in one run, when the JSON step or this method next looks.
        """
        scan, json = self._scan, self._json
        if self._streams:  # the steps announce the call and stream its text as it comes
            return 0
        if self._state is not self.JSON_BODY:  # (the hot state is tested first)
            return self._absorb_around_body(texts)
        text = "".join(texts)
        # (4 bytes a character bound the UTF-8 size)
        if "}" not in text and "]" not in text and scan.end - scan.start + 4 * len(text) <= self._max:
            scan.append(text)
            return len(texts)
        json.advance(scan.view, scan.end)  # (catching up: what it passes holds no closing bracket)
        data = text.encode("utf-8", "surrogatepass")
        if scan.buffered + len(data) > self._max:
            return 0
        probe = JsonScanner(json.pos - scan.end, json.in_string, json.depth)  # over the new bytes alone
        closed = probe.advance(data, len(data))
        if closed is not None:  # take the texts before the one holding the closing bracket
            encoded = texts if text.isascii() else [t.encode("utf-8", "surrogatepass") for t in texts]
            ends = list(itertools.accumulate(map(len, encoded)))  # (an ASCII text's bytes are its characters)
            count = bisect.bisect_left(ends, closed)
            body_end = scan.end + closed
            if count:  # (they close nothing, as the probe read: unscanned, `_json` catches up over them)
                scan.append(texts[0] if count == 1 else "".join(texts[:count]))
            if data[closed : ends[count]].strip(b" \t\r\n"):
                return count
            scan.append(texts[count])  # what the steps would do with it, minus their searches:
            json.pos, json.in_string, json.depth = body_end, False, 0
            self._json_body_ended(body_end)
            scan.cursor = scan.end  # (only spacing follows)
            return count + 1 + self.absorb(texts[count + 1 :])
        json.pos, json.in_string, json.depth = scan.end + probe.pos, probe.in_string, probe.depth
        scan.append(text)
        return len(texts)

    WHOLE_MARKERS: ClassVar[frozenset[str]] = frozenset()
    """Texts `_feed_whole` may take: markers a `ComposedParser` hands the open part whole."""

    def _feed_whole(self, text: str, out: list[Piece]) -> bool:
        """Feed `text`, one of `WHOLE_MARKERS`, as the steps would, without searching for it
        (its pieces go to `out`); False when the steps must read it (nothing was done)."""
        return False

    def _absorb_opener(self, value: Any, text: str) -> bool:
        """Take `text`, one whole marker of `OPENERS` (standing for `value`), fed while nothing is
        held and nothing is open, when that decides nothing: what `_found` and the steps after it
        would do, minus their searches. The base takes none (a `ComposedParser` asks)."""
        return False

    AFTER_JSON: ClassVar[MachineState]
    """The subclass's `SPACING` state after a `JSON_BODY`, where `_body_end` says where it ended."""
    _body_end: int

    def _json_body_ended(self, end: int) -> None:
        """The `JSON_BODY` closed just before `end`: move to the `AFTER_JSON` state after it."""
        self._scan.cursor = self._body_end = end
        self._state = self.AFTER_JSON

    def absorb_reasoning(self, text: str) -> bool:
        """`ToolSyntax.absorb_reasoning`: in the `REASONING_AT_ONCE` state, nothing held (what
        `feed` hands back at once there)."""
        return self._state is self.REASONING_AT_ONCE and not self._scan.end and "<" not in text and text != ""

    def absorb_plain(self, text: str) -> bool:
        """Take `text` where `feed` would hand it back whole as one `Text`, nothing held (TEXT, its
        `_step_text` finding no marker in it nor the start of one at its end: `MarkerTable.hands_back`),
        as `feed` reads it: `Surroundings` alone. True when taken (a leading reasoning block's reader)."""
        if self._state is not self.TEXT or self._scan.end or self._PLAIN_LEADS is None or not text:
            return False
        if not self.OPENERS.hands_back(text):
            return False
        self._around.text(text)
        return True

    def _absorb_around_body(self, texts: Sequence[str]) -> int:
        """`absorb` outside the JSON body: in a `SPACING` state, the leading texts of JSON spacing alone."""
        if self._state not in self.SPACING:
            return 0
        scan = self._scan
        for taken, text in enumerate(texts):
            if scan.cursor != scan.end or text.strip(" \t\r\n") or scan.buffered + len(text) > self._max:
                return taken
            scan.append(text, True)
        return len(texts)

    def _compact(self) -> None:
        """Drop handed-back text from the buffer; only in TEXT, where no offsets are kept."""
        if self._state is self.TEXT:
            self._scan.compact()

    def _take(self, end: int) -> str:
        """Hand back the buffered text up to `end`."""
        return self._scan.take(end)

    def _emit_text(self, out: list[Piece], end: int) -> None:
        if end > self._scan.start:
            out.append(Text(self._take(end)))

    def _release_raw(self, out: list[Piece], end: int, code: str, message: str) -> None:
        """Hand back the raw text up to `end` with a notice (an announced call is completed as written)."""
        if not self._complete_broken(out, end, code, message):
            self._emit_text(out, end)
            out.append(Notice(code, f"{message}: passed through as text"))

    def _release(self, out: list[Piece], end: int, code: str, message: str) -> bool:
        """`_release_raw`, then back to plain text (`TEXT`): a step that made progress."""
        self._release_raw(out, end, code, message)
        self._state = self.TEXT
        return True

    def _emit_reasoning(self, out: list[Piece], end: int) -> None:
        if end > self._scan.start:
            out.append(Reasoning(self._take(end)))

    def _reasoning_until(self, out: list[Piece], ends: MarkerTable[Any]) -> tuple[Any, int, int] | None:
        """In reasoning: hand it back up to the first marker of `ends`, found as `(value, position,
        length)`; None when the text ran out (holding only what may begin such a marker)."""
        found = self._scan.find_marker(ends)
        self._emit_reasoning(out, self._scan.cursor if found is None else found[1])
        return found

