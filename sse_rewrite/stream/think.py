"""ThinkSplitter: `<think>…</think>` reasoning leaked into `content`, split out of the answer.

Models served without a reasoning parser (DeepSeek-R1, Qwen3, QwQ, GLM-4.5+, MiniMax M2, Kimi-Thinking)
write their reasoning into `content` between `<think>` and `</think>`. R1-style chat templates
(R1, GLM-4.7+, MiniMax M2) open the tag in the prompt, so the output may begin inside the
reasoning with only `</think>` to come (`starts_inside`). Other models mark it otherwise
(`◁think▷`, `<|START_THINKING|>`, Granite 3.2's `Here is my thought process:`...): the splitter
reads every marker of the stream's `MarkerSet` (`think_markers.py`, declared in
`formats/catalogue/reasoning.py`) the same way, `<think>` standing for them all below; an
answer wrapper (`<answer>`, `<response>`) outside the reasoning is markup.

The splitter is fed one choice's `content` text as it streams and returns `Text` (the answer,
stays in `content`), `Thought` (reasoning, moves to the stream's reasoning field) and `Markup`
(the tags themselves), in order; the three re-join to the input exactly. A tag split across
chunks is held back until the next text settles it; nothing else is held. Every `<think>`
opens and every `</think>` closes; a tag that cannot apply (`</think>` outside, `<think>`
inside) is text, but at the content's very start (docs/behaviour.md, "Think tags"). A DSML
block opener inside ends the reasoning too, as DeepSeek V4's parser does: it and what follows
are the answer, where the content's parser reads the block. Time is linear: the only text
scanned twice is a held tag prefix.

`content_thinking.ContentThinking` applies a splitter to one choice's deltas, before the tool
parsers see them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..formats.catalogue.reasoning import THINK
from .events import Markup, Text
from .think_markers import Found, MarkerSet, find_closer, marker_set, partial

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal


OPEN: Final = "<think>"
CLOSE: Final = "</think>"

_AROUND_MARK: Final = (4, 24)  # (how far a block opener reaches before and after its `DSML`)
_REMEMBERED: Final = 64  # (the longest text `_closes_none` remembers)

THINK_CHOICES: Final = ("auto", "on", "off")
"""The `--think` values."""


@dataclass(frozen=True, slots=True)
class Thought:
    """Reasoning text found in `content`, to go out in the stream's reasoning field."""

    text: str


def think_mode(
    model: str | None, requested: Literal["auto", "on", "off"], prompt_think: bool = True
) -> tuple[MarkerSet | None, str]:
    """Decide `--think` for a stream of `model`: the reasoning markers it reads (None: none),
    and why. `auto` reads the special-token markers in every stream and the others under their
    ids (`formats/catalogue/reasoning.py`); `on` also `<think>` for any id. `prompt_think`
    False: the request turned thinking off, so no prompt opened a marker."""
    if requested == "off":
        return None, "--think off"
    markers, named = marker_set((model or "").lower(), requested == "on", prompt_think)
    why = f"reasoning markers read (special tokens; {named or 'no id-bound ones'}"
    why += f"; output starts inside {markers.prompt.name})" if markers.prompt is not None else ")"
    return markers, why if requested == "auto" else f"--think on: {why}"


