"""What goes out in the Responses encoding (`--to responses`, `/v1/responses`).

`ResponsesOutput` feeds every chunk of a stream to a `ResponsesEmitter` (see
`TranslatedOutput`); `whole_body` turns a (rewritten) completion body into one response object.
"""

from __future__ import annotations

from ..translated import TranslatedOutput, translated_body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.events import Notice
    from .events import ResponsesEmitter
    from .items import ResponseContext


class ResponsesOutput(TranslatedOutput):
    """Responses API streaming events, from every chunk of the stream."""

    def __init__(self, context: ResponseContext | None = None) -> None:
        from .events import ResponsesEmitter  # here: start-up pays only for what it uses

        self._responses: ResponsesEmitter = ResponsesEmitter(context)
        super().__init__(self._responses)

    @property
    def response(self) -> dict[str, Any] | None:
        """The response object so far (final once the stream ended); None before the first chunk."""
        return self._responses.response


def stream_output(context: ResponseContext | None = None) -> ResponsesOutput:
    """A new encoder for one stream."""
    return ResponsesOutput(context)


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) completion body as a response object; other bodies unchanged."""
    return translated_body(body, _response)


def _response(completion: dict[str, Any]) -> tuple[dict[str, Any], list[Notice]]:
    from .whole import completion_response

    response, _, notices = completion_response(completion)
    return response, notices
