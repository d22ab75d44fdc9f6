"""A harmony header as gpt-oss streams it, one token a text, as a table of its words.

    <|start|> assistant <|channel|> commentary " to" "=functions" ".NAME" " <|constrain|>" json

A header that is these texts so far, in this order, is no prose and can still end, and at its
`<|message|>` its kind is known without reading it again: what the header checks
(`HarmonyCalls._keeps_header`, `header_kind`) would find in it, for each place in the table
(tests/formats/test_harmony_header_words.py walks every path). Any other text leaves the
table, and those checks read the header from then on.
"""

from __future__ import annotations

import string

from .harmony_headers import CHANNEL, CONSTRAIN, START, Kind, call_name

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

OPENED: Final = {START: 0, CHANNEL: 2}
"""Where a header begins in the table, by its opener."""
_FUNCTIONS: Final = 7
NAME: Final = 8
"""The place after `.NAME` (the name may go on)."""
_TYPED: Final = 10
NEXT: Final = {
    (0, "assistant"): 1,
    (1, CHANNEL.decode()): 2,
    (2, "analysis"): 3,
    (2, "commentary"): 4,
    (2, "final"): 5,
    (4, " to"): 6,
    (6, "=functions"): _FUNCTIONS,
    (NAME, " " + CONSTRAIN.decode()): 9,
    (NAME, CONSTRAIN.decode()): 9,
    (9, "json"): _TYPED,
}
"""The next place, by the place and the text that follows it (a name's texts aside: `name_goes_on`)."""
_NAME_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_-")
_KINDS: Final = {3: (Kind.REASONING, ""), 4: (Kind.CONTENT, ""), 5: (Kind.CONTENT, "")}


def name_goes_on(place: int, text: str) -> bool:
    """Whether `text` after `place` is (more of) the tool's name: `.NAME` after `=functions`,
    name characters after it (ASCII word characters and `-`: what else a name holds leaves the table)."""
    if place == _FUNCTIONS:
        return len(text) > 1 and text[0] == "." and _NAME_CHARS.issuperset(text[1:])
    return place == NAME and bool(text) and _NAME_CHARS.issuperset(text)


def kind_at(place: int, name: str) -> tuple[Kind, str] | None:
    """The kind of a header that ends at `place` (`name`: the tool's, as its texts gave it);
    None where the table does not say (`header_kind` reads it)."""
    if place == NAME:
        return Kind.CALL, call_name(name, None)
    if place == _TYPED:
        return Kind.CALL, name
    return _KINDS.get(place)
