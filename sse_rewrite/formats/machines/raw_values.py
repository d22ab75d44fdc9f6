"""Raw-text parameter values as JSON: typed by the tool's schema, or guessed without one.

Syntaxes whose values are raw text (Qwen3-Coder `<parameter=…>`, GLM `<arg_value>`, and those
that are declared like them) call `value_json` for each value, with the schema
`tool_parameters(tools, name).property(key)` gives. With the parameter's schema
(docs/behaviour.md, "Types"): `string` keeps the exact text; `null`, `boolean`, `integer`,
`number` take the text when it spells one (`None`, `True` too, as models trained on Python
write them); `object` and `array` parse as JSON (or a Python literal); type lists, `anyOf`,
`oneOf` and `$ref` widen what is tried, the other types before `string`. A text that fits no
declared type stays a string: the call's check then says so (a notice, never a change).
Without a schema (no tools, an unknown tool or parameter, a schema without a type), the
fallback guess: a value that is a JSON number, boolean, null, object or array keeps that type
(its text as written), anything else is a string.
"""

from __future__ import annotations

import ast
import math
import re

import orjson

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from ...tool_schemas import Parameters, Schema, ToolSchemas

_INTEGER: Final = re.compile(r"[+-]?\d+")
_JSON_HEADS: Final = '-{["0123456789tfn'
"""The characters every JSON text begins with, after its spacing: a value that begins otherwise
is a string, undecoded (a failed decode builds an exception: 3.7 µs a prose value)."""


def tool_parameters(tools: ToolSchemas | None, name: str) -> Parameters | None:
    """The parameters schema of the tool a call's `name` stands for (loose names included), if
    the request's tools are known: what a syntax passes to `value_json` with each value's schema."""
    return tools.parameters(tools.resolve(name)[0]) if tools else None


def value_json(raw: str, schema: Schema | None = None, parameters: Parameters | None = None) -> str:
    """The JSON text of one raw value, by `schema` (resolved within `parameters`) or guessed."""
    allowed = parameters.types(schema) if schema is not None and parameters is not None else set()
    if not allowed:
        return guessed(raw)
    if allowed != {"string"}:
        text = raw.strip()
        for kind, read in _READERS:
            if kind in allowed and (typed := read(text)) is not None:
                return typed
    return orjson.dumps(raw).decode()


def guessed(value: str) -> str:
    """Without a schema: a JSON scalar or container keeps its type and text, else a string."""
    if value.lstrip(" \t\n\r")[:1] not in _JSON_HEADS:  # ("" is in it: "" is decoded, and fails)
        return orjson.dumps(value).decode()
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError:
        parsed = value
    return orjson.dumps(value).decode() if isinstance(parsed, str) else value.strip()


def _null(text: str) -> str | None:
    return "null" if text in ("null", "None") else None


def _boolean(text: str) -> str | None:
    lowered = text.lower()
    return lowered if lowered in ("true", "false") else None


def _integer(text: str) -> str | None:
    return str(int(text)) if _INTEGER.fullmatch(text) else None


def _number(text: str) -> str | None:
    if _INTEGER.fullmatch(text):
        return str(int(text))
    try:
        number = float(text)
    except ValueError:
        return None
    return orjson.dumps(number).decode() if math.isfinite(number) else None


def _container(kind: type) -> Callable[[str], str | None]:
    def read(text: str) -> str | None:
        try:
            return text if isinstance(orjson.loads(text), kind) else None
        except orjson.JSONDecodeError:
            pass
        try:  # a Python literal (single quotes, True, None), as the reference parsers also take
            value = ast.literal_eval(text)
            return orjson.dumps(value).decode() if isinstance(value, kind) else None
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, orjson.JSONEncodeError):
            return None

    return read


_READERS: Final = (("null", _null), ("boolean", _boolean), ("integer", _integer), ("number", _number),
                   ("object", _container(dict)), ("array", _container(list)))  # fmt: skip
"""Each declared type's reader, in the order they are tried (`string` last: the exact text)."""
