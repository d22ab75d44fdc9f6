"""The declaration of gpt-oss harmony: its tokens, and what a message header means.

    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>

A header runs from `<|start|>` or `<|channel|>` to `<|message|>`. A recipient runs to the next
marker, spaces and all (`to=functions.Web Search <|constrain|>json`), and ends at a control
token, so a `<|channel|>WORD` glued to it is the header's channel again (vLLM's parser
reads the tokens so). `header_kind` reads a
complete one (a call to `functions.NAME`, the `analysis` reasoning channel, or content:
`final`, `commentary` without a recipient); `maybe_prose` tells, while a header is still
arriving, whether it can no longer become one (then its opener was prose).
"""

from __future__ import annotations

import enum
import re

from ._scanner import MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

START: Final = b"<|start|>"
CHANNEL: Final = b"<|channel|>"
MESSAGE: Final = b"<|message|>"
CONSTRAIN: Final = b"<|constrain|>"
END: Final = b"<|end|>"
CALL: Final = b"<|call|>"
RETURN: Final = b"<|return|>"
CHANNELS: Final = ("analysis", "final", "commentary")
"""The channels gpt-oss writes; a header naming another is prose."""
_CHANNEL_WORDS: Final = frozenset({None, *CHANNELS})
"""What a header's channel may be: one of them, or none."""
MAX_HEADER: Final = 256
"""Bytes of header before the opener is taken for prose."""


class Kind(enum.Enum):
    """What a message is, by its header."""

    REASONING = enum.auto()
    CONTENT = enum.auto()
    CALL = enum.auto()


_REASONING, _CONTENT, _CALL = Kind.REASONING, Kind.CONTENT, Kind.CALL
"""Read once: a member read from its Enum class goes through the metaclass's `__getattr__`
hook, about ten times a global's cost (Python 3.11)."""

_RECIPIENT: Final = r"[^\s<]+(?:[ \t]+(?!json(?![^\s<]))[^\s<]+)*"
"""A recipient: its words up to the next marker (`functions.Web Search`), but for a last `json`
(the content type, written without `<|constrain|>`)."""
_FULL: Final = re.compile(
    rf"(?:<\|start\|>[ \t]*(?P<role>\w+)(?:[ \t]+to=(?P<to1>{_RECIPIENT}))?[ \t]*)?"
    r"(?:<\|channel\|>[ \t]*(?P<channel>\w+)"
    rf"(?:[ \t]+to=(?P<to2>{_RECIPIENT})(?:[ \t]*<\|channel\|>[ \t]*(?P<again>\w+))?)?)?"
    r"[ \t]*(?:<\|constrain\|>[ \t]*)?(?P<ctype>[^\s<]+)?[ \t]*"
)
_HEADER_TEXT: Final = re.compile(
    r"(?:[\w \t.=:/@\-]++|<\|(?:start|channel|constrain)\|>)*+(?:<\|?[a-z]*\|?)?"
)
"""What a header may hold: its characters, whole markers, and a marker's start at its end (runs
of characters taken whole and never given back: a third of the steps of one at a time, and no
backtracking, as a character is never a marker's `<`)."""


def _word_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """The text after a marker that may still name one of `words`: spacing, then one of them
    (a whole word), or a prefix of one (or nothing) at the end."""
    prefixes = sorted({word[:size] for word in words for size in range(1, len(word) + 1)}, key=len)[::-1]
    return re.compile(rf"[ \t]*(?:(?:{'|'.join(words)})(?!\w)|(?:{'|'.join(prefixes)})?\Z)")


def header_kind(header: str) -> tuple[Kind, str] | None:
    """A complete header (without `<|message|>`): its kind and, for a call, the tool's name."""
    found = _FULL.fullmatch(header)
    if found is None:
        return None
    role, channel, again, to1, to2, ctype = found.group("role", "channel", "again", "to1", "to2", "ctype")
    if role not in (None, "assistant") or channel not in _CHANNEL_WORDS or again not in _CHANNEL_WORDS:
        return None  # (as `maybe_prose` reads an incomplete header: the role is assistant)
    recipient = to2 or to1
    if recipient is None or not recipient.startswith("functions."):
        return (_REASONING if channel == "analysis" else _CONTENT), ""
    return _CALL, call_name(recipient.removeprefix("functions."), ctype)


def call_name(name: str, ctype: str | None) -> str:
    """The tool's name in a recipient `functions.NAME` followed by the content type `ctype`."""
    if ctype is None and name.endswith("json") and len(name) > 4:
        return name.removesuffix("json")  # `functions.shelljson`: the type glued on (llama.cpp trims it)
    return name


def maybe_prose(header: str) -> bool:
    """Whether an incomplete header can no longer become one: too long, a line break, other
    characters than a header has, or a role or channel word that is none of harmony's."""
    if len(header) > MAX_HEADER or _HEADER_TEXT.fullmatch(header) is None:
        return True
    for marker, word in _OPENER_WORDS:
        at = header.find(marker)
        if at != -1 and word.match(header, at + len(marker)) is None:
            return True
    return False


OPENER_WORDS: Final = ((START, _word_pattern(("assistant",))), (CHANNEL, _word_pattern(CHANNELS)))
"""The openers whose first one in a header must be followed by a word of harmony's, and the
pattern of the text after it (see `_word_pattern`)."""
_OPENER_WORDS: Final = tuple((marker.decode(), word) for marker, word in OPENER_WORDS)


OPENERS: Final[MarkerTable[bytes]] = MarkerTable({START: START, CHANNEL: CHANNEL, END: END, RETURN: END,
                                                  CALL: END})
"""What harmony reads in plain text: a header's opener, or a message's end."""
REASONING_ENDS: Final[MarkerTable[bool]] = MarkerTable({END: True, RETURN: True, CALL: True, START: False,
                                                        CHANNEL: False})
"""What ends the reasoning channel's text: an end (consumed), or the next header (read next)."""
CALL_ENDS: Final[MarkerTable[bool]] = MarkerTable({CALL: True, END: True, RETURN: True, START: False,
                                                   CHANNEL: False})
"""What ends a call's body: its end (consumed), or the next header (the end was lost)."""
