"""The stripped starts (`analysis…` under gpt-oss ids, `functions.NAME:N{` under Kimi ids) cut
anywhere: one character a chunk after an empty first chunk, the held tail bounded and released,
and prose made of their words' fragments kept byte for byte."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import (
    calls,
    chunk_event,
    feed_in_pieces,
    feed_pieces,
    reasoning,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.channel_rows import MODELS, ROWS
from tests.formats.harness import cases, expectation, row_through_the_sdk

STRIPPED = cases({fmt: ROWS[fmt] for fmt in ("gpt-oss", "kimi-stripped")})


@pytest.mark.parametrize(("fmt", "row"), STRIPPED)
def test_row_one_character_a_chunk_after_an_empty_first_chunk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row])
    events = [chunk_event({"role": "assistant", "content": ""}, model=MODELS[fmt])]
    events += [chunk_event({"content": char}, model=MODELS[fmt]) for char in expected.text]
    events.append(chunk_event({}, "stop", model=MODELS[fmt]))
    row_through_the_sdk(rewrite_stream(b"".join(events) + b"data: [DONE]\n\n"), expected)


KIMI_CALLS = [pytest.param(row, id=row) for row, (_, found, *_) in ROWS["kimi-stripped"].items() if found]


@pytest.mark.parametrize("row", KIMI_CALLS)
def test_a_kimi_row_with_the_word_cut_as_a_tokenizer_may_cut_it(row: str) -> None:
    expected = expectation(ROWS["kimi-stripped"][row])
    tokens = [token for part in expected.text.split("functions") for token in (part, "function", "s")][:-2]
    stream = token_stream([token for token in tokens if token], model=MODELS["kimi-stripped"])
    row_through_the_sdk(rewrite_stream(stream), expected)


def test_an_unread_event_ending_in_another_start_is_not_held() -> None:
    """`fun` ends an event no needle sends to the parser: the word is not read (the cost of a
    needle for every start: `catalogue.kimi_stripped.SNIFF`); nothing is lost."""
    tokens = ["Let me look.", " Now.fun", "ctions.read:0{}", " done"]  # (a first event is always read)
    body = rewrite_stream(token_stream(tokens, model=MODELS["kimi-stripped"]))
    row_through_the_sdk(body, expectation(("".join(tokens), [], "".join(tokens), set())))


def test_a_harmony_start_cut_after_an_empty_first_chunk_is_read() -> None:
    """`ana` after an empty first chunk: the parser reads from the choice's first text
    (`routing_wrapped.GptOssAndTokens.reads_from_start`), so the start is read wherever it is cut."""
    tokens = ["", "ana", "lysisUser says hi.", "assistantfinal", "Hello!"]
    body = rewrite_stream(token_stream(tokens, model=MODELS["gpt-oss"]))
    row_through_the_sdk(body, expectation(("".join(tokens), [], "Hello!", "User says hi.", set())))


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Let me look.functio", "functio"),
        ("the fun", "fun"),
        ("functions", "functions"),
        ("f", "f"),
        ("look.f", "f"),
        ('{"a": 1}f', "f"),
        ("one of", ""),  # (a word goes on into this `f`: not held, see `KIMI_STRIPPED.held_from`)
    ],
)
def test_only_a_start_of_the_word_is_held_and_it_comes_out_unchanged(text: str, held: str) -> None:
    parser = FORMATS["kimi+deepseek"]()
    assert texts(parser.feed(text)) == text.removesuffix(held)
    assert parser.undecided == len(held)
    assert texts(parser.feed(" then")) == held + " then"
    assert not parser.pending


def test_a_lone_f_glued_to_a_word_is_not_held_so_that_one_cut_is_text() -> None:
    text = "I'll read the filefunctions.read:0{}"
    assert [c[1] for c in calls(feed_pieces(FORMATS["kimi+deepseek"](), [text]))] == ["read"]
    cut = text.index("functions") + 1
    out = feed_pieces(FORMATS["kimi+deepseek"](), [text[:cut], text[cut:]])
    assert (texts(out), calls(out)) == (text, [])


KIMI_FRAGMENTS = ["f", "fun", "func", "tions", "functions", "functions.", ".", "py", "read", ":", "0", "{",
                  "}", '"', " ", "of", "x"]  # fmt: skip
_HEAD = re.compile(r"functions\.[\w.\-]+:\d+\{")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(KIMI_FRAGMENTS), max_size=24), st.integers(1, 5))
def test_prose_made_of_functions_fragments_is_kept_byte_for_byte(parts: list[str], size: int) -> None:
    text = "".join(parts)
    out = feed_in_pieces(FORMATS["kimi+deepseek"], text, size)
    assert rejoin(out) == text
    if not _HEAD.search(text):  # (with a header, a whole object after it may be a call)
        assert texts(out) == text
        assert not calls(out)


HARMONY_FRAGMENTS = ["a", "ana", "lysis", "analysis", "assistant", "assist", "final", "fin", "commentary",
                     " to=", "functions", ".", "f", "json", "{", "}", " ", "x"]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(HARMONY_FRAGMENTS), max_size=24), st.integers(1, 5))
def test_stripped_reasoning_of_marker_fragments_is_kept_byte_for_byte(parts: list[str], size: int) -> None:
    text = "analysisX" + "".join(parts)
    out = feed_in_pieces(FORMATS["gpt-oss+special-tokens"], text, size)
    assert rejoin(out) == text
    if "assistantfinal" not in text and "commentary to=functions." not in text:
        assert reasoning(out) == text.removeprefix("analysis")
        assert not calls(out) and not texts(out)
