"""A whole (non-streaming) chat.completion as one Gemini `GenerateContentResponse`.

Choice 0's message becomes candidate 0: its reasoning a `thought: true` text part, its
text a text part, each tool call a `functionCall` part (as the stream's, `events.py`),
then `finishReason`, `usageMetadata`, `modelVersion` and `responseId`. Other choices are
dropped with a notice. An error body gives Google's error body and its status.
"""

from __future__ import annotations

import orjson

from ...stream.events import Notice
from ..fields import object_field, reasoning_text, string_field
from .events import function_call_part
from .mapping import call_id, candidate, finish_reason, response_frame, stream_error, usage_metadata

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.chunks import Chunk


def completion_response(completion: Chunk) -> tuple[dict[str, Any], int, list[Notice]]:
    """The `GenerateContentResponse` for a (rewritten) completion, its HTTP status, and notices."""
    if completion.get("error"):
        body = stream_error(completion["error"])
        return body, body["error"]["code"], []
    choices = [c for c in completion.get("choices") or [] if isinstance(c, dict)]
    first = next((c for position, c in enumerate(choices) if c.get("index", position) == 0), {})
    notices = [Notice("extra-choices", "only choice 0 becomes the Gemini response; others dropped")
               ] if len(choices) > 1 else []  # fmt: skip
    message = object_field(first, "message")
    parts: list[dict[str, Any]] = []
    if reasoning := reasoning_text(message):
        parts.append({"text": reasoning, "thought": True})
    parts += [{"text": text} for name in ("content", "refusal") if (text := string_field(message, name))]
    parts += _call_parts(message.get("tool_calls"), string_field(completion, "id"), notices)
    finish = first.get("finish_reason")
    reason, more = finish_reason(finish if isinstance(finish, str) else None)
    response: dict[str, Any] = {"candidates": [candidate(parts or [{"text": ""}], reason)]}
    if (usage := usage_metadata(completion.get("usage"))) is not None:
        response["usageMetadata"] = usage
    response.update(response_frame(string_field(completion, "id"), string_field(completion, "model")))
    return response, 200, notices + more


def _call_parts(calls: Any, stream_id: str, notices: list[Notice]) -> list[dict[str, Any]]:
    """The message's calls as `functionCall` parts, by the stream's rules."""
    parts: list[dict[str, Any]] = []
    listed = calls if isinstance(calls, list) else []
    for index, call in enumerate(c for c in listed if isinstance(c, dict)):
        function = object_field(call, "function")
        arguments = function.get("arguments")
        if not isinstance(arguments, dict):  # (some hosts give arguments as an object)
            arguments = string_field(function, "arguments")
        else:
            arguments = orjson.dumps(arguments).decode()
        part, more = function_call_part(call_id(call, stream_id, index), string_field(function, "name"),
                                        arguments, index)
        parts.append(part)
        notices += more
    return parts
