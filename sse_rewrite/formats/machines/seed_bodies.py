"""The declaration of Seed-OSS: its markers, and the two function bodies its wrapper holds.

    <seed:tool_call><function=NAME><parameter=P>value</parameter></function></seed:tool_call>
    <seed:tool_call><function name="f"><parameter name="a" string="true">x</parameter></function>
    </seed:tool_call>

The first is Qwen3-Coder's body (read by `qwen_xml_call`, values typed by the project's
fallback rule, `typed_object`); the second is the spelling ByteDance's hosted Doubao leaks,
whose `string="true"` values are raw strings and `string="false"` values JSON (raw text on
failure), the others typed by the same fallback rule.
"""

from __future__ import annotations

import html
import re

import orjson

from ._json import is_json
from .raw_values import tool_parameters
from .tool_call_bodies import FUNCTION, FUNCTION_END, is_name, qwen_xml_call, typed_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import ToolSchemas
    from .tool_call_bodies import Call

OPEN: Final = b"<seed:tool_call>"
CLOSE: Final = b"</seed:tool_call>"
THINK: Final = b"<seed:think>"
THINK_END: Final = b"</seed:think>"
QWEN_FUNCTION: Final = FUNCTION.encode()
NAMED_FUNCTION: Final = b'<function name="'
END: Final = FUNCTION_END.encode()

_NAMED: Final = re.compile(r'\s*<function name="([^"]*)"\s*>(.*)</function>\s*', re.DOTALL)
_PARAMETER: Final = re.compile(r'<parameter name="([^"]*)"(?:\s+string="(true|false)")?\s*>(.*?)</parameter>',
                               re.DOTALL)


def seed_call(body: str, tools: ToolSchemas | None = None) -> Call | None:
    """A complete function body (either spelling, up to `</function>`), or None if malformed;
    a value without `string=` is typed by the tool's schema in `tools` (`raw_values`)."""
    if body.lstrip().startswith(FUNCTION):
        try:
            return qwen_xml_call(body, tools=tools)
        except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
            return None
    found = _NAMED.fullmatch(body)
    if found is None or not is_name(html.unescape(found[1])):
        return None
    members, pos = [], 0
    parameters = tool_parameters(tools, html.unescape(found[1]))
    for parameter in _PARAMETER.finditer(found[2]):
        if found[2][pos : parameter.start()].strip():
            return None
        pos = parameter.end()
        key, kind, raw = html.unescape(parameter[1]), parameter[2], parameter[3]
        try:
            if kind == "true" or (kind == "false" and not is_json(raw.strip())):
                members.append(f"{orjson.dumps(key).decode()}: {orjson.dumps(raw).decode()}")
            elif kind == "false":
                members.append(f"{orjson.dumps(key).decode()}: {raw.strip()}")
            else:
                members.append(typed_object([(key, raw)], parameters)[1:-1])
        except orjson.JSONEncodeError:
            return None
    if found[2][pos:].strip():
        return None
    return html.unescape(found[1]), "{" + ", ".join(members) + "}"
