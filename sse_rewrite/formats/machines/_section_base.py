"""SectionBase: the tokens and states of `SectionParser`, its hot path (`absorb`), and
the streaming of argument text (`--stream-arguments`).

A tool-heavy stream is mostly argument tokens, one per chunk. `absorb` takes such
texts without the step handlers' searches, exactly when the handlers would only have
appended them (see `ToolSyntax.absorb`); everything else is left to `feed`.

With `stream_arguments`, a call is announced when its argument marker follows its
header, and the argument text before the scan cursor is streamed after every step:
the cursor never passes what may still be a marker, or a close marker inside a JSON
string whose meaning is not yet settled. Leading whitespace and a trailing run of it
are held back, because the final arguments are trimmed. An announced call takes no
`absorb` (its text must come out), so streaming costs the hot path.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Sequence

from ...stream.events import Piece
from . import declare
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, MarkerTable
from ._section_syntax import SectionSyntax, Token
from ._streamed_call import settled_texts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final


MAX_HEADER: Final = 256
"""Bytes of header before the opener is taken for prose."""
_SPACE: Final = re.compile(r"\s")
_NOT_IN_NAME: Final = re.compile(r"[^A-Za-z0-9_.:\-]")
_ARGUMENT_STOPS: Final = re.compile("<")
"""Argument text holding none of these settles nothing (`absorb`)."""


def is_prose_header(header: str, explicit: bool) -> bool:
    """Whether a header (stripped) is prose: it holds spacing, or, without a call-begin
    marker (not `explicit`), other than name characters (`functions.bash:15`, `get_weather`)."""
    return _SPACE.search(header) is not None or (not explicit and _NOT_IN_NAME.search(header) is not None)


class State(MachineState):
    """Where the parser is in the section grammar."""

    TEXT = enum.auto()
    SECTION = enum.auto()
    HEADER = enum.auto()
    ARGS = enum.auto()


# Where text can land inside an open call. (`absorb` runs once per token: it compares
# with these names, as looking a member up on an Enum class runs a Python-level hook in 3.11.)
_ARGS: Final = State.ARGS
_HEADER: Final = State.HEADER


class SectionBase(ScanningParser):
    """The `absorb` half of `SectionParser`: text that lands inside an open call."""

    TEXT = State.TEXT
    CAP_SUBJECT = "tool section"

    SYNTAXES: ClassVar[tuple[SectionSyntax, ...]]
    """The syntaxes read (their spellings must differ); a call whose opener is none of theirs
    (its call-begin marker was lost) is read by the first."""
    MARKERS: ClassVar[MarkerTable[Token]]
    """Every spelling of every token of `SYNTAXES`, mapped to its role."""
    _BY_MARKER: ClassVar[dict[bytes, SectionSyntax]]

    # Every token starts with `<`. A narrower needle (`<|`) would let more events with a
    # `<` skip the parser, but a one-byte needle is searched with memchr, several times
    # faster than any longer one, and the plain fast path searches every read for it.
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        if "SYNTAXES" in cls.__dict__:
            cls._BY_MARKER = {marker: syntax for syntax in cls.SYNTAXES for marker in syntax.markers}
            spellings = {marker: role for syntax in cls.SYNTAXES for marker, role in syntax.markers.items()}
            cls.MARKERS = MarkerTable(spellings)
            # an argument marker, a frame token or a body's opening in plain text is just text
            words = (Token.ARGUMENT_BEGIN, Token.FRAME, Token.BODY_BEGIN)
            cls.OPENERS = MarkerTable({m: t for m, t in cls.MARKERS.items() if t not in words})
        super().__init_subclass__()

    def absorb(self, texts: Sequence[str]) -> int:
        """Take the leading texts that land inside an open call and can decide nothing.

        That is what the step handlers would do with them, minus their searches: text
        without `<` while nothing is held back and the section stays within the cap, either
        argument text, or header text that keeps the header short and without inner spacing
        (which would make it prose). Texts are taken together when all qualify: a run of
        texts qualifies as a whole exactly when it qualifies one text at a time.
        """
        scan = self._scan
        if scan.cursor != scan.end or self._announced is not None:
            return 0
        state = self._state
        if state is _ARGS:
            joined = "".join(texts)
            # 4 bytes a character bound the UTF-8 size: within the cap as a whole means within it one by one;
            # else the texts before the first `<`, within the cap (`in` first: no search a token)
            if "<" in joined or scan.end - scan.start + 4 * len(joined) > self._max:
                texts = settled_texts(texts, scan.end - scan.start, self._max, _ARGUMENT_STOPS)
                joined = "".join(texts)
            # Nothing is left to search: the ARGS step catches the JSON string state (`_json`) up
            # to where it looks, so it scans absorbed text then, in one run, not a token at a time.
            scan.append(joined, True)
            return len(texts)
        if state is not _HEADER:
            return 0
        if self._absorb_header("".join(texts)):
            return len(texts)
        if len(texts) == 1:
            return 0
        return len(list(itertools.takewhile(self._absorb_header, texts)))

    def _absorb_header(self, text: str) -> bool:
        scan = self._scan
        end, size = scan.end, 4 * len(text)  # (at most this many UTF-8 bytes)
        if "<" in text or end - scan.start + size > self._max or end - scan.mark + size > MAX_HEADER:
            return False
        if is_prose_header((scan.text(scan.mark, end) + text).strip(), bool(self._opener)):
            return False  # the step handler releases it
        scan.append(text, True)
        return True

    # -- `--stream-arguments`

    _header: str
    _opener: bytes  # the call's call-begin marker (b"" when it was lost), else its argument marker
    _seen: int  # where the argument text not yet looked at for streaming begins
    _held: list[str]  # a trailing run of whitespace, held back
    _quoted: bool  # the arguments are a JSON string: not streamed (`_machine._call` may unwrap them)

    def _syntax(self) -> SectionSyntax:
        """The syntax of the open call: its opener's (the call-begin marker, else the argument marker)."""
        return self._BY_MARKER.get(self._opener) or self.SYNTAXES[0]

    def _call_parts(self, header: str, arguments: str) -> tuple[str | None, str, str]:
        """`(id, name, arguments JSON text)` of a call from its header and argument text."""
        return self._syntax().call_parts(header, arguments, self._tools)

    def _step_args(self, out: list[Piece]) -> bool:
        raise NotImplementedError

    def _announceable(self, header: str) -> bool:
        """Whether the header alone names the call (DeepSeek V3's `function` does not)."""
        return self._syntax().announceable(header)

    def _start_arguments(self, out: list[Piece]) -> None:
        """The argument marker followed the header: announce the call when streaming."""
        if self._streams and self._announceable(self._header):
            call_id, name, _ = self._call_parts(self._header, "")
            self._announce(out, call_id, name)
            self._seen, self._held, self._quoted = self._scan.cursor, [], False

    def _step_args_and_stream(self, out: list[Piece]) -> bool:
        """The ARGS step; when it waits for more input, stream what it settled."""
        if self._step_args(out):
            return True
        if self._announced is not None:
            self._stream_settled(out)
        return False

    def _stream_settled(self, out: list[Piece]) -> None:
        scan = self._scan
        new = scan.text(self._seen, scan.cursor)
        self._seen = scan.cursor
        self._stream(out, self._settle(new))

    def _settle(self, new: str) -> str:
        """The argument text to stream now that `new` settled: spacing at its end is held
        back (the trim may drop it), and leading spacing is trimmed away."""
        body = new.rstrip()
        if not body or self._quoted:
            if self._sent:  # (leading whitespace is trimmed away)
                self._held.append(new)
            return ""
        held = self._held
        if not self._sent:
            text = body.lstrip()
            if text[:1] == '"':  # a JSON string, maybe arguments encoded twice: whole
                self._quoted = True
                return ""
        elif held:
            text = "".join(held) + body
        else:
            text = body
        if len(body) != len(new):
            self._held = [new[len(body) :]]
        elif held:
            self._held = []
        return text

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` of one text, without the lists (a live event's): taken when it holds
        no `<`, appended, and what it settles streamed."""
        scan = self._scan
        if self._state is not _ARGS or self._announced is None:
            return "" if self.absorb((text,)) else None
        if scan.cursor != scan.end or self._seen != scan.end or "<" in text \
                or scan.end - scan.start + 4 * len(text) > self._max:  # fmt: skip
            return None
        scan.append(text, True)
        self._seen, sent = scan.end, self._sent
        if sent and not self._held and not self._quoted and text and not text[-1].isspace():
            sent.append(text)
            return text
        streamed = self._settle(text)
        if streamed:
            sent.append(streamed)
        return streamed

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """In the announced call's arguments, the texts `absorb` would take unstreamed (those
        before the first `<`): appended, and what each settles streamed (`_stream_settled`)."""
        scan = self._scan
        if self._state is not _ARGS or self._announced is None:
            return [""] * self.absorb(texts)
        if scan.cursor != scan.end or self._seen != scan.end:  # (something is still to look at)
            return []
        sent, taken = self._sent, settled_texts(texts, scan.end - scan.start, self._max, _ARGUMENT_STOPS)
        if not taken:
            return []
        scan.append(taken[0] if len(taken) == 1 else "".join(taken))
        scan.cursor = self._seen = scan.end
        settled = []
        for text in taken:
            if sent and not self._held and not self._quoted and text and not text[-1].isspace():
                streamed = text  # (what `_settle` makes of it)
            else:
                streamed = self._settle(text)  # (which asks `_sent`: each text in turn)
            if streamed:
                sent.append(streamed)
            settled.append(streamed)
        return settled

    def _broken_arguments(self) -> str:
        scan = self._scan
        return self._call_parts(self._header, scan.text(scan.mark, scan.cursor))[2]
