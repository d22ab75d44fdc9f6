"""StreamedCall: the `--stream-arguments` bookkeeping every format machine shares.

A parser streaming arguments announces a call once its name is known (`_announce`),
hands back its settled argument text (`_stream`), and ends with the complete call
(`_call`), whose arguments begin with what was streamed; an announced call that breaks is
completed with its arguments as written (`_complete_broken`); every call's way out is
`_call`. `absorb_argument(s)` is the
hot path's way in: texts that only stream more of the call, taken without a search
(docs/behaviour.md, "Streamed arguments"). `ScanningParser` (`_machine.py`) is built on it.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence

from ...stream.events import ArgumentsDelta, CallStart, Markup, Notice, Piece, Text, ToolCall
from ._json import is_placeholder, unwrapped

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class StreamedCall:
    """The announced call of a parser streaming arguments (see module docstring)."""

    TEXT: ClassVar[Any]
    PROSE: ClassVar[bool] = False
    """Whether prose can contain the syntax (tags such as `<tool_call>`): where the request's tools
    are known, its call must name one of them, or it stays text (docs/behaviour.md, "Types")."""
    _state: Any
    _announced: tuple[str | None, str] | None  # the open call's CallStart
    _sent: list[str]  # its argument text streamed so far
    _tools: Any  # the request's tools, if known (`ScanningParser`)

    def absorb(self, texts: Sequence[str]) -> int:
        """Take the leading texts that certainly decide nothing (`ScanningParser.absorb`)."""
        raise NotImplementedError

    def _take(self, end: int) -> str:
        """Hand back the buffered text up to `end` (`ScanningParser._take`)."""
        raise NotImplementedError

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """`absorb`, streaming (see `ToolSyntax`): a subclass whose hot state streams argument
        text overrides it; here the texts `absorb` takes stream nothing."""
        return [""] * self.absorb(texts)

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` for one text (see `ToolSyntax`; the general path's live event: a
        token run asks for runs, one text or more)."""
        taken = self.absorb_arguments((text,))
        return taken[0] if taken else None

    def _announce(self, out: list[Piece], call_id: str | None, name: str) -> None:
        """Start streaming a call whose name is known (only with `stream_arguments`); a call of a
        `PROSE` syntax that names no declared tool is not streamed (`_call` decides it)."""
        if self.PROSE and self._tools and not self._tools.declares(name):
            return
        if self._tools:
            name, notes = self._tools.review(name, None)
            out += [Notice("tool-schema", note) for note in notes]
        self._announced, self._sent = (call_id, name), []
        out.append(CallStart(call_id, name))

    def _stream(self, out: list[Piece], text: str) -> None:
        """Stream the next settled piece of the announced call's arguments."""
        if text:
            self._sent.append(text)
            out.append(ArgumentsDelta(text))

    def _call(self, out: list[Piece], call_id: str | None, name: str, arguments: str, raw: str,
              declared_nearby: bool = False) -> None:
        """Hand back a complete call; an announced one keeps its id, name and streamed prefix.
        Arguments encoded twice become the object they hold; placeholder arguments (`{...}`,
        `<args>`) make no call: its raw text comes out (docs/behaviour.md, "Damage"); a `PROSE`
        syntax's call that names no declared tool is its raw text, with a notice, unless another
        call of its block names one (`declared_nearby`: the block is syntax)."""
        if self._announced is None and is_placeholder(arguments):
            out.append(Text(raw))
            note = f"call {name}: arguments are a placeholder: kept as text"
            out.append(Notice("placeholder-arguments", note))
            return
        arguments = unwrapped(arguments, name, out) if arguments[:1] == '"' else arguments
        if self._announced is not None:
            (call_id, name), sent = self._announced, "".join(self._sent)
            if not arguments.startswith(sent):
                out.append(Notice("streamed-arguments", f"call {name}: arguments kept as streamed"))
                arguments = sent
            self._announced, self._sent = None, []
        elif self.PROSE and self._tools and not declared_nearby and not self._tools.declares(name):
            out.append(Notice("undeclared-tool", f"call {name!r} names no declared tool: kept as text"))
            out.append(Text(raw))
            return
        if self._tools:  # (an announced name was reviewed then: only the arguments are new here)
            name, notes = self._tools.review(name, arguments)
            out += [Notice("tool-schema", note) for note in notes]
        out.append(ToolCall(call_id, name, arguments, raw))

    def _broken_arguments(self) -> str:
        """The announced call's arguments as written so far (a subclass may add held text)."""
        return "".join(self._sent)

    def _complete_broken(self, out: list[Piece], end: int, code: str, message: str) -> bool:
        """An announced call broke: complete it up to `end` with its arguments as written.

        False when no call is announced (the caller then releases the raw text as usual).
        """
        if self._announced is None:
            return False
        name = self._announced[1]
        out.append(Notice(code, f"{message}: call {name} was already streamed, completed as written"))
        self._call(out, None, name, self._broken_arguments(), self._take(end))
        self._state = self.TEXT
        return True


def unrecovered(out: list[Piece], start: int) -> None:
    """At a `length` finish (`ToolSyntax.flush`): the calls a `_finish` recovered into `out` from
    `start` on (the pieces after its `recovered-call` notice) are their raw text, with a notice."""
    for at in range(start, len(out)):
        piece = out[at]
        if type(piece) is Notice and piece.code == "recovered-call":
            out[at] = Notice("cut-off-call", f"{piece.message.partition(':')[0]} at finish_reason length: "
                                             "the model was cut off, kept as text")
            for later in range(at + 1, len(out)):
                call = out[later]
                if type(call) is ToolCall or type(call) is Markup:
                    out[later] = Text(call.raw)
            return


def settled_texts(texts: Sequence[str], held: int, limit: int, stops: re.Pattern[str]) -> list[str]:
    """The leading `texts` that hold none of the characters `stops` matches and keep the bytes
    held (`held`, plus at most 4 UTF-8 bytes a character: `feed` applies the cap) within
    `limit`: the texts an `absorb_arguments` streams whole. One search of the texts joined,
    not one a text: the texts taken are those that end by the first stop and within the cap."""
    joined = "".join(texts)
    end = (limit - held) // 4  # (the characters the cap leaves room for)
    found = stops.search(joined)
    if found is not None and found.start() < end:
        end = found.start()
    if end >= len(joined):
        return list(texts)
    return list(texts[: bisect.bisect_right(list(itertools.accumulate(map(len, texts))), end)])
