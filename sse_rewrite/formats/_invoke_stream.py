"""InvokeStreaming: what `InvokeParser` does between markers of an invoke body.

- `absorb`: inside a body, texts that hold no marker ending it or a value (most hold not even
  its lead byte, `<`, or `]` for M3) decide nothing: they are taken without a feed.
- `--stream-arguments`: the call is announced once its body shows it is parameters (not one
  JSON object, not M3's named tags); each parameter is streamed when its closer arrives, as
  the next member of the JSON object text the whole call gives (`{"a": 1` then `, "b": "x"`;
  the final call adds the `}`), typed by the same rules (`_invoke_syntax`), so the final
  arguments are exactly the concatenation.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from ..events import Piece
from ._invoke_syntax import InvokeSyntax, Values, parameter_members
from ._machine import MachineState, ScanningParser
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class InvokeStreaming(ScanningParser):
    """The streaming half of `InvokeParser` (its open invoke's `_syntax`, `_name`, body start)."""

    BODY: ClassVar[MachineState]
    """The subclass's state inside an invoke body."""
    _syntax: InvokeSyntax
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
        try:
            source = self._scan.text(self._streamed_to, end)
            members = parameter_members(self._syntax, source, True, tool_parameters(self._tools, self._name))
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            members = None
        if not members:
            self._stuck = True
            return
        self._stream(out, ("{" if not self._sent else ", ") + ", ".join(members))
        self._streamed_to = end

    def _broken_arguments(self) -> str:
        """The members streamed so far, closed."""
        sent = "".join(self._sent)
        return sent + "}" if sent else "{}"

    def absorb(self, texts: Sequence[str]) -> int:
        """Inside a body, the leading texts that hold no marker ending it or a value, within the cap."""
        scan = self._scan
        if self._state is not self.BODY or not self._in_body or scan.cursor != scan.end:  # (a cut marker)
            return 0
        lead, room, taken = self._body_lead(), self._max - scan.buffered, 0
        for text in texts:
            room -= 4 * len(text)  # (4 bytes a character bound the UTF-8 size)
            if room < 0:
                break
            end = scan.end
            scan.append(text)
            if lead in text and self._next_marker() is not None:  # one to decide, or a cut one
                del scan.view[end:]
                scan.end = scan.cursor = end
                break
            scan.cursor = scan.end
            taken += 1
        return taken

    def _next_marker(self) -> object:
        """The next marker ending the body or a value from the cursor, if any (None: none, and
        the cursor is at the end)."""
        raise NotImplementedError

    def _body_lead(self) -> str:
        """The character every marker ending the open invoke's body or values starts with."""
        raise NotImplementedError
