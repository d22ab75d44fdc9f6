"""TagStreaming: `--stream-arguments` for the `<tool_call>` bodies (Hermes JSON, Qwen3-Coder XML, GLM).

- JSON: a body that begins `{"name": "NAME", "arguments": {` (or `[`) is announced
  there, and the arguments value streams as it arrives (a JSON body ends where its
  brackets balance, so every byte inside the value is settled). A body in another
  order, with arguments as a string, or a name that does not decode, comes out whole.
- XML and GLM: the call is announced when its first value opens; each parameter is
  streamed when it closes, as the next member of the JSON object text the whole call
  gives (`{"a": 1` then `, "b": "x"`; the final call adds the `}`), typed by the same
  rules (`tool_call_bodies`), so the final arguments are exactly the concatenation.
"""

from __future__ import annotations

import re

import orjson

from ...stream.events import Piece
from ._json import JsonScanner
from ._machine import ScanningParser
from ._tag_spelling import FUNCTION_END, TOOL_CALL, TagSpelling
from .tool_call_bodies import FUNCTION, Body, glm_call, glm_name, is_name, qwen_xml_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

# `{"name": "NAME", "arguments": ` (or `"parameters"`), up to the value
JSON_HEAD: Final = re.compile(
    rb'\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"(?:argument|parameter)s"\s*:\s*'
)
HEAD_LOOKAHEAD: Final = 300  # bytes of a JSON body within which its head must show
UNDECIDED: Final = -2  # `_value_at` while the head has not shown
NOT_STREAMED: Final = -1  # `_value_at` once the value has closed, or when it is not streamed


class TagStreaming(ScanningParser):
    """The streaming half of `ToolCallTagParser`: what is announced and streamed when."""

    TAGS: ClassVar[TagSpelling] = TOOL_CALL
    """The syntax's markers (a `TagSyntax` declares them: `_tag_syntax`)."""
    VERBATIM: ClassVar[bool] = False
    """Whether XML values keep the newlines next to their tags (`TagSyntax.verbatim`)."""

    _body: Body
    _value_end: bytes | None
    _bare: bool

    def _reset_stream(self) -> None:
        """A new call: nothing announced or decided yet."""
        self._value_at = UNDECIDED  # JSON: where the unstreamed argument text begins
        self._value_json = JsonScanner()
        self._piece_start = 0  # XML, GLM: where the source of the next member begins
        self._stuck = False  # XML, GLM: a member did not parse, stream no more

    def _stream_json(self, out: list[Piece]) -> bool:
        """A JSON body grew: announce it once its head shows, stream its arguments value.

        Returns False (no step was made: the JSON step waits for more input).
        """
        scan = self._scan
        if self._value_at == UNDECIDED:
            head = JSON_HEAD.match(scan.view, scan.mark, scan.end)
            if head is None:
                if scan.end - scan.mark > HEAD_LOOKAHEAD:
                    self._value_at = NOT_STREAMED
                return False
            if head.end() == scan.end:
                return False
            try:
                name = orjson.loads(head.group(1))
            except orjson.JSONDecodeError:  # (an invalid escape, a control character, a lone surrogate)
                name = ""  # (not a name: the body is decided whole, at its end)
            if not is_name(name) or scan.view[head.end()] not in b"{[":
                self._value_at = NOT_STREAMED
                return False
            self._announce(out, None, name)
            self._value_at = head.end()
            self._value_json.reset(head.end())
        if self._value_at < 0 or self._announced is None:
            return False
        closed = self._value_json.advance(scan.view, scan.end)
        upto = scan.end if closed is None else closed
        self._stream(out, scan.text(self._value_at, upto))
        self._value_at = upto if closed is None else NOT_STREAMED
        return False

    def _track_value(self, out: list[Piece], pos: int, was_inside: bool) -> None:
        """XML, GLM: a marker at `pos` closed the value open before it, or opened one."""
        if not self._streams:
            return
        scan = self._scan
        if was_inside and not self._bare and scan.view[pos : pos + len(FUNCTION_END)] == FUNCTION_END:
            # Inside `<tool_call>`, a value's `</function>` ends it only if the body ends there.
            self._stuck = True
        if was_inside:
            self._stream_member(out, scan.text(self._piece_start, pos))
            self._piece_start = scan.cursor  # (GLM: the next key follows; XML: reset below)
        if self._value_end is None:
            return
        if self._announced is None and not self._stuck:
            self._announce_tagged(out, scan.text(scan.mark, pos))
        if self._body is Body.XML:
            self._piece_start = pos

    def _announce_tagged(self, out: list[Piece], head: str) -> None:
        if self._body is Body.XML:
            call = qwen_xml_call(head, complete=False)
            name = call[0] if call else ""
        else:
            name = glm_name(head.partition(self.TAGS.key)[0], self.TAGS)
        if not is_name(name):
            self._stuck = True
            return
        self._announce(out, None, name)
        self._piece_start = self._scan.mark

    def _stream_member(self, out: list[Piece], source: str) -> None:
        member = self._member(source)
        if member is not None:
            self._stream(out, member)

    def _member(self, source: str) -> str | None:
        """The next member's text (with its `{` or `, `) from the source of one value."""
        if self._announced is None or self._stuck:
            return None
        try:
            name = self._announced[1]  # (typed by its tool's schema, as the whole call is)
            if self._body is Body.XML:
                body = f"{FUNCTION}f>{source}</parameter>"
                call = qwen_xml_call(body, False, self._tools, typed_as=name, verbatim=self.VERBATIM)
            else:
                call = glm_call(f"f{source}{self.TAGS.value_end}", self._tools, typed_as=name, tags=self.TAGS)
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            call = None
        if call is None or call[1] == "{}":
            self._stuck = True
            return None
        return ("{" if not self._sent else ", ") + call[1][1:-1]

    def _broken_arguments(self) -> str:
        """JSON: the value as written so far; XML, GLM: the members so far (one still open
        included), closed."""
        sent = "".join(self._sent)
        if self._body is Body.JSON:
            return sent
        if self._value_end is not None:
            sent += self._member(self._scan.text(self._piece_start, self._scan.end)) or ""
        return sent + "}" if sent else "{}"
