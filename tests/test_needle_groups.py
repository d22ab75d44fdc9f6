"""Needles that share their first byte are searched as one pattern (`needle_groups`): `NeedleIndex`
finds the first of them exactly as one search per needle would."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sse_rewrite.stream.fast.needles import NeedleIndex
from sse_rewrite.stream.needle_groups import as_text, grouped, holds_any

NEEDLES = [b"<", b"<think>", b"\\u003", b"[T", b'["', b'"stop"', b'"tool_calls"', b"call:", b'c"', b'ca"',
           b"functions", b"", "é".encode(), b"functions.read:", b"functions.write:", b"functions.Task:",
           b"functions.r", b"cal\"", b"call\"", b"=functions.read", b"call:read{"]
FRAGMENTS = [b"[", b"T", b'"', b"<", b"think>", b"\\u003c", b"c", b"a", b"ll:", b"stop", b"x", b"\n",
             "é".encode(), b"functions.", b"read:", b"write", b"Task:", b"=", b"{"]


def test_needles_that_share_their_first_byte_become_one_pattern() -> None:
    searches = grouped((b"<", b"\\u003", b"[T", b'["', b'"tool_calls"', b'"stop"', b"<think>"))
    assert searches == (  # `<` stands for `<think>`; quote-led needles stay apart
        (b"<", 1), (b"\\u003", 5), (re.compile(b'\\[(?:T|")'), 2), (b'"tool_calls"', 12), (b'"stop"', 6),
    )


@given(
    needles=st.lists(st.sampled_from(NEEDLES), min_size=1, max_size=6).map(tuple),
    data=st.lists(st.sampled_from(FRAGMENTS), max_size=30).map(b"".join),
    steps=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 40)), max_size=10),
)
def test_the_needle_index_finds_grouped_needles_as_a_fresh_search_would(
    needles: tuple[bytes, ...], data: bytes, steps: list[tuple[int, int]]
) -> None:
    index = NeedleIndex(data, needles)
    pos = 0
    for forward, width in steps:
        pos = min(len(data), pos + forward)
        end = min(len(data), pos + width)
        found = [at for needle in needles if (at := data.find(needle, pos, end)) != -1]
        assert index.first(pos, end) == min(found, default=end)


@given(
    needles=st.lists(st.sampled_from(NEEDLES), min_size=1, max_size=14).map(tuple),
    data=st.lists(st.sampled_from([*FRAGMENTS, b"\xff", b"\xe2\x82"]), max_size=30).map(b"".join),
)
def test_the_general_path_finds_a_needle_in_an_events_text_as_each_needles_search_would(
    needles: tuple[bytes, ...], data: bytes
) -> None:
    text = data.decode("utf-8", "replace")  # (the data the decoder gives as text)
    assert holds_any(data, as_text(needles)) == any(needle.decode() in text for needle in needles)


def test_needles_that_begin_alike_are_looked_for_by_their_lead_and_none_is_dropped() -> None:
    names = (b"functions.read:", b"functions.write:", b"functions.Task:", b"functions.Bash:")
    texts = as_text((b"call:", b'cal"', b'call"', *names))
    assert texts[:3] == ("call:", 'cal"', 'call"')  # (three alike: each looked for)
    assert texts[3] == "functions." and texts[3].needles == tuple(name.decode() for name in names)  # type: ignore[attr-defined]
    assert holds_any(b'"functions.Bash:0{"', texts) and not holds_any(b'"functions.Edit:0{"', texts)
