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
from collections.abc import Sequence

import orjson

from ..events import Piece
from ._json import JsonScanner
from ._machine import ScanningParser
from ._scanner import NON_SPACE
from ._streamed_call import settled_texts
from .tool_call_bodies import FUNCTION, FUNCTION_END, Body, glm_call, is_name, qwen_xml_call

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# `{"name": "NAME", "arguments": ` (or `"parameters"`), up to the value
_JSON_HEAD: Final = re.compile(
    rb'\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"(?:argument|parameter)s"\s*:\s*'
)
_HEAD_LOOKAHEAD: Final = 300  # bytes of a JSON body within which its head must show
_UNDECIDED: Final = -2
_NOT_STREAMED: Final = -1
_FUNCTION_END: Final = FUNCTION_END.encode()
_CLOSING_BRACKET: Final = re.compile(r"[}\]]")


class TagStreaming(ScanningParser):
    """The streaming half of `ToolCallTagParser`: what is announced and streamed when."""

    _body: Body
    _value_end: bytes | None
    _bare: bool

    def _reset_stream(self) -> None:
        """A new call: nothing announced or decided yet."""
        self._value_at = _UNDECIDED  # JSON: where the unstreamed argument text begins
        self._value_json = JsonScanner()
        self._piece_start = 0  # XML, GLM: where the source of the next member begins
        self._stuck = False  # XML, GLM: a member did not parse, stream no more

    def _stream_json(self, out: list[Piece]) -> bool:
        """A JSON body grew: announce it once its head shows, stream its arguments value.

        Returns False (no step was made: the JSON step waits for more input).
        """
        scan = self._scan
        if self._value_at == _UNDECIDED:
            head = _JSON_HEAD.match(scan.view, scan.mark, scan.end)
            if head is None:
                if scan.end - scan.mark > _HEAD_LOOKAHEAD:
                    self._value_at = _NOT_STREAMED
                return False
            if head.end() == scan.end:
                return False
            try:
                name = orjson.loads(head.group(1))
            except orjson.JSONDecodeError:  # (an invalid escape, a control character, a lone surrogate)
                name = ""  # (not a name: the body is decided whole, at its end)
            if not is_name(name) or scan.view[head.end()] not in b"{[":
                self._value_at = _NOT_STREAMED
                return False
            self._announce(out, None, name)
            self._value_at = head.end()
            self._value_json.reset(head.end())
        if self._value_at < 0 or self._announced is None:
            return False
        closed = self._value_json.advance(scan.view, scan.end)
        upto = scan.end if closed is None else closed
        self._stream(out, scan.text(self._value_at, upto))
        self._value_at = upto if closed is None else _NOT_STREAMED
        return False

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` for one text, without the lists (it runs once per live event)."""
        scan = self._scan
        if self._state is not self.JSON_BODY or self._value_at == _UNDECIDED:
            return "" if self._absorb_unstreamed((text,)) else None
        if self._value_at == _NOT_STREAMED:
            return "" if self._absorb_body_rest((text,)) else None
        if self._value_at != scan.end or self._announced is None:
            return None
        if scan.end - scan.start + 4 * len(text) > self._max:
            return None
        if "}" in text or "]" in text:
            return self._scanned(text)
        scan.append(text)
        self._value_at = scan.end
        self._sent.append(text)
        return text

    def _scanned(self, text: str) -> str | None:
        """Take a text that may close the arguments value, appended at the streamed end: read
        by the value's `JsonScanner` (which catches up over the texts taken unread, which
        cannot close it). What it streams, as the JSON step would: all of it while the value
        stays open; up to the bracket that closes it (the body's scanner then reads on from
        there, one level deep outside strings: where the head left the value); nothing if
        the body closes in it too (`_body_read`). None when something other than spacing
        follows the body: then everything is as it was (the steps decide)."""
        scan, value = self._scan, self._value_json
        before, saved = scan.end, value.state()
        scan.append(text)
        closed = value.advance(scan.view, scan.end)
        if closed is None:
            self._value_at = scan.end
            self._sent.append(text)
            return text
        body = self._json.state()
        self._json.restore((closed, False, 1))
        ended = self._body_read(before)
        if ended is None:
            value.restore(saved)
            self._json.restore(body)
            return None
        if ended:
            return ""
        streamed = scan.text(before, closed)
        self._value_at = _NOT_STREAMED
        self._sent.append(streamed)
        return streamed

    def _body_read(self, before: int) -> bool | None:
        """The body's `JsonScanner` reads what was appended from `before`: False while the body
        stays open, True when it closed and only spacing follows (then it has ended, as the
        JSON and closing steps would end it), None when something else follows (a close, or
        words: the text is cut back)."""
        scan = self._scan
        end = self._json.advance(scan.view, scan.end)
        if end is None:
            return False
        if NON_SPACE.search(scan.view, end) is not None:
            scan.cut_back(before)
            return None
        self._json_body_ended(end)
        scan.cursor = scan.end
        return True

    def _absorb_body_rest(self, texts: Sequence[str]) -> int:
        """In a JSON body whose arguments value is streamed to its end (or not streamed at all),
        the leading texts the JSON step would only read (`_body_read`): those that leave the
        body open, then one that closes it with only spacing after, and spacing after that."""
        scan, taken = self._scan, 0
        for text in texts:
            if scan.end - scan.start + 4 * len(text) > self._max:
                break
            before, saved = scan.end, self._json.state()
            scan.append(text)
            ended = self._body_read(before)
            if ended is None:
                self._json.restore(saved)
                break
            taken += 1
            if ended:
                return taken + ScanningParser._absorb_around_body(self, texts[taken:])
        return taken

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """JSON: inside the streamed arguments value, texts without a closing bracket are
        appended (the scanners catch up when they next look), the others read first
        (`_scanned`), each streaming what `_stream_json` would; once the value has closed,
        what the body's rest takes (`_absorb_body_rest`) streams nothing. Elsewhere (XML and
        GLM values, which stream when they close, included) what `absorb` takes streams nothing."""
        scan = self._scan
        if self._state is not self.JSON_BODY or self._value_at == _UNDECIDED:
            return [""] * self._absorb_unstreamed(texts)
        if self._value_at == _NOT_STREAMED:
            return [""] * self._absorb_body_rest(texts)
        if self._value_at != scan.end or self._announced is None:
            return []
        taken: list[str] = []
        while True:
            run = settled_texts(texts[len(taken) :] if taken else texts, scan.end - scan.start, self._max,
                                _CLOSING_BRACKET)  # fmt: skip
            if run:
                scan.append(run[0] if len(run) == 1 else "".join(run))
                self._value_at = scan.end
                self._sent += run
                taken += run
            if len(taken) == len(texts):
                return taken
            text = texts[len(taken)]
            streamed = None if scan.end - scan.start + 4 * len(text) > self._max else self._scanned(text)
            if streamed is None:
                return taken
            taken.append(streamed)
            if self._value_at != scan.end:  # the value closed: the body's rest
                return taken + self.absorb_arguments(texts[len(taken) :])

    def _absorb_unstreamed(self, texts: Sequence[str]) -> int:
        """Outside a streamed JSON value, the leading texts that decide nothing, streaming: in
        an XML or GLM body, those `_absorb_tagged` takes; in a spacing state (around a body),
        spacing alone, as `absorb` takes it; in a JSON body whose head has not shown, those
        that leave it so (`_keeps_head_open`)."""
        if self._state is not self.JSON_BODY:
            return self._absorb_tagged(texts) or ScanningParser._absorb_around_body(self, texts)
        taken = 0
        for text in texts:
            if not self._keeps_head_open(text):
                break
            taken += 1
        return taken

    def _keeps_head_open(self, text: str) -> bool:
        """Take a text of a JSON body whose head has not shown (`_stream_json`) if, appended,
        it neither closes the body nor completes the head nor passes the lookahead: the JSON
        step would not act on it. Otherwise everything is as it was."""
        scan = self._scan
        if "}" in text or "]" in text or scan.end - scan.start + 4 * len(text) > self._max:
            return False
        before = scan.end
        scan.append(text)
        head = _JSON_HEAD.match(scan.view, scan.mark, scan.end)
        if head.end() == scan.end if head is not None else scan.end - scan.mark <= _HEAD_LOOKAHEAD:
            return True
        scan.cut_back(before)
        return False

    def _absorb_tagged(self, texts: Sequence[str]) -> int:
        """The leading texts inside an XML or GLM body that decide nothing (`ToolCallTagParser`)."""
        raise NotImplementedError

    def _track_value(self, out: list[Piece], pos: int, was_inside: bool) -> None:
        """XML, GLM: a marker at `pos` closed the value open before it, or opened one."""
        if not self._streams:
            return
        scan = self._scan
        if was_inside and not self._bare and scan.view[pos : pos + len(_FUNCTION_END)] == _FUNCTION_END:
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
            name = head.partition("<arg_key>")[0].strip()
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
                call = qwen_xml_call(f"{FUNCTION}f>{source}</parameter>", False, self._tools, typed_as=name)
            else:
                call = glm_call(f"f{source}</arg_value>", self._tools, typed_as=name)
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
