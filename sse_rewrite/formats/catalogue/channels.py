"""Channel messages with recipients (`machines/channels.py`): gpt-oss harmony, Muse Spark, Muse
Glimmer and Beam, on harmony's tokens.

    harmony: <|channel|>analysis<|message|>REASONING<|end|><|start|>assistant<|channel|>commentary
           to=functions.NAME <|constrain|>json<|message|>{"x": 1}<|call|>
           <|start|>assistant<|channel|>final<|message|>ANSWER<|return|>
    Muse:  to=self<|message|>REASONING<|eom|><|start|>assistant to=NAME<|message|><atem:function_calls>
           <atem:invoke name="NAME"><atem:parameter name="P">V</atem:parameter></atem:invoke>
           </atem:function_calls><|eom|><|start|>assistant to=user<|message|>ANSWER<|eot|>
    Beam:  <|channel|>analysis<|message|>REASONING<|end|><|start|>assistant to=NAME<|channel|>analysis
           <|constrain|>xml<|message|><rfl:parameter name="K">\\nV\\n</rfl:parameter><|call|>
           <|channel|>final<|message|>ANSWER<|return|>

Harmony: a header runs from `<|start|>` or `<|channel|>` to `<|message|>`; the role is
`assistant` and the channel one of gpt-oss's (another word is prose). A recipient runs to the
next marker, spaces and all (`to=functions.Web Search <|constrain|>json`), and ends at a control
token, so a `<|channel|>WORD` glued to it is the header's channel again (vLLM's parser reads the
tokens so); `functions.NAME` is a call with a JSON body, `analysis` reasoning, any other header
content. `HARMONY_WORDS` is the header as gpt-oss streams it, one token a text.

The prompt ends `<|start|>assistant`, so Muse's first header is ` to=RECIPIENT<|message|>` (the
space is the header's). Spark: `self` or no recipient is reasoning, `user`, `commentary` and
`developer` content, any other recipient a call whose body is ATEM (`invoke_more.ATEM`).
Glimmer: `self` is reasoning, no recipient or `user` content. Beam: `to=NAME` before the channel
makes a call whose body is `rfl:parameter` tags (the value lies between two newlines, kept as
written); otherwise `analysis` is reasoning, `final` content. These headers are not harmony's:
each is read under its model ids only, in harmony's place.
"""

from __future__ import annotations

import re

from ..machines._invoke_syntax import InvokeSyntax, Spelling
from ..machines.channels import ChannelParser
from ..machines.recipients import ChannelSyntax, HeaderTable, Kind
from .invoke_more import ATEM

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

