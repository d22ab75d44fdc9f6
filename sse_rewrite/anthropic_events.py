"""AnthropicEmitter: rewritten OpenAI chunks in, Anthropic Messages stream events out (sans-IO).

The input is the decoded `chat.completion.chunk` objects the rewriter would otherwise
encode, leaked calls already turned into `tool_calls`. The output is SSE bytes in the
Anthropic Messages streaming protocol, plus `Notice`s. One stream is one message, built
from choice 0 (Anthropic has no `n`). The order the official SDK's MessageStream
accepts (PROTOCOL.md sections 5-6) is:

    message_start
    (content_block_start content_block_delta* content_block_stop)*    blocks 0, 1, 2 ...
    message_delta     stop_reason, and usage with output_tokens always present
    message_stop

`reasoning` / `reasoning_content` become a `thinking` block, `content` (and `refusal`)
a `text` block, each tool call a `tool_use` block whose arguments stream on as
`input_json_delta` exactly as written. A block closes when a delta of another kind,
or of another call, arrives. The message closes once a finish_reason has been seen and
usage arrives, or at end of stream (`[DONE]` or EOF). A chunk carrying `error` becomes
an `error` event and ends the output. Every event has an `event:` line equal to its
JSON `type` (the SDK drops events without one).

Thinking blocks carry an empty `signature`: OpenAI-compatible providers have none to give.

Ids must match `^[a-zA-Z0-9_-]+$`. The call's own id (or, lacking one, the `call_` id
derived from stream id and index) is escaped by `anthropic_id`: letters, digits and `_`
stay, `-` is doubled, any other character becomes `-XX` per UTF-8 byte, and `toolu_` goes
in front (`functions.bash:15` -> `toolu_functions-2Ebash-3A15`). The escape is reversible,
so distinct ids never collide and a proxy can recover the original. The message id is
`msg_` + the escaped stream id.
"""

from __future__ import annotations

import string
from typing import Any, Final, Literal

import orjson

from .chunks import Chunk, derived_call_id
from .events import Notice
from .sse import encode_event

Emitted = bytes | Notice
"""What the emitter produces: SSE bytes to write, or a notice for stderr."""

BlockKind = Literal["thinking", "text", "tool_use"]

_ID_KEPT: Final = frozenset(string.ascii_letters + string.digits + "_")
_EMPTY_BLOCKS: Final = {
    "thinking": {"type": "thinking", "thinking": "", "signature": ""},
    "text": {"type": "text", "text": ""},
}
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
    prompt = _count(usage.get("prompt_tokens"))
    cached = _count(details.get("cached_tokens"), usage.get("prompt_cache_hit_tokens"))
    written = _count(details.get("cache_write_tokens"))
    out: dict[str, int] = {}
    if prompt is not None:
        out["input_tokens"] = max(prompt - (cached or 0) - (written or 0), 0)
    if cached is not None:
        out["cache_read_input_tokens"] = cached
    if written is not None:
        out["cache_creation_input_tokens"] = written
    completion = _count(usage.get("completion_tokens"))
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


