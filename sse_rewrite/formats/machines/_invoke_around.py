"""InvokeAround: what declarations of the invoke family read besides their blocks and invokes.

- THINK: after the syntax's reasoning opener (M3's `<mm:think>`), reasoning up to its closer,
  handed back as it arrives; an `orphan_words` closer with only spacing after it to the end of
  the field (K3's `<|close|>message<|sep|>`) is dropped (notice), elsewhere it is reasoning.
- HASH: after its hash-call wrapper's opener (MiniMax's `[TOOL_CALL]`), spacing and `{`
  (else the opener was prose, released at once), then the body up to the wrapper's closer,
  read whole (`hash_calls.read_hash_call`); a body that is not one call comes out as the text
  it was (notice). At the end of input an unclosed body that is one call is recovered.
- FENCED: after a fenced-call opener (DSML's `<｜DSML｜toolcall>`), NAME and an opening fence
  (else the opener was prose, released as soon as that is clear), then a JSON object up to the
  closing fence (`fenced_calls`); anything else is text (notice).
"""

from __future__ import annotations

from ...stream.events import Markup, Notice, Piece
from ._invoke_syntax import InvokeSyntax
from ._invoke_tags import Inside, Tag
from ._json import is_json
from ._machine import MachineState, ScanningParser
from ._scanner import NON_SPACE
from .fenced_calls import FENCE_END, fence_head
from .hash_calls import read_hash_call
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class InvokeAround(ScanningParser):
    """The THINK, HASH and FENCED states of `_invoke.InvokeParser` (its open `_syntax`, `_INSIDE`)."""

    _INSIDE: ClassVar[dict[InvokeSyntax, Inside]]
    _syntax: InvokeSyntax
    _hash_at: int  # HASH, FENCED: where what follows the opener begins
    _fence_at: int  # FENCED: where the fenced object begins (0: the head is not read yet)
    _name: str
    HASH_STATE: ClassVar[MachineState]
    FENCED_STATE: ClassVar[MachineState]

    def _step_think(self, out: list[Piece], ending: bool = False) -> bool:
        """(`ending`: the field ends here.)"""
        ends = self._INSIDE[self._syntax].think_end
        found = None if ends is None else self._reasoning_until(out, ends)
        if found is None:
            return False
        scan, end = self._scan, found[1] + found[2]
        if found[0] is Tag.ORPHAN:  # (K3's end of message: markup where only spacing follows, else reasoning)
            if NON_SPACE.search(scan.view, end, scan.end) is not None:
                self._emit_reasoning(out, end)
            elif not ending:
                return False  # (the cursor waits on it)
            else:
                out.append(Markup(scan.take(end)))
                out.append(Notice("orphan-marker", f"dropped {scan.text(found[1], end)} ending the message"))
            return True
        out.append(Markup(scan.take(end)))
        self._state = self.TEXT
        return True

    def _step_hash(self, out: list[Piece]) -> bool:
        scan, ends = self._scan, self._INSIDE[self._syntax].hash_end
        if scan.cursor == self._hash_at:  # (the body must open with `{`: else the opener was prose)
            first = NON_SPACE.search(scan.view, self._hash_at, scan.end)
            if first is None:
                return False
            if scan.view[first.start()] != 0x7B:  # '{'
                self._emit_text(out, self._hash_at)
                self._state = self.TEXT
                return True
            scan.cursor = first.start()
        if ends is None:
            scan.cursor = scan.end
            return False
        if (found := scan.find_marker(ends)) is None:
            return False
        _, pos, length = found
        self._hash_call(out, pos, pos + length)
        return True

    def _hash_call(self, out: list[Piece], body_end: int, end: int) -> bool:
        """The wrapper's body ends at `body_end` (its closer at `end`): a call, or its text."""
        body = self._scan.text(self._hash_at, body_end)
        read = read_hash_call(body)
        if read is not None:
            read = read_hash_call(body, tool_parameters(self._tools, read[0]))
        note = "hash call wrapper holds no call: passed through as text"
        return self._wrapped_call(out, body_end, end, read, note)

    def _wrapped_call(self, out: list[Piece], body_end: int, end: int, call: tuple[str, str] | None,
                      malformed: str) -> bool:
        """A HASH or FENCED body ends at `body_end` (its closer at `end`; `end == body_end`: the end
        of input): `call` (name, arguments) is handed back, or without one the text it was, with
        the `malformed` notice. False when it is no call at the end of input (nothing handed back)."""
        scan = self._scan
        if call is None:
            if end == body_end:
                return False
            self._emit_text(out, end)
            out.append(Notice("malformed-call", malformed))
        else:
            if end == body_end:
                out.append(Notice("recovered-call", f"stream ended inside call {call[0]}: call recovered"))
            self._call(out, None, call[0], call[1], scan.take(end))
        self._state = self.TEXT
        return True

    def _wrapped_call_ends(self, out: list[Piece]) -> bool:
        """At the end of input in HASH or FENCED: whether what is open was a call (recovered)."""
        if self._state is self.HASH_STATE:
            return self._hash_call(out, self._scan.end, self._scan.end)
        return self._state is self.FENCED_STATE and self._fenced_call(out, self._scan.end, self._scan.end)

    def _step_fenced(self, out: list[Piece]) -> bool:
        scan = self._scan
        if not self._fence_at:
            head = fence_head(scan.text(self._hash_at, scan.end))
            if head is None:
                return False
            if head is False:
                self._emit_text(out, self._hash_at)
                self._state = self.TEXT
                return True
            self._name = head[0]
            head_text = scan.text(self._hash_at, scan.end)[: head[1]]
            self._fence_at = scan.cursor = self._hash_at + len(head_text.encode())
        pos = scan.find(FENCE_END.encode(), scan.cursor)
        if pos == -1:
            scan.cursor = max(scan.cursor, scan.end - len(FENCE_END) + 1)
            return False
        return self._fenced_call(out, pos, pos + len(FENCE_END))

    def _fenced_call(self, out: list[Piece], body_end: int, end: int) -> bool:
        """The fenced object ends at `body_end` (the closing fence at `end`): a call, or its text."""
        scan = self._scan
        arguments = scan.text(self._fence_at, body_end).strip(" \t\r\n") if self._fence_at else ""
        call = (self._name, arguments) if arguments.startswith("{") and is_json(arguments) else None
        note = f"fenced call {self._name}: no JSON object, kept as text"
        return self._wrapped_call(out, body_end, end, call, note)