START: Final = b"<|start|>"
CHANNEL: Final = b"<|channel|>"
CONSTRAIN: Final = b"<|constrain|>"
CHANNELS: Final = ("analysis", "final", "commentary")
"""The channels gpt-oss writes; a header naming another is prose."""
_CONTENT, _REASONING = Kind.CONTENT, Kind.REASONING
_WORD: Final = rf"(?:{'|'.join(CHANNELS)})(?!\w)"
_RECIPIENT: Final = r"[^\s<]+(?:[ \t]+(?!json(?![^\s<]))[^\s<]+)*"
"""A recipient: its words up to the next marker (`functions.Web Search`), but for a last `json`
(the content type, written without `<|constrain|>`)."""
_HEADER_TEXT: Final = r"(?:[\w \t.=:/@\-]++|<\|(?:start|channel|constrain)\|>)*+"
"""What a header may hold: its characters and whole markers (runs of characters taken whole and
never given back: no backtracking, as a character is never a marker's `<`)."""
_NAME: Final = 8
HARMONY_WORDS: Final = HeaderTable(
    opened={START: 0, CHANNEL: 2},
    next={(0, "assistant"): 1, (1, CHANNEL.decode()): 2, (2, "analysis"): 3, (2, "commentary"): 4,
          (2, "final"): 5, (4, " to"): 6, (6, "=functions"): 7, (_NAME, " " + CONSTRAIN.decode()): 9,
          (_NAME, CONSTRAIN.decode()): 9, (9, "json"): 10},
    prefix=7, name=_NAME, typed=10, kinds={3: (_REASONING, ""), 4: (_CONTENT, ""), 5: (_CONTENT, "")},
    piece=re.compile(_HEADER_TEXT),
    markers=(START, CHANNEL, CONSTRAIN),
)  # fmt: skip
"""Harmony's header as gpt-oss streams it: `<|start|>` `assistant` `<|channel|>` `commentary` ` to`
`=functions` `.NAME` (more of the name) ` <|constrain|>` `json`, places numbered in that order."""
HARMONY: Final = ChannelSyntax(
    "harmony", openers=(START, CHANNEL), ends=(b"<|call|>", b"<|end|>", b"<|return|>"),
    header=re.compile(
        rf"(?:<\|start\|>[ \t]*assistant(?!\w)(?:[ \t]+to=(?P<to1>{_RECIPIENT}))?[ \t]*)?"
        rf"(?:<\|channel\|>[ \t]*(?P<channel>{_WORD})"
        rf"(?:[ \t]+to=(?P<to2>{_RECIPIENT})(?:[ \t]*<\|channel\|>[ \t]*{_WORD})?)?)?"
        r"[ \t]*(?:<\|constrain\|>[ \t]*)?(?P<ctype>[^\s<]+)?[ \t]*"
    ),
    partial=re.compile(_HEADER_TEXT + r"(?:<\|?[a-z]*\|?)?"),  # (and a marker's start at its end)
    opener_words={START: ("assistant",), CHANNEL: CHANNELS}, roles={}, call_prefix="functions.",
    recipients=("to2", "to1"), words=HARMONY_WORDS,
    channels={"analysis": _REASONING, "final": _CONTENT, "commentary": _CONTENT, "": _CONTENT},
)  # fmt: skip
"""gpt-oss harmony (`--format harmony`; read in every stream)."""

_START: Final = r"<\|start\|>[ \t]*assistant"
_TAIL: Final = r"(?:<\|?[a-z]*\|?)?"  # (a marker's start, at the end of a header still arriving)
_MUSE_HEADER: Final = re.compile(rf"(?:{_START})?[ \t]*(?:to=(?P<to>[^\s<]+))?[ \t]*")
_MUSE_PARTIAL: Final = re.compile(rf"(?:<\|start\|>[ \t]*\w*)?[ \t]*(?:t(?:o(?:=[^\s<]*[ \t]*)?)?)?{_TAIL}")


def _muse(name: str, roles: dict[str | None, Kind]) -> ChannelSyntax:
    """A Muse syntax: its header grammar, its ends, ATEM bodies, and what its recipients are."""
    return ChannelSyntax(name, openers=(START, b" to=", b"to="), header=_MUSE_HEADER,
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
BEAM: Final = ChannelSyntax(
    "beam", openers=(START, CHANNEL),
    header=re.compile(rf"(?:{_START})?(?:[ \t]+to=(?P<to>[^\s<]+))?[ \t]*"
                      r"(?:<\|channel\|>[ \t]*(?P<channel>\w+))?[ \t]*(?:<\|constrain\|>[ \t]*\w+)?[ \t]*"),
    partial=re.compile(r"(?:<\|start\|>[ \t]*\w*)?(?:[ \t]+t(?:o(?:=[^\s<]*)?)?)?[ \t]*"
                       rf"(?:<\|channel\|>[ \t]*\w*[ \t]*)?(?:<\|constrain\|>[ \t]*\w*[ \t]*)?{_TAIL}"),
    roles={}, channels={"analysis": _REASONING, "final": _CONTENT, "commentary": _CONTENT},
    ends=(b"<|call|>", b"<|end|>", b"<|return|>"), body=RFL,
)  # fmt: skip
"""Beam (`beam-1` ids)."""


class MuseSparkParser(ChannelParser, SYNTAX=MUSE_SPARK):
    """Muse Spark's messages."""


class MuseGlimmerParser(ChannelParser, SYNTAX=MUSE_GLIMMER):
    """Muse Glimmer's messages."""


class BeamParser(ChannelParser, SYNTAX=BEAM):
    """Beam's messages."""


class HarmonyParser(ChannelParser, SYNTAX=HARMONY):
    """Streaming parser for gpt-oss harmony messages (`--format harmony`)."""