class ThinkSplitter:
    """Splits one choice's `content` stream into answer and reasoning (sans-IO)."""

    __slots__ = ("_close_leads", "_closes", "_held", "_implicit", "_inside", "_markers", "_prompt_opens",
                 "_start", "assumed", "awaiting", "busy")  # fmt: skip

    def __init__(self, starts_inside: bool = False, markers: MarkerSet | None = None) -> None:
        """`markers`: those the stream reads (default: `<think>` alone, opened by the prompt if
        `starts_inside`); the output starts inside when they name a marker the prompt opens."""
        self._markers = markers = markers or _think_only(starts_inside)
        starts_inside = markers.prompt is not None
        self._closes = markers.prompt.closes if markers.prompt is not None else ()  # (of the open reasoning)
        self._close_leads = _close_leads(self._closes)
        self._inside = starts_inside
        self._implicit = starts_inside  # inside without having seen `<think>`; nothing moved yet
        self._prompt_opens = starts_inside  # the template opens the tag: a `</think>` first ends it
        self._held = ""
        self._start = True  # nothing decided yet: the content's very start
        self.assumed = starts_inside
        """True while the reasoning is only assumed: the prompt opened it and no tag (nor a block
        opener) has been read since, so what moves may be an answer given without thinking."""
        self.busy = starts_inside
        """True while content is moved, a tag prefix is held, or a tag at the content's very
        start would be read as one (a text passed unread would move the start): every content
        text must come here. An attribute, kept by `_settle`: it is asked once per content event."""
        self.awaiting = False
        """True while `busy` only because a closer at the content's very start would be read as one
        (the provider sends its reasoning in a field of its own, no content yet): an event with no
        content text and no finish leaves this state as it is (kept by `_settle`)."""

    @property
    def inside(self) -> bool:
        """True while content is being moved to reasoning."""
        return self._inside

    @property
    def leads(self) -> tuple[str, ...]:
        """The first characters of the markers read outside the reasoning."""
        return self._markers.leads

    def passes(self, text: str) -> bool:
        """Whether `feed` would give `text` back as answer text, holding nothing (outside)."""
        markers = self._markers
        for lead in markers.leads:  # (a loop, not any(): once per content token outside)
            if lead in text:
                return not self._inside and markers.holds_none(text)
        return not self._inside  # (most tokens: no search)

    def ends_in_start(self, text: str) -> bool:
        """Whether `text` ends with a possible start of a tag read outside the reasoning, after some
        other text (a text that is only the start cannot have closed a call before it: a token
        stream's `<th` or an HTML file's `<td` inside a call is not read ahead)."""
        return not self._inside and 0 < partial(text, 0, self._markers.outside()) < len(text)

    def moves(self, text: str) -> bool:
        """Whether `feed` would give all of `text` back as one `Thought`, holding nothing and
        changing no state: inside, past the content's start, nothing held, and no character in it
        that may begin a closer or a DSML block opener."""
        if not self._inside or self._held or self._start or self._implicit:
            return False
        for lead in self._close_leads:  # noqa: SIM110 (a loop, not any(): once per moved token)
            if lead in text:
                return False
        return True

    def moves_searched(self, text: str) -> bool:
        """`moves` for a text holding a character that may begin a closer (a marker token of a call
        in the reasoning, `<invoke`): whether no closer nor DSML block opener is in it, nor a
        start of one at its end, as `feed` searches for them."""
        if not self._inside or self._held or self._start or self._implicit:
            return False
        return (_closes_none if len(text) <= _REMEMBERED else _closes_none.__wrapped__)(text, self._closes)

    @property
    def moving(self) -> tuple[str, ...] | None:
        """The characters a text must hold for `moves` to decline it (None: it declines every text now)."""
        if not self._inside or self._held or self._start or self._implicit:
            return None
        return self._close_leads

    def mentions(self, text: str) -> bool:
        """Whether `text` holds a marker that would apply now (a closer inside, else an opener
        or answer wrapper)."""
        return find_closer(text, 0, self._closes) is not None if self._inside else (
            self._markers.find_outside(text, 0) is not None
        )

    @property
    def awaited(self) -> tuple[str, ...]:
        """The closers of the reasoning open now (or last open)."""
        return self._closes

    @property
    def pending(self) -> bool:
        """True while a possible tag prefix is held back."""
        return bool(self._held)

    def _settle(self) -> None:
        """`busy` for the state now."""
        self.busy = self._inside or bool(self._held) or (self._start and self._prompt_opens)
        self.awaiting = self._start and self._prompt_opens and not (self._inside or self._held)

    @property
    def held(self) -> int:
        """How many characters are held back as a possible tag start."""
        return len(self._held)

    @property
    def implicit(self) -> bool:
        """True while inside only on the prompt's word: no content and no reasoning field seen yet."""
        return self._implicit

    def provider_reasons(self) -> None:
        """The stream sent a reasoning field of its own: the answer did not start inside.

        A provider that splits reasoning itself sends the answer alone in `content`, which
        must stay there; only an implicit start (no `<think>` seen, nothing moved) is undone.
        """
        if self._implicit:
            self._inside = self._implicit = self.assumed = False
            self._settle()

    def feed(self, text: str) -> list[Text | Thought | Markup]:
        """Consume more content text; return what can be decided now."""
        if not text:
            return []
        if self._implicit:
            self._implicit = False  # content has arrived before any reasoning field
        buf = self._held + text
        self._held = ""
        out: list[Text | Thought | Markup] = []
        pos = 0
        if self._start:
            pos = self._at_start(buf, out)
            if pos < 0:
                self._settle()
                return out
        markers = self._markers
        leads = markers.leads if not self._inside else self._close_leads
        if not any(lead in buf for lead in leads):  # (most texts: nothing to search for)
            self._emit(out, buf[pos:])
            self._settle()
            return out
        while True:
            found: Found | None
            found = find_closer(buf, pos, self._closes) if self._inside else markers.find_outside(buf, pos)
            end = len(buf) if found is None else found.start
            if self._inside and (block := _block_opener(buf, pos, end)) >= 0:
                self._emit(out, buf[pos:block])  # (the block is the answer's: V4 ends the reasoning there)
                self._inside, pos, self.assumed = False, block, False
                continue
            if found is None:
                break
            self._emit(out, buf[pos:end])
            out.append(Markup(buf[end : found.end]))
            if self._inside or found.closes is not None:  # (an answer wrapper opens nothing)
                self._inside, self._closes = not self._inside, found.closes or ()
                self._close_leads = _close_leads(self._closes)
            self.assumed = False
            pos = found.end
        keep = partial(buf, pos, self._closes if self._inside else markers.outside())
        if self._inside:
            keep = max(keep, _partial_opener(buf, pos))
        self._emit(out, buf[pos : len(buf) - keep])
        self._held = buf[len(buf) - keep :]
        self._settle()
        return out

    def _at_start(self, buf: str, out: list[Text | Thought | Markup]) -> int:
        """The content's very start, for a template that opens the tag in the prompt: inside, a
        `<think>` there is that opener (the same reasoning either way); outside (the provider
        sent the reasoning in its field), a `</think>` there ends that reasoning: both are tags.
        Where the scan goes on; -1 while `buf` may still become that tag (held)."""
        prompt = self._markers.prompt
        if not self._prompt_opens or prompt is None:
            self._start = False
            return 0
        tags = prompt.opens if self._inside else prompt.closes
        if any(tag.startswith(buf) and len(buf) < len(tag) for tag in tags):
            self._held = buf
            return -1
        self._start = False
        tag = next((tag for tag in tags if buf.startswith(tag)), None)
        if tag is None:
            return 0
        out.append(Markup(tag))
        self.assumed = False
        return len(tag)

    def data(self, text: str) -> list[Text | Thought | Markup]:
        """Text no tag can begin or end in (tool syntax): a held tag prefix was text, then `text` as is."""
        out = self.flush()
        self._emit(out, text)
        self._start = self._start and not text
        self._settle()
        return out

    def flush(self) -> list[Text | Thought | Markup]:
        """End of the content stream: a held tag prefix was text after all."""
        out: list[Text | Thought | Markup] = []
        self._emit(out, self._held)
        self._held = ""
        self._settle()
        return out

    def _emit(self, out: list[Text | Thought | Markup], text: str) -> None:
        if text:
            out.append(Thought(text) if self._inside else Text(text))


