"""The declaration of gpt-oss harmony: its tokens, and what a message header means.

    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>

A header runs from `<|start|>` or `<|channel|>` to `<|message|>`. `header_kind` reads a
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
MAX_HEADER: Final = 256
"""Bytes of header before the opener is taken for prose."""


class Kind(enum.Enum):
    """What a message is, by its header."""

    REASONING = enum.auto()
    CONTENT = enum.auto()
    CALL = enum.auto()


_FULL: Final = re.compile(
    r"(?:<\|start\|>[ \t]*(?P<role>\w+)(?:[ \t]+to=(?P<to1>[^\s<]+))?[ \t]*)?"
    r"(?:<\|channel\|>[ \t]*(?P<channel>\w+)(?:[ \t]+to=(?P<to2>[^\s<]+))?)?"
    r"[ \t]*(?:<\|constrain\|>[ \t]*)?(?P<ctype>[^\s<]+)?[ \t]*"
)
_MARKER_WORDS: Final = re.compile(r"<\|(?:start|channel|constrain)\|>")
_WORD: Final = re.compile(r"[ \t]*(\w*)(.?)")
_HEADER_CHARACTERS: Final = re.compile(r"[\w \t.=:/@\-]*(?:<\|?[a-z]*\|?)?")


def header_kind(header: str) -> tuple[Kind, str] | None:
    """A complete header (without `<|message|>`): its kind and, for a call, the tool's name."""
    found = _FULL.fullmatch(header)
    if found is None or (found["channel"] is not None and found["channel"] not in CHANNELS):
        return None
    recipient = found["to2"] or found["to1"]
    if recipient is None or not recipient.startswith("functions."):
        kind = Kind.REASONING if found["channel"] == "analysis" else Kind.CONTENT
        return kind, ""
    name = recipient.removeprefix("functions.")
    if found["ctype"] is None and name.endswith("json") and len(name) > 4:
        name = name.removesuffix("json")  # `functions.shelljson`: the type glued on (llama.cpp trims it)
    return Kind.CALL, name


def maybe_prose(header: str) -> bool:
    """Whether an incomplete header can no longer become one: too long, a line break, other
    characters than a header has, or a role or channel word that is none of harmony's."""
    if len(header) > MAX_HEADER or "\n" in header:
        return True
    rest = _MARKER_WORDS.sub(" ", header)
    if _HEADER_CHARACTERS.fullmatch(rest) is None:
        return True
    for marker, words in ((b"<|start|>", ("assistant",)), (CHANNEL, CHANNELS)):
        at = header.find(marker.decode())
        if at != -1 and _bad_word(header[at + len(marker) :], words):
            return True
    return False


def _bad_word(after: str, words: tuple[str, ...]) -> bool:
    """Whether the word after a marker is no prefix of `words` (or, complete, none of them)."""
    found = _WORD.match(after)
    assert found is not None  # (it matches, if only nothing)
    word, following = found.groups()
    if not following:  # the word may go on
        return not any(w.startswith(word) for w in words)
    return word not in words


OPENERS: Final[MarkerTable[bytes]] = MarkerTable({START: START, CHANNEL: CHANNEL, END: END, RETURN: END,
                                                  CALL: END})
"""What harmony reads in plain text: a header's opener, or a message's end."""
REASONING_ENDS: Final[MarkerTable[bool]] = MarkerTable({END: True, RETURN: True, CALL: True, START: False,
                                                        CHANNEL: False})
"""What ends the reasoning channel's text: an end (consumed), or the next header (read next)."""
CALL_ENDS: Final[MarkerTable[bool]] = MarkerTable({CALL: True, END: True, RETURN: True, START: False,
                                                   CHANNEL: False})
"""What ends a call's body: its end (consumed), or the next header (the end was lost)."""
