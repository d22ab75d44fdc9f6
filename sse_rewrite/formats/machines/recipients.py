"""RecipientParser: channel messages addressed to a recipient (Muse Spark and Glimmer, Beam).

    Muse:  to=self<|message|>REASONING<|eom|><|start|>assistant to=NAME<|message|><atem:function_calls>…
           </atem:function_calls><|eom|><|start|>assistant to=user<|message|>ANSWER<|eot|>
    Beam:  <|channel|>analysis<|message|>REASONING<|end|><|start|>assistant to=NAME<|channel|>analysis
           <|constrain|>xml<|message|><rfl:parameter name="K">\\nV\\n</rfl:parameter><|call|>

Harmony's tokens with other headers. A syntax (`RecipientSyntax`) declares its header openers,
the pattern of a whole header and of one still arriving, what each recipient (or, without
one, each channel) makes of a message, the markers that end one, and the invoke grammar that
reads a call's body (`_invoke_syntax.read_calls`).

Theory of operation
-------------------
- TEXT: content. A header opener opens a HEADER; an end marker ends an open content message
  (markup); with none open it is the text's own words.
- HEADER: up to `<|message|>`. A header that can no longer become one, or is none when
  `<|message|>` comes, releases its opener as text at once.
- REASONING: handed back as it arrives, up to an end marker (consumed) or the next header.
- BODY: a call's body, up to an end marker or the next header (its end lost: notice), read
  whole: its calls, or else its raw text (notice). Calls go out whole, streamed or not.
At the end of input reasoning and text come out, a body that reads as calls is recovered,
anything else comes out as the raw text it was (a header still arriving without a notice).
"""

from __future__ import annotations

import enum

from ...stream.events import Markup, Notice, Piece, Text
from ._invoke_syntax import read_calls
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import ClassVar, Final

    from ._invoke_syntax import InvokeSyntax

MESSAGE: Final = b"<|message|>"
SNIFF: Final = (b"to=", b'to"', b't"')  # (a text ending in a start of `to=`, cut before its `=`)
"""Muse's first header has no `<`: `to=`, or an event ending in ` to` (its `=` follows)."""
MAX_HEADER: Final = 256
"""Bytes of header before its opener is taken for prose."""


class Kind(enum.Enum):
    """What a message is, by its header."""

    REASONING = enum.auto()
    CONTENT = enum.auto()
    CALL = enum.auto()


class RecipientSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    __slots__ = ("body", "channels", "ends", "header", "name", "next_headers", "openers", "partial", "roles")

    def __init__(
        self, name: str, *, openers: tuple[bytes, ...], header: re.Pattern[str], partial: re.Pattern[str],
        roles: dict[str | None, Kind], channels: dict[str, Kind], ends: tuple[bytes, ...], body: InvokeSyntax,
    ) -> None:  # fmt: skip
        self.name = name
        self.openers = openers  # what opens a header in text (`<|start|>`, Muse's bare `to=`)
        self.header = header  # a whole header, opener included: its `to` and `channel` groups
        self.partial = partial  # a header still arriving (a marker's start may end it)
        self.roles = roles  # a recipient's kind (None: no recipient); another recipient is a call to it
        self.channels = channels  # without a recipient (and None not in `roles`): the channel's kind
        self.ends = ends  # what ends a message (consumed); the next header's opener ends it too
        self.body = body  # the invoke grammar of a call's body
        self.next_headers = tuple(o for o in openers if o.startswith(b"<"))

    def kind(self, header: str) -> tuple[Kind, str] | None:
        """A whole header's kind and, for a call, its recipient; None if it is none."""
        found = self.header.fullmatch(header)
        if found is None:
            return None
        recipient, channel = found.group("to"), found.groupdict().get("channel")
        if recipient is not None or None in self.roles:
            return self.roles.get(recipient, Kind.CALL), recipient or ""
        kind = self.channels.get(channel or "")
        return None if kind is None else (kind, "")


class State(MachineState):
    """Where the parser is (see the module docstring)."""

    TEXT = enum.auto()
    HEADER = enum.auto()
    REASONING = enum.auto()
    BODY = enum.auto()


_OPEN, _END = "open", "end"


