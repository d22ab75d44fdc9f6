"""Pure mappings from OpenAI values to Anthropic Messages ones.

Ids, usage, stop reasons, error objects, and a whole non-streaming `chat.completion`
turned into one Anthropic `message` (`completion_to_message`). Everything here is a
deterministic function of its input: golden files depend on it.

Ids must match `^[a-zA-Z0-9_-]+$`. The call's own id (or, lacking one, the `call_` id
derived from stream id and index) is escaped by `anthropic_id`: letters, digits and `_`
stay, `-` is doubled, any other character becomes `-XX` per UTF-8 byte, and `toolu_` goes
in front (`functions.bash:15` -> `toolu_functions-2Ebash-3A15`). The escape is reversible,
so distinct ids never collide and a proxy can recover the original. The message id is
`msg_` + the escaped stream id.
"""

from __future__ import annotations

import string

import orjson

from ...stream.chunks import derived_call_id
from ...stream.events import Notice
from ..fields import object_field, reasoning_text, string_field, token_count

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ...stream.chunks import Chunk

_ID_KEPT: Final = frozenset(string.ascii_letters + string.digits + "_")
_HEX_DIGITS: Final = frozenset("0123456789ABCDEF")
_STOP_REASONS: Final = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}
# HTTP status (OpenRouter's `error.code`) and OpenAI `error.type`/`code` -> Anthropic error type.
_ERROR_BY_STATUS: Final = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    503: "overloaded_error",
    529: "overloaded_error",
}
_ERROR_BY_NAME: Final = {
    "invalid_request_error": "invalid_request_error",
    "authentication_error": "authentication_error",
    "permission_error": "permission_error",
    "not_found_error": "not_found_error",
    "rate_limit_error": "rate_limit_error",
    "rate_limit_exceeded": "rate_limit_error",
    "insufficient_quota": "billing_error",
    "overloaded_error": "overloaded_error",
}


def anthropic_id(prefix: str, native: str) -> str:
    """`prefix` + `native` escaped into `[A-Za-z0-9_-]`, reversibly (distinct ids stay distinct).

    Letters, digits and `_` are kept, `-` is doubled, and every other character becomes
    `-XX` per UTF-8 byte (upper-case hex): `functions.bash:15` -> `toolu_functions-2Ebash-3A15`,
    `call_abc` -> `toolu_call_abc`. Read back: `--` is `-`, `-XX` is byte XX.
    """
    escaped: list[str] = []
    for char in native:
        if char in _ID_KEPT:
            escaped.append(char)
        elif char == "-":
            escaped.append("--")
        else:
            escaped += [f"-{byte:02X}" for byte in char.encode()]
    return prefix + "".join(escaped)


def native_id(escaped: str, prefix: str = "toolu_") -> str:
    """The id `anthropic_id(prefix, ...)` was given, read back; any other id unchanged.

    Only an id that `anthropic_id` could have produced is read back (`prefix`, then the
    escape exactly as written by it): `toolu_functions-2Ebash-3A15` -> `functions.bash:15`,
    while `toolu_01A-x`, `call_abc` or an id with lower-case hex are returned as they are.
    """
    if not escaped.startswith(prefix):
        return escaped
    text, pos, raw = escaped, len(prefix), bytearray()
    while pos < len(text):
        char = text[pos]
        if char != "-":
            raw += char.encode()
            pos += 1
        elif text[pos + 1 : pos + 2] == "-":
            raw += b"-"
            pos += 2
        elif len(hex_pair := text[pos + 1 : pos + 3]) == 2 and all(c in _HEX_DIGITS for c in hex_pair):
            raw.append(int(hex_pair, 16))
            pos += 3
        else:
            return escaped
    try:
        native = raw.decode()
    except UnicodeDecodeError:
        return escaped
    # the round trip rejects what the escape never writes (`-41` for `A`, a kept char escaped)
    return native if native and anthropic_id(prefix, native) == escaped else escaped


def message_id(stream_id: str) -> str:
    """The Anthropic message id for an OpenAI stream or completion id (`msg_` + escaped id).

    A stream without an id gets `msg_unknown`.
    """
    return anthropic_id("msg_", stream_id or "unknown")


def tool_use_id(stream_id: str, index: int, call_id: Any) -> str:
    """The `toolu_` id for a call: its own id escaped, or one derived from stream and index."""
    native = call_id if isinstance(call_id, str) and call_id else derived_call_id(stream_id, 0, index)
    return anthropic_id("toolu_", native)


