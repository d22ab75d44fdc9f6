"""TagCalls: the life of one `<tool_call>` call, from its opener to its end.

`ToolCallTagParser` (in `tool_call_tag`) reads the grammar; this base keeps what it
knows of the open call (bare or wrapped, which body, where the body ended) and decides
how the call ends: parsed into a call (`_close`), released as the text it was
(`_release`, `_release_prose`), or, at the end of input, recovered or released
(`_finish`; docs/behaviour.md, "Damage").
"""

from __future__ import annotations

import enum

import orjson

from ...stream.events import Markup, Notice, Piece, ToolCall
from ._json import is_json
from ._machine import MachineState
from ._tag_absorb import TagStreamAbsorb
from ._tag_spelling import FUNCTION_END, FUNCTION_OPEN, PARAMETER_END, TOOL_CALL
from .tool_call_bodies import Body, glm_call, hermes_call, qwen_xml_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from .tool_call_bodies import Call



class State(MachineState):
    """Where the parser is: plain text, after an opener, inside a body, after a body, after a
    block opener."""

    TEXT = enum.auto()
    OPENED = enum.auto()
    JSON = enum.auto()
    TAGGED = enum.auto()
    CLOSING = enum.auto()
    BLOCK = enum.auto()


_OPENED: Final = frozenset({State.OPENED, State.BLOCK})


class TagCalls(TagStreamAbsorb):
    """The open call of `ToolCallTagParser`, and every way it can end."""

    TEXT = State.TEXT

    ORPHANS: ClassVar[frozenset[bytes]] = frozenset({TOOL_CALL.close, FUNCTION_END})

    def _setup(self) -> None:
        self._reset_call(bare=False)
        self._opener, self._owed_close = 0, self.TAGS.close  # (set by `_open`)

    def _reset_call(self, bare: bool) -> None:
        self._bare = bare  # a `<function=` without the `<tool_call>` wrapper
        self._value_end: bytes | None = None  # inside a TAGGED value: the closer that ends it
        self._body, self._body_end = Body.JSON, 0  # the body's kind; JSON, CLOSING: where it ended
        self._reset_stream()  # (`--stream-arguments`)

    def _open(self, bare: bool | None, pos: int, length: int, out: list[Piece]) -> None:
        self._reset_call(bare is True)
        self._scan.mark = self._scan.cursor = pos if bare else pos + length
        # released as prose: the opener (a bare one's `<function=`), and its closer is owed
        self._opener = length if not bare else len(FUNCTION_OPEN)
        self._owed_close = FUNCTION_END if bare else self.TAGS.block_end if bare is None else self.TAGS.close
        self._state = State.BLOCK if bare is None else State.OPENED

    def _finish(self, out: list[Piece]) -> None:
        """A call complete so far is kept, a bare opener dropped, else the raw text comes out: a
        value still open is text at any end, a normal finish too (a cut-off file is no call)."""
        scan, state = self._scan, self._state
        if state is State.TEXT:
            self._emit_text(out, scan.end)
        elif state in _OPENED and not self._bare and not scan.text(scan.mark, scan.end).strip():
            out.append(Markup(scan.take(scan.end)))
            out.append(Notice("dangling-opener", "<tool_call> opened but nothing followed: dropped"))
        elif state is State.TAGGED and self._value_end == PARAMETER_END and self._closed_at_end(out):
            return
        elif ((closing := state is State.CLOSING) or (state is State.TAGGED and not self._value_end)) and (
                call := self._parse(self._body_end if closing else scan.cursor, complete=closing)):
            if not (self._bare and closing):
                out.append(Notice("recovered-call", f"stream ended inside call {call[0]}: call recovered"))
            self._emit_call(out, call, scan.end)
        else:
            self._release(out, scan.end, "truncated-call", "stream ended inside a tool call")

    def _closed_at_end(self, out: list[Piece]) -> bool:
        """A Qwen3-Coder parameter left open whose text ends in `</tool_call>` (spacing aside):
        the call's closer, which ends the parameter (`{"n": 1024}`, not `"1024\n</tool_call>"`)."""
        scan = self._scan
        body = scan.view[scan.mark : scan.end].rstrip(b" \t\r\n")
        closer = self.TAGS.close
        if not body.endswith(closer):
            return False
        close = scan.mark + len(body) - len(closer)
        call = self._parse(close, complete=False)
        if call is None:
            return False
        out.append(Notice("implicit-close", f"call {call[0]}: its open parameter ended at </tool_call>"))
        self._emit_call(out, call, close + len(closer))
        self._emit_text(out, scan.end)
        return True

    def _parse(self, body_end: int, complete: bool = True) -> Call | None:
        """The call the body up to `body_end` gives."""
        body = self._scan.text(self._scan.mark, body_end)
        try:
            if self._body is Body.JSON:
                return hermes_call(body, self.TAGS.json_keys) if body.strip() else None
            if self._body is Body.XML:
                return qwen_xml_call(body, complete, self._tools, verbatim=self.VERBATIM)
            return glm_call(body, self._tools, tags=self.TAGS) if body.strip() else None
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            return None

    def _close(self, out: list[Piece], call: Call | None, end: int) -> bool:
        if call is None:
            return self._release(out, end, "malformed-call", "tool call body is not a call")
        self._emit_call(out, call, end)
        self._state = State.TEXT
        return True

    def _emit_call(self, out: list[Piece], call: Call, end: int) -> None:
        name, arguments = call
        if not is_json(arguments):  # passed on as written: the client decides
            out.append(Notice("invalid-arguments", f"call {name}: arguments are not valid JSON"))
        self._call(out, None, name, arguments, self._scan.take(end))
        if type(out[-1]) is not ToolCall and self.TAGS.block_end in self._around.blocks:
            self._around.blocks.discard(self.TAGS.block_end)  # (kept as text: so is its block's closer)
            self._owe(self.TAGS.block_end)

    def _release_prose(self, out: list[Piece]) -> bool:
        """The opener was prose: release it as text and rescan what followed it."""
        scan = self._scan
        self._emit_text(out, scan.start + self._opener)
        self._owe(self._owed_close)
        scan.cursor = scan.start
        self._state = State.TEXT
        return True
