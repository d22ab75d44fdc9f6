"""gpt-oss harmony with its special tokens stripped by the server (gpt-oss model ids only).

    analysisUser asks for the weather.assistantcommentary to=functions.get_weather json{"city": "SF"}
    analysisUser says hi.assistantfinalHello!

Decoded with `skip_special_tokens`, the channel names glue onto the text. What can be
proven syntax, and nothing else, is read: the answer *starting* with `analysis` glued to
a word (not `analysis of`), which makes the text reasoning; in that reasoning,
`assistantfinal` (the answer follows) and `assistantcommentary to=functions.NAME` (or
`commentary to=functions.NAME`) followed by an optional `json` and one whole, valid JSON
object (a call). Everything else is text where it stands. Once the answer begins (or
when the start was not `analysis`), the `PARTS` of a `ComposedParser` read the rest,
harmony's own tokens among them: the parser becomes that composition.

Why this is not (yet) a declaration on the channel machine (`channels.py`): that machine's
messages are framed by tokens (a header ends at `<|message|>`, a message at `<|end|>`…, a call
leaves content behind it); here a gate at the field's start picks the parser for the rest
(as `whole_answer.py` and Functionary v3.2 do), the call markers are read only inside the
reasoning, and reading returns to the reasoning after a call. The call itself is the shape
stripped Kimi is declared as on the list machine (`catalogue/kimi_stripped.py`: an opener, a
name header, one whole valid JSON object, `proven`): the move is that declaration read with
reasoning for its text, behind a start gate shared with `WholeAnswerParser`.
"""

from __future__ import annotations

import enum
import re

from ...stream.events import Markup, Notice, Piece, Reasoning, ToolCall
from ._json import JsonScanner, is_json
from ._scanner import ANGLE_SNIFF, DEFAULT_MAX_SECTION_BYTES, MarkerScanner, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import ClassVar, Final

    from ...stream.quotes import Quotes
    from ...tool_schemas import ToolSchemas
    from ._compose import ComposedParser

_ANALYSIS: Final = "analysis"
# what may not follow a glued `analysis`: a lowercase letter, spacing, punctuation (`analysis of`)
_NOT_GLUE: Final = re.compile(rb"[a-z \t\r\n:;,.!?)\-]")
_MARKERS: Final = MarkerTable({b"assistantfinal": False, b"assistantcommentary to=functions.": True,
                               b"commentary to=functions.": True})
_CALL_HEAD: Final = re.compile(rb"([\w.\-]+?)(?:json)?[ \t]*(?:json)?[ \t]*\{")
_NOT_IN_HEAD: Final = re.compile(rb"[^\w.\- \t]")
_MAX_HEAD: Final = 256


class Mode(enum.Enum):
    """Where the field is: before its start is known, in stripped reasoning, or past it."""

    START = enum.auto()
    REASONING = enum.auto()
    CALL = enum.auto()
    ANSWER = enum.auto()


_ANSWER: Final = Mode.ANSWER
"""Read once: a member read from its Enum class goes through the metaclass's `__getattr__`
hook, about ten times a global's cost (Python 3.11), and this one is asked on every feed."""


