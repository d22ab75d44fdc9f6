"""Pure mappings from chat.completions values to Responses API ones.

Ids, usage, the response object's frame, statuses and error objects. Everything here is
a deterministic function of its input (golden files depend on it), except
`new_response_id`, which `serve` uses so that stored responses never share an id.

Item ids are the response id's tail with the item's kind and output index:
`resp_gen-1` gives `msg_gen-1_0`, `fc_gen-1_1`, `rs_gen-1_0`, `ctc_gen-1_2`. A call's
`call_id` is the model's own id (`functions.bash:0`), or the `call_` id derived from
stream id and call index when the model gave none.
"""

from __future__ import annotations

import orjson

from ..fields import object_field, token_count

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

ITEM_PREFIXES: Final = {"message": "msg", "function_call": "fc", "custom_tool_call": "ctc", "reasoning": "rs"}
_ERROR_TYPES: Final = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
}
_INCOMPLETE: Final = {"length": "max_output_tokens", "content_filter": "content_filter"}


def new_response_id() -> str:
    """A fresh, unique `resp_` id (for `serve`, whose responses may be stored)."""
    import secrets  # here: the filter never needs it

    return "resp_" + secrets.token_hex(16)


def response_id(stream_id: str) -> str:
    """The response id for a stream or completion id (`resp_` + the id; `resp_unknown` without one)."""
    return "resp_" + (stream_id or "unknown")


def item_id(response: str, kind: str, index: int) -> str:
    """The id of the output item of `kind` at `index` in response `response`."""
    return f"{ITEM_PREFIXES[kind]}_{response.removeprefix('resp_')}_{index}"


def incomplete_reason(finish: str | None) -> str | None:
    """Why a response with this finish_reason is `incomplete` (`max_output_tokens`…), or None."""
    return _INCOMPLETE.get(finish) if finish is not None else None


def responses_usage(usage: Any) -> dict[str, Any] | None:
    """The Responses `usage` for an OpenAI one (None when it reports none).

    Cached prompt tokens (`prompt_tokens_details.cached_tokens`, DeepSeek's
    `prompt_cache_hit_tokens`) and reasoning tokens (`completion_tokens_details`) go into
    the details objects, 0 when the provider does not say.
    """
    if not isinstance(usage, dict):
        return None
    prompt = token_count(usage.get("prompt_tokens")) or 0
    completion = token_count(usage.get("completion_tokens")) or 0
    prompt_details = object_field(usage, "prompt_tokens_details")
    completion_details = object_field(usage, "completion_tokens_details")
    cached = token_count(prompt_details.get("cached_tokens"), usage.get("prompt_cache_hit_tokens")) or 0
    reasoning = token_count(completion_details.get("reasoning_tokens")) or 0
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": completion,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": token_count(usage.get("total_tokens")) or prompt + completion,
    }


def response_frame(rid: str, model: str, created: int, echo: dict[str, Any] | None = None) -> dict[str, Any]:
    """A response object in progress: no output yet; `echo` holds the request's fields to repeat."""
    echo = echo or {}
    return {
        "id": rid,
        "object": "response",
        "created_at": created,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": echo.get("instructions"),
        "max_output_tokens": echo.get("max_output_tokens"),
        "model": echo.get("model") or model,
        "output": [],
        "parallel_tool_calls": echo.get("parallel_tool_calls", True),
        "previous_response_id": echo.get("previous_response_id"),
        "reasoning": echo.get("reasoning") or {"effort": None, "summary": None},
        "store": echo.get("store", False),
        "temperature": echo.get("temperature"),
        "text": echo.get("text") or {"format": {"type": "text"}},
        "tool_choice": echo.get("tool_choice", "auto"),
        "tools": echo.get("tools") or [],
        "top_p": echo.get("top_p"),
        "truncation": "disabled",
        "usage": None,
        "user": echo.get("user"),
        "metadata": echo.get("metadata") or {},
    }


def error_fields(error: Any) -> dict[str, Any]:
    """`{"code", "message"}` for a response's `error`, from an OpenAI or OpenRouter error."""
    error = error if isinstance(error, dict) else {"message": str(error)}
    message = error.get("message")
    message = message if isinstance(message, str) else orjson.dumps(error).decode()
    code = error.get("code")
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    name = code if isinstance(code, str) else error.get("type")
    if not isinstance(name, str):
        name = "rate_limit_exceeded" if status == 429 else "server_error"
    return {"code": name, "message": message}


def error_body(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """The body of an HTTP error in the Responses shape (`{"error": {message, type, code, param}}`)."""
    kind = _ERROR_TYPES.get(status) or ("server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "code": code, "param": None}}
