"""The fenced call a DSML marker leaks: the marked tag `toolcall`, a NAME, a fenced JSON object.

    <|DSML|toolcall>get_weather          (any spelling of the DSML marker, `dsml.MARKS`)
    ```json
    {"city": "Hangzhou"}
    ```

the arguments written as DeepSeek V3's own calls write them (`function`, its separator token,
NAME, a fenced object). `fence_head` reads what follows the tag up to the opening fence's line
end; the call ends at the closing fence (docs/behaviour.md, "Invoke/parameter XML").
"""

from __future__ import annotations

import re

from .tool_call_bodies import is_name

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal

HEAD_LOOKAHEAD: Final = 300  # characters after the marker within which its head must be whole
_HEAD: Final = re.compile(r"[ \t]*([^\s`<>]+)[ \t]*\r?\n[ \t\r\n]*```(?:json)?[ \t]*\r?\n")
_FENCES: Final = ("```json", "```")
FENCE_END: Final = "```"


def fence_head(text: str) -> tuple[str, int] | Literal[False] | None:
    """What follows the marker: `(name, where the JSON begins)` once the opening fence's line has
    ended; None while it may still become that; False when it cannot (the marker was prose)."""
    found = _HEAD.match(text)
    if found is not None:
        return (found.group(1), found.end()) if is_name(found.group(1)) else False
    line, newline, rest = text.partition("\n")
    name = line.strip(" \t\r")
    if not newline:
        possible = len(name.split()) <= 1 and "`" not in name and len(text) < HEAD_LOOKAHEAD
        return None if possible else False
    rest = rest.lstrip(" \t\r\n")
    if is_name(name) and any(fence.startswith(rest[: len(fence)]) for fence in _FENCES):
        return None if len(text) < HEAD_LOOKAHEAD else False
    return False