class GptOssParser:
    """`auto` for gpt-oss ids: stripped harmony at the start, then `TOKENS` (implements `ToolSyntax`)."""

    TOKENS: ClassVar[type[ComposedParser]]
    sniff: ClassVar[tuple[bytes, ...]] = ANGLE_SNIFF
    """The tokens': the start needs none, as it is read from the first text (`reads_from_start`)."""
    reads_from_start: ClassVar[bool] = True
    """Made with its choice and `pending` from then until the answer begins, so that the start is
    read however it is cut (`ana` | `lysis` after an empty first chunk): a plain answer costs the
    first text's events alone (docs/behaviour.md, "Harmony with its tokens stripped")."""

    def __init__(
        self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES, stream_arguments: bool = False,
        tools: ToolSchemas | None = None,
    ) -> None:  # fmt: skip
        self._tokens = self.TOKENS(max_section_bytes, stream_arguments, tools)
        self._max = max_section_bytes
        self._mode = Mode.START
        self._scan = MarkerScanner()  # the stripped reasoning
        self._json = JsonScanner()
        self._name: str | None = None  # the open call's name, once its head is read
        self._flushed = False

    @property
    def pending(self) -> bool:
        """True until flushed: stripped reasoning goes on until the answer begins (every event must
        come here)."""
        return not self._flushed

    @property
    def watching(self) -> bool:
        """False: no closer is read before the answer (then this object is the tokens' parser)."""
        return False

    @property
    def quotes(self) -> Quotes:
        """The tokens' (`ToolSyntax.quotes`): stripped reasoning is not read for quotes."""
        return self._tokens.quotes

    @quotes.setter
    def quotes(self, quotes: Quotes) -> None:
        self._tokens.quotes = quotes

    @property
    def undecided(self) -> int:
        """Characters held back only because they may begin a marker; 0 inside syntax."""
        return len(self.held)

    @property
    def held(self) -> str:
        """The characters `undecided` counts."""
        return self._scan.text(self._scan.start, self._scan.end) if self._mode is Mode.START else ""

    def absorb(self, texts: Sequence[str]) -> int:
        """Nothing is taken before the answer."""
        return 0

    def absorb_reasoning(self, text: str) -> bool:
        """Nothing is taken before the answer (stripped reasoning is read: it may hold a call)."""
        return False

    def absorb_argument(self, text: str) -> str | None:
        """Nothing is taken before the answer."""
        return None

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """Nothing is taken before the answer."""
        return []

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far (once the answer begins, this
        object is the tokens' parser: see `_become_tokens`)."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        out: list[Piece] = []
        self._scan.append(text)
        while self._step(out):
            pass
        if self._mode is _ANSWER:
            self._become_tokens()
        elif self._mode is Mode.REASONING:
            self._scan.compact()
        elif self._mode is Mode.CALL and self._scan.buffered > self._max:
            out.append(Notice("section-cap", f"tool call over {self._max} bytes: passed through as text"))
            self._release_call(out)
        return out

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """End of the field: stripped reasoning comes out; a call not yet whole is reasoning text
        (`finished`, `cut`: for the tokens, see `ToolSyntax.flush`)."""
        if self._flushed:
            return []
        self._flushed = True
        out: list[Piece] = []
        if self._mode is Mode.START:
            self._answer(out)
        elif self._mode is Mode.CALL:
            out.append(Notice("truncated-call", "stream ended inside a tool call: passed through as text"))
            self._release_call(out)
        if self._mode is Mode.REASONING:
            self._emit(out, self._scan.end)
        return out + self._tokens.flush(finished, cut)

    def _step(self, out: list[Piece]) -> bool:
        scan = self._scan
        if self._mode is Mode.START:
            head = bytes(scan.view[scan.start : scan.start + len(_ANALYSIS) + 1])  # (bytes: a cut
            if not _ANALYSIS.encode().startswith(head[: len(_ANALYSIS)]):  # may split a character)
                return self._answer(out)
            if len(head) <= len(_ANALYSIS):
                return False
            if _NOT_GLUE.match(head, len(_ANALYSIS)):
                return self._answer(out)
            out.append(Markup(scan.take(scan.start + len(_ANALYSIS))))
            self._mode = Mode.REASONING
            return True
        if self._mode is Mode.CALL:
            return self._step_call(out)
        found = scan.find_marker(_MARKERS)
        self._emit(out, scan.cursor if found is None else found[1])
        if found is None:
            return False
        call, pos, length = found
        if not call:  # `assistantfinal`: the answer follows
            out.append(Markup(scan.take(pos + length)))
            return self._answer(out)
        scan.mark, scan.cursor = pos, pos + length
        self._mode = Mode.CALL
        return True

    def _step_call(self, out: list[Piece]) -> bool:
        scan = self._scan
        if self._name is None:  # the name and `json`, up to the object's `{`
            head = _CALL_HEAD.match(scan.view, scan.cursor, min(scan.end, scan.cursor + _MAX_HEAD))
            if head is None:
                if scan.end - scan.cursor >= _MAX_HEAD or _NOT_IN_HEAD.search(scan.view, scan.cursor):
                    return self._release_call(out)
                return False
            self._name = head.group(1).decode()
            self._json.reset(head.end() - 1)
            scan.cursor = head.end() - 1
        closed = self._json.advance(scan.view, scan.end)
        if closed is None:
            return False
        arguments = scan.text(scan.cursor, closed)
        if not is_json(arguments):
            return self._release_call(out)
        out.append(ToolCall(None, self._name, arguments, scan.take(closed)))
        self._mode, self._name = Mode.REASONING, None
        return True

    def _release_call(self, out: list[Piece]) -> bool:
        """The call marker was not followed by a call: it is reasoning, read on after it."""
        scan = self._scan
        self._emit(out, scan.mark + 1)
        scan.cursor = scan.start
        self._mode, self._name = Mode.REASONING, None
        return True

    def _answer(self, out: list[Piece]) -> bool:
        """The rest is the answer, read by the tokens' parser."""
        rest = self._scan.text(self._scan.start, self._scan.end)
        self._mode = Mode.ANSWER
        out += self._tokens.feed(rest) if rest else []
        return False

    def _become_tokens(self) -> None:
        """Become the tokens' parser, which has read the answer so far: its class and attributes
        are swapped in, so that no later call goes through this object (as `_lazy` does)."""
        tokens = self._tokens
        self.__class__ = type(tokens)  # type: ignore[assignment]
        self.__dict__ = tokens.__dict__

    def _emit(self, out: list[Piece], end: int) -> None:
        if end > self._scan.start:
            out.append(Reasoning(self._scan.take(end)))
