"""WholeAnswerParser: calls written bare, with no marker, when they are the whole answer.

Llama 3's `{"name": "f", "parameters": {…}}`, Llama 4's `[f(a=1), g()]`, Mistral v11's
stripped `NAME{…}NAME{…}` (a syntax with a `header`): prose and code hold such text too, so
they count only under the model's ids and only when the field holds nothing but calls
(docs/behaviour.md, "Marker-then-list syntaxes"). The answer is held from its first value or
header byte, its events whole (`undecided`), read by the list machine (its calls through its
damage rules), and either rebuilt around the calls at the field's end or, once other text
shows, the value is not calls or the answer passes the cap, handed to the model's `INNER`
parser as if fed just now. The gate is `pending` until it has decided
(`reads_from_start`, `choice_state.py`); then it becomes `INNER`'s parser (`_become_inner`).

A reasoning block (`REASONING`, a `LeadingReasoning`) may come first, read as it streams by
its `reader`, a list machine that `hands_over` at the block's end: after Magistral's
`[THINK]…[/THINK]` the answer is held again; after gpt-oss's stripped `analysis…assistantfinal`
it is `INNER`'s (`catalogue/lists.py`, `catalogue/harmony_stripped.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...stream.events import Markup, Notice, Piece, Reasoning, Text, ToolCall
from . import declare
from ._list_machine import ListParser, State
from ._list_syntax import MAX_HEADER, ListSyntax
from ._scanner import DEFAULT_MAX_SECTION_BYTES

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from ...stream.quotes import Quotes
    from ...tool_schemas import ToolSchemas
    from ..syntax import ToolSyntax

_SPACE: Final = re.compile(rb"[ \t\r\n]*")


@dataclass(frozen=True)
class LeadingReasoning:
    """A reasoning block that may come before the answer, declared."""

    opener: str
    reader: type[ListParser]
    """What reads the block after its opener, its text as reasoning, up to a `hands_over` opener."""
    spaced: bool = True
    """Whether spacing may come before the opener."""
    glued: re.Pattern[bytes] | None = None
    """What the byte after the opener must be, or it is the answer's text (`analysis of`)."""


class _BareReader(ListParser, SYNTAXES=(), sniff=()):
    """Reads one `BARE` syntax from the answer's first value or header byte on (`open_at_start`):
    none has an opener, so what follows its calls is text."""

    def _step_rest(self, out: list[Piece]) -> bool:
        self._emit_text(out, self._scan.end)
        return False

    _STEPS: ClassVar = {**ListParser._STEPS, State.TEXT: _step_rest}


