"""An Anthropic Messages request as a chat.completions request (pure: dict in, dict out).

`translate_request` builds a new request, so what it does not name (`cache_control`,
Anthropic-only fields, which get a notice) never reaches the upstream. The rules:

- `system` (a string or text blocks) becomes one leading system message; a
  `role: "system"` entry inside `messages` stays a system message where it is.
- Text blocks (and text `document`s) are joined with a newline; image blocks (base64
  or URL) become `image_url` parts, and a message holding one keeps a list of parts.
- Assistant `tool_use` blocks become `tool_calls`, `arguments` = the input as JSON;
  `thinking` blocks are dropped (chat.completions has no place for them).
- User `tool_result` blocks become `role: "tool"` messages placed *before* the turn's
  other content: Kimi rejects an assistant `tool_calls` not followed by its tool
  messages. Their content is joined into text; `is_error: true` puts `ERROR_PREFIX`
  in front (no gateway carries the flag); an image in a result moves into the user
  message that follows, and the tool text says so.
- Tool ids go back to the model's own (`native_id`): the upstream sees
  `functions.bash:15`, not `toolu_functions-2Ebash-3A15`.
- `tools[].input_schema` becomes `function.parameters`; a tool without one (a server
  tool such as `web_search_…`) has no chat.completions form: dropped, with a notice.
  `tool_choice` auto/any/tool/none becomes auto/required/the named function/none,
  `disable_parallel_tool_use` `parallel_tool_calls: false`; both only if tools remain.
- `max_tokens`, `temperature`, `top_p`, `top_k` (OpenRouter, vLLM and SGLang take it)
  are copied, `stop_sequences` becomes `stop`, `metadata.user_id` becomes `user`.
- `thinking.budget_tokens` becomes `reasoning_effort` (OpenAI's field; OpenRouter reads
  it as `reasoning.effort`): below 4,096 `low`, below 16,384 `medium`, else `high`, so
  "think" (4,000), "think hard" (10,000) and "ultrathink" (31,999) land on the three
  levels in order. Without a budget (Claude Code 2 sends `thinking: adaptive`),
  `output_config.effort` is used: low, medium, high as they are, `max` as `high`.
- `context_management` is dropped without a notice: its edits clear thinking blocks,
  which never reach the upstream anyway.
- `stream: true` is kept and asks for `stream_options.include_usage`, so usage arrives.
- The model is chosen by `models.upstream_model`.

A request that cannot be translated raises `RequestError`, whose message names the
place (`messages.2.content.0: …`).
"""

from __future__ import annotations

import orjson

from ...stream.events import Notice
from ..fields import RequestError, requested_model, required_string
from .mapping import native_id
from .models import ModelChoice, upstream_model

# typing is imported for type checkers only, as in the core (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

ERROR_PREFIX: Final = "[tool error] "
"""Put in front of a tool result's text when the client marked it `is_error`."""

_JOINER: Final = "\n"
_EFFORT_BY_BUDGET: Final = ((4096, "low"), (16384, "medium"))  # below the bound: that effort
_EFFORTS: Final = {"low": "low", "medium": "medium", "high": "high", "max": "high"}
_TOOL_CHOICES: Final = {"auto": "auto", "any": "required", "none": "none"}
_COPIED: Final = ("max_tokens", "temperature", "top_p", "top_k")
_KNOWN: Final = {*_COPIED, "model", "messages", "system", "stop_sequences", "metadata", "thinking",
                 "tools", "tool_choice", "stream", "output_config", "context_management"}
_IMAGE_MOVED: Final = "(image: attached to the next user message)"


def translate_request(body: Any, choice: ModelChoice | None = None) -> tuple[dict[str, Any], list[Notice]]:
    """The chat.completions request for an Anthropic Messages request body, and notices."""
    model = requested_model(body)
    notes: list[Notice] = []
    out: dict[str, Any] = {"model": upstream_model(model, choice or ModelChoice())}
    out["messages"] = _messages(body, notes)
    out.update({name: body[name] for name in _COPIED if body.get(name) is not None})
    if isinstance(stop := body.get("stop_sequences"), list) and stop:
        out["stop"] = stop
    if isinstance(user := _object(body, "metadata").get("user_id"), str):
        out["user"] = user
    if effort := _reasoning_effort(body, notes):
        out["reasoning_effort"] = effort
    if tools := _tools(body.get("tools"), notes):
        out["tools"] = tools
        out.update(_tool_choice(body.get("tool_choice")))
    if body.get("stream") is True:
        out["stream"] = True
        out["stream_options"] = {"include_usage": True}
    if unknown := sorted(set(body) - _KNOWN):
        notes.append(Notice("request-fields-dropped", f"no chat.completions form, not sent: {unknown}"))
    return out, notes


