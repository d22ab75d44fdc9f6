"""The conformance suite: every entry of the catalogue (`formats/catalogue/index.py`) passes
the same checks, without a line of its own.

- its example, fed whole, one character a text, three characters a text and cut in two at
  every point, gives its calls, its text and its reasoning, and text plus consumed markup
  re-join to the input; whole and well formed, it gives no notice;
- random cuts give the same (hypothesis);
- ended at every cut (flush), nothing is lost: what was fed comes back whole;
- its ids pick a format that reads it (`auto`), and, where its markers are read everywhere,
  an id of no family reads it too;
- through the whole rewrite, under its first id, one character per event, in `content` and
  in `reasoning_content`, the calls come out as `tool_calls` and the text stays in its field.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS, select_format
from sse_rewrite.formats.catalogue.index import ENTRIES, Entry
from tests.chunking import (
    calls,
    codes,
    every_cut,
    feed_pieces,
    normalize,
    reasoning,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.harness import fields
from tests.oracles import openai_final

CASES = [pytest.param(entry, id=entry.name) for entry in ENTRIES]


def result(pieces: list) -> tuple[tuple[tuple[str, str], ...], str, str]:
    """Calls as (name, arguments), text kept, reasoning."""
    out = normalize(pieces)
    return tuple((c[1], c[2]) for c in calls(out)), texts(out), reasoning(out)


@pytest.mark.parametrize("entry", CASES)
def test_example_at_every_cut(entry: Entry) -> None:
    out = every_cut(FORMATS[entry.format], entry.example)
    assert result(out) == (entry.calls, entry.kept, entry.reasoning)
    assert rejoin(out) == entry.example
    assert codes(out) == set()


@pytest.mark.parametrize("entry", CASES)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_example_at_random_cuts(entry: Entry, data: st.DataObject) -> None:
    text = entry.example
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=12)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    out = feed_pieces(FORMATS[entry.format](), pieces)
    assert result(out) == (entry.calls, entry.kept, entry.reasoning)
    assert rejoin(out) == text


@pytest.mark.parametrize("entry", CASES)
def test_ended_at_every_cut_loses_nothing(entry: Entry) -> None:
    for cut in range(len(entry.example) + 1):
        prefix = entry.example[:cut]
        out = feed_pieces(FORMATS[entry.format](), [prefix])
        assert rejoin(out) == prefix, cut


@pytest.mark.parametrize("entry", CASES)
def test_its_ids_read_it(entry: Entry) -> None:
    ids = [*entry.ids, "some-gateway-alias"] if entry.everywhere else entry.ids
    for model in ids:
        name, _ = select_format(model, "auto")
        assert name is not None, model
        out = feed_pieces(FORMATS[name](), list(entry.example))
        assert result(out) == (entry.calls, entry.kept, entry.reasoning), model


THROUGH = [case for case in CASES if case.values[0].ids]


@pytest.mark.parametrize("field", ["content", "reasoning_content"])
@pytest.mark.parametrize("entry", THROUGH)
def test_through_the_rewrite(entry: Entry, field: str) -> None:
    # (--think off: the syntax alone, not the think block some ids' prompts open)
    body = rewrite_stream(token_stream(list(entry.example), field, model=entry.ids[0]), think="off")
    final = openai_final(body).choices[0]
    made = [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []]
    assert made == list(entry.calls)
    assert final.finish_reason == "tool_calls"
    joined = fields(body)
    if field == "content":
        assert (final.message.content or "") == entry.kept
        assert joined.get("reasoning_content", "") == entry.reasoning
    else:
        assert (final.message.content or "") == ""
        assert joined.get("reasoning_content", "") == entry.reasoning + entry.kept