class WholeAnswerParser:
    """Implements `ToolSyntax`: a subclass's `BARE` syntaxes as the whole answer, else `INNER`."""

    INNER: ClassVar[type[ToolSyntax]]
    BARE: ClassVar[tuple[ListSyntax, ...]]
    """Read by each value's first byte; `again` joins several values (`;`)."""
    sniff: ClassVar[tuple[bytes, ...]]
    """`INNER`'s: until the gate has decided it is `pending`, so every event reaches it anyway."""
    reads_from_start: ClassVar[bool] = True
    """Made before the field's first text, so that it sees it (see the module docstring)."""
    REASONING: ClassVar[LeadingReasoning | None] = None
    """A reasoning block that may come before the answer."""
    HEADS: ClassVar[tuple[tuple[tuple[bytes, ...], bytes], ...] | None] = None
    """Where the request's tools are known, the gate decides at the first name (any id): what may come
    before it (bytes each, spacing between) and what ends it (`"`, a JSON string's, else a name's
    bytes then that byte: `[f(`, `f{`). A name that is no declared tool hands the answer to `INNER`
    (only the first choice's: `stream/stream_format.py`)."""
    holder: dict[str, ToolSyntax] | None = None
    """The choice's parsers by field (`ChoiceState`), the gate its content's: `INNER`'s replaces it."""
    DECLARED_ONLY: ClassVar[bool] = False
    """Whether, where the request's tools are known, every bare call must name one of them (else
    the answer is text): for calls prose and code write too (Granite's `NAME(k="v")` lines)."""

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        super().__init_subclass__()
        if "sniff" not in cls.__dict__:
            cls.sniff = cls.INNER.sniff

    def __init__(
        self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES, *, stream_arguments: bool = False,
        tools: ToolSchemas | None = None,
    ) -> None:  # fmt: skip
        self._inner = self.INNER(max_section_bytes, stream_arguments=stream_arguments, tools=tools)
        self._max = max_section_bytes
        self._tools = tools
        self._reader: ListParser | None = None  # the leading reasoning block's `REASONING.reader`
        self._flushed = False
        self._start_answer()

    def _start_answer(self) -> None:
        """Hold the answer from its start (the field's, or the end of a leading reasoning block)."""
        self._held: bytearray | None = bytearray()  # None once the answer went to `INNER`
        self._bare: _BareReader | None = None  # what reads it from its first value or header byte
        self._read: list[Piece] = []  # what that reader gave so far
        self._fed = 0  # the held bytes it was fed
        self._again = ""  # its syntax's `again`, which may end the answer (`{…};`)
        self._chars = 0  # characters held

    @property
    def pending(self) -> bool:
        """True while the answer is held, or a leading reasoning block read, then `INNER`'s; not
        before the answer's first text (`watching` then): a reasoning marker the stream reads
        there (Granite 3.3's `<think>`) is no call's text (`ContentThinking.split`)."""
        held = self._held
        return (held is not None and (bool(held) or self._reader is not None)) or self._inner.pending

    @property
    def watching(self) -> bool:
        """True before the answer's first text (every event is read), `INNER`'s once the answer
        went to it (while held, it is `pending`)."""
        held = self._held
        return self._inner.watching if held is None else not held and self._reader is None

    @property
    def quotes(self) -> Quotes:
        """`INNER`'s (`ToolSyntax.quotes`)."""
        return self._inner.quotes

    @quotes.setter
    def quotes(self, quotes: Quotes) -> None:
        self._inner.quotes = quotes

    @property
    def undecided(self) -> int:
        """The held answer, whose events wait whole for the end of the field."""
        if self._held is None or self._reader is not None:
            return self._inner.undecided
        return self._chars

    @property
    def held(self) -> str:
        """The characters `undecided` counts."""
        if self._held is None or self._reader is not None:
            return self._inner.held
        return self._held.decode("utf-8", "surrogatepass")

    def absorb(self, texts: Sequence[str]) -> int:
        """`INNER`'s, once the answer went to it, or a reasoning `reader`'s (inside a call);
        nothing is absorbed while the answer is held."""
        if self._reader is not None:  # (and texts that go on with a marker's start it holds: `_absorb_held`)
            return self._reader.absorb(texts) or _absorb_held(self._reader, texts)
        return 0 if self._held is not None else self._inner.absorb(texts)

    def absorb_reasoning(self, text: str) -> bool:
        """A text of the leading reasoning block that its reader hands back whole (`absorb_plain`);
        nothing else is taken this way (the answer may be held)."""
        return self._reader is not None and self._reader.absorb_plain(text)

    def absorb_argument(self, text: str) -> str | None:
        """`INNER`'s, once the answer went to it; nothing is taken while it is held."""
        return None if self._held is not None else self._inner.absorb_argument(text)

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """`INNER`'s, once the answer went to it; nothing is taken while it is held."""
        return [] if self._held is not None else self._inner.absorb_arguments(texts)

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if self._reader is not None:  # (a text its reader hands back whole: `absorb_reasoning`)
            return [Reasoning(text)] if self._reader.absorb_plain(text) else self._think(text)
        held = self._held
        if held is None:
            return self._inner.feed(text)
        held += text.encode("utf-8", "surrogatepass")
        self._chars += len(text)
        opens = self._opens_reasoning()
        if opens:
            return self._open_reasoning(held.decode("utf-8", "surrogatepass"))
        if opens is None or (self.BARE and self._still_calls() and len(held) <= self._max):
            return []
        out = self._pass()
        self._become_inner()
        return out

    def _opens_reasoning(self) -> bool | None:
        """Whether the held answer, still at its start, is `REASONING`'s opener (None: it may
        still become it)."""
        held, reasoning = self._held, self.REASONING
        if reasoning is None or self._bare is not None or held is None:
            return False
        opener = reasoning.opener.encode()
        start = _SPACE.match(held).end() if reasoning.spaced else 0  # type: ignore[union-attr]  # (always matches)
        if start == len(held):
            return None
        if not held.startswith(opener, start):
            return None if opener.startswith(held[start:]) else False
        after = start + len(opener)
        if reasoning.glued is None:
            return True
        return None if after == len(held) else reasoning.glued.match(held, after) is not None

    def _open_reasoning(self, text: str) -> list[Piece]:
        """The held text opens `REASONING`: its opener is markup, and its `reader` reads on."""
        assert self.REASONING is not None
        self._reader = self.REASONING.reader(self._max, tools=self._tools)
        self._held = bytearray()  # (the gate holds nothing while it reads)
        lead, opener, rest = text.partition(self.REASONING.opener)
        return [*([Text(lead)] if lead else []), Markup(opener), *self._think(rest)]

    def _think(self, text: str) -> list[Piece]:
        """Text of the leading reasoning block, read by `REASONING.reader` as reasoning. Once it
        hands over, the answer after it is held again where bare calls may follow, else `INNER`'s."""
        assert self._reader is not None
        out = _as_reasoning(self._reader.feed(text))
        rest = self._reader.handed_over
        if rest is None:
            return out
        self._reader = None
        if self.BARE:  # (Magistral's answer after `[/THINK]`)
            self._start_answer()
            return out + self.feed(rest) if rest else out
        self._held = None
        out += self._inner.feed(rest) if rest else []
        self._become_inner()
        return out

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """End of the field: the held answer's calls (it ended whole), or `INNER`'s reading of it
        (`finished`, `cut`: see `ToolSyntax.flush`)."""
        if self._flushed:
            return []
        if self._reader is not None:  # (what it reads again at the end may hand over, too)
            tail = _as_reasoning(self._reader.flush(finished, cut))
            answer = self._reader.handed_over
            tail += self._inner.feed(answer) if answer else []
            self._reader, self._held, self._flushed = None, None, True
            return tail + self._inner.flush(finished, cut)
        held = self._held
        self._flushed = True
        calls = self._calls() if held and self._still_calls() else None
        if held is None or calls is None:
            passed = self._pass() if held else []
            self._held = None  # (decided: nothing is held any more)
            return passed + self._inner.flush(finished, cut)
        lead = held[: _SPACE.match(held).end()]  # type: ignore[union-attr]  # (spacing; always matches)
        self._held = None
        return [*([Text(lead.decode())] if lead else []), *calls, *self._inner.flush(finished, cut)]

    def _still_calls(self) -> bool:
        """Read what was added: False once the held text cannot be the whole answer in calls."""
        held, bare = self._held, self._bare
        assert held is not None
        if bare is None:  # (the answer's first value or header byte picks its syntax)
            first = _SPACE.match(held).end()  # type: ignore[union-attr]  # (always matches)
            if first == len(held):
                return True
            if self.HEADS is not None and self._tools:  # (held until the first name is read)
                decided = [_named_by(held, *head, self._tools) for head in self.HEADS]
                if True not in decided:
                    return None in decided and len(held) <= MAX_HEADER  # (a name is no longer)
            syntax = next((s for s in self.BARE if _may_start(s, held[first])), None)
            if syntax is None:
                return False
            bare = self._bare = _BareReader(self._max)
            bare.open_at_start(syntax)
            self._fed, self._again = first, (syntax.again or b"").decode()
        text, self._fed = held[self._fed :].decode("utf-8", "surrogatepass"), len(held)
        read = bare.feed(text)
        self._read += read
        return not read or _only_calls(read)

    def _calls(self) -> list[Piece] | None:
        """The held answer's calls (and the spacing after them), or None where it is not calls
        alone, or (`DECLARED_ONLY`) one names no declared tool."""
        if self._bare is None:  # (spacing alone)
            return None
        read = self._read + self._bare.flush()
        names = [piece.name for piece in read if type(piece) is ToolCall]
        tools = self._tools if self.DECLARED_ONLY else None
        if not _only_calls(read, self._again) or not names or (tools and not all(map(tools.declares, names))):
            return None
        return read

    def _become_inner(self) -> None:
        """Hand the rest to `INNER`'s parser, which has read the answer so far: the `holder` holds it in
        the gate's place, else it is swapped in (as `_lazy` does; slower to read): no call goes here."""
        inner = self._inner
        if self.holder is not None and self.holder.get("content") is self:
            self.holder["content"] = inner
            return
        self.__class__ = type(inner)  # type: ignore[assignment]
        self.__dict__ = inner.__dict__

    def _pass(self) -> list[Piece]:
        """Hand the held answer to `INNER`, which reads it from now on."""
        held, self._held = self._held, None
        return self._inner.feed(held.decode("utf-8", "surrogatepass")) if held else []


