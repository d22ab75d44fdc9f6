"""How the values of a marker-then-list block become calls (the `read` of each `ListSyntax`).

Each function takes a block's calls as written (`Written`: header match and value text) and
returns the calls and notices, or None when the block is not calls (it then stays text).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable

import orjson

from ...stream.events import Notice
from ._json import is_json
from ._list_syntax import Call, Written
from .literals import ESCAPE_QUOTE, GEMMA_QUOTE, LiteralReader, NotALiteral
from .raw_values import tool_parameters
from .tool_call_bodies import hermes_call, is_name, json_members

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import ToolSchemas

Read = tuple[list[Call], list[Notice]] | None
"""What a declaration's `read` gives: calls and notices, or None (not calls)."""
_DECODER: Final = json.JSONDecoder()


def no_calls(_: Written) -> Read:
    """The `read` of a reasoning declaration, which writes no calls."""
    return None


_ITEM_END: Final = re.compile(r"[ \t\r\n]*([,\]])[ \t\r\n]*")


def json_calls(written: Written) -> Read:
    """Each value a JSON call object `{"name", "arguments"|"parameters", "id"?}`, an array of
    them, or llama.cpp's generic envelope `{"tool_calls": [those objects]}`."""
    found: list[Call] = []
    items = _items(written)
    if items is None:
        return None
    for item in items:
        members = json_members(item) or {}
        envelope = members.get("tool_calls", "") if "name" not in members else ""
        if envelope.startswith("["):
            inner = json_calls([(None, envelope)])
            if inner is None:
                return None
            found += inner[0]
            continue
        call = hermes_call(item)
        if call is None:
            return None
        call_id = orjson.loads(members.get("id", "null"))
        found.append((call_id if isinstance(call_id, str) else None, *call))
    return found, []


def bare_mistral_calls(written: Written) -> Read:
    """`json_calls`, but only an array of calls or llama.cpp's envelope: Mistral's calls left
    without their tokens (a lone call object is Llama's form, not Mistral's)."""
    for _, value in written:
        if not value.startswith("[") and "name" in (json_members(value) or {"name": ""}):
            return None
    return json_calls(written)


def _array_items(text: str) -> list[str] | None:
    """The raw text of each item of the JSON array `text`, or None if it is not one."""
    if not is_json(text):
        return None
    items: list[str] = []
    pos = len(text) - len(text[1:].lstrip(" \t\r\n"))
    if text.startswith("]", pos):
        return items
    while True:  # (the text is valid JSON: every item has this shape)
        try:
            _, end = _DECODER.raw_decode(text, pos)
        except (json.JSONDecodeError, RecursionError):
            return None
        items.append(text[pos:end])
        after = _ITEM_END.match(text, end)
        if after is None or after.group(1) == "]":
            return items
        pos = after.end()


def list_calls(written: Written) -> Read:
    """Each value a pythonic list of keyword calls `[f(a=1), g()]`, or JSON calls."""
    found: list[Call] = []
    for _, value in written:
        reader = LiteralReader(value)
        if reader.take("{") or (reader.take("[") and reader.take("{")):
            more = json_calls([(None, value)])
            if more is None:
                return None
            found += more[0]
            continue
        reader.pos = 0
        try:
            reader.expect("[")
            found += [(None, *call) for call in reader.listed("]", reader.call)]
            if not reader.at_end():
                return None
        except NotALiteral:
            return None
    return found, []


def mistral_calls(written: Written) -> Read:
    """v11 `NAME[ARGS]{…}` calls (arguments as written), or a pre-v11 JSON array (also `TOOL:`
    lines' calls, whose header has no id)."""
    found: list[Call] = []
    notices: list[Notice] = []
    for header, value in written:
        if header is None:
            calls = json_calls([(None, value)])
            if calls is None:
                return None
            found += calls[0]
            continue
        if not is_json(value):
            notices.append(Notice("invalid-arguments", f"call {header['name']}: arguments are not JSON"))
        found.append((header.groupdict().get("id"), header["name"], value))
    return found, notices


