"""The heads of invoke tags: the tool name an invoke header gives, and a tag's attributes.

Most syntaxes of the family write `<…invoke name="NAME">` (`INVOKE_HEADER`, `invoke_name`);
one whose tags end otherwise (Kimi K3's `<|sep|>`) names the tool by a declared attribute
among others (`tagged_name`: `call tool="NAME" index="1"<|sep|>`).
"""

from __future__ import annotations

import functools
import re

from .tool_call_bodies import is_name

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_NAME_VALUE: Final = rb"""(?:"([^"<>\n]*)"|'([^'<>\n]*)'|([^"'<>=\s/]+))[ \t\r\n]*>"""
BYTE_SPACING: Final = rb"(?:[ \t\r\n]|\xc4\xa0|\xc4\x8a)*"
"""Spacing, or its byte-level BPE spelling (`Ġ` U+0120 a space, `Ċ` U+010A a newline: a server that
does not decode them, as vLLM's MiniCPM 5 parser repairs it)."""
INVOKE_HEADER: Final = re.compile(BYTE_SPACING + rb"name[ \t]*=[ \t]*" + _NAME_VALUE)
"""What follows `<…invoke` up to its `>`: the name, quoted with `"` or `'`, or bare (dots3); the
spacing before `name` may be missing (`<functionname="…">`, a space token lost in decoding, as
vLLM's MiniCPM 5 parser repairs it) or byte-level (`<functionĠname="…">`)."""
EQUALS_HEADER: Final = re.compile(rb"[ \t\r\n]*(?:name[ \t]*)?=[ \t]*" + _NAME_VALUE)
"""The same, where `=NAME` alone names too (a syntax with `equals_names`: `<function=NAME>`)."""
ATTRIBUTE: Final = re.compile(r"""([A-Za-z_][\w:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^"'<>=\s/]+))""")
"""One `key="value"` pair of a tag (quoted with `"` or `'`, or bare)."""


def invoke_name(header: bytes, equals: bool = False) -> str | None:
    """The tool name of an invoke header (what `INVOKE_HEADER`, with `equals` `EQUALS_HEADER`,
    matched), if it is a name."""
    found = (EQUALS_HEADER if equals else INVOKE_HEADER).fullmatch(header)
    if found is None:
        return None
    quoted = next(group for group in found.groups() if group is not None)
    name = quoted.decode("utf-8", "replace").strip()
    return name if is_name(name) else None


def tag_attributes(text: str, escaped: bool = False) -> dict[str, str]:
    """The `key="value"` pairs of a tag's text; with `escaped`, values unescape `&quot;` and `&amp;`."""
    pairs = {m.group(1): next(v for v in m.groups()[1:] if v is not None) for m in ATTRIBUTE.finditer(text)}
    if escaped:
        return {key: value.replace("&quot;", '"').replace("&amp;", "&") for key, value in pairs.items()}
    return pairs


@functools.cache
def _tagged_header(end: bytes, spaced: bool) -> re.Pattern[bytes]:
    """A header of attributes after spacing (or none; `spaced`: the opener took the spacing), up to the
    tag's `end`; no `<`, no blank line."""
    attributes = rb"(?:[^<\n]|\n(?!\n))*?"
    header = rb"(" + attributes + rb")" if spaced else rb"((?:[ \t\r\n]" + attributes + rb")?)"
    return re.compile(header + re.escape(end))


def tagged_name(header: bytes, end: bytes, attribute: str, escaped: bool, spaced: bool = False) -> str | None:
    """The tool name an `attribute` of a header ending in `end` gives, if it is a name."""
    found = _tagged_header(end, spaced).fullmatch(header)
    if found is None:
        return None
    name = tag_attributes(found[1].decode("utf-8", "surrogatepass"), escaped).get(attribute, "")
    return name if is_name(name) else None
