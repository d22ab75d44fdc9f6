"""What goes out of a stream: the OpenAI encoding (the default) or the Anthropic one.

The rewriter decides *what* to send (an event unchanged, a rewritten or synthesized
chunk, the end of the stream); an output encoder decides *how*. `OpenAIOutput` writes an
unchanged event as its raw bytes and a chunk as one `data:` event. `AnthropicOutput`
feeds every chunk, changed or not, to an `AnthropicEmitter`, so no OpenAI bytes reach
its output: only Anthropic events, and comments (keep-alives) re-encoded as comments.
"""

from __future__ import annotations

import orjson

from .events import Notice
from .sse import encode_event

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .anthropic_events import AnthropicEmitter
    from .chunks import Chunk

Output = bytes | Notice
"""What the rewriter produces: bytes to write, or a notice for stderr."""


class OpenAIOutput:
    """OpenAI `chat.completion.chunk` SSE: unchanged events keep their bytes."""

    keeps_bytes = True
    """Unchanged events go out as their raw bytes (so runs of them may be copied whole)."""
    unchanged = "passed through"
    """What happens to an event nobody changes, for notices."""

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event, by its raw bytes (`chunk`: its decoded JSON, when it was decoded)."""
        return [raw]

    def chunk(self, chunk: Chunk) -> list[Output]:
        """A rewritten or synthesized chunk."""
        return [encode_event(orjson.dumps(chunk))]

    def done(self, raw: bytes) -> list[Output]:
        """`data: [DONE]` (its raw bytes), after everything held has gone out."""
        return [raw]

    def flush(self) -> list[Output]:
        """End of input."""
        return []


class AnthropicOutput:
    """Anthropic Messages streaming events, from every chunk of the stream."""

    keeps_bytes = False
    unchanged = "dropped"

    def __init__(self) -> None:
        from .anthropic_events import AnthropicEmitter  # here: start-up pays only for what it uses

        self._emitter: AnthropicEmitter = AnthropicEmitter()

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

    def done(self, raw: bytes) -> list[Output]:
        """Anthropic streams have no `[DONE]`: the message ends."""
        return self._emitter.flush()

    def flush(self) -> list[Output]:
        """End of input: close the open block and the message."""
        return self._emitter.flush()