def _reasoning_effort(body: dict[str, Any], notes: list[Notice]) -> str | None:
    thinking, output = _object(body, "thinking"), _object(body, "output_config")
    if other := sorted(set(output) - {"effort"}):
        note = f"no chat.completions form, not sent: output_config {other}"
        notes.append(Notice("request-fields-dropped", note))
    if thinking.get("type") == "enabled" and isinstance(budget := thinking.get("budget_tokens"), int):
        return next((effort for bound, effort in _EFFORT_BY_BUDGET if budget < bound), "high")
    effort = output.get("effort")
    return _EFFORTS.get(effort) if isinstance(effort, str) else None


def _messages(body: dict[str, Any], notes: list[Notice]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    system = body.get("system")
    if system is not None and (text := _text(_blocks(system, "system"), "system", notes)):
        out.append({"role": "system", "content": text})
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise RequestError("messages: expected a list of messages")
    for i, message in enumerate(messages):
        where = f"messages.{i}"
        if not isinstance(message, dict):
            raise RequestError(f"{where}: expected an object with role and content")
        blocks = _blocks(message.get("content"), f"{where}.content")
        match message.get("role"):
            case "user":
                out += _user_turn(blocks, where, notes)
            case "assistant":
                out += _assistant_turn(blocks, where, notes)
            case "system":
                out.append({"role": "system", "content": _text(blocks, where, notes)})
            case role:
                raise RequestError(f"{where}.role: expected user, assistant or system, not {role!r}")
    return out


def _user_turn(blocks: list[dict[str, Any]], where: str, notes: list[Notice]) -> list[dict[str, Any]]:
    tool_messages: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    for j, block in enumerate(blocks):
        place = f"{where}.content.{j}"
        if block.get("type") == "tool_result":
            text, images = _tool_result_text(block, place, notes)
            call_id = native_id(required_string(block, "tool_use_id", place))
            tool_messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
            parts += images
        elif part := _part(block, place, notes):
            parts.append(part)
    return tool_messages + ([{"role": "user", "content": _content(parts)}] if parts else [])


def _assistant_turn(blocks: list[dict[str, Any]], where: str, notes: list[Notice]) -> list[dict[str, Any]]:
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for j, block in enumerate(blocks):
        place = f"{where}.content.{j}"
        kind = block.get("type")
        if kind == "text":
            texts.append(required_string(block, "text", place))
        elif kind == "tool_use":
            arguments = orjson.dumps(block.get("input", {})).decode()
            function = {"name": required_string(block, "name", place), "arguments": arguments}
            call_id = native_id(required_string(block, "id", place))
            calls.append({"id": call_id, "type": "function", "function": function})
        elif kind not in ("thinking", "redacted_thinking"):
            notes.append(Notice("block-dropped", f"{place}: {kind!r} block has no chat.completions form"))
    if not texts and not calls:
        return []  # only thinking: nothing for the upstream to read
    message: dict[str, Any] = {"role": "assistant", "content": _JOINER.join(texts) if texts else None}
    if calls:
        message["tool_calls"] = calls
    return [message]


def _tool_result_text(
    block: dict[str, Any], place: str, notes: list[Notice]
) -> tuple[str, list[dict[str, Any]]]:
    """The result's text for the tool message, and its images for the next user message."""
    texts: list[str] = []
    images: list[dict[str, Any]] = []
    content = block.get("content")
    for j, item in enumerate(_blocks("" if content is None else content, f"{place}.content")):
        part = _part(item, f"{place}.content.{j}", notes, keep_unknown=True)
        if part is None:
            continue
        if part["type"] == "text":
            texts.append(part["text"])
        else:
            images.append(part)
            texts.append(_IMAGE_MOVED)
    text = _JOINER.join(texts)
    return (ERROR_PREFIX + text if block.get("is_error") is True else text), images


def _part(
    block: dict[str, Any], place: str, notes: list[Notice], keep_unknown: bool = False
) -> dict[str, Any] | None:
    """A text or image_url content part for one block; None (and a notice) when it has no form."""
    kind = block.get("type")
    source = _object(block, "source")
    if kind == "text":
        return {"type": "text", "text": required_string(block, "text", place)}
    if kind == "image" and source.get("type") == "base64":
        media_type = required_string(source, "media_type", place)
        url = f"data:{media_type};base64,{required_string(source, 'data', place)}"
        return {"type": "image_url", "image_url": {"url": url}}
    if kind == "image" and source.get("type") == "url":
        return {"type": "image_url", "image_url": {"url": required_string(source, "url", place)}}
    if kind == "document" and source.get("type") == "text":
        return {"type": "text", "text": required_string(source, "data", place)}
    if keep_unknown:  # inside a tool result: the model still gets to read it, as JSON
        return {"type": "text", "text": orjson.dumps(block).decode()}
    notes.append(Notice("block-dropped", f"{place}: {kind!r} block has no chat.completions form"))
    return None


def _content(parts: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    """Text only: one string. With images: the parts in order, adjacent texts joined."""
    if all(part["type"] == "text" for part in parts):
        return _JOINER.join(part["text"] for part in parts)
    merged: list[dict[str, Any]] = []
    for part in parts:
        if part["type"] == "text" and merged and merged[-1]["type"] == "text":
            merged[-1] = {"type": "text", "text": merged[-1]["text"] + _JOINER + part["text"]}
        else:
            merged.append(part)
    return merged


def _text(blocks: list[dict[str, Any]], where: str, notes: list[Notice]) -> str:
    parts = [_part(block, f"{where}.{j}", notes) for j, block in enumerate(blocks)]
    return _JOINER.join(part["text"] for part in parts if part is not None and part["type"] == "text")


def _tools(tools: Any, notes: list[Notice]) -> list[dict[str, Any]]:
    if not isinstance(tools, list | None):
        raise RequestError("tools: expected a list of tools")
    out: list[dict[str, Any]] = []
    for i, tool in enumerate(tools or []):
        if not isinstance(tool, dict):
            raise RequestError(f"tools.{i}: expected an object")
        name = required_string(tool, "name", f"tools.{i}")
        if not isinstance(schema := tool.get("input_schema"), dict):
            note = f"tools.{i} ({tool.get('type')!s} {name!r}) has no input_schema: a server tool, not sent"
            notes.append(Notice("server-tool-dropped", note))
            continue
        function: dict[str, Any] = {"name": name, "parameters": schema}
        if isinstance(description := tool.get("description"), str):
            function["description"] = description
        out.append({"type": "function", "function": function})
    return out


def _tool_choice(choice: Any) -> dict[str, Any]:
    if choice is None:
        return {}
    if not isinstance(choice, dict):
        raise RequestError("tool_choice: expected an object such as {\"type\": \"auto\"}")
    kind = choice.get("type")
    out: dict[str, Any] = {}
    if kind == "tool":
        name = required_string(choice, "name", "tool_choice")
        out["tool_choice"] = {"type": "function", "function": {"name": name}}
    elif isinstance(kind, str) and kind in _TOOL_CHOICES:
        out["tool_choice"] = _TOOL_CHOICES[kind]
    else:
        raise RequestError(f"tool_choice.type: expected auto, any, tool or none, not {kind!r}")
    if choice.get("disable_parallel_tool_use") is True:
        out["parallel_tool_calls"] = False
    return out


def _blocks(content: Any, where: str) -> list[dict[str, Any]]:
    """Content as a list of blocks: a string is one text block."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list) or not all(isinstance(block, dict) for block in content):
        raise RequestError(f"{where}: expected a string or a list of content blocks")
    return content


def _object(fields: dict[str, Any], name: str) -> dict[str, Any]:
    value = fields.get(name)
    return value if isinstance(value, dict) else {}
