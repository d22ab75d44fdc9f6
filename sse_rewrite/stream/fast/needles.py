"""NeedleIndex: where the next of several byte strings occurs in one read (sans-IO).

The rewriter passes runs of events through untouched until the first byte that could
need work. Asking "where is the next needle?" at every run would search the rest of
the read again each time; the index remembers, for each needle, the occurrence it found
and how far it has searched in vain, and only searches bytes it has not searched yet.
So each needle is searched through a read at most about once, and only as far as the
caller asks, however many runs the read is cut into. Needles that share their first byte
are searched as one pattern (`needle_groups`).
"""

from __future__ import annotations

from ..needle_groups import grouped


class NeedleIndex:
    """The next position of each of `needles` in `data`, searched lazily and never twice.

    Positions asked about must not go back: the index serves one left-to-right pass.
    """

    __slots__ = ("_clear", "_hit", "_searches", "data", "needles")

    def __init__(self, data: bytes, needles: tuple[bytes, ...]) -> None:
        self.data = data
        self.needles = needles
        self._searches = grouped(needles)  # (a needle or a pattern, the length of its longest needle)
        self._hit = [(-1, -1)] * len(self._searches)  # an occurrence found (start, end), or (-1, -1)
        self._clear = [0] * len(self._searches)  # none starts between the last search's start and this

    def first(self, pos: int, end: int) -> int:
        """Where the first needle lying wholly in `data[pos:end]` starts; `end` when none does."""
        data, hits, clear = self.data, self._hit, self._clear
        first = end
        for i, (search, longest) in enumerate(self._searches):
            at, after = hits[i]
            if at < pos:
                start = max(pos, clear[i])
                if isinstance(search, bytes):
                    at = data.find(search, start, end)
                    after = at + len(search)
                else:
                    found = search.search(data, start, end)
                    at, after = (-1, -1) if found is None else found.span()
                if at == -1:
                    clear[i] = max(start, end - longest + 1)
                    continue
                hits[i] = at, after
            if at < first and after <= end:  # a hit found further on may overrun `end`
                first = at
        return first