_QUOTED: Final = re.compile(rb'([^"\\]*)')
_WORD: Final = re.compile(rb"[ \t\r\n]*([A-Za-z_][A-Za-z0-9_.\-]*|)[ \t\r\n]*")


def _named_by(held: bytearray, head: tuple[bytes, ...], end: bytes, tools: ToolSchemas) -> bool | None:
    """Whether the held answer's first name, after `head` and ended by `end` (`HEADS`), names a
    declared tool (None: not known yet; False too where `head` cannot begin the answer)."""
    pos = 0
    for token in head:
        pos = _SPACE.match(held, pos).end()  # type: ignore[union-attr]  # (always matches)
        if not held.startswith(token, pos):
            return None if token.startswith(held[pos:]) else False  # (None: the held text ends in it)
        pos += len(token)
    found = (_QUOTED if end == b'"' else _WORD).match(held, pos)
    name = found.group(1).decode("utf-8", "replace").lower()  # type: ignore[union-attr]  # (always matches)
    if found.end() < len(held):  # type: ignore[union-attr]
        return bool(name) and held.startswith(end, found.end()) and tools.declares(name)  # type: ignore[union-attr]
    # (a bare word that begins no declared tool's name is prose: released at once)
    return None if head or any(tool.lower().startswith(name) for tool in tools.names()) else False


