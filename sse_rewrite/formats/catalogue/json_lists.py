"""The "marker, then a JSON list of calls" syntaxes the serving engines read, declared.

    Granite 3.0            <|tool_call|>[{"name": "add", "arguments": {"a": 1}}]       (no closer)
    Granite 3.1            <tool_call>[{"arguments": {"a": 1}, "name": "add"}]          (no closer)
    Jamba, Apriel, Hunyuan <tool_calls>[{"name": "add", "arguments": {"a": 1}}]</tool_calls>
    Nemotron Nano v2       <TOOLCALL>[{"name": "add", "arguments": {"a": 1}}]</TOOLCALL>
    Cohere Command A, R7B  <|START_ACTION|>[{"tool_call_id": "0", "tool_name": "add", "parameters": {…}}]
                           <|END_ACTION|>
    Command R+             Action: ```json\n[{"tool_name": "add", "parameters": {"a": 1}}]\n```
    Phi-4-mini, FireFunction v2   functools[{"name": "add", "arguments": {"a": 1}}]
    Apertus                <|tools_prefix|>[{"add": {"a": 1}}]<|tools_suffix|>        (suffix optional)
    xLAM                   [{"name": …}] as the whole answer, ```json fenced, or in <tool_call>…</tool_call>

Each is a `ListSyntax` on the family machine (`machines/_list_machine.py`); markers and keys
are those of FORMATS-2.md §C. The special tokens (`<|tool_call|>`, `<|START_ACTION|>`,
`<|tools_prefix|>`) are read in every stream (`lists.ListMarkersParser`); the markers prose
can hold (`<tool_calls>`, `<TOOLCALL>`, `<tool_call>`, `functools`, `Action:`, a fence, a
bare list) only under the syntax's model ids (`routing.FAMILIES`). Where the engines disagree,
docs/behaviour.md decides: text around the calls is kept, a list inside the arguments does not
end `functools[…]`, a lone call object is taken where the engines take it (Nemotron, Cohere,
Apertus), and a block that is not calls stays text.
"""

from __future__ import annotations

import re

from ..machines._brackets import Quotes
from ..machines._list_machine import ListParser
from ..machines._list_reads import json_calls, keyed_calls, named_calls
from ..machines._list_syntax import ListSyntax
from ..machines._scanner import ANGLE_SNIFF, word_sniff
from ..machines.whole_answer import WholeAnswerParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_LIST: Final = {ord("["): Quotes.JSON}
_CALLS: Final = {ord("["): Quotes.JSON, ord("{"): Quotes.JSON}
"""A list of calls, or a lone call object."""

GRANITE_30: Final = ListSyntax("Granite 3.0", (b"<|tool_call|>",), _LIST, json_calls)
GRANITE_31: Final = ListSyntax("Granite 3.1", (b"<tool_call>",), _LIST, json_calls)
TOOL_CALLS_LIST: Final = ListSyntax("<tool_calls> list", (b"<tool_calls>",), _LIST, json_calls,
                                    closer=b"</tool_calls>")
"""Jamba 1.5, Apriel 1.5/1.6 and Hunyuan A13B (inside its `<answer>`): one list in `<tool_calls>`."""
NEMOTRON: Final = ListSyntax("Nemotron", (b"<TOOLCALL>",), _CALLS, json_calls, closer=b"</TOOLCALL>",
                             again=b",")
"""Nemotron Nano v2 and Llama-Nemotron; the list's brackets may be missing (`{…}, {…}`)."""
COHERE: Final = ListSyntax("Cohere", (b"<|START_ACTION|>",), _CALLS,
                           keyed_calls("tool_name", "parameters", "tool_call_id"), closer=b"<|END_ACTION|>")
"""Command A and R7B (cmd3, cmd4): the call's id is its `tool_call_id`."""
COMMAND_R_PLUS: Final = ListSyntax(
    "Command R+", (b"Action:",), _LIST, keyed_calls("tool_name", "parameters"),
    header=re.compile(r"(?P<name>```(?:json)?[ \t]*\r?\n[ \t\r\n]*)"),
    header_bytes=re.compile(rb"[^`a-z\r\n]"),
    closer=b"```", orphan_closer=False, word_start=True,
)  # fmt: skip
"""`Action:` then a fenced JSON list (the fence belongs to the grammar: a fence alone is words)."""
FUNCTOOLS: Final = ListSyntax("functools", (b"functools",), _LIST, json_calls, word_start=True)
"""Phi-4-mini and FireFunction v2: the list ends where its brackets balance, not at the first `]`."""
APERTUS: Final = ListSyntax("Apertus", (b"<|tools_prefix|>",), _CALLS, named_calls,
                            closer=b"<|tools_suffix|>")
