"""InvokeStreaming: what `InvokeParser` does between markers of an invoke body.

- `absorb`: inside a body, texts that hold no marker ending it or a value (most hold not even
  its lead byte, `<`, or `]` for M3) decide nothing: they are taken without a feed. So are
  a header's words before its `>` (DSML streams ` name`, `="`, `bash` a token each) and
  spacing before a body's first markup or between invokes.
- `--stream-arguments`: the call is announced once its body shows it is parameters (not one
  JSON object, not M3's named tags); each parameter is streamed when its closer arrives, as
  the next member of the JSON object text the whole call gives (`{"a": 1` then `, "b": "x"`;
  the final call adds the `}`), typed by the same rules (`_invoke_syntax`), so the final
  arguments are exactly the concatenation.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from ...stream.events import Piece
from ._invoke_syntax import InvokeSyntax, Values, parameter_members, unwrapped
from ._machine import MachineState, ScanningParser
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

LOOKAHEAD: Final = 300  # bytes after `<…invoke` within which its header must end in `>`
_SPACING: Final = " \t\r\n"


class InvokeStreaming(ScanningParser):
    """The streaming half of `InvokeParser` (its open invoke's `_syntax`, `_name`, body start)."""

    BODY: ClassVar[MachineState]
    """The subclass's state inside an invoke body."""
    HEAD: ClassVar[MachineState]
    """Its state in an invoke's header (from `_head_at`, up to its `>`)."""
    BLOCK: ClassVar[MachineState]
    """Its state in a block, between invokes (`_angle`: the opener's `>` may still follow)."""
    _head_at: int
    _angle: bool
    _syntax: InvokeSyntax
    _lead: str
    """The first character of every marker that ends the open invoke's body or a value."""
    _name: str

    def _reset_stream(self) -> None:
        """A new invoke: not yet inside its body, nothing announced."""
        self._in_body = False  # after the header, markup seen: what `absorb` may take
        self._streamed_to = 0  # where the source of the next member begins
        self._stuck = False  # a member did not parse: stream no more

    def _body_settled(self, out: list[Piece], body_at: int, first: int) -> None:
        """The body begins at `body_at`; `first` is its first byte other than spacing."""
        self._in_body, self._streamed_to = True, body_at
        if self._streams and first != 0x7B and self._syntax.values is Values.PARAMETERS:  # not '{'
            self._announce(out, None, self._name)

    def _parameter_closed(self, out: list[Piece], end: int) -> None:
        """A parameter closer ends at `end`: stream the members closed since the last one."""
        if self._announced is None or self._stuck:
            return
        parameters = tool_parameters(self._tools, self._name)
        try:
            source = self._scan.text(self._streamed_to, end)
            members = parameter_members(self._syntax, source, True, parameters)
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            members = None
        if not members or (self._syntax.unwraps and not self._sent and unwrapped(members[:1], parameters)):
            self._stuck = True  # (an unwrapped object is not the prefix streamed: the call goes whole)
            return
        self._stream(out, ("{" if not self._sent else ", ") + ", ".join(members))
        self._streamed_to = end

    def _broken_arguments(self) -> str:
        """The members streamed so far, closed."""
        sent = "".join(self._sent)
        return sent + "}" if sent else "{}"

    def absorb(self, texts: Sequence[str]) -> int:
        """The leading texts that decide nothing, within the cap: inside a body, those that hold
        no whole marker ending it or a value (one cut, it waits); in a header, words without `>`
        while the header begins with spacing (its step waits for the `>`); and spacing where the
        steps look for the first byte that is not (before a body's first markup, between invokes)."""
        scan, state = self._scan, self._state
        if state is not self.BODY or not self._in_body:  # (the hot state is tested first)
            if state is self.HEAD:
                return self._absorb_head(texts)
            if state is self.BODY or (state is self.BLOCK and scan.cursor == scan.end):
                return self._absorb_spacing(texts)
            return 0
        lead, room, taken = self._lead, self._max - (scan.end - scan.start), 0
        joined = "".join(texts)
        if scan.cursor == scan.end and lead not in joined and 4 * len(joined) <= room:  # (one append, as
            scan.append(joined, True)  # one at a time)
            return len(texts)
        for text in texts:
            room -= 4 * len(text)  # (4 bytes a character bound the UTF-8 size)
            if room < 0:
                break
            end, cursor = scan.end, scan.cursor
            scan.append(text)
            if cursor == end and lead not in text:
                scan.cursor = scan.end
            elif type(self._next_marker()) is tuple:  # one to decide (a cut one waits, the cursor on it,
                scan.cut_back(end)  # as the body step leaves it: K3's `<|close|>`, `argument`, `<|sep|>`)
                scan.cursor = cursor
                break
            taken += 1
        return taken

    def _absorb_head(self, texts: Sequence[str]) -> int:
        scan, start = self._scan, self._head_at
        for taken, text in enumerate(texts):
            first = chr(scan.view[start]) if scan.end > start else text[:1]
            if not text or ">" in text or first not in _SPACING:
                return taken
            size = scan.end - start + 4 * len(text)  # (a bound)
            if size >= LOOKAHEAD or scan.buffered + 4 * len(text) > self._max:
                return taken
            scan.append(text)
        return len(texts)

    def _absorb_spacing(self, texts: Sequence[str]) -> int:
        scan = self._scan
        for taken, text in enumerate(texts):
            if not text or text.strip(_SPACING) or scan.buffered + 4 * len(text) > self._max:
                return taken
            scan.append(text)
            if self._state is self.BLOCK:  # (its step: a `>` ending the opener, then spacing)
                self._angle = False
                scan.cursor = scan.end
        return len(texts)

    def _next_marker(self) -> object:
        """The next marker ending the body or a value from the cursor, if any (None: none, and
        the cursor is at the end)."""
        raise NotImplementedError
