"""CallIndexes: the `tool_calls` indexes of one choice: ours, native ones, legacy ones.

Indexes count a choice's calls from 0. Calls recovered from leaked syntax take the next
free index; native `tool_calls` deltas keep their own numbering, shifted past the calls
emitted before the first of them, so that indexes never collide; a legacy
`function_call` delta becomes a `tool_calls` delta with an index of its own (its
argument fragments continue it). Works on decoded JSON deltas only.
"""

from __future__ import annotations

from collections.abc import Callable

from .chunks import tool_call_delta

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

NATIVE_CALLS: Final = "tool_calls"
LEGACY_CALL: Final = "function_call"
_FINISH_REWRITES: Final = {LEGACY_CALL: NATIVE_CALLS}
_ACTED_ON: Final = (NATIVE_CALLS, LEGACY_CALL, *_FINISH_REWRITES)
REWRITTEN_WORDS: Final = tuple(dict.fromkeys(f'"{word}"' for word in _ACTED_ON))
"""JSON strings whose presence in a chunk a choice acts on, whatever the format."""
STOP_WORD: Final = '"stop"'
"""A finish a choice rewrites once it has emitted calls (to `"tool_calls"`)."""
NORMAL_FINISHES: Final = ("stop", NATIVE_CALLS)
"""Finishes of a stream that ended as the model meant (not `length`, a cut or an error): a call
cut only by its closers was cut by a stop sequence (docs/behaviour.md, "Damage")."""
CUT_FINISH: Final = "length"
"""The finish of a model cut off: a call still open then is never recovered (`ToolSyntax.flush`)."""


def rewritten_finish(finish: object, legacy: bool, calls: int) -> object:
    """A choice's `finish_reason` as it goes out: `function_call` becomes `tool_calls` when
    legacy calls are converted, and `stop` does once the choice has emitted calls."""
    if not isinstance(finish, str):
        return finish
    if finish == "stop" and calls:
        return NATIVE_CALLS
    return _FINISH_REWRITES.get(finish, finish) if legacy else finish


class CallIndexes:
    """Hands out the indexes of one choice's calls; `calls` counts those it emitted."""

    __slots__ = ("_legacy_index", "_native_offset", "_next_index", "calls")

    def __init__(self) -> None:
        self.calls = 0
        self._next_index = 0
        self._native_offset: int | None = None
        self._legacy_index: int | None = None

    def take(self) -> int:
        """The index of a new call we emit."""
        index = self._next_index
        self._next_index += 1
        self.calls += 1
        return index

    def remap_native(self, delta: dict[str, Any]) -> bool:
        """Shift native tool_calls indexes past calls already emitted; note the highest.
        True when an index changed."""
        native = delta.get(NATIVE_CALLS)
        if not isinstance(native, list):
            return False
        if self._native_offset is None:
            self._native_offset = self._next_index
        offset, entries = self._native_offset, []
        for entry in native:
            if isinstance(entry, dict) and isinstance(entry.get("index"), int):
                if offset:
                    entry = {**entry, "index": entry["index"] + offset}
                self._next_index = max(self._next_index, entry["index"] + 1)
            entries.append(entry)
        delta[NATIVE_CALLS] = entries
        return offset > 0

    def convert_legacy(self, delta: dict[str, Any], call_id: Callable[[int], str]) -> int | None:
        """Turn a legacy `function_call` in `delta` into a `tool_calls` entry; the index it
        took when it starts a new call, -1 when it continues one, None when there is none."""
        call = delta.pop(LEGACY_CALL, None)
        if not isinstance(call, dict):
            return None
        name, arguments = call.get("name"), call.get("arguments")
        arguments = arguments if isinstance(arguments, str) else ""
        taken = -1
        if (isinstance(name, str) and name) or self._legacy_index is None:
            taken = self._legacy_index = self.take()
            name = name if isinstance(name, str) else ""
            entry = tool_call_delta(taken, call_id(taken), name, arguments)
        else:
            entry = {"index": self._legacy_index, "function": {"arguments": arguments}}
        delta[NATIVE_CALLS] = [*(delta.get(NATIVE_CALLS) or []), entry]
        return taken
