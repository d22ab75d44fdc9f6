"""The stripped starts (`analysis…` under gpt-oss ids, `functions.NAME:N{` under Kimi ids) cut
anywhere: one character a chunk after an empty first chunk, the held tail bounded and released,
and prose made of their words' fragments kept byte for byte."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import calls, chunk_event, feed_in_pieces, rewrite_stream, texts
from tests.formats.channel_rows import MODELS, ROWS
from tests.formats.test_channels import fields, reasoning, rejoin
from tests.oracles import openai_final

STRIPPED = [pytest.param(f, row, id=f"{f}-{row}") for f in ("gpt-oss", "kimi-stripped") for row in ROWS[f]]


@pytest.mark.parametrize(("fmt", "row"), STRIPPED)
def test_row_one_character_a_chunk_after_an_empty_first_chunk(fmt: str, row: str) -> None:
    text, expected_calls, kept, thought, _ = ROWS[fmt][row]
    events = [chunk_event({"role": "assistant", "content": ""}, model=MODELS[fmt])]
    events += [chunk_event({"content": char}, model=MODELS[fmt]) for char in text]
    events.append(chunk_event({}, "stop", model=MODELS[fmt]))
    body = rewrite_stream(b"".join(events) + b"data: [DONE]\n\n")
    final = openai_final(body).choices[0]
    assert (final.message.content or "") == kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    assert fields(body).get("reasoning_content", "") == thought


@pytest.mark.parametrize(
    ("text", "held"),
    [("Let me look.functio", "functio"), ("one of", "f"), ("functions", "functions"), ("the fun", "fun")],
)
def test_only_a_start_of_the_word_is_held_and_it_comes_out_unchanged(text: str, held: str) -> None:
    parser = FORMATS["kimi+deepseek"]()
    assert texts(parser.feed(text)) == text.removesuffix(held)
    assert parser.undecided == len(held)
    assert texts(parser.feed(" then")) == held + " then"
    assert not parser.pending


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
