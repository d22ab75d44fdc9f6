"""NeedleIndex: where the next of several byte strings occurs in one read (sans-IO).

The rewriter passes runs of events through untouched until the first byte that could
need work. Asking "where is the next needle?" at every run would search the rest of
the read again each time; the index remembers each needle's next position and only
searches again once the caller has moved past it, so each needle is searched through
the read about once, however many runs it is cut into.
"""

from __future__ import annotations


class NeedleIndex:
    """The next position of each of `needles` in `data`, searched lazily."""

    __slots__ = ("_next", "data", "needles")

    def __init__(self, data: bytes, needles: tuple[bytes, ...]) -> None:
        self.data = data
        self.needles = needles
        self._next = [-1] * len(needles)  # a found position, or -1 before the first search

    def first(self, pos: int) -> int:
        """Where the first needle at or after `pos` starts; `len(data)` when none does."""
        data, found = self.data, self._next
        first = len(data)
        for i, needle in enumerate(self.needles):
            at = found[i]
            if at < pos:
                at = data.find(needle, pos)
                found[i] = at = len(data) if at == -1 else at
            if at < first:
                first = at
        return first
