"""WholeAnswerParser: calls written bare, with no marker, when they are the whole answer.

Llama 3 writes `{"name": "f", "parameters": {…}}` (several joined by `; `) and Llama 4
`[f(a=1), g()]` without any marker. Prose and code contain such text too, so, as the
reference parsers do, they count only under the model's own ids and only when they are
the whole answer: the field starts with the value (after spacing) and holds nothing but
calls. Everything else goes to the model's `INNER` parser as it would without this gate.

So the answer is held from its first `{` or `[` to its end: the events it came from are
held whole (`undecided`), and either rebuilt around the calls at the end of the field, or,
once any other text shows up (or the value is not calls, or grows past the cap), handed
to `INNER` as if fed just now, events and all. Bare calls come out whole, at the end.

The gate must see its field from the first text on: it is `pending` until it has decided,
and `reads_from_start` asks the choice to make it before any text comes (`choice_state.py`),
so no event passes unread before then; afterwards `INNER`'s needles (`sniff`) are enough.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..events import Piece, Text, ToolCall
from ._brackets import BracketScanner
from ._list_syntax import ListSyntax
from ._scanner import DEFAULT_MAX_SECTION_BYTES

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from ..tool_schemas import ToolSchemas
    from .syntax import ToolSyntax

_SPACE: Final = re.compile(rb"[ \t\r\n]*")


class WholeAnswerParser:
    """Implements `ToolSyntax`: a subclass's `BARE` syntaxes as the whole answer, else `INNER`."""

    INNER: ClassVar[type[ToolSyntax]]
    BARE: ClassVar[tuple[ListSyntax, ...]]
    """Read by each value's first byte; `again` joins several values (`;`)."""
    sniff: ClassVar[tuple[bytes, ...]]
    """`INNER`'s: until the gate has decided it is `pending`, so every event reaches it anyway."""
    reads_from_start: ClassVar[bool] = True
    """Made before the field's first text, so that it sees it (see the module docstring)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.sniff = cls.INNER.sniff

    def __init__(
        self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES, *, stream_arguments: bool = False,
        tools: ToolSchemas | None = None,
    ) -> None:  # fmt: skip
        self._inner = self.INNER(max_section_bytes, stream_arguments=stream_arguments, tools=tools)
        self._max = max_section_bytes
        self._held: bytearray | None = bytearray()  # None once the answer went to `INNER`
        self._syntax: ListSyntax | None = None
        self._brackets: BracketScanner | None = None  # the open value's, if any
        self._values: list[str] = []
        self._after = 0  # where the text after the last complete value begins
        self._first = 0  # where the first value begins
        self._chars = 0  # characters held
        self._flushed = False

    @property
    def pending(self) -> bool:
        """True until the answer is decided (or its calls are out), then `INNER`'s."""
        return self._held is not None or self._inner.pending

    @property
    def watching(self) -> bool:
        """`INNER`'s once the answer went to it (while held, it is `pending`: every event is read)."""
        return self._held is None and self._inner.watching

    @property
    def undecided(self) -> int:
        """The held answer, whose events wait whole for the end of the field."""
        if self._held is None:
            return self._inner.undecided
        return self._chars

    def absorb(self, texts: Sequence[str]) -> int:
        """`INNER`'s, once the answer went to it; nothing is absorbed while it is held."""
        return 0 if self._held is not None else self._inner.absorb(texts)

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
        held = self._held
        if held is None:
            return self._inner.feed(text)
        held += text.encode("utf-8", "surrogatepass")
        self._chars += len(text)
        return self._pass() if not self._still_calls() or len(held) > self._max else []

    def flush(self, finished: bool = False) -> list[Piece]:
        """End of the field: the held answer's calls, or `INNER`'s reading of it (`finished`: a
        normal finish, see `ToolSyntax.flush`)."""
        if self._flushed:
            return []
        held = self._held
        read = None
        if held is not None and self._brackets is None and self._values and self._syntax is not None:
            read = self._syntax.read([(None, value) for value in self._values])
        self._flushed = True
        if held is None or read is None or not read[0]:
            passed = self._pass() if held else []
            self._held = None  # (decided: nothing is held any more)
            return passed + self._inner.flush(finished)
        found, notices = read
        lead, calls, rest = (held[: self._first], held[self._first : self._after], held[self._after :])
        out: list[Piece] = [Text(lead.decode())] if lead else []  # (spacing)
        raw = calls.decode("utf-8", "surrogatepass")
        out += [ToolCall(call_id, name, arguments, raw if index == 0 else "")
                for index, (call_id, name, arguments) in enumerate(found)]  # fmt: skip
        if rest:
            out.append(Text(rest.decode()))  # (spacing)
        self._held = None
        return out + notices + self._inner.flush(finished)

    def _still_calls(self) -> bool:
        """Scan what was added: False once the held text cannot be the whole answer in calls."""
        held = self._held
        assert held is not None
        while True:
            brackets = self._brackets
            if brackets is not None:
                end = brackets.advance(held, len(held))
                if end is None:
                    return True
                value_start = self._after
                self._values.append(held[value_start:end].decode("utf-8", "surrogatepass"))
                self._brackets, self._after = None, end
                continue
            at = _SPACE.match(held, self._after).end()  # type: ignore[union-attr]  # (always matches)
            if at == len(held):
                return True
            again = self._syntax.again if self._syntax is not None else None
            if self._values and (again is None or not held.startswith(again, at)):
                return False  # (a cut `again` marker would wait: both are one byte)
            if self._values:
                at = _SPACE.match(held, at + 1).end()  # type: ignore[union-attr]
                if at == len(held):
                    return True
            syntax = self._syntax or next((s for s in self.BARE if held[at] in s.values), None)
            if syntax is None or held[at] not in syntax.values:
                return False
            if not self._values:
                self._first = at
            self._syntax, self._after = syntax, at
            self._brackets = BracketScanner(at, syntax.values[held[at]])

    def _pass(self) -> list[Piece]:
        """Hand the held answer to `INNER`, which reads it from now on."""
        held, self._held = self._held, None
        return self._inner.feed(held.decode("utf-8", "surrogatepass")) if held else []