@functools.lru_cache(maxsize=256)
def _closes_none(text: str, closes: tuple[str, ...]) -> bool:
    """Whether no closer of `closes` nor DSML block opener is in `text`, nor a start of one at its
    end (`ThinkSplitter.moves_searched`: remembered, as a call's marker tokens come again and again
    in the reasoning; only short texts, `_REMEMBERED`, so that what it holds stays small)."""
    return (find_closer(text, 0, closes) is None and _block_opener(text, 0, len(text)) < 0
            and not partial(text, 0, closes) and not _partial_opener(text, 0))


@functools.lru_cache(maxsize=256)
def _close_leads(closes: tuple[str, ...]) -> tuple[str, ...]:
    """What an inside text must hold to hold a closer, a DSML block opener or a start of one."""
    return tuple(sorted({"<", *(close[0] for close in closes)}))


@functools.cache
def _think_only(starts_inside: bool) -> MarkerSet:
    """`<think>` alone, opened by the prompt if `starts_inside`."""
    return MarkerSet((THINK,), THINK if starts_inside else None)


@functools.cache
def _block_openers() -> tuple[frozenset[str], re.Pattern[str]]:
    """The starts of the DSML block openers (each without `>`, each of which ends the reasoning
    it stands in) short of a whole one, and a pattern finding the openers (the invoke machine
    is imported on first need)."""
    from ..formats.catalogue.dsml import DSML

    openers = tuple(DSML.block_openers())
    starts = frozenset(opener[:end] for opener in openers for end in range(1, len(opener)))
    return starts, re.compile("|".join(re.escape(opener) for opener in openers))


def _block_opener(buf: str, pos: int, end: int) -> int:
    """Where the first DSML block opener in `buf[pos:end]` begins, or -1."""
    before, after = _AROUND_MARK
    while (mark := buf.find("DSML", pos, end)) >= 0:
        found = _block_openers()[1].search(buf, max(pos, mark - before), min(len(buf), mark + after))
        if found is not None and found.start() < end:
            return found.start()
        pos = mark + 4
    return -1


def _partial_opener(buf: str, pos: int) -> int:
    """Length of the end of `buf[pos:]` that may still become a DSML block opener."""
    lead = buf.rfind("<", max(pos, len(buf) - sum(_AROUND_MARK)))
    tail = buf[lead:] if lead >= 0 else ""
    return len(tail) if tail and tail in _block_openers()[0] else 0
