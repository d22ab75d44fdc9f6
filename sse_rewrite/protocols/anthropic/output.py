"""What goes out in the Anthropic encoding (`--to anthropic`, `/v1/messages`).

`AnthropicOutput` feeds every chunk of a stream to an `AnthropicEmitter` (see
`TranslatedOutput`); `whole_body` turns a (rewritten) completion body into one message body.
"""

from __future__ import annotations

from ..translated import TranslatedOutput, translated_body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.events import Notice


class AnthropicOutput(TranslatedOutput):
    """Anthropic Messages streaming events, from every chunk of the stream."""

    def __init__(self) -> None:
        from .events import AnthropicEmitter  # here: start-up pays only for what it uses

        super().__init__(AnthropicEmitter())


def stream_output() -> AnthropicOutput:
    """A new encoder for one stream."""
    return AnthropicOutput()


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) completion body as an Anthropic message body; other bodies unchanged."""
    return translated_body(body, _message)


def _message(completion: dict[str, Any]) -> tuple[dict[str, Any], list[Notice]]:
    from .mapping import completion_to_message

    return completion_to_message(completion)
