"""A whole (non-streaming) chat.completion as a Responses object, and as the events that stream it.

The completion's message becomes one chunk carrying all of it (reasoning, text, calls,
finish, usage), fed to a `ResponsesEmitter`: the object and its events are exactly what
the same answer streamed would give.
"""

from __future__ import annotations

from ...stream.events import Notice
from .events import ResponsesEmitter
from .mapping import error_body

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.chunks import Chunk
    from .items import ResponseContext


def completion_chunk(completion: Chunk) -> Chunk:
    """The one chunk that streams `completion`'s choices whole (messages as deltas)."""
    choices = []
    for position, choice in enumerate(completion.get("choices") or []):
        if not isinstance(choice, dict):
            continue
        message = choice.get("message")
        delta = dict(message) if isinstance(message, dict) else {}
        calls = delta.get("tool_calls")
        if isinstance(calls, list):
            calls = [call for call in calls if isinstance(call, dict)]
            delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(calls)]
        choices.append({"index": choice.get("index", position), "delta": delta,
                        "finish_reason": choice.get("finish_reason")})
    return {**completion, "choices": choices}


def completion_response(completion: Chunk, context: ResponseContext | None = None
                        ) -> tuple[dict[str, Any], bytes, list[Notice]]:
    """The response object for a (rewritten) completion, the events that stream it, and notices.

    An error body gives the Responses error body and no events.
    """
    if completion.get("error"):
        error = completion["error"] if isinstance(completion["error"], dict) else {}
        status = error["code"] if isinstance(error.get("code"), int) else 502
        body = error_body(status, str(error.get("message") or completion["error"]))
        return body, b"", []
    emitter = ResponsesEmitter(context)
    out = emitter.feed(completion_chunk(completion)) + emitter.flush()
    assert emitter.response is not None  # a chunk was fed
    events = b"".join(item for item in out if isinstance(item, bytes))
    return emitter.response, events, [item for item in out if isinstance(item, Notice)]
