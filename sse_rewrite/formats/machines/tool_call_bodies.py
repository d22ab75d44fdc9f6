"""Pure parsers for the three bodies a `<tool_call>` tag may hold, once it is complete.

    Hermes, Qwen2.5:  {"name": "get_weather", "arguments": {"city": "Dallas"}}
    Qwen3-Coder:      <function=get_weather>\n<parameter=city>\nDallas\n</parameter>\n</function>
    GLM-4.5 / 4.6:    get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas</arg_value>

Each returns `(name, arguments JSON text)`, or None when the body is malformed. XML
and GLM values are raw text, typed by the tool's schema when the request's tools are known
(`tools`), else guessed (`raw_values.value_json`).
"""

from __future__ import annotations

import enum
import json
import re

import orjson

from ._json import is_json
from ._tag_spelling import TOOL_CALL, TagSpelling
from .raw_values import tool_parameters, value_json

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import Parameters, ToolSchemas

Call = tuple[str, str]
"""A parsed body: `(name, arguments JSON text)`."""


class Body(enum.Enum):
    """The three bodies a `<tool_call>` tag may hold."""

    JSON = "hermes"
    XML = "qwen3-coder"
    GLM = "glm"


FUNCTION: Final = "<function="
"""How a Qwen3-Coder XML body begins."""
FUNCTION_END: Final = "</function>"
"""How a Qwen3-Coder XML body ends."""
_PARAMETER: Final = ("<parameter=", ">", "</parameter>")
_MAX_NAME: Final = 256
_DECODER: Final = json.JSONDecoder()
# The parts of a JSON object around its member values (JSON spacing is these four characters).
_OBJECT_START: Final = re.compile(r"[ \t\r\n]*\{[ \t\r\n]*")
_MEMBER_KEY: Final = re.compile(r'("(?:[^"\\]|\\.)*")[ \t\r\n]*:[ \t\r\n]*')
_AFTER_VALUE: Final = re.compile(r"[ \t\r\n]*([,}])[ \t\r\n]*")
_NOT_IN_A_NAME: Final = re.compile(r"[\s<]")  # (`\s` is what `str.isspace` takes for spacing)


def is_name(text: str) -> bool:
    """A plausible tool name: non-empty, no whitespace or `<`, not overly long."""
    return 0 < len(text) <= _MAX_NAME and _NOT_IN_A_NAME.search(text) is None


def hermes_call(body: str, keys: tuple[str, ...] = TOOL_CALL.json_keys) -> Call | None:
    """`{"name": ..., "arguments": {...} or "..."}` (the first of `keys` it has holds the arguments:
    `arguments`, else `parameters`, by default).

    Object arguments are passed on as the model wrote them, byte for byte.
    """
    members = json_members(body)
    if members is None or "name" not in members:
        return None
    name = orjson.loads(members["name"])  # (valid: `json_members` checked the whole body)
    if not isinstance(name, str) or not is_name(name):
        return None
    arguments = next((members[key] for key in keys if key in members), "{}")
    if arguments.startswith('"'):  # JSON text inside a string, as some servers send it, is that text
        inner = json.loads(arguments).strip()  # (an object's, even broken: the client decides)
        if not inner or inner.startswith("{") or is_json(inner):
            arguments = inner
    return name, arguments or "{}"  # (a string of anything else stays the JSON written: `"hello"`)


def json_members(text: str) -> dict[str, str] | None:
    """The raw text of each member value of the JSON object `text`, or None if it is not one."""
    try:
        orjson.loads(text)  # strict JSON (no NaN) with a depth limit, before the walk below
    except orjson.JSONDecodeError:
        return None
    opened = _OBJECT_START.match(text)
    if opened is None:  # JSON, but not an object
        return None
    members: dict[str, str] = {}
    pos = opened.end()
    if text.startswith("}", pos):
        return members if not text[pos + 1 :].strip() else None
    try:
        while True:  # (the text is valid JSON: every member has this shape)
            key = _MEMBER_KEY.match(text, pos)
            if key is None:
                return None
            _, pos = _DECODER.raw_decode(text, key.end())  # (where the value ends)
            members[orjson.loads(key.group(1))] = text[key.end() : pos]
            after = _AFTER_VALUE.match(text, pos)
            if after is None:
                return None
            pos = after.end()
            if after.group(1) == "}":
                break
    except (json.JSONDecodeError, RecursionError):  # orjson allows more nesting than the stdlib
        return None
    return members if not text[pos:].strip() else None


