"""ChannelCalls: the life of one call of a channel syntax, from its body to its end (see `channels`).

A call ends at one of the syntax's ends (harmony: `<|call|>`, `<|end|>`, `<|return|>`), or
where the next header begins when the end was lost. A JSON body: inside a string the call's
end marker is data, unless the next header follows it at once or the input ends after it
(then the body was malformed and the marker is its end); at the end of input a body that is
one complete JSON value is recovered; with `--stream-arguments` the call is announced with its
header and streams as it arrives, up to the first `<` not yet settled. A body in an invoke
grammar is read whole at its end: its calls (`read_calls`), or its text (notice); at the end of input one
that reads as calls is recovered. Anything else comes out as the text it was
(docs/behaviour.md, "Damage").
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence

from ...stream.events import Notice, Piece
from ._invoke_syntax import read_invoke, read_lone_invoke
from ._json import is_json
from ._machine import MachineState, ScanningParser
from ._scanner import NEED_MORE
from ._streamed_call import settled_texts
from .channel_words import HeaderWords
from .raw_values import tool_parameters

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from ...tool_schemas import ToolSchemas
    from ._invoke_syntax import InvokeSyntax
    from ._scanner import MarkerTable

_BODY_STOPS: Final = re.compile(r"[<}\]]")
"""A text with none of these neither closes a body nor begins its end."""
_SPACING_CHARS: Final = " \t\r\n"


def read_calls(
    syntax: InvokeSyntax, body: str, recipient: str, tools: ToolSchemas | None
) -> list[tuple[str, str]] | None:
    """The calls of a message addressed to `recipient` (Muse's, Beam's): the invokes of its
    block, else one call to the recipient with the body's parameters (or JSON object); None
    when it is neither."""
    text = body.strip(_SPACING_CHARS)
    for spelling in syntax.blocks:
        for word in syntax.block_words:
            opener, closer = f"{spelling.open}{word}>", f"{spelling.close}{word}>"
            if text.startswith(opener) and text.endswith(closer):
                text = text[len(opener) : len(text) - len(closer)].strip(_SPACING_CHARS)
    if not text.startswith(tuple(syntax.invoke_openers())):
        arguments = read_invoke(syntax, body, parameters=tool_parameters(tools, recipient))
        return None if arguments is None or not recipient else [(recipient, arguments)]
    calls = []
    while text:
        ends = [at + len(closer) for closer in syntax.invoke_closers() if (at := text.find(closer)) != -1]
        read = read_lone_invoke(syntax, text[: min(ends)], tools) if ends else None
        if read is None:
            return None
        calls.append(read)
        text = text[min(ends) :].lstrip(_SPACING_CHARS)
    return calls


class State(MachineState):
    """Where the parser is in a channel message."""

    TEXT = enum.auto()
    HEADER = enum.auto()
    REASONING = enum.auto()
    OPENED = enum.auto()
    JSON = enum.auto()
    RAW = enum.auto()
    CLOSING = enum.auto()


_TEXT, _HEADER, _REASONING, _JSON = State.TEXT, State.HEADER, State.REASONING, State.JSON
_OPENED = State.OPENED
"""The states asked on every call, read once: a member read from its Enum class goes through
the metaclass's `__getattr__` hook, about ten times a global's cost (Python 3.11)."""


class ChannelCalls(HeaderWords):
    """The open call of `ChannelParser`, and every way it can end."""

    _CALL_END: ClassVar[bytes]
    """The syntax's first end: inside a JSON string, data unless the next header follows it."""
    _NEXT_HEADER: ClassVar[MarkerTable[bool]]

    def _setup(self) -> None:
        self._content_open = False  # a content message is open: its end marker is syntax
        self._name = ""  # the open call's tool name
        self._body_at = self._body_end = 0  # where its body begins; a JSON body: where it ended
        self._value_at = 0  # a JSON body: where the text not yet streamed begins
        self._search_at = 0  # where the search for a `<|call|>` inside a string goes on
        self._words_settled = False  # the open header's opener words are there and settled (`_keeps_header`)
        # The open header's place in the syntax's `HeaderTable`, while the header is `_words_at` bytes
        # long (it left the table once a text was appended another way), and the tool's name so far.
        self._words, self._words_at, self._header_name = 0, -1, ""

    def _end_call(self, out: list[Piece], body_end: int, end: int, at_end: bool = False) -> bool:
        """The call's body ends at `body_end`, its syntax at `end`: hand it back (`at_end`: the input
        ended in it, a recovered call). A body in the syntax's invoke grammar is its calls, or its
        text (notice), and at the end of input False when it holds no call (nothing handed back)."""
        scan, syntax = self._scan, self.SYNTAX
        body = scan.text(self._body_at, body_end)
        json_call = [(self._name, body.strip() or "{}")]
        calls = json_call if syntax.body is None else read_calls(syntax.body, body, self._name, self._tools)
        if calls is None:
            if at_end:
                return False
            self._emit_text(out, end)
            message = f"message to {self._name} holds no call: passed through as text"
            out.append(Notice("malformed-call", message))
        else:
            if at_end:
                out.append(Notice("recovered-call", f"stream ended inside call {self._name}: call recovered"))
            if syntax.body is None and not is_json(calls[0][1]):  # passed on as written: the client decides
                out.append(Notice("invalid-arguments", f"call {self._name}: arguments are not valid JSON"))
            raw = scan.take(end)
            for index, (name, arguments) in enumerate(calls):
                self._call(out, None, name, arguments, raw if not index else "")
        self._state = _TEXT
        self._content_open = False
        return True

    def _closer_in_string(self, out: list[Piece]) -> bool:
        """An unclosed JSON body: a `<|call|>` followed at once by the next header ends it."""
        scan, call_end = self._scan, self._CALL_END
        while (pos := scan.find(call_end, self._search_at)) != -1:
            after = pos + len(call_end)
            found = scan.match(after, self._NEXT_HEADER) if after < scan.end else NEED_MORE
            if found is NEED_MORE:
                return False
            if found is not None:
                return self._end_call(out, pos, after)
            self._search_at = pos + 1
        # (a `<|call|>` not found may still end in the next text: the search goes on from where it can begin)
        self._search_at = max(self._search_at, scan.end - len(call_end) + 1)
        return False

    def _stream_body(self, out: list[Piece], upto: int) -> None:
        """Stream the announced call's JSON body up to `upto`, or to the first `<` before it."""
        if self._announced is None:
            return
        scan = self._scan
        lt = scan.find(b"<", self._value_at, upto)
        settled = upto if lt == -1 else lt
        if settled > self._value_at:
            self._stream(out, scan.text(self._value_at, settled))
            self._value_at = settled

    def absorb(self, texts: Sequence[str]) -> int:
        """The base's, up to the first text with a `<` (an end marker in a string may end the
        call); in a header, texts that keep it one and cannot end it (see `_absorb_header`)."""
        state = self._state
        if len(texts) == 1 and state is _JSON and not self._streams:  # (a live stream's one token)
            text, scan = texts[0], self._scan  # the base's first case, inlined: this runs once a token
            if "<" in text:
                return 0
            if "}" not in text and "]" not in text and scan.end - scan.start + 4 * len(text) <= self._max:
                scan.append(text)
                return 1
            return ScanningParser.absorb(self, texts)  # (named: a `super()` costs)
        if state is _REASONING or state is _TEXT:  # (nothing taken: not scanned)
            return 0
        if state is _HEADER:
            return self._absorb_header(texts)
        if state is _OPENED and texts and not self._streams and self._opens_body(texts[0]):
            return 1 + self.absorb(texts[1:]) if len(texts) > 1 else 1
        for count, text in enumerate(texts):
            if "<" in text:
                texts = texts[:count]
                break
        return ScanningParser.absorb(self, texts) if texts else 0

    def _opens_body(self, text: str) -> bool:
        """Take the text that begins a JSON body after the header's spacing, when it neither
        holds a `<` nor closes a bracket: what the opened and JSON steps would do with it, but
        `_json`, which catches up when the JSON step next looks (as `absorb` leaves it)."""
        scan = self._scan
        body = text.lstrip(" \t\r\n")
        if scan.cursor != scan.end or not body or body[0] not in "{[" or "<" in text:  # (the cursor
            return False  # stops at the first byte that is not spacing: only spacing was read)
        if "}" in text or "]" in text or scan.end - scan.start + 4 * len(text) > self._max:
            return False
        pos = scan.end + len(text) - len(body)  # (spacing is ASCII: a byte a character)
        scan.append(text)
        scan.cursor = self._value_at = pos
        self._json.reset(pos)
        search = scan.end - len(self._CALL_END) + 1
        self._search_at = search if search > pos else pos
        self._state = _JSON
        return True

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """Streaming, in an announced call's JSON body streamed so far (no `<` held back): the
        leading texts without `<` and without a closing bracket (they can neither close the body
        nor begin its end) are appended unscanned (`_json` catches up when the JSON step next
        looks) and streamed whole, as the JSON step would stream them. Elsewhere what `absorb`
        takes streams nothing."""
        scan, state = self._scan, self._state
        if state is not _JSON:
            if state is _OPENED and self._announced is not None and texts:  # (the body's opening text
                if not self._opens_body(texts[0]):  # streams whole, as the JSON step streams it: no `<`)
                    return []
                body = texts[0].lstrip(_SPACING_CHARS)
                self._value_at = self._scan.end
                self._sent.append(body)
                return [body, *self.absorb_arguments(texts[1:])] if len(texts) > 1 else [body]
            return [""] * self.absorb(texts)
        if self._value_at != scan.end or self._announced is None:
            return []
        taken = settled_texts(texts, scan.end - scan.start, self._max, _BODY_STOPS)
        if taken:
            self._append_streamed(taken[0] if len(taken) == 1 else "".join(taken))
            self._sent += taken
        return taken

    def _append_streamed(self, text: str) -> None:
        """Append body text that streams whole: it is settled, and no `<|call|>` can end in it."""
        scan = self._scan
        scan.append(text)
        self._value_at = scan.end
        self._search_at = max(self._search_at, scan.end - len(self._CALL_END) + 1)

    def _finish(self, out: list[Piece]) -> None:
        """End of input: reasoning and text come out, a complete call is kept, else raw text."""
        while self._STEPS[self._state](self, out):  # (absorbed text is looked at first)
            pass
        scan, state = self._scan, self._state
        if state is State.TEXT:
            self._emit_text(out, scan.end)
        elif state is State.REASONING:
            self._emit_reasoning(out, scan.end)
        elif state is State.CLOSING:
            self._end_call(out, self._body_end, scan.end, at_end=True)
        elif state is State.RAW and self.SYNTAX.body is not None:
            if not self._end_call(out, scan.end, scan.end, at_end=True):
                self._release(out, scan.end, "truncated-call", f"stream ended inside call {self._name}")
        elif state is State.RAW or state is State.JSON:
            call_end = self._CALL_END
            last = scan.view.rfind(call_end, self._body_at, scan.end)
            if state is State.JSON and last != -1 and not scan.view[last + len(call_end) : scan.end].strip():
                self._end_call(out, last, scan.end)  # a `<|call|>` inside a string, then nothing
            elif is_json(scan.text(self._body_at, scan.end).strip()):
                self._end_call(out, scan.end, scan.end, at_end=True)
            else:
                self._release(out, scan.end, "truncated-call", "stream ended inside a tool call")
        elif state is State.HEADER and not scan.view.startswith(self.SYNTAX.next_headers, scan.mark):
            self._emit_text(out, scan.end)  # (a header opened by a bare word was never shown to be one)
        else:
            self._release(out, scan.end, "truncated-call", "stream ended inside a tool call")
