"""What goes out of a stream in the OpenAI encoding (the default).

The rewriter decides *what* to send (an event unchanged, a rewritten or synthesized
chunk, the end of the stream); an output encoder decides *how*. `OpenAIOutput` writes an
unchanged event as its raw bytes and a chunk as one `data:` event.
"""

from __future__ import annotations

import orjson

from ...events import Notice, Output
from ...sse import encode_event

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...chunks import Chunk

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


def stream_output() -> OpenAIOutput:
    """A new encoder for one stream."""
    return OpenAIOutput()


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A completion body is already OpenAI's: unchanged."""
    return body, []