def qwen_xml_call(
    body: str, complete: bool = True, tools: ToolSchemas | None = None, typed_as: str | None = None,
    verbatim: bool = False,
) -> Call | None:  # fmt: skip
    """`<function=NAME>` with `<parameter=KEY>VALUE</parameter>` pairs, up to `</function>`.

    A parameter left open ends at the next `<parameter=`, `</function>` or `</tool_call>`. With
    `complete` False (the input ended) `</function>` may be missing. Values are typed by the
    schema of the tool `typed_as` (default: the call's own name) in `tools`; `verbatim`: they
    keep the newlines next to their tags.
    """
    body = body.strip()
    if not body.startswith(FUNCTION) or not (body.endswith(FUNCTION_END) or not complete):
        return None
    name, found, rest = body[len(FUNCTION) :].removesuffix(FUNCTION_END).partition(">")
    opener, key_end, closer = _PARAMETER
    pairs = []
    for part in rest.split(opener)[1:]:
        key, found_key, value = part.partition(key_end)
        if not found_key:
            return None
        pairs.append((key.strip(), value.partition(closer)[0]))
    name = name.strip()
    if not found or not is_name(name):
        return None
    return name, typed_object(pairs, tool_parameters(tools, typed_as or name), verbatim)


def glm_call(
    body: str, tools: ToolSchemas | None = None, typed_as: str | None = None, tags: TagSpelling = TOOL_CALL
) -> Call | None:
    """`NAME` then `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>` pairs, as `tags` spell
    them (a separator may end the name, a kind tag come between key and value; typed as
    `qwen_xml_call`)."""
    name, _, rest = body.partition(tags.key)
    rest = tags.key + rest if rest else ""
    pairs = []
    while rest.strip():
        key, rest = _between(rest, tags.key, tags.key_end)
        if tags.kind and rest.lstrip().startswith(tags.kind):  # (a declared type: the schema decides)
            kind, rest = _between(rest, tags.kind, tags.kind_end)
            if kind is None:
                return None
        value, rest = _between(rest, tags.value, tags.value_end)
        if key is None or value is None:
            return None
        pairs.append((key.strip(), value))
    name = glm_name(name, tags)
    return (name, typed_object(pairs, tool_parameters(tools, typed_as or name))) if is_name(name) else None


def glm_name(head: str, tags: TagSpelling) -> str:
    """The name a GLM body's text before its first key gives (its separator dropped)."""
    name = head.strip()
    return name.removesuffix(tags.sep).rstrip() if tags.sep else name


def _between(text: str, opener: str, closer: str) -> tuple[str | None, str]:
    """The text inside `opener...closer` when `text` starts with it (after spacing), and the rest."""
    text = text.lstrip()
    if not text.startswith(opener):
        return None, text
    inner, found, rest = text[len(opener) :].partition(closer)
    return (inner, rest) if found else (None, text)


def typed_object(
    pairs: list[tuple[str, str]], parameters: Parameters | None = None, verbatim: bool = False
) -> str:
    """A JSON object from raw `(key, value)` texts, each value typed by its schema in
    `parameters` (the tool's), or guessed (`raw_values.value_json`); `verbatim`: a value keeps
    the newlines next to its tags, which are otherwise markup."""
    members = []
    for key, raw in pairs:
        value = raw if verbatim else raw.removeprefix("\n").removesuffix("\n")
        schema = parameters.property(key) if parameters is not None else None
        members.append(f"{orjson.dumps(key).decode()}: {value_json(value, schema, parameters)}")
    return "{" + ", ".join(members) + "}"