def named_objects(written: Written, *tools: ToolSchemas) -> Read:
    """`NAME{…}` calls with no token of their own (Mistral v11's and stripped harmony's, left by a
    server that strips tokens): each value must be a JSON object, valid (unlike `mistral_calls`,
    nothing marks these as calls, so anything else is text); with the request's `tools` (a `typed`
    read: stripped harmony's under any id), each NAME a tool as declared (the stream found its bytes)."""
    found: list[Call] = []
    for header, value in written:
        if header is None or not value.startswith("{") or not is_json(value):
            return None
        found.append((None, header["name"], value))
    return None if tools and any(call[1] not in tools[0].names() for call in found) else (found, [])


def gemma_calls(written: Written, tools: ToolSchemas | None = None, quote: str = GEMMA_QUOTE) -> Read:
    """`call:NAME{key:value,…}` (quote tokens or not) or `NAME(key=value, …)` (Gemma 4, Olmo 3).
    With FunctionGemma's `<escape>` for its quote (`escaped_calls`), every value is raw text,
    quoted or not, typed by the tool's schema in `tools`, or guessed (JSON when it parses, else
    a string); else, with `tools` (a `typed` read: stripped Gemma's under any id), each NAME as declared."""
    raw = quote == ESCAPE_QUOTE
    found: list[Call] = []
    for header, value in written:
        braces = value.startswith("{")
        if header is None or (raw and not braces):  # (no name before it; FunctionGemma writes braces only)
            return None
        parameters = tool_parameters(tools, header["name"]) if raw else None
        stripped = braces and (raw or quote not in value)
        reader = LiteralReader(value, gemma=braces, stripped=stripped, quote=quote, parameters=parameters)
        try:
            if braces:
                arguments = reader.value()
            else:
                reader.pos = 1
                arguments = reader.keywords(")")
            if not reader.at_end():
                return None
        except NotALiteral:
            return None
        found.append((None, header["name"], arguments))
    return None if tools and not raw and any(call[1] not in tools.names() for call in found) else (found, [])


escaped_calls: Final = functools.partial(gemma_calls, quote=ESCAPE_QUOTE)
"""FunctionGemma's `call:NAME{key:<escape>text<escape>,…}` (`gemma_calls`, typed where tools are known)."""


def _items(written: Written) -> list[str] | None:
    """Each call object a block wrote: its values' items (an array's), or the values."""
    items: list[str] = []
    for _, value in written:
        more = _array_items(value) if value.startswith("[") else [value]
        if more is None:
            return None
        items += more
    return items


def keyed_calls(name: str, arguments: str | tuple[str, ...], call_id: str = "") -> Callable[[Written], Read]:
    """The `read` of JSON call objects (a lone one, or an array) whose members are named
    otherwise: Cohere's `tool_name`, `parameters` and `tool_call_id` (the call's id); the
    arguments under the first of several names present (Inkling's `args`, `arguments`...)."""
    keys = (arguments,) if isinstance(arguments, str) else arguments

    def read(written: Written) -> Read:
        found: list[Call] = []
        items = _items(written)
        for item in [""] if items is None else items:
            members = json_members(item)
            if members is None or name not in members:
                return None
            called, given = orjson.loads(members[name]), orjson.loads(members.get(call_id, "null"))
            if not isinstance(called, str) or not is_name(called):
                return None
            given_arguments = next((members[key] for key in keys if key in members), "{}")
            found.append((given if isinstance(given, str) else None, called, given_arguments))
        return found, []

    return read


def named_calls(written: Written) -> Read:
    """Apertus's `[{"NAME": {args}}, …]` (or one such object): the one member's key is the name."""
    found: list[Call] = []
    items = _items(written)
    for item in [""] if items is None else items:
        members = json_members(item)
        if members is None or len(members) != 1:
            return None
        ((called, arguments),) = members.items()
        if not is_name(called) or not arguments.startswith("{"):
            return None
        found.append((None, called, arguments))
    return found, []
