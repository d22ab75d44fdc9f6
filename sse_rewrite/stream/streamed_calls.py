"""StreamedCalls: with `--stream-arguments`, one choice's calls as `tool_calls` deltas in parts.

A parser streaming arguments hands back, per call, a `CallStart`, `ArgumentsDelta` pieces
and the complete `ToolCall`, whose arguments begin with the deltas' text. Each becomes a
`CallPart` when the choice takes the pieces: the header (index, id, type, name, empty
arguments), then `{"index": i, "function": {"arguments": part}}` per delta, then what the
complete call adds, if anything. A call never announced comes out whole, as one part.
Indexes are taken as parts are made, so they follow the order calls begin in.
"""

from __future__ import annotations

from dataclasses import dataclass

from .chunks import envelope, tool_call_delta
from .events import ArgumentsDelta, CallStart, Piece, ToolCall

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .call_indexes import CallIndexes
    from .chunks import Chunk

    # What an event that only streams calls sends: argument parts (a call's index, and more
    # of its arguments: a `CallPart` without header) and headers (their `tool_calls` entry,
    # complete: `CallPart.delta`); a token run's argument texts of one call, one event a text,
    # go as one part (`StreamedCalls.add`).
    ArgumentPart = tuple[int, str]
    ArgumentRun = tuple[int, list[str]]
    Part = ArgumentPart | ArgumentRun | dict[str, Any]


@dataclass(slots=True)  # (not frozen: one is made per streamed token, and frozen ones are slower to make)
class CallPart:
    """One `tool_calls` delta entry: a call's header (`call` given, for its id and name)
    with the arguments so far, or (`call` None) more of the arguments of call `index`."""

    index: int
    call: ToolCall | None
    arguments: str

    def delta(self, call_id: Callable[[int, ToolCall | None], str]) -> dict[str, Any]:
        """The `tool_calls` entry; `call_id` gives a header's id."""
        if self.call is None:
            return {"index": self.index, "function": {"arguments": self.arguments}}
        return tool_call_delta(self.index, call_id(self.index, self.call), self.call.name, self.arguments)


class StreamedCalls:
    """The calls a choice's parsers have announced and not completed, by field."""

    __slots__ = ("_indexes", "open")

    def __init__(self, indexes: CallIndexes) -> None:
        self._indexes = indexes
        self.open: dict[str, list[int]] = {}
        """Field -> [index, characters of arguments sent] of its open call (`add` for one text
        is the caller's: `entry[1] += len(text)`, and its part is `(entry[0], text)`)."""

    def add(self, field: str, texts: list[str], parts: list[Part]) -> None:
        """Add to `parts` the argument texts of the call open in `field` (empty ones send
        nothing), as `parts` makes `CallPart`s of `ArgumentsDelta`s: one part for them all,
        `(index, texts)`, which sends one event a text (a tuple a text would cost a loop a text)."""
        size = sum(map(len, texts))
        if size:  # (when nothing streams, no call need be open)
            entry = self.open[field]
            entry[1] += size
            parts.append((entry[0], [text for text in texts if text] if "" in texts else texts))

    def ended(self, field: str, pieces: list[Piece], parts: list[Part]) -> bool:
        """Whether `pieces` (fed ahead) are one call, the end of the one open in `field`: then it is
        closed, and what it adds to the arguments sent is added to `parts`, as `parts` makes its
        last part (nothing when they all streamed)."""
        opened = self.open.get(field)
        if opened is None or len(pieces) != 1 or type(call := pieces[0]) is not ToolCall:
            return False
        del self.open[field]
        if len(call.arguments) > opened[1]:
            parts.append((opened[0], call.arguments[opened[1] :]))
        return True

    def parts(self, field: str, pieces: list[Piece]) -> list[Piece | CallPart]:
        """`pieces` of field `field` with its call pieces turned into parts."""
        out: list[Piece | CallPart] = []
        for piece in pieces:
            if isinstance(piece, CallStart):
                index = self._indexes.take()
                self.open[field] = [index, 0]
                out.append(CallPart(index, ToolCall(piece.id, piece.name, "", ""), ""))
            elif isinstance(piece, ArgumentsDelta):
                entry = self.open[field]
                entry[1] += len(piece.text)
                out.append(CallPart(entry[0], None, piece.text))
            elif isinstance(piece, ToolCall):
                opened = self.open.pop(field, None)
                if opened is None:
                    out.append(CallPart(self._indexes.take(), piece, piece.arguments))
                elif len(piece.arguments) > opened[1]:
                    out.append(CallPart(opened[0], None, piece.arguments[opened[1] :]))
            else:
                out.append(piece)
        return out


def part_chunks(chunk: Chunk, choice: int, parts: list[Part]) -> list[Chunk]:
    """The chunks that parts of choice `choice` go out in: one a part, in the envelope of
    `chunk`, which holds no usage or error (what `ChoiceRewriter` makes of a `CallPart` in
    a rewrite: `_extra`, then `StreamChoices._assemble`)."""
    base = envelope(chunk)
    out = []
    for entry in _entries(parts):
        delta = {"tool_calls": [entry]}
        out.append({**base, "choices": [{"index": choice, "delta": delta, "finish_reason": None}]})
    return out


def part_counts(parts: list[Part]) -> tuple[int, int]:
    """How many of `parts` are headers, and how many events they all send (one a header or text)."""
    headers, events = 0, len(parts)
    for part in parts:
        if isinstance(part, dict):
            headers += 1
        elif type(part[1]) is list:
            events += len(part[1]) - 1
    return headers, events


def _entries(parts: list[Part]) -> list[dict[str, Any]]:
    """The `tool_calls` entries of `parts`, one a header or argument text."""
    out = []
    for part in parts:
        if isinstance(part, dict):
            out.append(part)
        elif isinstance(part[1], str):
            out.append(_arguments_entry(part[0], part[1]))
        else:
            out += [_arguments_entry(part[0], text) for text in part[1]]
    return out


def _arguments_entry(index: int, text: str) -> dict[str, Any]:
    return {"index": index, "function": {"arguments": text}}
