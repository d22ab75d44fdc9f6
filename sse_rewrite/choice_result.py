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
    syntax: dict[str, int] | None = None

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
        if self.source is not None and self.syntax:
            delta = self.source["delta"]
            texts = {name: delta[name][: len(delta[name]) - count] for name, count in self.syntax.items()}
            self.choice = with_texts(self.source, texts)
            self.blank = carries_nothing(self.choice, self.role_seen)
