"""Reading chat.completions and request JSON, as the translated protocols all do.

Field readers that never raise (a field of the wrong type reads as empty), and
`RequestError` with `requested_model`, the start of every request translation.
"""

from __future__ import annotations

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class RequestError(ValueError):
    """The body is not a request we can translate; the message says where and why."""


def requested_model(body: Any) -> str:
    """The model a request body names; `RequestError` if it is no object or names none."""
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise RequestError("model: expected a model name")
    return model


def required_string(fields: dict[str, Any], name: str, where: str) -> str:
    """`fields[name]`, which must be a string; `RequestError` naming `where` if it is not."""
    value = fields.get(name)
    if not isinstance(value, str):
        raise RequestError(f"{where}.{name}: expected a string")
    return value


def string_field(fields: dict[str, Any], name: str) -> str:
    """`fields[name]` if it is a string, else ""."""
    value = fields.get(name)
    return value if isinstance(value, str) else ""


def object_field(fields: dict[str, Any], name: str) -> dict[str, Any]:
    """`fields[name]` if it is a JSON object, else {}."""
    value = fields.get(name)
    return value if isinstance(value, dict) else {}


def reasoning_text(fields: dict[str, Any]) -> str:
    """The reasoning text of a delta or message: `reasoning`, else `reasoning_content` (a mirror)."""
    return string_field(fields, "reasoning") or string_field(fields, "reasoning_content")


def token_count(*values: Any) -> int | None:
    """The first value that is a token count (an int, not a bool), else None."""
    return next((v for v in values if isinstance(v, int) and not isinstance(v, bool)), None)
