"""Pure parsers for the three bodies a `<tool_call>` tag may hold, once it is complete.

    Hermes, Qwen2.5:  {"name": "get_weather", "arguments": {"city": "Dallas"}}
    Qwen3-Coder:      <function=get_weather>\n<parameter=city>\nDallas\n</parameter>\n</function>
    GLM-4.5 / 4.6:    get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas</arg_value>

Each returns `(name, arguments JSON text)`, or None when the body is malformed. XML
and GLM values are raw text: those that are JSON numbers, booleans, null, objects or
arrays keep that type (their text is copied as written); anything else is a string.
"""

from __future__ import annotations

from typing import Final

import orjson

Call = tuple[str, str]
"""A parsed body: `(name, arguments JSON text)`."""

FUNCTION: Final = "<function="
_FUNCTION_END: Final = "</function>"
_PARAMETER: Final = ("<parameter=", ">", "</parameter>")
_GLM_KEY: Final = ("<arg_key>", "</arg_key>")
_GLM_VALUE: Final = ("<arg_value>", "</arg_value>")
_MAX_NAME: Final = 256


def is_name(text: str) -> bool:
    """A plausible tool name: non-empty, no whitespace or `<`, not overly long."""
    return 0 < len(text) <= _MAX_NAME and not any(c.isspace() or c == "<" for c in text)


def hermes_call(body: str) -> Call | None:
    """`{"name": ..., "arguments": {...} or "..."}` (`parameters` is accepted for `arguments`)."""
    try:
        call = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str) or not is_name(call["name"]):
        return None
    arguments = call.get("arguments", call.get("parameters", {}))
    if isinstance(arguments, str):  # already JSON text, as some servers send it
        return call["name"], arguments.strip() or "{}"
    return call["name"], orjson.dumps(arguments).decode()


def qwen_xml_call(body: str) -> Call | None:
    """`<function=NAME>` with `<parameter=KEY>VALUE</parameter>` pairs, up to `</function>`."""
    body = body.strip()
    if not body.startswith(FUNCTION) or not body.endswith(_FUNCTION_END):
        return None
    name, _, rest = body[len(FUNCTION) : -len(_FUNCTION_END)].partition(">")
    opener, key_end, closer = _PARAMETER
    pairs = []
    while (begin := rest.find(opener)) != -1:
        key, found, rest = rest[begin + len(opener) :].partition(key_end)
        value, closed, rest = rest.partition(closer)
        if not (found and closed):
            return None
        pairs.append((key.strip(), value))
    return (name.strip(), typed_object(pairs)) if is_name(name.strip()) else None


def glm_call(body: str) -> Call | None:
    """`NAME` then `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>` pairs."""
    name, _, rest = body.partition(_GLM_KEY[0])
    rest = _GLM_KEY[0] + rest if rest else ""
    pairs = []
    while rest.strip():
        key, rest = _between(rest, *_GLM_KEY)
        value, rest = _between(rest, *_GLM_VALUE)
        if key is None or value is None:
            return None
        pairs.append((key.strip(), value))
    return (name.strip(), typed_object(pairs)) if is_name(name.strip()) else None


def _between(text: str, opener: str, closer: str) -> tuple[str | None, str]:
    """The text inside `opener...closer` when `text` starts with it (after spacing), and the rest."""
    text = text.lstrip()
    if not text.startswith(opener):
        return None, text
    inner, found, rest = text[len(opener) :].partition(closer)
    return (inner, rest) if found else (None, text)


def typed_object(pairs: list[tuple[str, str]]) -> str:
    """A JSON object from raw `(key, value)` texts, typing each value (see the module docstring)."""
    members = []
    for key, raw in pairs:
        value = raw.removeprefix("\n").removesuffix("\n")  # the newlines belong to the markup
        members.append(f"{orjson.dumps(key).decode()}: {_typed(value)}")
    return "{" + ", ".join(members) + "}"


def _typed(value: str) -> str:
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError:
        parsed = value
    return orjson.dumps(value).decode() if isinstance(parsed, str) else value.strip()