class RecipientParser(ScanningParser):
    """Streaming parser for the recipient syntax a subclass names in `SYNTAX`."""

    TEXT = State.TEXT
    REASONING_AT_ONCE: ClassVar[MachineState | None] = State.REASONING
    CAP_SUBJECT = "message"
    SYNTAX: ClassVar[RecipientSyntax]
    OPENERS: ClassVar[MarkerTable[str]]
    _ENDS: ClassVar[MarkerTable[bool]]
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF  # (and `SNIFF` where a header opener has no `<`)

    def __init_subclass__(cls) -> None:
        if "SYNTAX" in cls.__dict__:
            syntax = cls.SYNTAX
            ends, openers = dict.fromkeys(syntax.ends, True), dict.fromkeys(syntax.openers, _OPEN)
            cls.OPENERS = MarkerTable({**dict.fromkeys(syntax.ends, _END), **openers})
            cls._ENDS = MarkerTable({**ends, **dict.fromkeys(syntax.next_headers, False)})
            cls.sniff = ANGLE_SNIFF if syntax.next_headers == syntax.openers else (*ANGLE_SNIFF, *SNIFF)
        super().__init_subclass__()

    def _setup(self) -> None:
        self._content_open = False  # a content message is open: its end marker is syntax
        self._name = ""  # the open call's recipient
        self._body_at = 0  # where its body begins

    def _open(self, value: str, pos: int, length: int, out: list[Piece]) -> None:
        scan = self._scan
        if value == _OPEN:
            scan.mark, scan.cursor = pos, pos + length
            self._state = State.HEADER
        elif self._content_open:  # the end of a content message
            self._emit_text(out, pos)
            out.append(Markup(scan.take(pos + length)))
            self._content_open = False
        else:  # an end with nothing open: the text's own words
            self._emit_text(out, pos + length)

    def _step_header(self, out: list[Piece]) -> bool:
        scan = self._scan
        found = scan.find(MESSAGE, scan.cursor)
        header = scan.text(scan.mark, scan.end if found == -1 else found)
        if found == -1:
            if len(header) > MAX_HEADER or self.SYNTAX.partial.fullmatch(header) is None:
                return self._release_opener(out)
            scan.cursor = max(scan.cursor, scan.end - len(MESSAGE) + 1)
            return False
        kind = self.SYNTAX.kind(header)
        if kind is None:
            return self._release_opener(out)
        body = found + len(MESSAGE)
        if kind[0] is Kind.CALL:
            self._name, self._body_at = kind[1], body
            scan.cursor = body
            self._state = State.BODY
            return True
        out.append(Markup(scan.take(body)))
        self._content_open = kind[0] is Kind.CONTENT
        self._state = State.REASONING if kind[0] is Kind.REASONING else State.TEXT
        return True

    def _release_opener(self, out: list[Piece]) -> bool:
        """The header cannot be one: its opener is text, and scanning resumes after it."""
        scan = self._scan
        opener = next(o for o in self.SYNTAX.openers if scan.view.startswith(o, scan.mark))
        out.append(Text(scan.take(scan.mark + len(opener))))
        scan.cursor = scan.start
        self._state = State.TEXT
        return True

    def _step_reasoning(self, out: list[Piece]) -> bool:
        found = self._reasoning_until(out, self._ENDS)
        if found is None:
            return False
        consumed, pos, length = found
        if consumed:
            out.append(Markup(self._scan.take(pos + length)))
        self._state = State.TEXT
        return True

    def _step_body(self, out: list[Piece]) -> bool:
        found = self._scan.find_marker(self._ENDS)
        if found is None:
            return False
        consumed, pos, length = found
        if not consumed:
            out.append(Notice("missing-close", f"call {self._name} ended by the next header"))
        return self._end_call(out, pos, pos + length if consumed else pos)

    def _end_call(self, out: list[Piece], body_end: int, end: int, at_end: bool = False) -> bool:
        """The body ends at `body_end`, its syntax at `end`: its calls, or its text (notice).
        `at_end`: the input ended in the body; False when it holds no call (nothing handed back)."""
        scan = self._scan
        calls = read_calls(self.SYNTAX.body, scan.text(self._body_at, body_end), self._name, self._tools)
        if calls is None:
            if at_end:
                return False
            self._emit_text(out, end)
            message = f"message to {self._name} holds no call: passed through as text"
            out.append(Notice("malformed-call", message))
        else:
            if at_end:
                out.append(Notice("recovered-call", f"stream ended inside call {self._name}: call recovered"))
            raw = scan.take(end)
            for index, (name, arguments) in enumerate(calls):
                self._call(out, None, name, arguments, raw if not index else "")
        self._state = State.TEXT
        return True

    def _finish(self, out: list[Piece]) -> None:
        """Reasoning and text come out, a body that reads as calls is recovered, else raw text."""
        scan, state = self._scan, self._state
        if state is State.REASONING:
            self._emit_reasoning(out, scan.end)
        elif state is State.BODY and self._end_call(out, scan.end, scan.end, at_end=True):
            return
        elif state is State.BODY:
            message = f"stream ended inside call {self._name}: passed through as text"
            out.append(Notice("truncated-call", message))
        self._emit_text(out, scan.end)  # (a header still arriving was never shown to be one)

    _STEPS: ClassVar = {State.TEXT: ScanningParser._step_text, State.HEADER: _step_header,
                        State.REASONING: _step_reasoning, State.BODY: _step_body}  # fmt: skip
