"""The "marker, then one JSON call" syntaxes of FORMATS-2.md §B, declared on the list machine.

    GigaChat 3     <|message_sep|>\\n\\nfunction call<|role_sep|>\\n{"name": "add", "arguments": {…}}
    GigaChat 3.1   <|function_call|>{"name": "add", "arguments": {"a": 1}}            (a `</s>` after it cut)
    granite-20b    <function_call> {"name": "add", "arguments": {"a": 1}}              (repeated, no closer)
    Functionary    <function=add>{"a": 1}</function>                                   (v3.1, one a line)
    Inkling        <|message_model|><|content_invoke_tool_json|>{"name": "add", "args": {…}}<|end_message|>
                   <|message_model|><|content_thinking|>…<|end_message|>      (`<|content_text|>` too)

Each is a `ListSyntax` (`machines/_list_machine.py`): the value is one JSON object, its end
where its braces balance, so text after it stays text (the engines take the JSON to the end of
the output). Inkling's typed blocks are declarations sharing the closer `<|end_message|>`: a call,
reasoning, and blocks shown as text (`kept`); each kind token opens its block, and the
`<|message_model|>` before it, with the tool name a tool block may have between the two, is
markup (a header alone, `INKLING_MESSAGE`; the prompt may end with `<|message_model|>`).
GigaChat's and Inkling's markers are special tokens, read in every stream
(`lists.ListMarkersParser`); `<function_call>` and `<function=` are words prose and Qwen3-Coder's
XML (`<function=NAME>\\n<parameter=…>`) hold, read only under their ids (`routing.FAMILIES`):
there a Functionary body that is not a JSON object stays text.
"""

from __future__ import annotations

import re

from ..machines._brackets import Quotes
from ..machines._list_machine import ListParser
from ..machines._list_reads import json_calls, keyed_calls, mistral_calls, no_calls
from ..machines._list_syntax import ListSyntax
from ..machines._scanner import ANGLE_SNIFF, word_sniff

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_OBJECT: Final = {ord("{"): Quotes.JSON}
GIGACHAT: Final = ListSyntax(
    "GigaChat 3", (b"<|function_call|>", b"<|message_sep|>\n\nfunction call<|role_sep|>"), _OBJECT,
    json_calls, closer=b"</s>", closer_optional=True, orphan_closer=False,
)  # fmt: skip
"""GigaChat 3.1's `<|function_call|>` and 3's role header (single tokens, newlines included); the
end-of-text `</s>` the model may write after the call is markup there, words elsewhere; without
it (a server cuts it) the call is whole."""
GRANITE_20B: Final = ListSyntax("granite-20b-functioncalling", (b"<function_call>",), _OBJECT, json_calls)
"""One call per `<function_call>`, spacing between, no closer."""
FUNCTIONARY: Final = ListSyntax(
    "Functionary v3.1", (b"<function=",), _OBJECT, mistral_calls,
    header=re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)>(?P<id>(?!))?"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\->]"), header_optional=False, closer=b"</function>",
    streams=True,
)  # fmt: skip
"""`<function=NAME>` then the arguments object as written (the header has no id)."""
FUNCTIONARY_V32: Final = ListSyntax(
    "Functionary v3.2", (b">>>",), _OBJECT, mistral_calls,
    header=re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)\n(?P<id>(?!))?"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\-\n]"), header_optional=False, streams=True,
    text_header=b"all\n",
)  # fmt: skip
"""`>>>NAME\n` then the arguments object as written; `>>>all\n` then text."""


_MESSAGE_END: Final = b"<|end_message|>"
_NAME: Final = "A-Za-z0-9_.:\\-"
INKLING_MESSAGE: Final = ListSyntax(
    "Inkling", (b"<|message_model|>",), {}, no_calls, header=re.compile(f"[{_NAME}]*"),
    header_bytes=re.compile(f"[^{_NAME}]".encode()), header_start=re.compile(f"[{_NAME}]*".encode()),
)  # fmt: skip
"""`<|message_model|>` and the name header a tool block may have: markup before the kind token."""
INKLING_CALL: Final = ListSyntax(
    "Inkling", (b"<|content_invoke_tool_json|>",), _OBJECT,
    keyed_calls("name", ("args", "arguments", "parameters")), closer=_MESSAGE_END,
)  # fmt: skip
INKLING_THINK: Final = ListSyntax(
    "Inkling", (b"<|content_thinking|>",), {}, no_calls, closer=_MESSAGE_END, reasoning=True
)
INKLING_TEXT: Final = tuple(
    ListSyntax("Inkling", (kind,), {}, no_calls, closer=_MESSAGE_END, reasoning=True, kept=True)
    for kind in (b"<|content_text|>", b"<|content_invoke_tool_text|>", b"<|content_tool_error|>")
)
"""The blocks shown as text: the answer's, a tool call written as text, a tool error."""


class Granite20bParser(ListParser, SYNTAXES=(GRANITE_20B,), sniff=ANGLE_SNIFF, PROSE=True):
    """What granite-20b-functioncalling ids add to the tokens read everywhere: `<function_call>`."""


class FunctionaryParser(ListParser, SYNTAXES=(FUNCTIONARY,), sniff=ANGLE_SNIFF):
    """What Functionary v3.1 ids add to the tokens read everywhere: `<function=NAME>{…}</function>`."""


class FunctionaryV32Parser(
    ListParser, SYNTAXES=(FUNCTIONARY_V32,), sniff=(*word_sniff(b">>>"), *ANGLE_SNIFF)
):
    """What Functionary v3.2 ids add to the tokens read everywhere: `>>>NAME\n{…}`, `>>>all\n`."""

