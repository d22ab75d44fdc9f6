"""ListParser: the machine of the "marker, then a JSON or pythonic value" family.

Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>` and `<|python_start|>`, LFM2's
`<|tool_call_start|>` and Gemma 4's `<|tool_call>` all write an opener, maybe a header
(`NAME[ARGS]`, `call:NAME`), one value whose end is where its brackets balance, maybe more
calls (`; {…}`, `call:NAME{…}`), and maybe a closer. A syntax is a `ListSyntax`
declaration (see `lists.py`); this machine runs any set of them over one scanner.

Theory of operation
-------------------
- TEXT: plain text up to the first opener of any declaration; a closer with nothing open
  is dropped with a notice.
- HEAD: after the opener (spacing skipped), a value start, or a header: the run of header
  characters up to the first other byte, which must fully match the declaration's header
  and be followed by a value start. Anything else, or a header over `MAX_HEADER` bytes,
  means the opener was prose: it comes out as text at once and scanning resumes after it.
- VALUE: a `BracketScanner` finds where the value balances. With `--stream-arguments`, a
  declaration whose value is the arguments as written streams them as they come.
- NEXT: after a value, spacing, then the declaration's `again` (`;`, `call:`), or a value (or
  a header) where it `repeats` or the spacing holds a newline (`again_line`), starts another
  call (HEAD); else its closer, if any, ends the block (it may be missing; a closer that is not
  `orphan_closer`, a fence, is read only here). The declaration's `read` (`typed` where the
  request's tools are known) turns the headers and values into calls; when it cannot, the
  block was not calls and comes out as text, with a notice.
- ECHO: a declaration with `echo` drops an exact copy of the value written right after
  the closer (LFM2 does this); any difference and the copy is text.
- HAND-OVER: the opener of a declaration that `hands_over` ends the reading (it is markup): the
  text after it is `handed_over`, its owner's (the gate of `whole_answer.py` reads a block so).
- THINK: a `reasoning` declaration's opener (`[THINK]`) starts reasoning, up to its closer
  (`_list_reasoning.py`; THINK_LINE first drops the newline ending an `opener_line`); BLOCK
  is the same for a block of answer text (`kept`), whose text comes out as text.

`flush` decides what is held: an opener followed by spacing alone is dropped, a block
whose values are complete gives its calls (a missing closer noted), an unfinished value
comes out as text. The cap, the orphan closers and the streamed-argument rules are those
of docs/behaviour.md ("Damage", "Streamed arguments").
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable

from ...stream.events import Markup, Notice, Piece, Text
from . import declare
from ._brackets import BracketScanner, Quotes
from ._list_reasoning import ListReasoning
from ._list_syntax import MAX_HEADER, ListSyntax, Written
from ._machine import MachineState, ScanningParser
from ._scanner import NON_SPACE, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Final

_SPACE: Final = re.compile(rb"[ \t\r\n]*")


class Role(enum.Enum):
    """What a marker of the `OPENERS` table does."""

    OPEN = enum.auto()
    CLOSE = enum.auto()


class State(MachineState):
    """Where the machine is in a block."""

    TEXT = enum.auto()
    HEAD = enum.auto()
    VALUE = enum.auto()
    NEXT = enum.auto()
    ECHO = enum.auto()
    THINK_LINE = enum.auto()
    THINK = enum.auto()
    BLOCK = enum.auto()


class ListParser(ListReasoning):
    """The family machine; a subclass names its `SYNTAXES` (earlier ones win a shared marker)."""

    TEXT = State.TEXT
    THINK = State.THINK
    HEAD = State.HEAD
    VALUE = State.VALUE
    SYNTAXES: ClassVar[tuple[ListSyntax, ...]]

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        if cls.__dict__.get("SYNTAXES"):  # (none: it is opened at the start, `open_at_start`)
            table: dict[bytes, tuple[ListSyntax, Role]] = {}
            for syntax in reversed(cls.SYNTAXES):
                table.update((m, (syntax, Role.OPEN)) for m in syntax.openers)
                if syntax.closer is not None and syntax.orphan_closer:
                    table.setdefault(syntax.closer, (syntax, Role.CLOSE))
            held = {marker: syntax.held_from for syntax in cls.SYNTAXES for marker in syntax.openers}
            cls.OPENERS = MarkerTable(table, {marker: n for marker, n in held.items() if n != 1})
            cls.ORPHANS = frozenset(value for value in table.values() if value[1] is Role.CLOSE)
            closers = [syntax.closer or b"" for syntax in cls.SYNTAXES if syntax.reasoning]
            if closers and all(closer.startswith(b"<") for closer in closers):
                cls.REASONING_AT_ONCE = State.THINK  # (a text without `<` ends no reasoning)
        super().__init_subclass__()

    def _setup(self) -> None:
        self._syntax: ListSyntax | None = None
        self._written: Written = []
        self._header: re.Match[str] | None = None
        self._value_at = 0  # where the open value starts
        self._brackets = BracketScanner(0, Quotes.JSON)
        self._seen = 0  # streamed argument text ends here
        self._opener_end = 0
        self._head_at = 0  # where the header (or value) of the next call may begin
        self._written_end = 0  # where the last complete value ends
        self._echo = b""
        self.handed_over: str | None = None
        """The text after a `hands_over` opener, which this machine does not read (None before one)."""
        if any(syntax.word_start or syntax.line_start for syntax in self.SYNTAXES):  # (`_glued` reads all)
            self._around.reads_all = True

    def _compact(self) -> None:
        """Compact in every state (calls back to back, each read ending inside the next one,
        would never return to TEXT); the block's offsets move with the buffer."""
        shift = self._scan.compact()
        if shift:  # (conditionals, not `max`: a builtin call costs about ten times as much)
            self._value_at = self._value_at - shift if self._value_at > shift else 0
            self._seen = self._seen - shift if self._seen > shift else 0
            self._opener_end = self._opener_end - shift if self._opener_end > shift else 0
            self._head_at = self._head_at - shift if self._head_at > shift else 0
            self._written_end = self._written_end - shift if self._written_end > shift else 0
            self._brackets.pos = self._brackets.pos - shift if self._brackets.pos > shift else 0

    def _open(self, found: tuple[ListSyntax, Role], pos: int, length: int, out: list[Piece]) -> None:
        syntax = found[0]
        scan = self._scan
        scan.cursor = pos + length
        self._syntax, self._written = syntax, []
        scan.mark = pos
        self._opener_end = self._head_at = pos + length
        if syntax.hands_over:
            out.append(Markup(scan.take(pos + length)))
            self.handed_over = scan.take(scan.end)  # (nothing is left to read: the steps stop)
            return
        if syntax.reasoning:
            out.append(Markup(scan.take(pos + length)))
            line = State.THINK_LINE if syntax.opener_line else State.THINK
            self._state = State.BLOCK if syntax.kept else line
            return
        self._state = State.HEAD
        if (syntax.word_start or syntax.line_start) and self._glued(syntax):
            self._release_opener(out)

    def _glued(self, syntax: ListSyntax) -> bool:
        """Whether what the opener follows makes it prose: a word (`word_start`), or anything
        but a line's start (`line_start`)."""
        around = self._around
        around.catch_up()  # (the text before the opener is out: what it ends with)
        last = around.last
        if syntax.word_start:
            return last.isalnum() or last == "_"
        return last not in "\r\n" or (not last and around.after_syntax)

    def open_at_start(self, syntax: ListSyntax | None = None) -> None:
        """The field starts at a header or value of `syntax` (a whole answer's, `whole_answer.py`),
        or the prompt ended with the first syntax's opener (Functionary v3.2's `>>>`)."""
        self._syntax, self._state = syntax or self.SYNTAXES[0], State.HEAD

    def _step_head(self, out: list[Piece]) -> bool:
        scan, syntax = self._scan, self._syntax
        assert syntax is not None
        begin = start = (  # (a header on the opener's line begins right after it)
            scan.cursor if syntax.line_start else _SPACE.match(scan.view, scan.cursor).end()  # type: ignore[union-attr]
        )
        if begin == scan.end:
            scan.cursor = begin
            return False
        self._header = None
        text_header = syntax.text_header
        if text_header and begin == self._head_at and not self._written:
            held = bytes(scan.view[begin : begin + len(text_header)])
            if held == text_header:
                out.append(Markup(scan.take(begin + len(held))))
                self._state = State.TEXT
                return True
            if text_header.startswith(held):  # (the text ran out inside it)
                scan.cursor = begin
                return False
        if not (syntax.header_optional and scan.view[begin] in syntax.values):
            # (a header that must be there follows its opener directly)
            if syntax.header is None or syntax.header_bytes is None or not (
                syntax.header_optional or begin == self._head_at
            ):
                return self._release_opener(out)
            found = syntax.header_bytes.search(scan.view, begin, min(scan.end, begin + MAX_HEADER + 1))
            if found is None:
                shape = syntax.header_start
                if scan.end - begin > MAX_HEADER or (
                    shape is not None and shape.fullmatch(scan.view, begin, scan.end) is None
                ):
                    return self._release_opener(out)
                scan.cursor = begin
                return False
            at = found.start()
            self._header = syntax.header.fullmatch(scan.text(begin, at))
            if self._header is not None and not syntax.values:  # (a header alone, before a token)
                return self._header_alone(out, at)
            if self._header is None or scan.view[at] not in syntax.values:
                return self._release_opener(out)
            begin = at
        if syntax.value_start:  # (what follows the bracket tells prose at once)
            first = NON_SPACE.search(scan.view, begin + 1)
            if first is None:
                scan.cursor = start
                return False
            if scan.view[first.start()] not in syntax.value_start:
                return self._release_opener(out)
        self._value_at = begin
        self._brackets = BracketScanner(begin, syntax.values[scan.view[begin]])
        self._state = State.VALUE
        if self._streams and syntax.streams and self._header is not None and not self._written:
            self._announce(out, self._header.groupdict().get("id"), self._header["name"])
            self._seen = begin
        return True

    def _header_alone(self, out: list[Piece], at: int) -> bool:
        """A syntax without values: its opener and header are markup where a token follows
        (`<|`; Inkling's `<|message_model|>NAME`), else the opener was prose."""
        scan = self._scan
        if at + 1 == scan.end and scan.view[at] == ord("<"):
            scan.cursor = at
            return False
        if scan.view[at : at + 2] != b"<|":
            return self._release_opener(out)
        out.append(Markup(scan.take(at)))
        self._state = State.TEXT
        return True

    def _release_opener(self, out: list[Piece]) -> bool:
        """The opener was prose: it comes out as text, and scanning resumes right after it."""
        scan = self._scan
        if self._written:  # (a later call of a block: the block ends before it)
            return self._end_block(out, self._written_end)
        opener = bytes(scan.view[scan.start : self._opener_end])  # (empty where the prompt wrote it)
        if opener in self.shared:
            self.handed_on = opener  # (the part it is handed on to owes the closer, if it keeps it as text)
        elif opener:
            out.append(Text(scan.take(self._opener_end)))
        syntax = self._syntax
        if syntax is not None and syntax.closer is not None and syntax.orphan_closer and not self.handed_on:
            self._owe(syntax.closer)  # (its closer, when it comes, is words too)
        self._state = State.TEXT
        return True

    def _release_unproven(self, out: list[Piece]) -> bool:
        """A `proven` syntax's block that is not calls: its opener is text, read on right after it."""
        self._written = []
        self._release_opener(out)
        self._scan.cursor = self._scan.start
        return True

    def _step_value(self, out: list[Piece]) -> bool:
        scan = self._scan
        end = self._brackets.advance(scan.view, scan.end)
        if end is None:
            if self._announced is not None:
                self._stream(out, scan.text(self._seen, self._brackets.pos))
                self._seen = self._brackets.pos
            scan.cursor = scan.end
            return False
        self._written.append((self._header, scan.text(self._value_at, end)))
        if self._announced is not None:
            self._stream(out, scan.text(self._seen, end))
        self._written_end = scan.cursor = end
        self._state = State.NEXT
        return True

    def _step_next(self, out: list[Piece]) -> bool:
        scan, syntax = self._scan, self._syntax
        assert syntax is not None
        at = _SPACE.match(scan.view, self._written_end).end()  # type: ignore[union-attr]  # (always matches)
        if syntax.repeats and at < scan.end and (
            scan.view[at] in syntax.values
            or (syntax.header_bytes is not None and syntax.header_bytes.match(scan.view, at) is None)
        ):
            scan.cursor = self._head_at = at
            self._state = State.HEAD
            return True
        for marker, again in ((syntax.again, True), (syntax.closer, False)):
            if marker is None:
                continue
            if scan.view.startswith(marker, at):
                if again:
                    scan.cursor = self._head_at = at + len(marker)
                    self._state = State.HEAD
                    return True
                return self._end_block(out, at + len(marker))
            if marker.startswith(bytes(scan.view[at : at + len(marker)])):  # (maybe, or the end)
                scan.cursor = at
                return False
        if syntax.repeats and at == scan.end:  # (another call may follow: nothing ends the block)
            return False
        if syntax.again_line and b"\n" in scan.view[self._written_end : at]:  # (a newline joins two values)
            scan.cursor = self._head_at = at
            self._state = State.HEAD
            return True
        return self._end_block(out, self._written_end)

    def _end_block(self, out: list[Piece], end: int) -> bool:
        """The block's calls, up to `end`; or, when they are not calls, its text."""
        scan, syntax = self._scan, self._syntax
        assert syntax is not None
        typed = syntax.typed if self._tools else None
        read = syntax.read(self._written) if typed is None else typed(self._written, self._tools)
        self._state = State.TEXT
        if read is None and syntax.proven:
            return self._release_unproven(out)
        if read is None:
            if self._announced is not None:
                return self._complete_broken(out, end, "malformed-call", f"{syntax.name} call malformed")
            out.append(Text(scan.take(end)))
            out.append(Notice("malformed-call", f"{syntax.name} block is not calls: passed through as text"))
            return True
        found, notices = read
        if not found:
            out.append(Markup(scan.take(end)))
        tools = self._tools if self.PROSE else None
        if tools and found and not any(tools.declares(name) for _, name, _ in found):
            # a `PROSE` syntax's block is calls when one of them names a declared tool, else its text
            names = ", ".join(repr(name) for _, name, _ in found)
            note = f"{syntax.name} call {names} names no declared tool: kept as text"
            out.append(Notice("undeclared-tool", note))
            out.append(Text(scan.take(end)))
            return True
        for index, (call_id, name, arguments) in enumerate(found):
            raw = scan.take(end) if index == 0 else ""
            self._call(out, call_id, name, arguments, raw, declared_nearby=True)
        out += notices
        if syntax.echo and syntax.closer is not None and end != self._written_end:
            self._echo = "".join(value for _, value in self._written).encode()
            self._state = State.ECHO
        return True

    def _step_echo(self, out: list[Piece]) -> bool:
        scan = self._scan
        at = _SPACE.match(scan.view, scan.start).end()  # type: ignore[union-attr]  # (always matches)
        held = bytes(scan.view[at : at + len(self._echo)])
        if held == self._echo:
            out.append(Markup(scan.take(at + len(self._echo))))
            out.append(Notice("echo-dropped", "an exact copy of the calls after their closer: dropped"))
        elif self._echo.startswith(held) and at + len(self._echo) > scan.end:
            scan.cursor = scan.end
            return False
        scan.cursor = scan.start
        self._state = State.TEXT
        return True

    def _finish(self, out: list[Piece]) -> None:
        scan, state = self._scan, self._state
        if state is State.TEXT or state is State.ECHO or state is State.BLOCK:
            self._emit_text(out, scan.end)
            return
        if state is State.THINK or state is State.THINK_LINE:
            self._emit_reasoning(out, scan.end)
            return
        syntax = self._syntax
        assert syntax is not None
        if syntax.proven and state is not State.NEXT:  # (scanned again from after the opener)
            self._release_unproven(out)
            while self._STEPS[self._state](self, out):
                pass
            self._emit_text(out, scan.end)
        elif state is State.NEXT or (state is State.HEAD and self._written):
            if syntax.closer is not None and not syntax.closer_optional:
                out.append(Notice("recovered-call", f"{syntax.name} block not closed: calls recovered"))
            self._end_block(out, self._written_end)
            self._emit_text(out, scan.end)
            self._state = State.TEXT
        elif state is State.HEAD and not self._opener_end:  # (`open_at_start`: no header came, only text)
            self._emit_text(out, scan.end)
        elif state is State.HEAD and not scan.text(scan.cursor, scan.end).strip():
            out.append(Markup(scan.take(scan.end)))
            out.append(Notice("dangling-opener", f"{syntax.name} opener at the end: dropped"))
        elif state is State.HEAD and not syntax.values:  # (a header alone, no token after it)
            self._emit_text(out, scan.end)
        else:
            self._release_raw(out, scan.end, "truncated-call", f"{syntax.name} call cut off")
        self._state = State.TEXT

    _STEPS: ClassVar[dict[Any, Callable[[Any, list[Piece]], bool]]] = {
        State.TEXT: ScanningParser._step_text,
        State.HEAD: _step_head,
        State.VALUE: _step_value,
        State.NEXT: _step_next,
        State.ECHO: _step_echo,
        State.THINK_LINE: ListReasoning._step_think_line,
        State.THINK: ListReasoning._step_think,
        State.BLOCK: ListReasoning._step_think,
    }
