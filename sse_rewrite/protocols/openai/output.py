"""What goes out of a stream in the OpenAI encoding (the default).

The rewriter decides *what* to send (an event unchanged, a rewritten or synthesized
chunk, the end of the stream); an output encoder decides *how*. `OpenAIOutput` writes an
unchanged event as its raw bytes and a chunk as one `data:` event.
"""

from __future__ import annotations

import orjson

from ...events import Notice, Output
from ...sse import encode_event
from ...streamed_calls import part_chunks
from .part_heads import PART_TAIL, PartHeads

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...chunks import Chunk
    from ...streamed_calls import Part


class OpenAIOutput:
    """OpenAI `chat.completion.chunk` SSE: unchanged events keep their bytes."""

    keeps_bytes = True
    """Unchanged events go out as their raw bytes (so runs of them may be copied whole)."""
    unchanged = "passed through"
    """What happens to an event nobody changes, for notices."""

    def __init__(self) -> None:
        self._heads = PartHeads()

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event, by its raw bytes (`chunk`: its decoded JSON, when it was decoded)."""
        return [raw]

    def chunk(self, chunk: Chunk) -> list[Output]:
        """A rewritten or synthesized chunk."""
        return [encode_event(orjson.dumps(chunk))]

    def parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = b"", field: str = "",
              ) -> list[Output]:  # fmt: skip
        """Headers and argument parts of streamed calls: the chunks `part_chunks` makes,
        encoded. An argument part is its event's head (`PartHeads`: kept while the envelope,
        choice and call stay the same, a streamed call's every token) and its text,
        JSON-encoded. `raw` is the event of `chunk`, if it brought a token in `field`."""
        heads = self._heads
        token, literal = None, b""
        if chunk is not heads.chunk:  # (the token runs send a run's parts in their template's chunk)
            if raw:
                token = chunk["choices"][0]["delta"][field]
                literal = orjson.dumps(token)
            if raw and literal.join(heads.around) == raw:
                heads.chunk = chunk
            else:
                heads.seen(chunk, raw, field)
        out: list[Output] = []
        for part in parts:
            if isinstance(part, dict):  # a header
                out += [encode_event(orjson.dumps(c)) for c in part_chunks(chunk, choice, [part])]
                continue
            index, text = part
            head = heads.head if heads.of == (choice, index) else heads.head_of(chunk, choice, index)
            out.append(head + (literal if text is token else orjson.dumps(text)) + PART_TAIL)
        return out

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
