"""What the Anthropic and Responses emitters do alike with a stream of rewritten chunks.

`ChunkEmitter` keeps the `feed(chunk)` / `flush()` contract (nothing after `flush`, nothing
once the stream ended), reads choice 0 only (others are noted once and dropped), closes
what is open at a finish_reason or at an `error` finish, and ends the stream at `flush`
with a notice when no finish came. Each protocol's emitter supplies the rest.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import orjson

from ..stream.events import Notice
from .fields import object_field, reasoning_text, string_field

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ..stream.chunks import Chunk

Emitted = bytes | Notice
"""What an emitter produces: SSE bytes to write, or a notice for stderr."""

TEXT_HOLE: Final = "\ue000text\ue001"
"""Stands for the text in a template's model event (`template`): private-use characters."""
NUMBER_HOLE: Final = 917_351_720_649
"""Stands for a number (a sequence number) in a template's model event."""


class ChunkEmitter(ABC):
    """Rewritten OpenAI chunks in, a protocol's events out: `feed(chunk)`, then `flush()`."""

    _made: str
    """What the stream becomes, for notices ("Anthropic message", "response")."""
    _closed: str
    """What `flush` closes, for notices ("message", "response")."""

    def __init__(self) -> None:
        self._finish: str | None = None
        self._ended = False  # the stream's end or error sent: nothing more goes out
        self._flushed = False
        self._other_choices_noted = False

    @property
    def flushed(self) -> bool:
        """True once `flush()` ran: the stream has ended and `feed` may not be called."""
        return self._flushed

    def feed(self, chunk: Chunk) -> list[Emitted]:
        """Consume one rewritten chunk; return the events it completes."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if self._ended:
            return []
        lone = lone_text(chunk)
        if lone is not None and (out := self._lone_texts(lone[0], [lone[1]])) is not None:
            return [out]
        return self._feed(chunk)

    def lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        """The events of chunks that are each only one of `texts` (`lone_text` reads `(reasoning,
        text)` in each), as `feed` would make them one by one, when they continue the open text;
        else None, and nothing changed (then `feed` takes them)."""
        if self._flushed or self._ended:
            return None
        return self._lone_texts(reasoning, texts)

    def flush(self) -> list[Emitted]:
        """End of stream (`[DONE]` or EOF): close what is open, and the stream."""
        if self._flushed:
            return []
        self._flushed = True
        if self._ended:
            return []
        if not self._started:
            return [Notice("empty-stream", f"the stream held no chunk: no {self._made} to send")]
        out: list[Emitted] = []
        if self._finish is None:
            note = f"the stream ended without a finish_reason; {self._closed} closed"
            out.append(Notice("no-finish", note))
        return out + self._end()

    def _choices(self, chunk: Chunk) -> list[Emitted]:
        """Choice 0's delta and finish_reason; after an `error` finish the stream has ended."""
        out: list[Emitted] = []
        choices = chunk.get("choices")
        for position, choice in enumerate(choices if isinstance(choices, list) else []):
            if not isinstance(choice, dict):
                continue
            if choice.get("index", position) != 0:
                out += self._note_other_choice()
                continue
            out += self._delta(object_field(choice, "delta"))
            finish = choice.get("finish_reason")
            if finish == "error":
                return out + self._error({"message": "the provider ended the stream with an error"})
            if isinstance(finish, str):
                self._finish = finish
                out += self._close_all()
        return out

    def _note_other_choice(self) -> list[Emitted]:
        if self._other_choices_noted:
            return []
        self._other_choices_noted = True
        return [Notice("extra-choices", f"only choice 0 becomes the {self._made}; others dropped")]

    @property
    @abstractmethod
    def _started(self) -> bool:
        """Whether a chunk has started the stream's events."""

    @abstractmethod
    def _feed(self, chunk: Chunk) -> list[Emitted]:
        """`feed`, while the stream goes on."""

    @abstractmethod
    def _lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        """What `_feed` makes of chunks that are each only one of these texts of choice 0
        (`lone_text`), when they are more deltas of the open text (encoded from a template, back
        to back); else None."""

    @abstractmethod
    def _delta(self, delta: dict[str, Any]) -> list[Emitted]:
        """The events of choice 0's delta."""

    @abstractmethod
    def _close_all(self) -> list[Emitted]:
        """Close whatever is open: nothing more comes for it."""

    @abstractmethod
    def _end(self) -> list[Emitted]:
        """Close what is open and end the stream."""

    @abstractmethod
    def _error(self, error: Any) -> list[Emitted]:
        """End the stream with `error` (an OpenAI or OpenRouter error)."""


def lone_text(chunk: Chunk) -> tuple[bool, str] | None:
    """(whether it is reasoning, the text) when `chunk` carries nothing but one non-empty text of
    choice 0: no error, usage, finish, call or other choice. Most chunks of a stream are such a
    text; `ChunkEmitter` hands them to `_lone_texts`. None for any other chunk."""
    choices = chunk.get("choices")
    if type(choices) is not list or len(choices) != 1 or "error" in chunk or type(chunk.get("usage")) is dict:
        return None
    choice = choices[0]
    if type(choice) is not dict or choice.get("index", 0) != 0 or choice.get("finish_reason") is not None:
        return None
    delta = choice.get("delta")
    if type(delta) is not dict or delta.get("tool_calls"):
        return None
    reasoning, content = reasoning_text(delta), string_field(delta, "content")
    refusal = string_field(delta, "refusal")
    if reasoning:
        return None if content or refusal else (True, reasoning)
    if content:
        return None if refusal else (False, content)
    return (False, refusal) if refusal else None


def filled(pieces: list[bytes], texts: list[str]) -> bytes:
    """The events of a `template` with one text hole, one for each of `texts`, back to back."""
    head, tail = pieces
    return head + (tail + head).join(map(orjson.dumps, texts)) + tail


def template(encoded: bytes, *holes: bytes) -> list[bytes] | None:
    """The bytes around `holes` in `encoded`, an event the general encoder made with the holes'
    values in it (`TEXT_HOLE` as JSON, `NUMBER_HOLE` as digits): the event for other values is
    these pieces joined with theirs in between, byte for byte what the encoder would make (JSON
    escapes a string the same wherever it stands). None when a hole is not found exactly once,
    in order (a model name holding the hole's characters): then the general encoder runs."""
    pieces: list[bytes] = []
    rest = encoded
    for hole in holes:
        if encoded.count(hole) != 1 or hole not in rest:
            return None
        piece, _, rest = rest.partition(hole)
        pieces.append(piece)
    return [*pieces, rest]
