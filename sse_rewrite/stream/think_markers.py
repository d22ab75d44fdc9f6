"""MarkerSet: the reasoning markers one stream reads (`formats/catalogue/reasoning.py`), compiled.

It answers the `ThinkSplitter`'s three questions: where the next opener (or answer wrapper) is,
where the next closer of the open reasoning is, and how long the end of a text is that may
still become one of them (held back, never more than the longest spelling). Each search is one
compiled pattern over the text not yet scanned, so time stays linear.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..formats.catalogue.reasoning import MARKERS, SUFFIXED, THINK, ReasoningMarkers
from ..formats.machines._scanner import ANGLE_SNIFF

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_SUFFIX: Final = r"[\w.-]{1,40}"
"""A checkpoint suffix (`opensource`, `6124c78e`)."""
_SUFFIX_CHAR: Final = re.compile(r"[\w.-]")
_KEPT_SIZE: Final = 32  # `MarkerSet.holds_none` keeps its answers for texts this long at most
_KEPT_TEXTS: Final = 256  # and for this many texts (a call's marker tokens, a few each syntax)


@dataclass(frozen=True, slots=True)
class Found:
    """A marker at `start:end` of the text; `closes`: the closers of the reasoning it opens
    (None for an answer wrapper or a closer, which open nothing)."""

    start: int
    end: int
    closes: tuple[str, ...] | None


@functools.lru_cache(maxsize=256)  # (bounded: a suffixed closer repeats what the model wrote)
def _pattern(spellings: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for these spellings, longest first; a suffixed one takes any suffix."""
    parts = [re.escape(s[: -len(SUFFIXED)]) + ":" + _SUFFIX + ">" if s.endswith(SUFFIXED) else re.escape(s)
             for s in sorted(spellings, key=len, reverse=True)]  # fmt: skip
    return re.compile("|".join(parts))


@functools.lru_cache(maxsize=256)
def _prefixes(spellings: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str], tuple[str, ...], int]:
    """The proper prefixes of the fixed spellings, their first characters, the heads of the
    suffixed ones (`<think:`), and how long a held end may be."""
    fixed = [s for s in spellings if not s.endswith(SUFFIXED)]
    heads = tuple(s[: -len(SUFFIXED)] + ":" for s in spellings if s.endswith(SUFFIXED))
    prefixes = frozenset(s[:n] for s in fixed for n in range(1, len(s)))
    leads = frozenset(s[0] for s in (*fixed, *heads))
    longest = max([len(s) - 1 for s in fixed] + [len(h) + 40 for h in heads] + [0])
    return prefixes, leads, heads, longest


def partial(buf: str, pos: int, spellings: tuple[str, ...]) -> int:
    """Length of the longest end of `buf[pos:]` that may still become one of `spellings`."""
    prefixes, leads, heads, longest = _prefixes(spellings)
    for start in range(max(pos, len(buf) - longest), len(buf)):
        if buf[start] not in leads:
            continue
        tail = buf[start:]
        if tail in prefixes or any(_suffix_prefix(tail, head) for head in heads):
            return len(buf) - start
    return 0


def _suffix_prefix(tail: str, head: str) -> bool:
    """Whether `tail` may still become `head` + a suffix + `>`."""
    if len(tail) <= len(head):
        return head.startswith(tail)
    rest = tail[len(head) :]
    return tail.startswith(head) and len(rest) <= 40 and all(_SUFFIX_CHAR.match(c) for c in rest)


class MarkerSet:
    """The openers (each with its closers), answer wrappers and prompt-opened marker of a stream."""

    __slots__ = ("_closes", "_none", "_outside", "id_bound", "leads", "needles", "prompt")

    def __init__(self, markers: tuple[ReasoningMarkers, ...], prompt: ReasoningMarkers | None) -> None:
        self.prompt = prompt
        self.id_bound = any(marker.ids for marker in markers)
        """Whether a marker read under the stream's id (not in every stream) is among them."""
        """The marker the prompt opens (the output starts inside it), if any."""
        closes: dict[str, tuple[str, ...]] = {}
        wrappers: list[str] = []
        for marker in markers:
            for opener in marker.opens:
                closes.setdefault(opener, marker.closes)
            wrappers += marker.answer
        self._closes = closes
        self._outside = tuple(dict.fromkeys([*closes, *wrappers]))
        self.leads = tuple(sorted({s[0] for s in self._outside}))
        """The first characters of the spellings read outside the reasoning."""
        every = (*self._outside, *(c for m in markers for c in m.closes), *(prompt.closes if prompt else ()))
        leads = {s[0] for s in every}
        escaped = (f"\\u{ord(lead):04x}".encode() for lead in sorted(leads) if ord(lead) > 0x7F)
        self.needles = (*(ANGLE_SNIFF if "<" in leads else ()),
                        *(lead.encode() for lead in sorted(leads - {"<"})), *escaped)  # fmt: skip
        """Raw bytes without which an event holds no marker and no start of one."""
        self._none: dict[str, bool] = {}  # `holds_none`'s answers, by text

    def outside(self) -> tuple[str, ...]:
        """The spellings read outside the reasoning: openers and answer wrappers."""
        return self._outside

    def holds_none(self, text: str) -> bool:
        """Whether `text` holds no opener or answer wrapper, nor ends in a start of one. Kept for
        short texts: a tool call's marker tokens (`</parameter>`) ask it once an event, the same
        few texts again and again (the answers are the set's, which streams share: bounded)."""
        known = self._none.get(text)
        if known is None:
            known = self.find_outside(text, 0) is None and not partial(text, 0, self._outside)
            if len(text) <= _KEPT_SIZE and len(self._none) < _KEPT_TEXTS:
                self._none[text] = known
        return known

    def find_outside(self, buf: str, pos: int) -> Found | None:
        """The first opener or answer wrapper in `buf[pos:]`."""
        if not self._outside:
            return None
        match = _pattern(self._outside).search(buf, pos)
        if match is None:
            return None
        spelling = match.group()
        closes = self._closes.get(spelling)
        if closes is None and spelling.endswith(">") and ":" in spelling and spelling not in self._outside:
            head = spelling[: spelling.index(":")]  # a suffixed opener: its closer repeats the suffix
            closes = ("</" + spelling[1:],) if head + SUFFIXED in self._closes else None
        return Found(match.start(), match.end(), closes)


def find_closer(buf: str, pos: int, closes: tuple[str, ...]) -> Found | None:
    """The first of `closes` in `buf[pos:]`."""
    if not closes:
        return None
    match = _pattern(closes).search(buf, pos)
    return None if match is None else Found(match.start(), match.end(), None)


def applies(marker: ReasoningMarkers, lowered: str, every_id: bool) -> bool:
    """Whether a stream of model id `lowered` reads `marker` (`every_id`: `--think on`, and so
    `<think>` for any id)."""
    return not marker.ids or any(n in lowered for n in marker.ids) or (every_id and marker is THINK)


@functools.lru_cache(maxsize=256)
def marker_set(lowered: str, every_id: bool, prompt_think: bool) -> tuple[MarkerSet, str]:
    """The markers a stream of model id `lowered` reads, and why the id-bound ones apply."""
    markers = tuple(m for m in MARKERS if applies(m, lowered, every_id))
    prompt = None
    if prompt_think:
        prompt = next((m for m in markers if any(n in lowered for n in m.starts_inside)), None)
    named = [m.name for m in markers if m.ids]
    return MarkerSet(markers, prompt), ", ".join(named)
