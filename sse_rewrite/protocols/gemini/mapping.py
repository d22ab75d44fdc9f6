"""Pure mappings from chat.completions values to Gemini API ones.

Finish reasons, usage, call ids, the frame of a `GenerateContentResponse`, and errors in
Google's shape (`{"error": {"code", "message", "status"}}`, `status` the canonical name
of the HTTP status). Everything here is a deterministic function of its input: golden
files depend on it.
"""

from __future__ import annotations

from ...stream.chunks import derived_call_id
from ...stream.events import Notice
from ..fields import object_field, token_count

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_FINISH: Final = {"stop": "STOP", "tool_calls": "STOP", "function_call": "STOP", "length": "MAX_TOKENS",
                  "content_filter": "SAFETY"}
_STATUSES: Final = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                    404: "NOT_FOUND", 409: "ABORTED", 413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED",
                    499: "CANCELLED", 500: "INTERNAL", 501: "NOT_IMPLEMENTED", 502: "UNAVAILABLE",
                    503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}


def finish_reason(finish: str | None) -> tuple[str, list[Notice]]:
    """The Gemini `finishReason` for an OpenAI finish_reason (calls end with `STOP`, as at Google).

    `content_filter` (the provider's own filter said so) is `SAFETY`; none (a stream that
    just ended) and unknown ones are `STOP`, the unknown with a notice.
    """
    if finish is None or finish in _FINISH:
        return _FINISH.get(finish or "stop", "STOP"), []
    return "STOP", [Notice("unknown-finish", f"finish_reason {finish!r} has no Gemini form: STOP")]


def usage_metadata(usage: Any) -> dict[str, int] | None:
    """Gemini's `usageMetadata` for an OpenAI usage (None when it reports none).

    Gemini counts thinking apart: `candidatesTokenCount` is the completion tokens less
    the reasoning tokens, which are `thoughtsTokenCount`; cached prompt tokens are
    `cachedContentTokenCount`. Counts the provider does not give are left out.
    """
    if not isinstance(usage, dict):
        return None
    prompt = token_count(usage.get("prompt_tokens")) or 0
    completion = token_count(usage.get("completion_tokens")) or 0
    reasoning = token_count(object_field(usage, "completion_tokens_details").get("reasoning_tokens")) or 0
    cached = token_count(object_field(usage, "prompt_tokens_details").get("cached_tokens"),
                         usage.get("prompt_cache_hit_tokens")) or 0
    out = {"promptTokenCount": prompt, "candidatesTokenCount": max(completion - reasoning, 0),
           "totalTokenCount": token_count(usage.get("total_tokens")) or prompt + completion}
    if reasoning:
        out["thoughtsTokenCount"] = reasoning
    if cached:
        out["cachedContentTokenCount"] = cached
    return out


def call_id(call: dict[str, Any], stream_id: str, index: int) -> str:
    """A `functionCall.id`: the model's own call id (`functions.bash:0`), else one derived."""
    given = call.get("id")
    return given if isinstance(given, str) and given else derived_call_id(stream_id, 0, index)


def response_frame(response_id: str, model: str) -> dict[str, Any]:
    """The fields every `GenerateContentResponse` of one answer repeats."""
    return {"modelVersion": model, "responseId": response_id}


def candidate(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
    """Candidate 0 with these parts (and a `finishReason`)."""
    out: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        out["finishReason"] = finish
    return out


def status_name(code: int) -> str:
    """Google's canonical status name for an HTTP status (`UNKNOWN` for one it has none for)."""
    return _STATUSES.get(code) or ("INTERNAL" if code >= 500 else "UNKNOWN")


def error_body(code: int, message: str) -> dict[str, Any]:
    """An error in Google's shape."""
    return {"error": {"code": code, "message": message, "status": status_name(code)}}


def stream_error(error: Any) -> dict[str, Any]:
    """The Gemini error for an OpenAI or OpenRouter error object met in a stream or body."""
    fields = error if isinstance(error, dict) else {"message": str(error)}
    message = fields.get("message")
    code = fields.get("code")
    code = code if isinstance(code, int) and not isinstance(code, bool) and 400 <= code <= 599 else 502
    return error_body(code, message if isinstance(message, str) and message else str(error))
