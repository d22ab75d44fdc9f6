"""Gemini's schemas as JSON Schema (pure).

A function's `parameters` and a `responseSchema` use Gemini's subset of OpenAPI 3.0: type
names in upper case (`OBJECT`, `STRING`, …), `nullable: true` instead of a `"null"` type,
and a `propertyOrdering` list that is no JSON Schema keyword. Gemini CLI also writes upper
case types into a `responseJsonSchema`. `json_schema` turns either into plain JSON Schema:
type names in lower case, `nullable` as a `"null"` type, `propertyOrdering` left out;
every other keyword is kept as written. A schema in plain JSON Schema comes out unchanged.
"""

from __future__ import annotations

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_TYPES: Final = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
_SCHEMA_LISTS: Final = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAPS: Final = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_VALUES: Final = ("items", "additionalProperties", "not", "contains")


def json_schema(schema: Any) -> Any:
    """`schema` (Gemini's OpenAPI subset or JSON Schema) as JSON Schema; not an object: unchanged."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("nullable", "propertyOrdering"):
            continue
        if key == "type":
            out[key] = _type(value)
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: json_schema(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [json_schema(sub) for sub in value]
        elif key in _SCHEMA_VALUES:
            out[key] = json_schema(value)
        else:
            out[key] = value
    if schema.get("nullable") is True:
        out.update(_nullable(out))
    return out


def _type(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in _TYPES:
        return value.lower()
    if isinstance(value, list):
        return [_type(item) for item in value]
    return value


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The fields that let `schema` also be null."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {"type": [kind, "null"]} if kind != "null" else {}
    if isinstance(kind, list):
        return {"type": kind if "null" in kind else [*kind, "null"]}
    if "anyOf" in schema:
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {}  # no type: null is already allowed
