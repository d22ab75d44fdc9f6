"""What goes out in the Gemini encoding (`--to gemini`, the Gemini front).

`GeminiOutput` feeds every chunk of a stream to a `GeminiEmitter` (see `TranslatedOutput`);
unlike the other translations it drops the upstream's SSE comments (keep-alives such as
`: OPENROUTER PROCESSING`), since the official Python SDK reads any line that is not
`data:` as JSON and fails on them. `whole_body` turns a (rewritten) completion body into
one `GenerateContentResponse`.
"""

from __future__ import annotations

from ..translated import TranslatedOutput, translated_body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.chunks import Chunk
    from ...stream.events import Notice, Output


class GeminiOutput(TranslatedOutput):
    """Gemini `streamGenerateContent` events, from every chunk of the stream."""

    def __init__(self) -> None:
        from .events import GeminiEmitter  # here: start-up pays only for what it uses

        super().__init__(GeminiEmitter())

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event: its chunk's translation; comments are dropped."""
        return [] if chunk is None else super().event(raw, chunk)


def stream_output() -> GeminiOutput:
    """A new encoder for one stream."""
    return GeminiOutput()


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) completion body as a `GenerateContentResponse`; other bodies unchanged."""
    return translated_body(body, _response)


def _response(completion: dict[str, Any]) -> tuple[dict[str, Any], list[Notice]]:
    from .whole import completion_response

    response, _, notices = completion_response(completion)
    return response, notices