def _absorb_held(reader: ListParser, texts: Sequence[str]) -> int:
    """In the reader's TEXT, where a marker's start is held from its cursor: how many of the leading texts
    leave it only a start (`MarkerScanner.match`), appended (`feed` would hold them, handing nothing back)."""
    scan = reader._scan
    if reader._state is not reader.TEXT or scan.cursor != scan.start or scan.start == scan.end:
        return 0
    for taken, text in enumerate(texts):
        end = scan.end
        scan.append(text)
        found = scan.match(scan.cursor, reader.OPENERS)
        if found is None or type(found) is tuple:  # (a whole marker or none; `NEED_MORE`, a start)
            scan.cut_back(end)
            return taken
    return len(texts)


def _as_reasoning(pieces: list[Piece]) -> list[Piece]:
    """A reasoning block's pieces: its text is reasoning."""
    return [Reasoning(piece.text) if type(piece) is Text else piece for piece in pieces]


def _may_start(syntax: ListSyntax, byte: int) -> bool:
    """Whether a value of `syntax` (its header, if it has one) may start with `byte`."""
    if syntax.header_bytes is None:
        return byte in syntax.values
    return syntax.header_bytes.match(bytes((byte,))) is None


def _only_calls(pieces: list[Piece], again: str = "") -> bool:
    """Whether `pieces` are calls (their notices too) and text of spacing alone (or `again`,
    which may end a whole answer): a whole answer's."""
    ends, kept = ("", again), (ToolCall, Notice)
    return all(type(p) in kept or (type(p) is Text and p.text.strip(" \t\r\n") in ends) for p in pieces)
