"""ChannelSyntax: the declaration of one syntax of channel messages with recipients, and how
its headers read (harmony, Muse, Beam: `catalogue/channels.py` declares them).

    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>
    <|start|>assistant to=NAME<|message|>                                    (Muse)

A message is a header, from one of the syntax's openers to `<|message|>`, then its body, ended
by one of the syntax's end markers (consumed) or by the next header. A syntax declares:
- `openers` and `ends`; the first end is the one that ends a call;
- `header`, the pattern of a whole header: its recipient groups (`recipients`, the first that
  matched wins), its `channel`, and `ctype` where a content type may follow the recipient;
- `partial`, the pattern of a header still arriving, and `opener_words`, the word that must
  follow an opener (a header that can no longer match them was prose: `maybe_prose`);
- what a message is: `roles` by recipient (None: no recipient), else a recipient starting
  with `call_prefix` is a call to the tool it names, else `channels` by channel ("" for none);
- `body`: None for a JSON value (streamed with `--stream-arguments`), else the invoke grammar
  that reads a call's body whole (`channel_calls.read_calls`);
- `words`: where one is declared, the header as the model streams it, a token a text
  (`HeaderTable`, `channel_words`).
"""

from __future__ import annotations

import enum
import re
import string

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._invoke_syntax import InvokeSyntax

MESSAGE: Final = b"<|message|>"
MAX_HEADER: Final = 256
"""Bytes of header before the opener is taken for prose."""


class Kind(enum.Enum):
    """What a message is, by its header."""

    REASONING = enum.auto()
    CONTENT = enum.auto()
    CALL = enum.auto()


def word_pattern(words: tuple[str, ...]) -> str:
    """The pattern of the text after a marker that may still name one of `words`: spacing, then
    one of them (a whole word), or a prefix of one (or nothing) at the end."""
    prefixes = sorted({word[:size] for word in words for size in range(1, len(word) + 1)}, key=len)[::-1]
    return rf"[ \t]*(?:(?:{'|'.join(words)})(?!\w)|(?:{'|'.join(prefixes)})?\Z)"


def call_name(name: str, ctype: str | None) -> str:
    """The tool's name in a recipient followed by the content type `ctype` (None: none was written)."""
    if ctype is None and name.endswith("json") and len(name) > 4 and name[-5] not in "_-.":
        return name.removesuffix("json")  # `functions.shelljson`: the type glued on (llama.cpp trims it)
    return name  # (`parse_json`, `to.json`: a name does not end in a separator, so `json` is the name's)


class ChannelSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    __slots__ = ("body", "call_prefix", "channels", "ends", "header", "name", "next_headers", "opener_words",
                 "openers", "partial", "recipients", "roles", "words")  # fmt: skip

    def __init__(
        self, name: str, *, openers: tuple[bytes, ...], ends: tuple[bytes, ...], header: re.Pattern[str],
        partial: re.Pattern[str], roles: dict[str | None, Kind], channels: dict[str, Kind],
        body: InvokeSyntax | None = None, call_prefix: str = "", recipients: tuple[str, ...] = ("to",),
        opener_words: dict[bytes, tuple[str, ...]] | None = None, words: HeaderTable | None = None,
    ) -> None:  # fmt: skip
        self.name, self.openers, self.ends, self.header, self.partial = name, openers, ends, header, partial
        self.roles, self.channels, self.body, self.call_prefix = roles, channels, body, call_prefix
        self.recipients, self.words = recipients, words
        self.opener_words = tuple((marker, marker.decode(), re.compile(word_pattern(allowed)))
                                  for marker, allowed in (opener_words or {}).items())  # fmt: skip
        self.next_headers = tuple(o for o in openers if o.startswith(b"<"))  # (what ends a body unseen)

    def kind(self, header: str) -> tuple[Kind, str] | None:
        """A whole header's (without `<|message|>`) kind and, for a call, the tool's name; None
        if it is none."""
        found = self.header.fullmatch(header)
        if found is None:
            return None
        recipient = next((found[group] for group in self.recipients if found[group] is not None), None)
        if recipient in self.roles:
            return self.roles[recipient], ""
        if recipient is not None and recipient.startswith(self.call_prefix):
            ctype = found["ctype"] if "ctype" in self.header.groupindex else ""
            return Kind.CALL, call_name(recipient.removeprefix(self.call_prefix), ctype)
        kind = self.channels.get(found["channel"] or "" if "channel" in self.header.groupindex else "")
        return None if kind is None else (kind, "")

    def maybe_prose(self, header: str) -> bool:
        """Whether an incomplete header can no longer become one: too long, other than `partial`
        allows, or the word after an opener is none of `opener_words`."""
        if len(header) > MAX_HEADER or self.partial.fullmatch(header) is None:
            return True
        for _, marker, word in self.opener_words:
            at = header.find(marker)
            if at != -1 and word.match(header, at + len(marker)) is None:
                return True
        return False


_NAME_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_-")


class HeaderTable:
    """A syntax's header as its model streams it, a token a text: the place a header's first text
    puts it in (`opened`, by opener), the next place by place and text (`next`), the places
    where `.NAME` (`prefix`) and more of a name (`name`) may follow, the place after the
    content type (`typed`), the kinds of headers ending elsewhere (`kinds`), what a text of
    header characters and whole markers looks like (`piece`), and those markers."""

    __slots__ = ("kinds", "markers", "name", "next", "opened", "piece", "prefix", "typed")

    def __init__(
        self, *, opened: dict[bytes, int], next: dict[tuple[int, str], int], prefix: int, name: int,
        typed: int, kinds: dict[int, tuple[Kind, str]], piece: re.Pattern[str], markers: tuple[bytes, ...],
    ) -> None:  # fmt: skip
        self.opened, self.next, self.prefix, self.name, self.typed = opened, next, prefix, name, typed
        self.kinds, self.piece, self.markers = kinds, piece, markers

    def name_goes_on(self, place: int, text: str) -> bool:
        """Whether `text` after `place` is (more of) the tool's name: `.NAME` after the prefix,
        name characters after it (ASCII word characters and `-`: what else a name holds leaves the table)."""
        if place == self.prefix:
            return len(text) > 1 and text[0] == "." and _NAME_CHARS.issuperset(text[1:])
        return place == self.name and bool(text) and _NAME_CHARS.issuperset(text)

    def kind_at(self, place: int, name: str) -> tuple[Kind, str] | None:
        """The kind of a header that ends at `place` (`name`: the tool's, as its texts gave it);
        None where the table does not say (`ChannelSyntax.kind` reads it)."""
        if place == self.name:
            return Kind.CALL, call_name(name, None)
        if place == self.typed:
            return Kind.CALL, name
        return self.kinds.get(place)
