"""Responses input items as chat.completions messages (pure: lists in, lists out).

The rules, item by item (`input_messages`):

- `message` (or an item with a `role` and no `type`): `developer` becomes `system`;
  its content (a string, or parts) joined into one text. `input_text`, `output_text`,
  `text` and `refusal` parts are text; an `input_image` with an `image_url` becomes an
  `image_url` part, and a message holding one keeps a list of parts. Parts with no
  chat.completions form (`input_file`, an image by `file_id`) are dropped with a notice.
- `function_call` becomes a `tool_calls` entry of an assistant message (the one just
  before, if the last message is the assistant's), its id the item's `call_id`, which is
  the model's own (`functions.bash:0`): the upstream sees the id it wrote.
- `custom_tool_call` likewise, its arguments `{"input": <the raw input>}`: the custom
  tool is a function with one string parameter upstream (see `request.py`).
- `function_call_output` and `custom_tool_call_output` become `role: "tool"` messages;
  an output given as parts is joined into text (non-text parts as JSON).
- `reasoning` items are dropped: their text was the model's own, and their
  `encrypted_content` (never ours) is for OpenAI alone.
- Anything else (`item_reference`, hosted tool calls) is dropped with a notice.

The same rules read a stored response's output items back into messages.
"""

from __future__ import annotations

import orjson

from ...stream.events import Notice
from ..fields import RequestError, required_string

# typing is imported for type checkers only, as in the core (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_JOINER: Final = "\n"
_TEXT_PARTS: Final = frozenset({"input_text", "output_text", "text", "refusal", "summary_text"})
_ROLES: Final = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_CALLS: Final = frozenset({"function_call", "custom_tool_call"})
_OUTPUTS: Final = frozenset({"function_call_output", "custom_tool_call_output"})


def input_messages(items: Any, notes: list[Notice], where: str = "input") -> list[dict[str, Any]]:
    """The chat.completions messages for a request's `input` (a string or a list of items)."""
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    if not isinstance(items, list):
        raise RequestError(f"{where}: expected a string or a list of items")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        place = f"{where}.{i}"
        if not isinstance(item, dict):
            raise RequestError(f"{place}: expected an object")
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "message":
            out.append(_message(item, place, notes))
        elif kind in _CALLS:
            _add_call(out, item, place)
        elif kind in _OUTPUTS:
            out.append({"role": "tool", "tool_call_id": required_string(item, "call_id", place),
                        "content": _output_text(item.get("output"), place)})
        elif kind != "reasoning":
            notes.append(Notice("item-dropped", f"{place}: {kind!r} item has no chat.completions form"))
    return out


def output_messages(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`input_messages(items, [], "output")` for a response's own output items, as this front makes them.

    An assistant message of `output_text` parts, a `function_call` and a `reasoning` item are
    read here without the checks and error places a client's input needs (a stored request
    pays this on every answer); any other item or field sends the whole list through
    `input_messages`, so the messages are the same either way.
    """
    out: list[dict[str, Any]] = []
    for item in items if type(items) is list else ():
        kind = item.get("type") if type(item) is dict else None
        if kind == "message":
            content = item.get("content")
            if item.get("role") != "assistant" or type(content) is not list:
                return input_messages(items, [], "output")
            texts = []
            for part in content:
                text = part.get("text") if type(part) is dict and part.get("type") == "output_text" else None
                if type(text) is not str:
                    return input_messages(items, [], "output")
                texts.append(text)
            out.append({"role": "assistant", "content": _JOINER.join(texts)})
        elif kind == "function_call":
            arguments, name, call_id = item.get("arguments"), item.get("name"), item.get("call_id")
            if type(arguments) is not str or type(name) is not str or type(call_id) is not str:
                return input_messages(items, [], "output")
            call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            if not out or out[-1]["role"] != "assistant":
                out.append({"role": "assistant", "content": None})
            out[-1].setdefault("tool_calls", []).append(call)
        elif kind != "reasoning":
            return input_messages(items, [], "output")
    return out if type(items) is list else input_messages(items, [], "output")


def _message(item: dict[str, Any], place: str, notes: list[Notice]) -> dict[str, Any]:
    role = _ROLES.get(item.get("role"))  # type: ignore[arg-type]
    if role is None:
        expected = "expected user, assistant, system or developer"
        raise RequestError(f"{place}.role: {expected}, not {item.get('role')!r}")
    content = item.get("content")
    if isinstance(content, str):
        return {"role": role, "content": content}
    if not isinstance(content, list):
        raise RequestError(f"{place}.content: expected a string or a list of parts")
    parts = [p for j, part in enumerate(content) if (p := _part(part, f"{place}.content.{j}", notes))]
    if role == "user" and any(part["type"] == "image_url" for part in parts):
        return {"role": role, "content": parts}
    return {"role": role, "content": _JOINER.join(part["text"] for part in parts if part["type"] == "text")}


def _part(part: Any, place: str, notes: list[Notice]) -> dict[str, Any] | None:
    if not isinstance(part, dict):
        raise RequestError(f"{place}: expected a content part object")
    kind = part.get("type")
    if kind in _TEXT_PARTS:
        field = "refusal" if kind == "refusal" else "text"
        return {"type": "text", "text": required_string(part, field, place)}
    if kind == "input_image" and isinstance(url := part.get("image_url"), str):
        image: dict[str, Any] = {"url": url}
        if isinstance(detail := part.get("detail"), str) and detail != "auto":
            image["detail"] = detail
        return {"type": "image_url", "image_url": image}
    notes.append(Notice("part-dropped", f"{place}: {kind!r} part has no chat.completions form"))
    return None


def _add_call(out: list[dict[str, Any]], item: dict[str, Any], place: str) -> None:
    if item["type"] == "function_call":
        arguments = required_string(item, "arguments", place)
    else:
        arguments = orjson.dumps({"input": required_string(item, "input", place)}).decode()
    function = {"name": required_string(item, "name", place), "arguments": arguments}
    call = {"id": required_string(item, "call_id", place), "type": "function", "function": function}
    if not out or out[-1]["role"] != "assistant":
        out.append({"role": "assistant", "content": None})
    out[-1].setdefault("tool_calls", []).append(call)


def _output_text(output: Any, place: str) -> str:
    if isinstance(output, str):
        return output
    if not isinstance(output, list):
        raise RequestError(f"{place}.output: expected a string or a list of parts")
    texts = []
    for part in output:
        is_text = isinstance(part, dict) and part.get("type") in _TEXT_PARTS
        is_text = is_text and isinstance(part.get("text"), str)
        texts.append(part["text"] if is_text else orjson.dumps(part).decode())
    return _JOINER.join(texts)
