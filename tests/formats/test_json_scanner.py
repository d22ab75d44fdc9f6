"""`JsonScanner`'s patterns are possessive (`*+`): they match exactly what the backtracking ones
did, on any bytes, from any position to any end (an unfinished string at the end is given up
at once instead of a byte shorter at a time: the same end, less work)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.machines import _json

_BACKTRACKING = {  # (the patterns as they were before they were made possessive)
    "_STRING_REST": re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL),
    "_TO_BRACKET": re.compile(rb'[^"{}\[\]]*(?:"[^"\\]*(?:\\.[^"\\]*)*"[^"{}\[\]]*)*', re.DOTALL),
}


@settings(max_examples=300, deadline=None)
@given(data=st.binary().map(bytes) | st.text(alphabet='ab"\\{}[]:, \n').map(str.encode), cut=st.data())
def test_the_possessive_patterns_end_where_the_backtracking_ones_did(data: bytes, cut: st.DataObject) -> None:
    pos = cut.draw(st.integers(0, len(data)), label="pos")
    end = cut.draw(st.integers(pos, len(data)), label="end")
    for name, old in _BACKTRACKING.items():
        new = getattr(_json, name)
        assert new.match(bytearray(data), pos, end).end() == old.match(data, pos, end).end(), name  # type: ignore[union-attr]