def anthropic_usage(usage: Any) -> dict[str, int]:
    """The Anthropic usage fields an OpenAI `usage` object reports (none when it reports none).

    Anthropic's `input_tokens` excludes cache reads and writes, OpenAI's `prompt_tokens`
    includes them: `cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`) become
    `cache_read_input_tokens`, OpenRouter's `cache_write_tokens` become
    `cache_creation_input_tokens`, and both are taken off `input_tokens`.
    """
    if not isinstance(usage, dict):
        return {}
    details = usage.get("prompt_tokens_details")
    details = details if isinstance(details, dict) else {}
    prompt = token_count(usage.get("prompt_tokens"))
    cached = token_count(details.get("cached_tokens"), usage.get("prompt_cache_hit_tokens"))
    written = token_count(details.get("cache_write_tokens"))
    out: dict[str, int] = {}
    if prompt is not None:
        out["input_tokens"] = max(prompt - (cached or 0) - (written or 0), 0)
    if cached is not None:
        out["cache_read_input_tokens"] = cached
    if written is not None:
        out["cache_creation_input_tokens"] = written
    completion = token_count(usage.get("completion_tokens"))
    if completion is not None:
        out["output_tokens"] = completion
    return out


def stop_reason(finish: str | None, used_tools: bool) -> tuple[str, list[Notice]]:
    """Anthropic `stop_reason` for an OpenAI `finish_reason` (`stop` after tool calls: `tool_use`)."""
    if finish in (None, "stop") and used_tools:
        return "tool_use", []
    if finish is None:
        return "end_turn", []
    reason = _STOP_REASONS.get(finish)
    if reason is None:
        return "end_turn", [Notice("unknown-finish", f"finish_reason {finish!r} sent as end_turn")]
    return reason, []


def error_object(error: Any) -> dict[str, Any]:
    """An Anthropic `{"type": "error", "error": {type, message}}` for an OpenAI/OpenRouter error."""
    error = error if isinstance(error, dict) else {"message": str(error)}
    code, name = error.get("code"), error.get("type")
    kind = _ERROR_BY_STATUS.get(code) if isinstance(code, int) else None
    for key in (name, code):
        if kind is None and isinstance(key, str):
            kind = _ERROR_BY_NAME.get(key)
    message = error.get("message")
    message = message if isinstance(message, str) else orjson.dumps(error).decode()
    return {"type": "error", "error": {"type": kind or "api_error", "message": message}}


def status_error(status: int, message: str) -> dict[str, Any]:
    """The Anthropic error body for an HTTP status: 4xx without a type of its own is
    `invalid_request_error`, 5xx `api_error` (529 and 503 `overloaded_error`)."""
    kind = _ERROR_BY_STATUS.get(status) or ("api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


def completion_to_message(completion: Chunk) -> tuple[dict[str, Any], list[Notice]]:
    """A rewritten non-streaming `chat.completion` as one Anthropic `message` object.

    An error body (`{"error": {...}}`) becomes an Anthropic error object instead. Tool
    arguments that are not a JSON object cannot be an `input`: they give `{}` and a notice.
    """
    if completion.get("error"):
        return error_object(completion["error"]), []
    stream_id = string_field(completion, "id")
    choices = completion.get("choices")
    choices = [c for c in choices if isinstance(c, dict)] if isinstance(choices, list) else []
    choice = next((c for c in choices if c.get("index", 0) == 0), choices[0] if choices else {})
    message = object_field(choice, "message")
    notices: list[Notice] = []
    content: list[dict[str, Any]] = []
    thinking = reasoning_text(message)
    if thinking.strip():  # whitespace-only blocks are dropped, as in the stream (AnthropicEmitter)
        content.append({"type": "thinking", "thinking": thinking, "signature": ""})
    for name in ("content", "refusal"):
        if (text := string_field(message, name)).strip():
            content.append({"type": "text", "text": text})
    calls = message.get("tool_calls")
    calls = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
    for index, call in enumerate(calls):
        function = object_field(call, "function")
        call_input, note = _tool_input(function.get("arguments"), index)
        notices += note
        content.append(
            {
                "type": "tool_use",
                "id": tool_use_id(stream_id, index, call.get("id")),
                "name": string_field(function, "name"),
                "input": call_input,
            }
        )
    reason, note = stop_reason(string_field(choice, "finish_reason") or None, bool(calls))
    usage = anthropic_usage(completion.get("usage"))
    return {
        "id": message_id(stream_id),
        "type": "message",
        "role": "assistant",
        "model": string_field(completion, "model"),
        "content": content,
        "stop_reason": reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0, **usage},
    }, notices + note


def _tool_input(arguments: Any, index: int) -> tuple[Any, list[Notice]]:
    text = arguments.strip() if isinstance(arguments, str) else ""
    try:
        value = orjson.loads(text or "{}")
    except orjson.JSONDecodeError:
        value = None
    if isinstance(value, dict):
        return value, []
    note = f"tool call {index}: arguments {text!r} are not a JSON object; input sent as {{}}"
    return {}, [Notice("tool-input-not-object", note)]
