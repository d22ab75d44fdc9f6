"""What goes out in the Responses encoding (`--to responses`, `/v1/responses`).

`ResponsesOutput` feeds every chunk of a stream, changed or not, to a
`ResponsesEmitter`, so no OpenAI bytes reach its output: only Responses events, and
comments (keep-alives) re-encoded as comments. `whole_body` turns a (rewritten)
completion body into one response object.
"""

from __future__ import annotations

import orjson

from ...events import Notice
from ...streamed_calls import part_chunks

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...chunks import Chunk
    from ...events import Output
    from ...streamed_calls import Part
    from .events import ResponsesEmitter
    from .items import ResponseContext


class ResponsesOutput:
    """Responses API streaming events, from every chunk of the stream."""

    keeps_bytes = False
    unchanged = "dropped"

    def __init__(self, context: ResponseContext | None = None) -> None:
        from .events import ResponsesEmitter  # here: start-up pays only for what it uses

        self._emitter: ResponsesEmitter = ResponsesEmitter(context)

    @property
    def response(self) -> dict[str, Any] | None:
        """The response object so far (final once the stream ended); None before the first chunk."""
        return self._emitter.response

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

    def parts(self, chunk: Chunk, choice: int, parts: list[Part]) -> list[Output]:
        """Headers and argument parts of streamed calls (see `OpenAIOutput.parts`), translated."""
        out: list[Output] = []
        for part_chunk in part_chunks(chunk, choice, parts):
            out += self.chunk(part_chunk)
        return out

    def done(self, raw: bytes) -> list[Output]:
        """Responses streams have no `[DONE]`: the response ends."""
        return self._emitter.flush()

    def flush(self) -> list[Output]:
        """End of input: close the open items and the response."""
        return self._emitter.flush()


def stream_output(context: ResponseContext | None = None) -> ResponsesOutput:
    """A new encoder for one stream."""
    return ResponsesOutput(context)


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) completion body as a response object; other bodies unchanged."""
    try:
        completion = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body, []  # rewrite_completion has already said so
    if not isinstance(completion, dict) or not (completion.get("choices") or completion.get("error")):
        return body, [Notice("not-a-completion", "body is no chat.completion: not converted")]
    from .whole import completion_response

    response, _, notices = completion_response(completion)
    return orjson.dumps(response) + b"\n", notices