XLAM_TAG: Final = ListSyntax("xLAM", (b"<tool_call>",), _CALLS, json_calls, closer=b"</tool_call>")
XLAM_FENCE: Final = ListSyntax("xLAM", (b"```json",), _CALLS, json_calls, closer=b"```", orphan_closer=False)
LONGCAT_NEXT: Final = ListSyntax("LongCat-Next", (b"<function_calls>",), _CALLS,
                                 keyed_calls("name", ("parameters", "arguments")),
                                 closer=b"</function_calls>")  # fmt: skip
"""LongCat-Next's `<function_calls>[{"name": …, "parameters": {…}}]</function_calls>` (seen; no
engine reads it)."""
XLAM_BARE: Final = ListSyntax("xLAM", (), _CALLS, json_calls)
"""xLAM's calls with no marker: a JSON list (or one call object), only as the whole answer."""


class GraniteParser(ListParser, SYNTAXES=(GRANITE_30, GRANITE_31), sniff=ANGLE_SNIFF):
    """`--format granite`: Granite 3.0's `<|tool_call|>[…]` and 3.1's `<tool_call>[…]`."""


class Granite31Parser(ListParser, SYNTAXES=(GRANITE_31,), sniff=ANGLE_SNIFF):
    """What Granite 3.0/3.1 ids add to the tokens read everywhere: 3.1's `<tool_call>[…]`."""


class Granite31ListParser(ListParser, SYNTAXES=(GRANITE_31,), sniff=ANGLE_SNIFF, PROSE=True):
    """3.1's `<tool_call>[…]` under any id where the tools are known (`declared`); other bodies handed on."""


class ToolCallsListParser(ListParser, SYNTAXES=(TOOL_CALLS_LIST,), sniff=ANGLE_SNIFF, PROSE=True):
    """`--format tool-calls-list`: Jamba's, Apriel's and Hunyuan A13B's `<tool_calls>[…]`."""


class NemotronParser(ListParser, SYNTAXES=(NEMOTRON,), sniff=ANGLE_SNIFF, PROSE=True):
    """`--format nemotron`: `<TOOLCALL>[…]</TOOLCALL>`."""


class CohereParser(
    ListParser, SYNTAXES=(COHERE, COMMAND_R_PLUS), sniff=(*ANGLE_SNIFF, *word_sniff(b"Action:"))
):
    """`--format cohere`: `<|START_ACTION|>[…]<|END_ACTION|>`, and Command R+'s `Action:` fence."""


class CommandRPlusParser(ListParser, SYNTAXES=(COMMAND_R_PLUS,), sniff=word_sniff(b"Action:")):
    """What Command R+ ids add to the tokens read everywhere: `Action:` and a fenced list."""


class FunctoolsParser(ListParser, SYNTAXES=(FUNCTOOLS,), sniff=word_sniff(b"functools")):
    """`--format functools` (and Phi-4-mini, FireFunction ids): `functools[…]`."""


class ApertusParser(ListParser, SYNTAXES=(APERTUS,), sniff=ANGLE_SNIFF):
    """`--format apertus`: `<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>`."""


class XlamMarkersParser(
    ListParser, SYNTAXES=(XLAM_TAG, XLAM_FENCE), sniff=(*ANGLE_SNIFF, *word_sniff(b"```json"))
):
    """xLAM's marked calls: `<tool_call>[…]</tool_call>` and a ```` ```json ```` fence."""


class LongCatNextParser(ListParser, SYNTAXES=(LONGCAT_NEXT,), sniff=ANGLE_SNIFF, PROSE=True):
    """What LongCat-Next ids add: `<function_calls>` holding a JSON list of calls."""


class XlamParser(WholeAnswerParser, INNER=XlamMarkersParser, BARE=(XLAM_BARE,)):
    """`--format xlam`: its marked calls, and a bare JSON list as the whole answer."""
