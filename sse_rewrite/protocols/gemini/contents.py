"""A Gemini conversation (`systemInstruction`, `contents`) as chat.completions messages (pure).

Each `Content` is a turn, `role` `user` (the default) or `model`, made of parts:

- `text` becomes the turn's text; parts marked `thought: true` (the model's own thinking,
  sent back) are left out, as is every `thoughtSignature`;
- `inlineData` and `fileData` of an `image/*` type become `image_url` parts of a user
  message (a `data:` URL for inline bytes); other media have no chat.completions form and
  are left out with a notice;
- `functionCall` parts of a model turn become the assistant message's `tool_calls`, their
  `args` as the JSON `arguments`;
- `functionResponse` parts of a user turn become `role: tool` messages, before the turn's
  other parts; the content is the `response`'s lone string `output` (what Gemini CLI sends)
  or else the whole `response` as JSON.

Ids: a `functionCall` keeps the `id` it carries (the proxy sends the model's own ids, so
they come back); one without gets `functions.NAME:N`, N counting the conversation's calls
(Kimi's own spelling). A `functionResponse` takes its `id` if a call has it, else the
oldest unanswered call of its name, else the oldest unanswered call.
"""

from __future__ import annotations

import orjson

from ...stream.events import Notice
from ..fields import RequestError

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_KNOWN_PARTS: Final = frozenset({"text", "inlineData", "fileData", "functionCall", "functionResponse"})


def system_text(instruction: Any) -> str:
    """The text of a `systemInstruction` (a `Content`, or a plain string)."""
    if instruction is None:
        return ""
    if isinstance(instruction, str):
        return instruction
    parts = instruction.get("parts") if isinstance(instruction, dict) else None
    if not isinstance(parts, list):
        raise RequestError("systemInstruction: expected a Content with parts")
    texts = [part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return "\n".join(texts)


def content_messages(contents: Any, notes: list[Notice]) -> list[dict[str, Any]]:
    """The messages for a request's `contents`; `RequestError` for a shape that cannot be read."""
    if isinstance(contents, dict):
        contents = [contents]
    if not isinstance(contents, list):
        raise RequestError("contents: expected a list of Content objects")
    calls = _Calls()
    messages: list[dict[str, Any]] = []
    for i, content in enumerate(contents):
        if not isinstance(content, dict):
            raise RequestError(f"contents.{i}: expected a Content object")
        parts = content.get("parts")
        if not isinstance(parts, list):
            raise RequestError(f"contents.{i}.parts: expected a list of parts")
        role = content.get("role") or "user"
        if role not in ("user", "model"):
            raise RequestError(f"contents.{i}.role: expected 'user' or 'model', not {role!r}")
        where = f"contents.{i}"
        turn = _model_turn if role == "model" else _user_turn
        messages += turn(parts, where, calls, notes)
    return messages


class _Calls:
    """The conversation's calls so far: ids given, and which are still unanswered."""

    def __init__(self) -> None:
        self.count = 0
        self.open: list[tuple[str, str]] = []  # (id, name), oldest first

    def called(self, call_id: Any, name: str) -> str:
        given = call_id if isinstance(call_id, str) and call_id else f"functions.{name}:{self.count}"
        self.count += 1
        self.open.append((given, name))
        return given

    def answered(self, call_id: Any, name: str) -> str:
        for choose in (lambda c: c[0] == call_id, lambda c: c[1] == name, lambda c: True):
            found = next((call for call in self.open if choose(call)), None)
            if found is not None:
                self.open.remove(found)
                return found[0]
        return call_id if isinstance(call_id, str) and call_id else f"functions.{name}:{self.count}"


def _parts(parts: list[Any], where: str, notes: list[Notice]) -> list[tuple[str, Any]]:
    """The parts that count, as (kind, value); thoughts and unknown kinds left out."""
    out: list[tuple[str, Any]] = []
    for j, part in enumerate(parts):
        if not isinstance(part, dict):
            raise RequestError(f"{where}.parts.{j}: expected a part object")
        if part.get("thought") is True:
            continue  # the model's thinking, sent back: no chat.completions form
        kind = next((name for name in _KNOWN_PARTS if name in part), None)
        if kind is None:
            if other := sorted(set(part) - {"thoughtSignature", "thought", "partMetadata", "videoMetadata"}):
                notes.append(Notice("request-parts-dropped", f"{where}.parts.{j} {other} has no "
                                    "chat.completions form: not sent"))
            continue
        out.append((kind, part[kind]))
    return out


def _model_turn(parts: list[Any], where: str, calls: _Calls, notes: list[Notice]) -> list[dict[str, Any]]:
    texts: list[str] = []
    tool_calls: list[dict[str, Any]] = []
    for kind, value in _parts(parts, where, notes):
        if kind == "text" and isinstance(value, str):
            texts.append(value)
        elif kind == "functionCall" and isinstance(value, dict) and isinstance(value.get("name"), str):
            args = value.get("args") if value.get("args") is not None else {}
            call_id = calls.called(value.get("id"), value["name"])
            tool_calls.append({"id": call_id, "type": "function",
                               "function": {"name": value["name"], "arguments": orjson.dumps(args).decode()}})
        else:
            notes.append(Notice("request-parts-dropped", f"{where}: a model {kind} part has no "
                                "chat.completions form: not sent"))
    if not texts and not tool_calls:
        return []
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) or None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return [message]


def _user_turn(parts: list[Any], where: str, calls: _Calls, notes: list[Notice]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    pieces: list[dict[str, Any]] = []
    for kind, value in _parts(parts, where, notes):
        if kind == "text" and isinstance(value, str):
            pieces.append({"type": "text", "text": value})
        elif kind == "functionResponse" and isinstance(value, dict):
            name = value["name"] if isinstance(value.get("name"), str) else ""
            results.append({"role": "tool", "tool_call_id": calls.answered(value.get("id"), name),
                            "content": _response_text(value.get("response"))})
        elif kind in ("inlineData", "fileData") and (image := _image(kind, value)) is not None:
            pieces.append(image)
        else:
            mime = value.get("mimeType") if isinstance(value, dict) else None
            notes.append(Notice("request-parts-dropped", f"{where}: a {kind} part ({mime or 'no type'}) "
                                "has no chat.completions form: not sent"))
    if not pieces:
        return results
    if all(piece["type"] == "text" for piece in pieces) and len(pieces) == 1:
        return [*results, {"role": "user", "content": pieces[0]["text"]}]
    return [*results, {"role": "user", "content": pieces}]


def _response_text(response: Any) -> str:
    if isinstance(response, dict) and set(response) == {"output"} and isinstance(response["output"], str):
        return response["output"]
    return orjson.dumps(response if response is not None else {}).decode()


def _image(kind: str, value: Any) -> dict[str, Any] | None:
    """An `image_url` part for image data or an image file, else None."""
    if not isinstance(value, dict):
        return None
    mime = value.get("mimeType")
    if not isinstance(mime, str) or not mime.startswith("image/"):
        return None
    if kind == "inlineData" and isinstance(value.get("data"), str):
        return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{value['data']}"}}
    if kind == "fileData" and isinstance(value.get("fileUri"), str):
        return {"type": "image_url", "image_url": {"url": value["fileUri"]}}
    return None
