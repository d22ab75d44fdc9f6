"""MovedEvents: the event of a chunk whose content went whole to the reasoning field, by a byte template.

Harmony's analysis channel comes as content: the event of each such token becomes one chunk,
its envelope and one choice that carries the token in the reasoning field
(`StreamChoices.absorbed`). An event that is a learned one with another token (its raw bytes
are `literal.join(around)`, `around` the parts of a `TokenTemplate` and `literal` the token's
JSON) has the learned one's envelope and choice index, so the chunk it becomes differs from the
learned one's only in that text: its event is `literal.join` of the parts of the learned moved
event around its text. Both are learned from one event, and checked there by a probe text.
"""

from __future__ import annotations

import orjson

from ...stream.chunks import moved_choice, with_choice
from ...stream.fast.token_template import TokenTemplate

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...stream.chunks import Chunk

_PROBE: Final = "\x00moved"
_MAX_MISSES: Final = 8
"""Events in a row that were not look-alikes (each one learned from) before learning stops."""


class MovedEvents:
    """The parts around the token of the learned event and around the text of its moved event."""

    __slots__ = ("_around", "_field", "_misses", "_moved_around")

    def __init__(self) -> None:
        self._around: tuple[bytes, ...] = ()  # empty while none is learned
        self._moved_around: tuple[bytes, ...] = ()
        self._field = ""  # the reasoning field of the learned moved event
        self._misses = 0

    def event(self, raw: bytes, chunk: Chunk, index: int, field: str, text: str) -> bytes:
        """The event of the chunk that `chunk` (event `raw`) becomes: its envelope and its choice
        `index` with `text`, the chunk's content, in the reasoning `field` alone (`moved_choice`)."""
        literal = orjson.dumps(text)
        if literal.join(self._around) == raw and field == self._field:
            self._misses = 0
            return literal.join(self._moved_around)
        moved = with_choice(chunk, moved_choice(index, field, text))
        if self._misses < _MAX_MISSES:
            self._learn(raw, chunk, index, field)
        return b"data: " + orjson.dumps(moved) + b"\n\n"  # (no line break in orjson's)

    def _learn(self, raw: bytes, chunk: Chunk, index: int, field: str) -> None:
        self._misses += 1
        self._around, self._field = (), field
        template = TokenTemplate.learn(raw, chunk, "content")
        if template is None or len(template.parts) != 2:  # (one slot: the content, no mirror)
            return
        probe = with_choice(chunk, moved_choice(index, field, _PROBE))
        around = (b"data: " + orjson.dumps(probe) + b"\n\n").split(orjson.dumps(_PROBE))
        if len(around) == 2:
            self._around, self._moved_around = template.parts, tuple(around)
