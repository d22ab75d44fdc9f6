"""Hermes JSON bodies of any layout, streaming arguments or not: what the fast paths take
(`absorb`; streaming, `absorb_arguments` and `absorb_argument`: `formats/machines/_tag_absorb.py`)
changes nothing against feeding every text, whatever the members' order (the name first or
not, members after the arguments), the values (brackets, quotes, backslashes and non-ASCII
in strings, arguments as a string), the spacing, what follows the body, the cuts, the runs
and the cap."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.formats.test_streamed_fast_paths import fast, fed
from tests.formats.test_streamed_prefix import SYNTAXES

_STRINGS = st.text(alphabet='ab }]{[":,\\é\n', max_size=6)
_VALUES = st.recursive(
    st.one_of(st.integers(-9, 99), _STRINGS, st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_STRINGS, inner, max_size=3)),
    max_leaves=6,
)
_ARGUMENTS = st.one_of(
    st.dictionaries(_STRINGS, _VALUES, max_size=3), st.lists(_VALUES, max_size=3), _STRINGS
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    arguments=_ARGUMENTS,
    key=st.sampled_from(["arguments", "parameters"]),
    extra=st.dictionaries(st.sampled_from(["id", "x"]), _VALUES, max_size=2),
    name=st.sampled_from(["w", "read_file", "é", "a b"]),
    shuffled=st.sampled_from([False, False, True]),  # (mostly the name, then the arguments: streamed)
    layout=st.sampled_from([(None, (", ", ": ")), (None, (",", ":")), (1, (",", ": "))]),
    before=st.sampled_from(["", "\n", " \n "]),
    after=st.sampled_from(["\n</tool_call>", "</tool_call>", "  \n", " words", "\n<tool_c", "}]"]),
    streams=st.sampled_from([True, True, False]),
    cap=st.sampled_from([90, 1 << 20, 1 << 20]),
    data=st.data(),
)
def test_a_json_body_of_any_layout_is_taken_where_feeding_decides_nothing(
    arguments: object, key: str, extra: dict[str, object], name: str, shuffled: bool,
    layout: tuple[int | None, tuple[str, str]], before: str, after: str, streams: bool, cap: int,
    data: st.DataObject,
) -> None:  # fmt: skip
    members = [("name", name), (key, arguments), *extra.items()]
    if shuffled:
        members = data.draw(st.permutations(members), label="members")
    indent, separators = layout
    body = json.dumps(dict(members), ensure_ascii=False, indent=indent, separators=separators)
    text = "Go. <tool_call>" + before + body + after + " ok"
    cuts = sorted(data.draw(st.sets(st.integers(1, len(text) - 1), max_size=50), label="cuts"))
    texts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    windows = data.draw(st.lists(st.sampled_from([1, 2, 3, 8, 64]), min_size=1, max_size=20), label="windows")
    for parser in SYNTAXES["hermes"].parsers:
        got = fast(FORMATS[parser](cap, stream_arguments=streams), texts, windows, streams)
        assert got == fed(FORMATS[parser](cap, stream_arguments=streams), texts), parser
