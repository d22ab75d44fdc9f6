"""Channels with recipients on harmony's tokens: Muse Spark, Muse Glimmer and Beam (`machines/recipients.py`).

    Muse:  to=self<|message|>REASONING<|eom|><|start|>assistant to=NAME<|message|><atem:function_calls>
           <atem:invoke name="NAME"><atem:parameter name="P">V</atem:parameter></atem:invoke>
           </atem:function_calls><|eom|><|start|>assistant to=user<|message|>ANSWER<|eot|>
    Beam:  <|channel|>analysis<|message|>REASONING<|end|><|start|>assistant to=NAME<|channel|>analysis
           <|constrain|>xml<|message|><rfl:parameter name="K">\\nV\\n</rfl:parameter><|call|>
           <|channel|>final<|message|>ANSWER<|return|>

The prompt ends `<|start|>assistant`, so Muse's first header is ` to=RECIPIENT<|message|>` (the
space is the header's). Spark:
`self` or no recipient is reasoning, `user`, `commentary` and `developer` content, any other recipient
a call whose body is ATEM (`invoke_more.ATEM`). Glimmer: `self` is reasoning, no recipient or `user`
content. Beam: `to=NAME` before the channel makes a call whose body is `rfl:parameter` tags (the value
lies between two newlines, kept as written); otherwise `analysis` is reasoning, `final` content.
These headers are not harmony's: each is read under its model ids only, in harmony's place.
"""

from __future__ import annotations

import re

from ..machines._invoke_syntax import InvokeSyntax, Spelling
from ..machines.recipients import Kind, RecipientParser, RecipientSyntax
from .invoke_more import ATEM

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_START: Final = r"<\|start\|>[ \t]*assistant"
_TAIL: Final = r"(?:<\|?[a-z]*\|?)?"  # (a marker's start, at the end of a header still arriving)
_MUSE_HEADER: Final = re.compile(rf"(?:{_START})?[ \t]*(?:to=(?P<to>[^\s<]+))?[ \t]*")
_MUSE_PARTIAL: Final = re.compile(rf"(?:<\|start\|>[ \t]*\w*)?[ \t]*(?:t(?:o(?:=[^\s<]*[ \t]*)?)?)?{_TAIL}")
_CONTENT, _REASONING = Kind.CONTENT, Kind.REASONING


def _muse(name: str, roles: dict[str | None, Kind]) -> RecipientSyntax:
    """A Muse syntax: its header grammar, its ends, ATEM bodies, and what its recipients are."""
    return RecipientSyntax(name, openers=(b"<|start|>", b" to=", b"to="), header=_MUSE_HEADER,
                           partial=_MUSE_PARTIAL, roles=roles, channels={}, ends=(b"<|eom|>", b"<|eot|>"),
                           body=ATEM)  # fmt: skip


MUSE_SPARK: Final = _muse("muse-spark", {None: _REASONING, "self": _REASONING, "user": _CONTENT,
                                         "commentary": _CONTENT, "developer": _CONTENT})  # fmt: skip
"""Muse Spark (`muse-spark` ids)."""
MUSE_GLIMMER: Final = _muse("muse-glimmer", {None: _CONTENT, "self": _REASONING, "user": _CONTENT})
"""Muse Glimmer (`muse-glimmer` ids)."""

_RFL: Final = Spelling("<rfl:", "</rfl:", distinctive=False)
RFL: Final = InvokeSyntax("rfl", (), (), (_RFL,))
"""Beam's call body: `<rfl:parameter name="K">` values (no invoke, no block)."""
BEAM: Final = RecipientSyntax(
    "beam", openers=(b"<|start|>", b"<|channel|>"),
    header=re.compile(rf"(?:{_START})?(?:[ \t]+to=(?P<to>[^\s<]+))?[ \t]*"
                      r"(?:<\|channel\|>[ \t]*(?P<channel>\w+))?[ \t]*(?:<\|constrain\|>[ \t]*\w+)?[ \t]*"),
    partial=re.compile(r"(?:<\|start\|>[ \t]*\w*)?(?:[ \t]+t(?:o(?:=[^\s<]*)?)?)?[ \t]*"
                       rf"(?:<\|channel\|>[ \t]*\w*[ \t]*)?(?:<\|constrain\|>[ \t]*\w*[ \t]*)?{_TAIL}"),
    roles={}, channels={"analysis": _REASONING, "final": _CONTENT, "commentary": _CONTENT},
    ends=(b"<|end|>", b"<|call|>", b"<|return|>"), body=RFL,
)  # fmt: skip
"""Beam (`beam-1` ids)."""


class MuseSparkParser(RecipientParser):
    """Muse Spark's messages."""

    SYNTAX: ClassVar[RecipientSyntax] = MUSE_SPARK


class MuseGlimmerParser(RecipientParser):
    """Muse Glimmer's messages."""

    SYNTAX: ClassVar[RecipientSyntax] = MUSE_GLIMMER


class BeamParser(RecipientParser):
    """Beam's messages."""

    SYNTAX: ClassVar[RecipientSyntax] = BEAM