def completion_to_message(completion: Chunk) -> tuple[dict[str, Any], list[Notice]]:
    """A rewritten non-streaming `chat.completion` as one Anthropic `message` object.

    An error body (`{"error": {...}}`) becomes an Anthropic error object instead. Tool
    arguments that are not a JSON object cannot be an `input`: they give `{}` and a notice.
    """
    if completion.get("error"):
        return error_object(completion["error"]), []
    stream_id = _text_field(completion, "id")
    choices = completion.get("choices")
    choices = [c for c in choices if isinstance(c, dict)] if isinstance(choices, list) else []
    choice = next((c for c in choices if c.get("index", 0) == 0), choices[0] if choices else {})
    message = _dict_field(choice, "message")
    notices: list[Notice] = []
    content: list[dict[str, Any]] = []
    thinking = _thinking(message)
    if thinking:
        content.append({"type": "thinking", "thinking": thinking, "signature": ""})
    for name in ("content", "refusal"):
        if text := _text_field(message, name):
            content.append({"type": "text", "text": text})
    calls = message.get("tool_calls")
    calls = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
    for index, call in enumerate(calls):
        function = _dict_field(call, "function")
        call_input, note = _tool_input(function.get("arguments"), index)
        notices += note
        content.append(
            {
                "type": "tool_use",
                "id": tool_use_id(stream_id, index, call.get("id")),
                "name": _text_field(function, "name"),
                "input": call_input,
            }
        )
    reason, note = stop_reason(_text_field(choice, "finish_reason") or None, bool(calls))
    usage = anthropic_usage(completion.get("usage"))
    return {
        "id": message_id(stream_id),
        "type": "message",
        "role": "assistant",
        "model": _text_field(completion, "model"),
        "content": content,
        "stop_reason": reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0, **usage},
    }, notices + note


