"""Google's JSON names (pure): a request may name a field in lowerCamelCase or by its proto name.

Google's API servers read `parametersJsonSchema` and `parameters_json_schema` alike (the
proto3 JSON mapping), and the official Python SDK sends some fields in snake_case
(`parameters_json_schema`, `thinking_budget`). `camel_keys` gives a request every field in
lowerCamelCase, the one spelling the translation reads, and leaves alone what is the
client's own data: call `args`, a `functionResponse.response`, JSON Schemas
(`parametersJsonSchema`, `responseJsonSchema`), schema values (`default`, `example`,
`enum`, `const`) and the property names of a schema's `properties`.
"""

from __future__ import annotations

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_OPAQUE: Final = frozenset({"args", "response", "parametersJsonSchema", "responseJsonSchema", "default",
                            "example", "enum", "const"})
"""Fields whose value is the client's data, kept as it is."""
_NAMED: Final = frozenset({"properties", "$defs", "definitions", "patternProperties"})
"""Fields whose keys are names the client chose (their values are schemas)."""


def camel(name: str) -> str:
    """`thinking_budget` → `thinkingBudget`; a name without an inner `_` unchanged."""
    head, *rest = name.split("_")
    if not rest or not head:
        return name
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def camel_keys(value: Any) -> Any:
    """`value` with every field name in lowerCamelCase, the client's data left as it is."""
    if isinstance(value, list):
        return [camel_keys(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = camel(key) if isinstance(key, str) else key
        if name in _OPAQUE:
            out[name] = item
        elif name in _NAMED and isinstance(item, dict):
            out[name] = {field: camel_keys(schema) for field, schema in item.items()}
        else:
            out[name] = camel_keys(item)
    return out
