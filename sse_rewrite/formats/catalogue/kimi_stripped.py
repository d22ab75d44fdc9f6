"""Kimi K2 with its special tokens stripped by the server, declared on the list machine
(`machines/_list_machine.py`; Kimi model ids, and any id where its name is a declared tool's).

    Let me look.functions.read:0{"path": "a.py"}functions.read:1{"path": "b.py"}

Decoded with `skip_special_tokens`, the five section and call tokens vanish and the calls
are glued to the text; sometimes one marker survives (`functions.read:8<|tool_call_argument_begin|>{…}`).
Prose and code may write `functions.x:0{` too, so this is read only where the model id picks Kimi
or a declared name follows it, and only what can be proven is a call (`ListSyntax.proven`): the opener
`functions.`, a header `NAME:N` then the surviving argument marker or nothing, then one JSON
object, a key or `}` right after its `{`, that is whole and valid. The header is the call id
and gives the name by Kimi's rule (`kimi.kimi_call_parts`). Anything else, or a call that names no
declared tool (`PROSE`), is text where it stands: its opener comes out, the scan goes on after it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..machines._brackets import Quotes
from ..machines._json import is_json
from ..machines._list_machine import ListParser
from ..machines._list_syntax import Call, ListSyntax, Written
from .kimi import kimi_call_parts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...stream.events import Notice
    from ...tool_schemas import ToolSchemas

OPENER: Final = "functions."
_ARGUMENT: Final = "<|tool_call_argument_begin|>"
_ARGUMENT_STARTS: Final = b"".join(b"(?:" + re.escape(bytes([byte])) for byte in _ARGUMENT.encode()) + (
    b")?" * len(_ARGUMENT)
)
SNIFF: Final = (b"functions",)
"""An event is read while nothing is held when it holds the word whole. One whose text ends in a
start of it (`f` … `function`) is held raw until the next shows whether the word goes on
(`routing.STRIPPED_KIMI`'s held word, `stream/held_starts.py`): two finds an idle event, where a
needle for a lone `f` and one for `function` cost as much."""


def stripped_calls(written: Written, *tools: ToolSchemas) -> tuple[list[Call], list[Notice]] | None:
    """The calls, or None where an object is not valid JSON (prose) or, with `tools`, a name is undeclared."""
    if any(header is None or not is_json(value) for header, value in written):
        return None
    calls = [kimi_call_parts(OPENER + head["name"], value) for head, value in written if head is not None]
    return None if tools and any(call[1] not in tools[0].names() for call in calls) else (calls, [])


KIMI_STRIPPED: Final = ListSyntax(
    "Kimi", (OPENER.encode(),), {ord("{"): Quotes.JSON}, stripped_calls,
    header=re.compile(r"(?P<name>[A-Za-z0-9_.\-]+:[0-9]+)(?:" + re.escape(_ARGUMENT) + ")?"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\-:<|>]"), header_optional=False,
    header_start=re.compile(rb"[A-Za-z0-9_.\-]*(?::[0-9]*" + _ARGUMENT_STARTS + rb")?"),
    held_from=1, value_start=b'"}', proven=True,
)  # fmt: skip
"""`held_from`: a text ending in `f` … `functions` is held back (at most 9 characters) until
the next text shows whether the word goes on, a lone `f` even where a word goes on into it (` of`):
the stripped tokens glue a call to the word before it (`the filefunctions.read:0{}`), so that
reading is the same at every cut."""


class StrippedKimiParser(ListParser, SYNTAXES=(KIMI_STRIPPED,), sniff=SNIFF, PROSE=True):
    """Calls glued to the text as `functions.NAME:N{json}` (a part of the Kimi `auto` format)."""


class DeclaredKimiParser(StrippedKimiParser, SYNTAXES=(replace(KIMI_STRIPPED, typed=stripped_calls),)):
    """Under any id where the tools are known (`declared.py`): only a tool's name as declared makes a call."""
