"""Needles that share their first byte, searched as one pattern (sans-IO).

While a stream is idle, an event is read only if it holds one of the stream's needles
(`StreamRewriter.needles`); `PlainRuns` searches a read for them (`NeedleIndex`). A search
for a short needle steps through the bytes a
needle's length at a time, and stops at every byte that ends the needle: the search for
`["` stops at every quote. Needles that share their first byte are one pattern instead
(`[T` and `["`, the two ways Mistral's `[TOOL_CALLS]` can show in the raw JSON, become
`\\[(?:T|")`), which stops only at that byte (an ordinary chunk holds one `[`:
`"choices":[{`): one pass for the group, however many needles it holds. A quote is in
every few bytes of JSON, so quote-led needles (the words choice.py acts on) are searched
one by one.

The general path tests one event's text for each needle (`holds_any`). There a search's call
costs about as much as its pass over the event, and the passes of CPython's string search
are cheaper than a compiled pattern's: on a 258-character chunk, 1 / 7 / 17 needles cost
2.0k / 8.2k / 20.0k instructions searched one by one, 2.7k / 30k / 54k as one alternation,
2.6k / 25k / 32k as one prefix-shared alternation, 2.0k / 8.3k / 17.4k grouped as above, and
a class of just three leading bytes alone 11k (callgrind). So it searches needle by needle, but for
needles that begin alike: a request's tool names make three or four words each (`functions.Read:`,
`=functions.Read`, `call:Read{`), 80 for 20 names, and four or more that share their first three
characters are searched by the lead they share (`functions.`), each only where it stands.
"""

from __future__ import annotations

import functools
import re

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_QUOTE: Final = b'"'
_LEAD: Final = 3  # (characters needles that begin alike share at least)
_ALIKE: Final = 4  # (needles so alike that `as_text` looks for their lead first)


@functools.cache
def grouped(needles: tuple[bytes, ...]) -> tuple[tuple[bytes | re.Pattern[bytes], int], ...]:
    """The searches that stand for `needles`, each with the length of its longest needle: a
    needle, or one pattern for the needles that share their first byte (not a quote), in
    the place of the first of them. A read holds a needle exactly where a search finds one."""
    groups: dict[int | bytes, list[bytes]] = {}
    for needle in dict.fromkeys(needles):
        alone = not needle or needle.startswith(_QUOTE)  # (no byte: every event)
        groups.setdefault(needle if alone else needle[0], []).append(needle)
    searches: list[tuple[bytes | re.Pattern[bytes], int]] = []
    for group in groups.values():
        # (a needle that begins with another is found with it: `<` stands for `<think>`)
        kept = [n for n in group if not any(n != other and n.startswith(other) for other in group)]
        searches.append((kept[0] if len(kept) == 1 else _pattern(kept), max(map(len, kept))))
    return tuple(searches)


def _pattern(group: list[bytes]) -> re.Pattern[bytes]:
    rests = b"|".join(re.escape(needle[1:]) for needle in group)
    return re.compile(re.escape(group[0][:1]) + b"(?:" + rests + b")")


class _Led(str):
    """Needles that begin alike (a request's tool names make them: `functions.Read:`,
    `functions.Write:`), as the lead they share: `holds_any` looks for them only where it stands."""

    needles: tuple[str, ...]


@functools.lru_cache(maxsize=64)
def as_text(needles: tuple[bytes, ...]) -> tuple[str, ...]:
    """`needles` as text, each once, for `holds_any`: those of `_ALIKE` or more that begin with the
    same `_LEAD` characters as one `_Led` (made once for the needles of the last requests)."""
    alike: dict[str, list[str]] = {}
    for needle in dict.fromkeys(needles):
        text = needle.decode()
        alike.setdefault(text[:_LEAD] if len(text) > _LEAD else text, []).append(text)
    return tuple(text for group in alike.values()
                 for text in (group if len(group) < _ALIKE else [_led(group)]))  # fmt: skip


def _led(group: list[str]) -> _Led:
    first, last = min(group), max(group)  # (what they all begin with, these two do)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    led = _Led(first[:size])
    led.needles = tuple(group)
    return led


def holds_any(data: bytes, needles: tuple[str, ...]) -> bool:
    """Whether an event's data, as text (`sse.decoded`), holds one of `needles` (the general
    path's search; a search in the bytes costs more)."""
    text = data.decode("utf-8", "replace")
    for needle in needles:  # (a loop, not any(): this runs once per event)
        if needle in text and (type(needle) is str or any(member in text for member in needle.needles)):  # type: ignore[attr-defined]
            return True
    return False
