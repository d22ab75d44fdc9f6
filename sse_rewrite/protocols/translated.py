"""What the translated encodings (`--to anthropic`, `--to responses`) share.

A `TranslatedOutput` feeds every chunk of a stream, changed or not, to its protocol's
emitter, so no OpenAI bytes reach its output: only that protocol's events, and comments
(keep-alives) re-encoded as comments. `translated_body` turns a (rewritten) completion
body into that protocol's body.
"""

from __future__ import annotations

import orjson

from ..stream.chunks import moved_choice, with_choice
from ..stream.events import Notice
from ..stream.streamed_calls import part_chunks

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from ..stream.chunks import Chunk
    from ..stream.events import Output
    from ..stream.streamed_calls import Part

    class Emitter(Protocol):
        """Rewritten chunks in, a protocol's events out: `feed(chunk)`, then `flush()` once."""

        @property
        def flushed(self) -> bool: ...
        def feed(self, chunk: Chunk) -> list[Output]: ...
        def lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None: ...
        def flush(self) -> list[Output]: ...


class TranslatedOutput:
    """A protocol's streaming events, from every chunk of the stream, by `emitter`."""

    keeps_bytes = False
    unchanged = "dropped"

    def __init__(self, emitter: Emitter) -> None:
        self._emitter = emitter

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event: its chunk's translation; without a decoded chunk, only its comments."""
        if self._emitter.flushed:
            return []
        if chunk is not None:
            return self._emitter.feed(chunk)
        comments = [line for line in raw.splitlines() if line.startswith(b":")]
        return [b"".join(line + b"\n" for line in comments) + b"\n"] if comments else []

    def chunk(self, chunk: Chunk) -> list[Output]:
        """A rewritten or synthesized chunk."""
        return [] if self._emitter.flushed else self._emitter.feed(chunk)

    def lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        """The translation of chunks that are each only one of `texts` of choice 0, back to back, when
        the emitter takes them from its template (`ChunkEmitter.lone_texts`); else None."""
        return self._emitter.lone_texts(reasoning, texts)

    def moved(self, raw: bytes, chunk: Chunk, index: int, field: str, text: str) -> list[Output]:
        """The chunk that `chunk` (event `raw`) becomes: its envelope and its choice `index` with
        `text` in the reasoning `field` alone (`OpenAIOutput.moved`)."""
        return self.chunk(with_choice(chunk, moved_choice(index, field, text)))

    def parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = b"",
              fed: tuple[str, str] | None = None) -> list[Output]:  # fmt: skip
        """Headers and argument parts of streamed calls (see `OpenAIOutput.parts`), translated
        (each chunk whole: `raw` and `fed` are not needed)."""
        out: list[Output] = []
        for part_chunk in part_chunks(chunk, choice, parts):
            out += self.chunk(part_chunk)
        return out

    def done(self, raw: bytes) -> list[Output]:
        """Translated streams have no `[DONE]`: the emitter ends the stream its own way."""
        return self._emitter.flush()

    def flush(self) -> list[Output]:
        """End of input: close what is open, and the stream."""
        return self._emitter.flush()


def is_completion(value: Any) -> bool:
    """Whether a decoded body is a chat.completion (or an error in its place) to translate."""
    return isinstance(value, dict) and bool(value.get("choices") or value.get("error"))


def translated_body(body: bytes, translate: Callable[[dict[str, Any]], tuple[dict[str, Any], list[Notice]]],
                    ) -> tuple[bytes, list[Notice]]:  # fmt: skip
    """A (rewritten) completion body as `translate` makes it; other bodies unchanged."""
    try:
        completion = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body, []  # rewrite_completion has already said so
    if not is_completion(completion):
        return body, [Notice("not-a-completion", "body is no chat.completion: not converted")]
    translated, notices = translate(completion)
    return orjson.dumps(translated) + b"\n", notices
