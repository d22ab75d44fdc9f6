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

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ...chunks import Chunk
    from ...streamed_calls import Part

class OpenAIOutput:
    """OpenAI `chat.completion.chunk` SSE: unchanged events keep their bytes."""

    keeps_bytes = True
    """Unchanged events go out as their raw bytes (so runs of them may be copied whole)."""
    unchanged = "passed through"
    """What happens to an event nobody changes, for notices."""

    def __init__(self) -> None:
        # (envelope, (choice, call index), its keys in order, the encoded head) of the last part
        self._part_head: tuple[dict[str, Any], tuple[int, int], list[str], bytes] = ({}, (-1, -1), [], b"")

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event, by its raw bytes (`chunk`: its decoded JSON, when it was decoded)."""
        return [raw]

    def chunk(self, chunk: Chunk) -> list[Output]:
        """A rewritten or synthesized chunk."""
        return [encode_event(orjson.dumps(chunk))]

    def parts(self, chunk: Chunk, choice: int, parts: list[Part]) -> list[Output]:
        """Headers and argument parts of streamed calls: the chunks `part_chunks` makes,
        encoded. An argument part is its envelope's head (kept while the envelope, choice and
        call stay the same: a streamed call's every token) and its text, JSON-encoded."""
        base = dict(chunk)  # (`envelope`, as a copy: the chunk holds no usage or error)
        del base["choices"]
        base.pop("usage", None)
        head = self._part_head
        if head[0] != base or head[2] != list(base):
            head = self._part_head = (base, (-1, -1), list(base), b"")
        out: list[Output] = []
        for part in parts:
            if isinstance(part, dict):  # a header
                out += [encode_event(orjson.dumps(c)) for c in part_chunks(chunk, choice, [part])]
                continue
            index, text = part
            if head[1] != (choice, index):
                head = self._part_head = (base, (choice, index), head[2], _part_head(chunk, choice, index))
            out.append(head[3] + orjson.dumps(text) + _PART_TAIL)
        return out

    def done(self, raw: bytes) -> list[Output]:
        """`data: [DONE]` (its raw bytes), after everything held has gone out."""
        return [raw]

    def flush(self) -> list[Output]:
        """End of input."""
        return []


_PART_TAIL: Final = b'}}]},"finish_reason":null}]}\n\n'
"""How an argument part's event ends, after its arguments text."""


def _part_head(chunk: Chunk, choice: int, index: int) -> bytes:
    """The encoded event of an argument part of call `index` (see `part_chunks`) up to its text."""
    [part_chunk] = part_chunks(chunk, choice, [(index, "")])
    event = encode_event(orjson.dumps(part_chunk))
    assert event.endswith(b'""' + _PART_TAIL)
    return event[: -len(_PART_TAIL) - 2]


def stream_output() -> OpenAIOutput:
    """A new encoder for one stream."""
    return OpenAIOutput()


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A completion body is already OpenAI's: unchanged."""
    return body, []
