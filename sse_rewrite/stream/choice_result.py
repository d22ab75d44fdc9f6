"""ChoiceResult: what one chunk's choice became (see `choice.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .deltas import carries_nothing, with_texts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .events import Notice


@dataclass(slots=True)
class ChoiceResult:
    """What one chunk's choice became.

    `choice` is the rewritten choice object, or None when it is unchanged (or held, or
    `emptied`). `emptied` names the text fields of `source` that went wholly into open
    syntax, when nothing else changed: the rewritten choice is then made only if it must
    go out (`rewritten()`). `blank` says the rewritten choice carries nothing
    (`deltas.carries_nothing`). `before` and `extras` are further choice objects, each
    to go out in a chunk of its own, before and after this one (`before`: text released
    into a field this delta lacks; `extras`: complete calls and the text that followed
    them). A held result has `undecided` characters; once none is left, `settle()` makes
    it unchanged or rebuilt.
    """

    choice: dict[str, Any] | None = None
    emptied: tuple[str, ...] = ()
    blank: bool = False
    before: Sequence[dict[str, Any]] = ()
    extras: Sequence[dict[str, Any]] = ()
    notices: Sequence[Notice] = ()
    calls: int = 0
    role_seen: bool = False
    source: dict[str, Any] | None = None
    undecided: int = 0
    decided: dict[str, list[tuple[bool, int]]] | None = None
    """By field, its held characters as they were decided: `(syntax, count)` runs (`undecided.py`)."""

    @property
    def changed(self) -> bool:
        """True when the chunk cannot go out unchanged because of this choice."""
        return self.choice is not None or bool(self.emptied or self.extras or self.before)

    def rewritten(self) -> dict[str, Any] | None:
        """The rewritten choice object (made now if it was left to be made), or None."""
        if self.choice is None and self.emptied and self.source is not None:
            self.choice = with_texts(self.source, dict.fromkeys(self.emptied, ""))
        return self.choice

    def settle(self) -> None:
        """A held result whose characters are all decided: rebuilt without those that were syntax."""
        decided = self.decided
        if self.source is not None and decided and any(syn for runs in decided.values() for syn, _ in runs):
            delta = self.source["delta"]
            texts = {name: _without_syntax(delta[name], runs) for name, runs in decided.items()}
            self.choice = with_texts(self.source, texts)
            self.blank = carries_nothing(self.choice, self.role_seen)


def _without_syntax(text: str, runs: list[tuple[bool, int]]) -> str:
    """`text` without the syntax runs of its held tail (`runs` cover its last characters)."""
    pos = len(text) - sum(count for _, count in runs)
    kept = [text[:pos]]
    for syntax, count in runs:
        if not syntax:
            kept.append(text[pos : pos + count])
        pos += count
    return "".join(kept)
