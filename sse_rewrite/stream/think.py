"""ThinkSplitter: `<think>…</think>` reasoning leaked into `content`, split out of the answer.

Models served without a reasoning parser (DeepSeek-R1, Qwen3, QwQ, GLM-4.5+, MiniMax M2, Kimi-Thinking)
write their reasoning into `content` between `<think>` and `</think>`. R1-style chat templates
(R1, GLM-4.7+, MiniMax M2) open the tag in the prompt, so the output may begin inside the
reasoning with only `</think>` to come (`starts_inside`).

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

from ..formats.machines._scanner import ANGLE_SNIFF
from .events import Markup, Text

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal


OPEN: Final = "<think>"
CLOSE: Final = "</think>"

_AROUND_MARK: Final = (4, 24)  # (how far a block opener reaches before and after its `DSML`)

THINK_CHOICES: Final = ("auto", "on", "off")
"""The `--think` values."""
THINK_NEEDLES: Final = ANGLE_SNIFF
"""Raw bytes without which an event holds no tag and no start of one (a tag may begin in one
event and end in the next; `\u003c`-escaped tags included)."""

# Model families that write `<think>` tags into content when served without a reasoning
# parser (lowered substrings of the model id), and those whose templates open the tag in the
# prompt so the answer starts inside it.
_THINKING_MODELS: Final = ("deepseek-r1", "r1-", "-r1", "reasoner", "qwen3", "qwq", "glm-4.", "glm-5",
                           "glm-z1", "thinking", "deepseek-v3.2", "deepseek.v3.2", "deepseek-v4",
                           "minimax-m2")  # fmt: skip
_STARTS_INSIDE: Final = ("deepseek-r1", "r1-", "-r1", "reasoner", "qwq", "thinking-2507", "glm-4.7", "glm-5",
                         "minimax-m2")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Thought:
    """Reasoning text found in `content`, to go out in the stream's reasoning field."""

    text: str


def think_mode(
    model: str | None, requested: Literal["auto", "on", "off"], prompt_think: bool = True
) -> tuple[bool, bool, str]:
    """Decide `--think` for a stream of `model`: (split tags?, starts inside?, reason).
    `prompt_think` False: the request turned thinking off, so no prompt opened the tag."""
    lowered = (model or "").lower()
    starts_inside = prompt_think and any(needle in lowered for needle in _STARTS_INSIDE)
    if requested == "off":
        return False, False, "--think off"
    if requested == "on":
        return True, starts_inside, "--think on"
    needle = next((n for n in _THINKING_MODELS if n in lowered), None)
    if needle is None:
        return False, False, "model writes no <think> tags"
    return True, starts_inside, f"model {model!r} contains {needle!r}"


class ThinkSplitter:
    """Splits one choice's `content` stream into answer and reasoning (sans-IO)."""

    __slots__ = ("_held", "_implicit", "_inside", "_prompt_opens", "_start", "assumed", "busy")

    def __init__(self, starts_inside: bool = False) -> None:
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

    @property
    def inside(self) -> bool:
        """True while content is being moved to reasoning."""
        return self._inside

    @property
    def pending(self) -> bool:
        """True while a possible tag prefix is held back."""
        return bool(self._held)

    def _settle(self) -> None:
        """`busy` for the state now."""
        self.busy = self._inside or bool(self._held) or (self._start and self._prompt_opens)

    @property
    def held(self) -> int:
        """How many characters are held back as a possible tag start."""
        return len(self._held)

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
        while True:
            tag = CLOSE if self._inside else OPEN
            found = buf.find(tag, pos)
            if self._inside and (block := _block_opener(buf, pos, len(buf) if found < 0 else found)) >= 0:
                self._emit(out, buf[pos:block])  # (the block is the answer's: V4 ends the reasoning there)
                self._inside, pos, self.assumed = False, block, False
                continue
            if found < 0:
                break
            self._emit(out, buf[pos:found])
            out.append(Markup(tag))
            self._inside, self.assumed = not self._inside, False
            pos = found + len(tag)
        keep = _partial_suffix(buf, pos, CLOSE if self._inside else OPEN)
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
        if not self._prompt_opens:
            self._start = False
            return 0
        tag = OPEN if self._inside else CLOSE
        if tag.startswith(buf) and len(buf) < len(tag):
            self._held = buf
            return -1
        self._start = False
        if not buf.startswith(tag):
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


def _partial_suffix(buf: str, pos: int, tag: str) -> int:
    """Length of the longest end of `buf[pos:]` that is a proper prefix of `tag`."""
    for length in range(min(len(tag) - 1, len(buf) - pos), 0, -1):
        if tag.startswith(buf[len(buf) - length :]):
            return length
    return 0


@functools.cache
def _block_openers() -> tuple[tuple[str, ...], re.Pattern[str]]:
    """DSML block openers by their marker (without `>`), each of which ends the reasoning it
    stands in, and a pattern finding them (the invoke machine is imported on first need)."""
    from ..formats.catalogue.dsml import DSML

    openers = tuple(DSML.block_openers())
    return openers, re.compile("|".join(re.escape(opener) for opener in openers))


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
    return len(tail) if tail and any(o.startswith(tail) and o != tail for o in _block_openers()[0]) else 0
