"""The declaration of Kimi K3's XTML: its three tokens, and how a call's text becomes a call.

    <|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|>
    <|open|>argument key="K" type="string"<|sep|>VALUE<|close|>argument<|sep|>
    <|close|>call<|sep|><|close|>tools<|sep|>

A tag is `<|open|>WORD ATTRS<|sep|>` ... `<|close|>WORD<|sep|>`; whitespace inside the
markers is tolerated (vLLM's detokenizer puts spaces between special tokens). Attribute
values escape `&` and `"` as `&amp;`/`&quot;`. `type="string"` values are raw strings, other
types JSON (raw text on failure), values without a type follow the project's fallback rule.
"""

from __future__ import annotations

import re

import orjson

from ._json import is_json
from .raw_values import tool_parameters
from .tool_call_bodies import is_name, typed_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import ToolSchemas
    from .tool_call_bodies import Call

OPEN: Final = b"<|open|>"
CLOSE: Final = b"<|close|>"
SEP: Final = b"<|sep|>"

_SP: Final = r"[ \t\r\n]*"
TAG: Final = re.compile(rb"<\|(open|close)\|>[ \t\r\n]*([a-z]*)[ \t\r\n]*((?:[^<\n]|\n(?!\n))*?)<\|sep\|>")
"""A whole marker: open or close, its word, its attributes."""
TAG_PREFIX: Final = re.compile(
    rb"<\|(?:open|close)\|>[ \t\r\n]*[a-z]*(?:[ \t\r\n]+[^<]*)?(?:<(?:\|(?:s(?:e(?:p\|?)?)?)?)?)?"
)
"""What a marker not yet complete may look like at the end of the input."""
_ATTRIBUTE: Final = re.compile(r'([a-z_]+)[ \t\r\n]*=[ \t\r\n]*"([^"]*)"')
_ARGUMENT: Final = re.compile(
    rf"<\|open\|>{_SP}argument\b([^<]*)<\|sep\|>(.*?)<\|close\|>{_SP}argument{_SP}<\|sep\|>", re.DOTALL
)
_CALL_HEAD: Final = re.compile(rf"<\|open\|>{_SP}call\b([^<]*)<\|sep\|>")


def attributes(text: str) -> dict[str, str]:
    """`key="value"` pairs, values unescaped."""
    pairs = _ATTRIBUTE.findall(text)
    return {key: value.replace("&quot;", '"').replace("&amp;", "&") for key, value in pairs}


def xtml_call(text: str, tools: ToolSchemas | None = None) -> Call | None:
    """A call's text from its `<|open|>call …<|sep|>` to its arguments' end, or None if malformed;
    a value without `type=` is typed by the tool's schema in `tools` (`raw_values`)."""
    head = _CALL_HEAD.match(text)
    if head is None:
        return None
    name = attributes(head[1]).get("tool", "")
    if not is_name(name):
        return None
    members, pos = [], head.end()
    parameters = tool_parameters(tools, name)
    for argument in _ARGUMENT.finditer(text, pos):
        if text[pos : argument.start()].strip():
            return None
        pos = argument.end()
        attrs, raw = attributes(argument[1]), argument[2]
        key, kind = attrs.get("key"), attrs.get("type")
        if key is None:
            return None
        try:
            if kind == "string" or (kind is not None and not is_json(raw.strip())):
                members.append(f"{orjson.dumps(key).decode()}: {orjson.dumps(raw).decode()}")
            elif kind is not None:
                members.append(f"{orjson.dumps(key).decode()}: {raw.strip()}")
            else:
                members.append(typed_object([(key, raw)], parameters)[1:-1])
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            return None
    if text[pos:].strip():
        return None
    return name, "{" + ", ".join(members) + "}"
