"""Assemble what a client would see from OpenAI output: SSE chunks or one JSON body (sans-IO).

`assemble(bytes)` concatenates each choice's text fields and tool-call fragments the way
the openai SDK does (strings appended, calls merged by `index`) and keeps the finish
reason, top-level errors, the last usage, and whether `[DONE]` arrived. Anthropic
Messages output (`--to anthropic`: events or one `message` body) is read into choice 0,
with `thinking` and `text` blocks as fields of those names and `stop_reason` as the
finish reason; Responses output (`--to responses`) likewise, from the response object that
ends the stream (or is the body): `reasoning` and `content` fields, function and custom
tool calls (a custom call's input as its arguments), the status as the finish reason; Gemini
output (`--to gemini`: `GenerateContentResponse` events or one body) by candidate, `thought`
parts as `reasoning`, other text as `content`, each `functionCall` a call whose arguments
are its `args` as JSON, `finishReason` as the finish reason. It is for people
and golden summaries: it reads the output, never changes it, and skips what it cannot
decode (counted in `undecoded`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from .sse import BOM, SSEDecoder

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

TEXT_FIELDS: Final = ("content", "reasoning", "reasoning_content")


@dataclass(slots=True)
class AssembledCall:
    """One tool call: fragments merged by index."""

    index: int
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass(slots=True)
class AssembledChoice:
    """One choice: text per field, tool calls in index order, the finish reason."""

    index: int
    text: dict[str, str] = field(default_factory=dict)
    calls: dict[int, AssembledCall] = field(default_factory=dict)
    finish_reason: str | None = None


@dataclass(slots=True)
class Assembled:
    """The whole output: choices by index, errors, usage, event counts; `body` for a JSON body."""

    choices: dict[int, AssembledChoice] = field(default_factory=dict)
    errors: list[Any] = field(default_factory=list)
    usage: Any = None
    events: int = 0
    done: bool = False
    undecoded: int = 0
    body: bool = False


def assemble(output: bytes) -> Assembled:
    """Assemble SSE output, or a `chat.completion` JSON body (starts with `{`)."""
    result = Assembled()
    if output.removeprefix(BOM).lstrip()[:1] == b"{":
        result.events, result.body = 1, True
        _add(result, output, "message")
        return result
    decoder = SSEDecoder()
    for event in decoder.feed(output) + decoder.flush():
        if event.data is None:
            continue
        result.events += 1
        if event.data.startswith("[DONE]"):
            result.done = True
        else:
            _add(result, event.data.encode(), "delta")
    return result


def _add(result: Assembled, data: bytes, key: str) -> None:
    try:
        chunk = orjson.loads(data)
    except orjson.JSONDecodeError:
        result.undecoded += 1
        return
    if not isinstance(chunk, dict):
        result.undecoded += 1
        return
    if chunk.get("object") == "response" or str(chunk.get("type")).startswith("response."):
        _add_response(result, chunk.get("response", chunk))
        return
    if isinstance(chunk.get("type"), str) and "choices" not in chunk:
        _add_anthropic(result, chunk)
        return
    if "candidates" in chunk:
        _add_gemini(result, chunk)
        return
    if chunk.get("error"):
        result.errors.append(chunk["error"])
    if chunk.get("usage"):
        result.usage = chunk["usage"]
    choices = chunk.get("choices")
    for position, choice in enumerate(choices if isinstance(choices, list) else []):
        if not isinstance(choice, dict):
            continue
        index = choice["index"] if isinstance(choice.get("index"), int) else position
        target = result.choices.setdefault(index, AssembledChoice(index))
        delta = choice.get(key)
        if isinstance(delta, dict):
            _add_delta(target, delta)
        if isinstance(choice.get("finish_reason"), str):
            target.finish_reason = choice["finish_reason"]


def _add_delta(target: AssembledChoice, delta: dict[str, Any]) -> None:
    for name in TEXT_FIELDS:
        value = delta.get(name)
        if isinstance(value, str) and value:
            target.text[name] = target.text.get(name, "") + value
    calls = delta.get("tool_calls")
    for position, entry in enumerate(calls if isinstance(calls, list) else []):
        if not isinstance(entry, dict):
            continue
        index = entry["index"] if isinstance(entry.get("index"), int) else position
        call = target.calls.setdefault(index, AssembledCall(index))
        if isinstance(entry.get("id"), str):
            call.id += entry["id"]
        function = entry.get("function")
        if isinstance(function, dict):
            call.name += function.get("name") or ""
            call.arguments += function.get("arguments") or ""


def _add_anthropic(result: Assembled, event: dict[str, Any]) -> None:
    target = result.choices.get(0) or AssembledChoice(0)
    _add_event(result, target, event)
    if target.text or target.calls or target.finish_reason:
        result.choices[0] = target


def _add_event(result: Assembled, target: AssembledChoice, event: dict[str, Any]) -> None:
    kind = event["type"]
    message = event.get("message") if kind == "message_start" else event
    if kind in ("message_start", "message") and isinstance(message, dict):
        for block in message.get("content") or []:
            if isinstance(block, dict):
                _add_block(target, block, whole=True)
    elif kind == "content_block_start" and isinstance(event.get("content_block"), dict):
        _add_block(target, event["content_block"], whole=False)
    elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
        delta = event["delta"]
        for key, name in (("text", "text"), ("thinking", "thinking")):
            if isinstance(delta.get(key), str):
                target.text[name] = target.text.get(name, "") + delta[key]
        if isinstance(delta.get("partial_json"), str) and target.calls:
            target.calls[len(target.calls) - 1].arguments += delta["partial_json"]
    elif kind == "error":
        result.errors.append(event.get("error"))
    if not isinstance(message, dict):
        return
    if message.get("usage"):
        result.usage = message["usage"]
    delta = event.get("delta") if kind == "message_delta" else message
    if isinstance(delta, dict) and isinstance(delta.get("stop_reason"), str):
        target.finish_reason = delta["stop_reason"]


def _add_block(target: AssembledChoice, block: dict[str, Any], whole: bool) -> None:
    """One Anthropic content block; `whole` when it carries its full text or input."""
    if block.get("type") == "tool_use":
        call = AssembledCall(len(target.calls), str(block.get("id", "")), str(block.get("name", "")))
        if whole:
            call.arguments = orjson.dumps(block.get("input", {})).decode()
        target.calls[call.index] = call
    elif block.get("type") in ("text", "thinking"):
        name = block["type"]
        text = block.get(name)
        if isinstance(text, str) and text:
            target.text[name] = target.text.get(name, "") + text


def _add_response(result: Assembled, response: Any) -> None:
    """A Responses object once it is final (completed, incomplete or failed), into choice 0."""
    if not isinstance(response, dict) or response.get("status") in (None, "in_progress"):
        return
    target = AssembledChoice(0, finish_reason=str(response["status"]))
    for item in response.get("output") or []:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind in ("message", "reasoning"):
            name = "content" if kind == "message" else "reasoning"
            for part in item.get("content") or []:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    target.text[name] = target.text.get(name, "") + part["text"]
        elif kind in ("function_call", "custom_tool_call"):
            arguments = str(item.get("arguments" if kind == "function_call" else "input") or "")
            call_id, name = str(item.get("call_id", "")), str(item.get("name", ""))
            target.calls[len(target.calls)] = AssembledCall(len(target.calls), call_id, name, arguments)
    result.choices[0] = target
    if response.get("error"):
        result.errors.append(response["error"])
    if response.get("usage"):
        result.usage = response["usage"]


def _add_gemini(result: Assembled, chunk: dict[str, Any]) -> None:
    """A `GenerateContentResponse`: its candidates' parts appended, its usage kept."""
    if chunk.get("usageMetadata"):
        result.usage = chunk["usageMetadata"]
    candidates = chunk.get("candidates")
    for position, candidate in enumerate(candidates if isinstance(candidates, list) else []):
        if not isinstance(candidate, dict):
            continue
        index = candidate["index"] if isinstance(candidate.get("index"), int) else position
        target = result.choices.setdefault(index, AssembledChoice(index))
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if not isinstance(part, dict):
                continue
            if isinstance(part.get("text"), str) and part["text"]:
                name = "reasoning" if part.get("thought") is True else "content"
                target.text[name] = target.text.get(name, "") + part["text"]
            call = part.get("functionCall")
            if isinstance(call, dict):
                arguments = orjson.dumps(call.get("args") or {}).decode()
                number = len(target.calls)
                call_id, name = str(call.get("id", "")), str(call.get("name", ""))
                target.calls[number] = AssembledCall(number, call_id, name, arguments)
        if isinstance(candidate.get("finishReason"), str):
            target.finish_reason = candidate["finishReason"]


def to_json(result: Assembled) -> dict[str, Any]:
    """A JSON-ready dict of the assembled result."""
    return {
        "choices": [
            {
                "index": choice.index,
                "text": dict(choice.text),
                "tool_calls": [
                    {"index": c.index, "id": c.id, "name": c.name, "arguments": c.arguments}
                    for c in sorted(choice.calls.values(), key=lambda c: c.index)
                ],
                "finish_reason": choice.finish_reason,
            }
            for choice in sorted(result.choices.values(), key=lambda c: c.index)
        ],
        "errors": result.errors,
        "usage": result.usage,
        "events": result.events,
        "done": result.done,
        "undecoded": result.undecoded,
        "body": result.body,
    }
