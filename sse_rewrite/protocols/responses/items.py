"""The output items of a response, their shapes, and what the encoder is told about the request."""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from ...stream.events import Notice

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    TextKind = Literal["message", "reasoning"]
    CallKind = Literal["function_call", "custom_tool_call"]


@dataclass(frozen=True, slots=True)
class ResponseContext:
    """What the request tells the encoder: the response id (else derived from the stream
    id), the request fields the response object repeats, and the custom tools by name."""

    response_id: str | None = None
    echo: dict[str, Any] = field(default_factory=dict)
    custom_tools: frozenset[str] = frozenset()


def text_item(kind: TextKind, item_id: str) -> dict[str, Any]:
    """A message or reasoning item as it opens (no content yet)."""
    if kind == "message":
        return {"id": item_id, "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    return {"id": item_id, "type": "reasoning", "summary": [], "content": []}


def call_item(kind: CallKind, item_id: str, call_id: str, name: str) -> dict[str, Any]:
    """A function or custom tool call item as it opens (no arguments or input yet)."""
    body = {"arguments": ""} if kind == "function_call" else {"input": ""}
    return {"id": item_id, "type": kind, "status": "in_progress", **body, "call_id": call_id, "name": name}


def text_part(kind: TextKind, text: str) -> dict[str, Any]:
    """The one content part of a message (`output_text`) or reasoning item (`reasoning_text`)."""
    if kind == "message":
        return {"type": "output_text", "text": text, "annotations": []}
    return {"type": "reasoning_text", "text": text}


def custom_input(arguments: str, name: str) -> tuple[str, list[Notice]]:
    """A custom tool call's raw input from the function arguments the model wrote.

    The function has one string parameter (`input`; see `request`): its value is the
    input. Arguments that are not such an object are taken as the input, with a notice.
    """
    try:
        value = orjson.loads(arguments)
    except orjson.JSONDecodeError:
        value = None
    if isinstance(value, dict):
        if isinstance(value.get("input"), str):
            return value["input"], []
        strings = [v for v in value.values() if isinstance(v, str)]
        if len(value) == 1 and strings:
            return strings[0], []
    note = f"custom tool {name!r}: arguments are not {{\"input\": string}}; sent as the raw input"
    return arguments, [Notice("custom-input-raw", note)]