class AnthropicEmitter:
    """Turns one stream's rewritten OpenAI chunks into Anthropic events: `feed(chunk)`, `flush()`."""

    def __init__(self) -> None:
        self._stream_id: str | None = None  # set by the first chunk, with message_start
        self._blocks = 0  # blocks started so far; the open one, if any, is the last
        self._open: tuple[BlockKind, int | None] | None = None  # kind and call index
        self._calls_seen: set[int] = set()
        self._finish: str | None = None
        self._usage: dict[str, int] = {}
        self._ended = False  # message_stop or error sent: nothing more goes out
        self._flushed = False
        self._other_choices_noted = False

    @property
    def flushed(self) -> bool:
        """True once `flush()` ran: the stream has ended and `feed` may not be called."""
        return self._flushed

    def feed(self, chunk: Chunk) -> list[Emitted]:
        """Consume one rewritten chunk; return the events it completes."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if self._ended:
            return []
        if chunk.get("error"):  # OpenAI `{"error": ...}`; OpenRouter adds finish_reason "error"
            return self._error(chunk["error"])
        out: list[Emitted] = []
        if self._stream_id is None:
            out += self._start(chunk)
        has_usage = isinstance(chunk.get("usage"), dict)
        if has_usage:
            self._usage = anthropic_usage(chunk["usage"])
        choices = chunk.get("choices")
        for position, choice in enumerate(choices if isinstance(choices, list) else []):
            if not isinstance(choice, dict):
                continue
            if choice.get("index", position) != 0:
                out += self._note_other_choice()
                continue
            out += self._delta(_dict_field(choice, "delta"))
            finish = choice.get("finish_reason")
            if finish == "error":
                return out + self._error({"message": "the provider ended the stream with an error"})
            if isinstance(finish, str):
                out += self._close_block()
                self._finish = finish
        if self._finish is not None and has_usage:  # usage comes last: the message is complete
            out += self._stop()
        return out

    def flush(self) -> list[Emitted]:
        """End of stream (`[DONE]` or EOF): close the open block and the message."""
        if self._flushed:
            return []
        self._flushed = True
        if self._ended:
            return []
        if self._stream_id is None:
            return [Notice("empty-stream", "the stream held no chunk: no Anthropic message to send")]
        out: list[Emitted] = []
        if self._finish is None:
            out.append(Notice("no-finish", "the stream ended without a finish_reason; message closed"))
        return out + self._stop()

    # -- message

    def _start(self, chunk: Chunk) -> list[Emitted]:
        self._stream_id = _text_field(chunk, "id")
        usage = {"input_tokens": 0, "output_tokens": 0, **anthropic_usage(chunk.get("usage"))}
        message: dict[str, Any] = {
            "id": message_id(self._stream_id),
            "type": "message",
            "role": "assistant",
            "model": _text_field(chunk, "model"),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        return [_event({"type": "message_start", "message": message})]

    def _stop(self) -> list[Emitted]:
        out = self._close_block()
        reason, notices = stop_reason(self._finish, bool(self._calls_seen))
        usage = {"output_tokens": 0, **self._usage}
        out += notices
        out.append(
            _event(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": reason, "stop_sequence": None},
                    "usage": usage,
                }
            )
        )
        out.append(_event({"type": "message_stop"}))
        self._ended = True
        return out

    def _error(self, error: Any) -> list[Emitted]:
        self._ended = True
        body = error_object(error)
        notice = Notice("stream-error", f"{body['error']['type']}: {body['error']['message']}")
        return [notice, _event(body)]

    def _note_other_choice(self) -> list[Emitted]:
        if self._other_choices_noted:
            return []
        self._other_choices_noted = True
        return [Notice("extra-choices", "only choice 0 becomes the Anthropic message; others dropped")]

    # -- content blocks

    def _delta(self, delta: dict[str, Any]) -> list[Emitted]:
        out: list[Emitted] = []
        thinking = _thinking(delta)
        if thinking:
            out += self._text("thinking", thinking)
        for name in ("content", "refusal"):
            if text := _text_field(delta, name):
                out += self._text("text", text)
        calls = delta.get("tool_calls")
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            if isinstance(call, dict):
                out += self._tool_call(call, position)
        return out

    def _text(self, kind: Literal["thinking", "text"], text: str) -> list[Emitted]:
        out: list[Emitted] = []
        if self._open != (kind, None):
            out += self._open_block(kind, None, dict(_EMPTY_BLOCKS[kind]))
        return [*out, self._block_delta({"type": f"{kind}_delta", kind: text})]

    def _tool_call(self, call: dict[str, Any], position: int) -> list[Emitted]:
        index = call["index"] if isinstance(call.get("index"), int) else position
        function = _dict_field(call, "function")
        arguments = _text_field(function, "arguments")
        out: list[Emitted] = []
        if self._open != ("tool_use", index):
            if index in self._calls_seen:  # its block is closed: Anthropic blocks cannot reopen
                note = f"arguments for tool call {index} came after its block closed; dropped"
                return [Notice("late-tool-arguments", note)] if arguments else []
            self._calls_seen.add(index)
            assert self._stream_id is not None
            block = {
                "type": "tool_use",
                "id": tool_use_id(self._stream_id, index, call.get("id")),
                "name": _text_field(function, "name"),
                "input": {},
            }
            out += self._open_block("tool_use", index, block)
        if arguments:
            out.append(self._block_delta({"type": "input_json_delta", "partial_json": arguments}))
        return out

    def _open_block(self, kind: BlockKind, call: int | None, block: dict[str, Any]) -> list[Emitted]:
        out = self._close_block()
        self._open = (kind, call)
        self._blocks += 1
        start = {"type": "content_block_start", "index": self._blocks - 1, "content_block": block}
        return [*out, _event(start)]

    def _block_delta(self, delta: dict[str, Any]) -> bytes:
        return _event({"type": "content_block_delta", "index": self._blocks - 1, "delta": delta})

    def _close_block(self) -> list[Emitted]:
        if self._open is None:
            return []
        self._open = None
        return [_event({"type": "content_block_stop", "index": self._blocks - 1})]


def _event(body: dict[str, Any]) -> bytes:
    return encode_event(orjson.dumps(body), event=body["type"])


def _thinking(fields: dict[str, Any]) -> str:
    """The reasoning text of a delta or message: `reasoning`, else `reasoning_content` (a mirror)."""
    return _text_field(fields, "reasoning") or _text_field(fields, "reasoning_content")


def _text_field(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name)
    return value if isinstance(value, str) else ""


def _dict_field(fields: dict[str, Any], name: str) -> dict[str, Any]:
    value = fields.get(name)
    return value if isinstance(value, dict) else {}


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


def _count(*values: Any) -> int | None:
    """The first value that is a token count (an int, not a bool), else None."""
    return next((v for v in values if isinstance(v, int) and not isinstance(v, bool)), None)
