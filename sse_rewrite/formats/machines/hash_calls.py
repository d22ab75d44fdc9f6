"""The Perl-like hash calls MiniMax M2.x writes in a `[TOOL_CALL]` wrapper no template defines.

    [TOOL_CALL]
    {tool => "file_toolkit", args => {
      --operation "write_file"
      --path "notes/a.md"
    }}
    [/TOOL_CALL]

The args are `--KEY VALUE` (also `--KEY: VALUE`) or `KEY => VALUE` items, or one JSON object;
the whole body may also be a JSON call, `{"name": "NAME", "arguments": {…}}`.
A VALUE is a double-quoted string (its escapes read as JSON's, the raw text if they are not)
or a bare word, typed by the tool's schema or guessed as raw values are. Anything else makes
the body no call (docs/behaviour.md, "Invoke/parameter XML").
"""

from __future__ import annotations

import re

import orjson

from ._json import is_json
from .tool_call_bodies import hermes_call, is_name, typed_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import Parameters

_HEAD: Final = re.compile(
    r'\s*\{\s*tool\s*=>\s*"([^"\n]+)"\s*,?\s*(?:args\s*=>\s*\{(.*)\}\s*)?\}\s*', re.DOTALL
)
_ITEM: Final = re.compile(
    r'\s*(?:--([A-Za-z_][\w.-]*):?|([A-Za-z_][\w.-]*)\s*=>)\s*("(?:[^"\\]|\\.)*"|[^\s,"]+)\s*,?', re.DOTALL
)


def read_hash_call(body: str, parameters: Parameters | None = None) -> tuple[str, str] | None:
    """`(name, arguments)` of a wrapper's body, or None when it is not one hash call."""
    found = _HEAD.fullmatch(body)
    if found is None:  # (a JSON call, as Hermes writes it)
        return hermes_call(body.strip(" \t\r\n"))
    if not is_name(found.group(1).strip()):
        return None
    name, args = found.group(1).strip(), (found.group(2) or "").strip()
    if is_json("{" + args + "}"):  # (a JSON object: `args => {"q": 1}`)
        return name, "{" + args + "}"
    pairs: list[tuple[str, str]] = []
    quoted: dict[str, str] = {}
    pos = 0
    while pos < len(args):
        item = _ITEM.match(args, pos)
        if item is None or item.end() == pos:
            return None
        key, value = item.group(1) or item.group(2), item.group(3)
        if value.startswith('"'):
            quoted[key] = _string(value)
        pairs.append((key, value))
        pos = item.end()
    members = [
        f"{orjson.dumps(key).decode()}: {orjson.dumps(quoted[key]).decode()}"
        if key in quoted else typed_object([(key, value)], parameters)[1:-1]
        for key, value in pairs
    ]  # fmt: skip
    return name, "{" + ", ".join(members) + "}"


def _string(quoted: str) -> str:
    """A double-quoted value: its escapes read as JSON's, else the text between the quotes."""
    try:
        value = orjson.loads(quoted)
    except orjson.JSONDecodeError:
        return quoted[1:-1]
    return value if isinstance(value, str) else quoted[1:-1]
