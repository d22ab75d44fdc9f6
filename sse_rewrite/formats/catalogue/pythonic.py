"""The call-expression lines the serving engines read, declared: Olmo 3, Granite's bare lines.

    Olmo 3          <function_calls>get_weather(city="Paris")\nget_time(tz=null)</function_calls>
    Granite 3.3     get_weather(city="Paris")\nget_time()            (4.0 H-Small too; no marker)

(The other pythonic syntaxes of FORMATS-2.md §F sit with their kin in `lists.py`: FunctionGemma
beside Gemma 4, whose grammar it shares, and Llama 3.2 / ToolACE's bare list, Llama 4's.)
A `ListSyntax` on the family machine (`machines/_list_machine.py`): one call a line, Python
literals and JSON's `true`, `false`, `null`. Its `<function_calls>` wrapper also holds DSML
and invoke bodies elsewhere (the body decides), so only Olmo ids read it, and a body that is
not call lines is left as text. Granite's lines have no marker at all: they are read as the
whole answer only (`routing_wrapped`), under Granite 3.3 and 4.0 H-Small ids, keyword
arguments only, and each must name a declared tool where the request's tools are known.
"""

from __future__ import annotations

import re

from ..machines._brackets import Quotes
from ..machines._list_machine import ListParser
from ..machines._list_reads import gemma_calls
from ..machines._list_syntax import ListSyntax
from ..machines._scanner import ANGLE_SNIFF

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

OLMO: Final = ListSyntax(
    "Olmo 3", (b"<function_calls>",), {ord("("): Quotes.PYTHON}, gemma_calls,
    header=re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)"), header_bytes=re.compile(rb"[^A-Za-z0-9_.\-]"),
    closer=b"</function_calls>", repeats=True,
)  # fmt: skip


class OlmoParser(ListParser, SYNTAXES=(OLMO,), sniff=ANGLE_SNIFF, PROSE=True):
    """`--format olmo`, and Olmo 3 ids: `<function_calls>` with one call a line."""


GRANITE_LINES: Final = ListSyntax(
    "Granite call lines", (), OLMO.values, gemma_calls, header=OLMO.header, header_bytes=OLMO.header_bytes,
    header_optional=False, repeats=True,
)  # fmt: skip
"""Granite 3.3's and 4.0 H-Small's `NAME(k="v")`, one a line, with no marker (a whole answer)."""
