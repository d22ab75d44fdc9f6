"""The `<tool_call>...</tool_call>` machine shared by Hermes JSON, Qwen3-Coder XML and GLM bodies.

The syntaxes differ in the body after the opener (`{`, `<function=`, a bare name); each
declaration (`catalogue/tool_call.py`) names the bodies it accepts, read by
`tool_call_bodies`. `ToolCallTagParser` itself accepts all three.

Theory of operation
-------------------
- TEXT: hand text back at once; hold only a trailing prefix of an opener. Qwen3-Coder
  also opens a call with a bare `<function=` (no `<tool_call>` wrapper).
- OPENED: after the opener, the first non-space byte picks the body: `{` (followed by
  `"` or `}`) is JSON, `<function=NAME>` XML, a name GLM. A body the format does not
  accept, anything else, or a GLM "name" with spaces in it, means the tag was prose:
  the opener is released as text and scanning resumes after it.
- JSON: a `JsonScanner` finds the end of the object (string- and escape-aware, so a
  `</tool_call>` inside a string is data); then CLOSING.
- TAGGED (XML and GLM): scan `<`-led markers; inside a GLM value only `</arg_value>`
  counts, inside a Qwen parameter `</parameter>`, the next `<parameter=` or
  `</function>` (a parameter left open), so a `</tool_call>` in a value is data, unless only
  spacing follows it to the end of input (then it closed the call: `_tag_calls`). A bare
  call's body ends at `</function>`; then CLOSING. Outside a value the next
  `<tool_call>` closes a call that lost its `</tool_call>`.
- CLOSING: only spacing may come before `</tool_call>` (a bare call's stray closer,
  dropped with it); anything else ends the call where its body ended.
A body that does not parse comes out as raw text with a notice, as does anything held
past `max_section_bytes`. At the end of input a call complete so far (a whole JSON
object, complete parameters) is recovered, a bare opener dropped, the rest is text
(with `--stream-arguments` an announced call is completed instead: see `_tag_stream`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...stream.events import Notice, Piece
from ._machine import MachineState, ScanningParser
from ._scanner import ANGLE_SNIFF, NEED_MORE, NON_SPACE, MarkerTable
from ._tag_calls import State, TagCalls
from ._tag_spelling import BARE_BODY, FUNCTION_END, TOOL_CALL
from ._tag_stream import HEAD_LOOKAHEAD
from .tool_call_bodies import Body, is_name

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_LOOKAHEAD: Final = 300  # bytes after a body's first byte within which it must show its kind
_TAGGED: Final = State.TAGGED
"""The hot state, read once: a member read from its Enum class (`State.TAGGED`) goes through
the metaclass's `__getattr__` hook, about ten times a global's cost (Python 3.11)."""


class ToolCallTagParser(TagCalls):
    """Streaming parser for `<tool_call>` tags holding a Hermes, Qwen3-Coder or GLM body."""

    JSON_BODY: ClassVar[MachineState | None] = State.JSON
    TAGGED: ClassVar[MachineState | None] = _TAGGED
    AFTER_JSON: ClassVar[MachineState] = State.CLOSING
    SPACING: ClassVar[frozenset[MachineState]] = frozenset({State.OPENED, State.CLOSING})
    BODIES: ClassVar[frozenset[Body]] = frozenset(Body)
    """The bodies this format reads inside `<tool_call>`; any other is prose."""
    OPENERS: ClassVar[MarkerTable[bool | bytes | None]] = MarkerTable({
        **dict.fromkeys(TOOL_CALL.opens, False), TOOL_CALL.close: TOOL_CALL.close})
    """`<tool_call>` (False), a bare `<function=` (True, Qwen3-Coder), a block opener (None),
    a closer (itself: an orphan)."""

    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF

    def absorb(self, texts: Sequence[str]) -> int:
        """The base's `absorb`, looking first for the hot state of an XML or GLM body (a
        value's tokens): one call a token, not three; a live stream's one text, not two."""
        if self._state is _TAGGED and not self._streams:
            scan = self._scan
            if len(texts) != 1 or scan.cursor != scan.end:
                return self._absorb_tagged(texts)
            text = texts[0]  # (`_absorb_tagged` for one text, written out: a call less a token)
            if "<" in text or scan.end - scan.start + 4 * len(text) > self._max:
                return 0
            scan.append(text)
            scan.cursor = scan.end
            return 1
        return ScanningParser.absorb(self, texts)  # (its base's, named: a `super()` a token costs)

    def _absorb_tagged(self, texts: Sequence[str]) -> int:
        """In an XML or GLM body (streaming or not: a value streams when it closes), the
        leading texts without `<`, while nothing is held unscanned: `_step_tagged` would only
        move its cursor past them."""
        if self._state is not _TAGGED:
            return 0
        scan = self._scan
        if scan.cursor != scan.end or not texts:
            return 0
        joined = texts[0] if len(texts) == 1 else "".join(texts)  # (one text: a live stream's event)
        if "<" in joined:
            taken = 0
            for text in texts:
                if "<" in text:
                    break
                taken += 1
            texts, joined = texts[:taken], "".join(texts[:taken])
        if not texts or scan.end - scan.start + 4 * len(joined) > self._max:  # (`feed` applies the cap)
            return 0
        scan.append(joined)
        scan.cursor = scan.end
        return len(texts)

    def _absorb_around_body(self, texts: Sequence[str]) -> int:
        """Also, in an XML or GLM body, `_absorb_tagged`; after the opener and spacing, a text
        that opens a JSON body (`{"`) and holds no closing bracket: it only picks the body's
        kind, as `_step_opened` would (streaming, it holds no `:` either and is within the
        head's lookahead, so it cannot show the head: see `_tag_stream`); then what `absorb`
        (streaming: `_absorb_unstreamed`) takes after it."""
        if self._state is _TAGGED:
            return self._absorb_tagged(texts)
        taken = super()._absorb_around_body(texts)  # (spacing)
        scan = self._scan
        if self._state is not State.OPENED or taken == len(texts):
            return taken
        if scan.cursor != scan.end:
            return self._absorb_name(texts, taken)
        text = texts[taken]
        body = text.lstrip(" \t\r\n")
        opens = body.startswith('{"') and Body.JSON in self.BODIES
        if not opens:
            return self._absorb_name(texts, taken)
        if "}" in text or "]" in text or scan.buffered + 4 * len(text) > self._max:
            return taken
        if self._streams and (":" in body or 4 * len(body) > HEAD_LOOKAHEAD):
            return taken
        start = scan.end + len(text) - len(body)  # (the spacing before it is ASCII)
        scan.append(text)
        self._begin_json(start)
        rest = texts[taken + 1 :]
        return taken + 1 + (self._absorb_unstreamed(rest) if self._streams else self.absorb(rest))

    def _absorb_name(self, texts: Sequence[str], taken: int) -> int:
        """GLM: after the opener, from `texts[taken]`, the texts of a bare name before its first
        `<`: while the text from the first byte that is not spacing neither begins with `{` nor
        holds `<`, is a name stripped (`is_name`) and ends within the lookahead, `_step_opened`
        only waits for more, its cursor where it is (not streaming: the steps announce the call)."""
        if Body.GLM not in self.BODIES or self._streams:
            return taken
        scan = self._scan
        first = NON_SPACE.search(scan.view, scan.cursor)
        held = "" if first is None else scan.text(first.start(), scan.end)  # (the name so far)
        for text in texts[taken:]:
            name = held + text if held else text.lstrip(" \t\r\n")
            if "<" in text or not name or name[0] == "{" or not is_name(name.strip()):
                break
            size = len(name.encode("utf-8", "surrogatepass"))  # (its bytes from the first one not spacing)
            if size >= _LOOKAHEAD or scan.buffered + 4 * len(text) > self._max:
                break
            scan.append(text)
            held = name
            taken += 1
        return taken

    # -- state handlers: each returns True when it made progress and should run again

    def _step_opened(self, out: list[Piece]) -> bool:
        scan = self._scan
        pos = scan.skip_spacing()
        if pos is None:
            return False
        if scan.view[pos] == 0x7B:  # '{': JSON, if a key or the object's end follows
            after = NON_SPACE.search(scan.view, pos + 1, pos + _LOOKAHEAD)
            if after is None:
                return scan.end - pos >= _LOOKAHEAD and self._release_prose(out)
            if scan.view[after.start()] not in b'"}' or Body.JSON not in self.BODIES:
                return self._release_prose(out)
            self._begin_json(pos)
            return True
        elif scan.view[pos] == 0x3C:  # '<': XML, or prose
            found = scan.match(pos, self.TAGS.xml_or_empty)
            if found == NEED_MORE:
                return False
            if found is not None and not found[0]:  # `<tool_call></tool_call>`: empty, prose
                self._emit_text(out, pos + len(self.TAGS.close))
                self._state = State.TEXT
                return True
            if found is None or Body.XML not in self.BODIES:
                return self._release_prose(out)
            if self._bare and not self._bare_name_ends(pos, out):
                return self._state is State.TEXT
            self._body, self._state = Body.XML, State.TAGGED
        else:  # GLM: a bare name, then `<arg_key>` or the close
            lt = scan.find(b"<", pos, pos + _LOOKAHEAD)
            name = scan.text(pos, min(scan.end, pos + _LOOKAHEAD) if lt == -1 else lt).strip()
            cut = lt == -1 and scan.end - pos >= _LOOKAHEAD
            if not is_name(name) or cut or Body.GLM not in self.BODIES:
                return self._release_prose(out)
            if lt == -1:
                return False
            found = scan.match(lt, self.TAGS.key_or_close)
            if found == NEED_MORE:
                return False
            if found is None:
                return self._release_prose(out)
            self._body, self._state = Body.GLM, State.TAGGED
        scan.mark = scan.cursor = pos
        return True

    def _step_json(self, out: list[Piece]) -> bool:
        end = self._json.advance(self._scan.view, self._scan.end)
        if end is None:
            return self._streams and self._stream_json(out)
        self._json_body_ended(end)
        return True

    def _step_tagged(self, out: list[Piece]) -> bool:
        scan, tags = self._scan, self.TAGS
        while True:  # (every marker of the tables starts with `<`)
            if self._value_end:
                table = tags.value_ends[self._value_end]
            else:
                table = BARE_BODY if self._bare else tags.body
            found = scan.find_marker(table)
            if found is None:
                return False
            value, pos, length = found
            inside = self._value_end is not None
            if inside and value is not None and scan.view.startswith(tags.close, pos):  # (in a value)
                # A call opening right after: the close ended a call whose value was left open
                # (the call is text, as SGLang keeps it), else it is the value's own text
                opens = scan.followed_by(pos + length, tags.opening)
                if opens is None:
                    scan.cursor = pos
                    return False
                if not opens:  # (the value's own text)
                    scan.cursor = pos + length
                    continue
                self._value_end = None  # (streamed: the open value ends here, as the call does)
                self._track_value(out, pos, True)
                return self._close(out, self._parse(pos, complete=False), pos + length)
            marker, self._value_end = scan.view[pos : pos + length], value
            scan.cursor = pos + length
            self._track_value(out, pos, inside)
            if marker == tags.close:  # (it closes a `<function=…>` that lost its `</function>` too)
                call = self._parse(pos)
                if call is None and self._body is Body.XML and (call := self._parse(pos, complete=False)):
                    out.append(Notice("implicit-close", f"call {call[0]} closed by </tool_call>"))
                return self._close(out, call, scan.cursor)
            if marker in tags.opens:  # the next call begins: this one lost its close
                scan.cursor = pos
                call = self._parse(pos, complete=False)
                if call is not None:
                    out.append(Notice("implicit-close", f"call {call[0]} closed by the next <tool_call>"))
                return self._close(out, call, pos)
            if marker == FUNCTION_END and self._bare:
                self._body_end, self._state = scan.cursor, State.CLOSING
                return True

    def _step_closing(self, out: list[Piece]) -> bool:
        after = self._scan.after_spacing(self.TAGS.closing)
        if after is None:
            return False
        pos, found = after
        if found is not None:
            return self._close(out, self._parse(self._body_end), pos + found[1])
        call = self._parse(self._body_end)  # no close after the body: keep a complete call
        if call is not None and not self._bare:
            out.append(Notice("missing-close", f"call {call[0]} has no </tool_call>"))
        return self._close(out, call, self._body_end)

    def _step_block(self, out: list[Piece]) -> bool:
        """After a block opener (`<tool_calls>`): spacing, then a call's opener, else prose. The
        block opener goes with the call (markup); its closer, after the last call, is an orphan
        that adjoins it."""
        after = self._scan.after_spacing(self.TAGS.body)
        if after is None:
            return False
        scan, (pos, found) = self._scan, after
        if found is None or scan.view[pos : pos + found[1]] not in self.TAGS.opens:
            return self._release_prose(out)
        self._reset_call(bare=False)
        scan.mark = scan.cursor = pos + found[1]
        self._state = State.OPENED
        self._around.blocks.add(self.TAGS.block_end)  # (its closer is markup: `_orphans`)
        return True

    _STEPS: ClassVar = {
        State.TEXT: TagCalls._step_text,
        State.OPENED: _step_opened,
        State.JSON: _step_json,
        State.TAGGED: _step_tagged,
        State.CLOSING: _step_closing,
        State.BLOCK: _step_block,
    }

    # -- helpers

    def _begin_json(self, pos: int) -> None:
        """The body is JSON, from `pos` on: `_json` tracks it (see `_step_json`)."""
        self._json.reset(pos)
        self._body, self._state = Body.JSON, State.JSON
        self._scan.mark = self._scan.cursor = pos

    def _bare_name_ends(self, pos: int, out: list[Piece]) -> bool:
        """Whether a bare `<function=NAME>` at `pos` is complete (see `_tag_syntax`)."""
        raise NotImplementedError
