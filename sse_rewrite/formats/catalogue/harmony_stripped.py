"""gpt-oss harmony with its special tokens stripped by the server, declared: a leading reasoning
block (`machines/whole_answer.py`) read by the list machine (`machines/_list_machine.py`; gpt-oss
model ids only).

    analysisUser asks for the weather.assistantcommentary to=functions.get_weather json{"city": "SF"}
    analysisUser says hi.assistantfinalHello!

Decoded with `skip_special_tokens`, the channel names glue onto the text. What can be proven
syntax, and nothing else, is read: the answer *starting* with `analysis` glued to a word (not
`analysis of`) makes the text reasoning; in it, `assistantfinal` hands the rest, the answer, to
the special tokens' parser, and `assistantcommentary to=functions.NAME` (or `commentary
to=functions.NAME`), an optional `json` and one whole, valid JSON object make a call (`proven`:
anything else, or a call naming no tool the request declares (`PROSE`), stays in the reasoning).
Under any other id where the tools are known (`declared.py`), the call alone is read from `=functions.`
with a tool's name as declared (`DeclaredHarmonyParser`); the text before it stays text.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..machines._brackets import Quotes
from ..machines._list_machine import ListParser
from ..machines._list_reads import named_objects, no_calls
from ..machines._list_syntax import ListSyntax
from ..machines.whole_answer import LeadingReasoning

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

HARMONY_STRIPPED: Final = ListSyntax(
    "Harmony", (b"assistantcommentary to=functions.", b"commentary to=functions."), {ord("{"): Quotes.JSON},
    named_objects, header=re.compile(r"(?P<name>[A-Za-z0-9_.\-]+?)(?:json)?[ \t]*(?:json)?[ \t]*"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\- \t]"), header_optional=False, proven=True,
)  # fmt: skip
"""A call in the stripped reasoning: the name, then `json` (before or after spacing) or not, then
one JSON object, as `NAME{…}` is read (a name ending in `json` loses it, as before the move)."""
HARMONY_FINAL: Final = ListSyntax("Harmony", (b"assistantfinal",), {}, no_calls, hands_over=True)
"""The end of the stripped reasoning: the answer follows."""


class StrippedAnalysisParser(ListParser, SYNTAXES=(HARMONY_STRIPPED, HARMONY_FINAL), sniff=(), PROSE=True):
    """The stripped reasoning after `analysis`: its calls, up to `assistantfinal`."""


ANALYSIS: Final = LeadingReasoning(
    "analysis", spaced=False, glued=re.compile(rb"[^a-z \t\r\n:;,.!?)\-]"), reader=StrippedAnalysisParser,
)  # fmt: skip
"""`analysis` at the field's very start, glued to what follows (not a lowercase letter, spacing or
punctuation: `analysis of the data` is the answer's text)."""


class DeclaredHarmonyParser(ListParser, PROSE=True, sniff=(), SYNTAXES=(replace(
    HARMONY_STRIPPED, openers=(b"=functions.",), typed=named_objects, value_start=b'"}',
    header=re.compile(r"(?P<name>[A-Za-z0-9_.\-]+?)(?:[ \t]*(?:<\|constrain\|>)?json)?[ \t]*"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\- \t<|>]")),)):  # fmt: skip
    """Stripped harmony's call under any id (`declared.py`): `=functions.NAME`, the tool's name as
    declared, `json` or `<|constrain|>json` or nothing, one whole valid object; the rest is text."""
