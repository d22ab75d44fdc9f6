"""NeedleIndex: where the next of several byte strings occurs in one read (sans-IO).

The rewriter passes runs of events through untouched until the first byte that could
need work. Asking "where is the next needle?" at every run would search the rest of
the read again each time; the index remembers, for each needle, the occurrence it found
and how far it has searched in vain, and only searches bytes it has not searched yet.
So each needle is searched through a read at most about once, and only as far as the
caller asks, however many runs the read is cut into.
"""

from __future__ import annotations


class NeedleIndex:
    """The next position of each of `needles` in `data`, searched lazily and never twice.

    Positions asked about must not go back: the index serves one left-to-right pass.
    """

    __slots__ = ("_clear", "_hit", "data", "needles")

    def __init__(self, data: bytes, needles: tuple[bytes, ...]) -> None:
        self.data = data
        self.needles = needles
        self._hit = [-1] * len(needles)  # an occurrence found, or -1
        self._clear = [0] * len(needles)  # no occurrence starts between the last search's start and this

    def first(self, pos: int, end: int) -> int:
        """Where the first needle lying wholly in `data[pos:end]` starts; `end` when none does."""
        data, hits, clear = self.data, self._hit, self._clear
        first = end
        for i, needle in enumerate(self.needles):
            at = hits[i]
            if at < pos:
                start = max(pos, clear[i])
                at = data.find(needle, start, end)
                if at == -1:
                    clear[i] = max(start, end - len(needle) + 1)
                    continue
                hits[i] = at
            if at < first and at + len(needle) <= end:  # a hit found further on may overrun `end`
                first = at
        return first
