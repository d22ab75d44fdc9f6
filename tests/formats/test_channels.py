"""Harmony (and its stripped form), Seed-OSS and Kimi K3 XTML: every row of `channel_rows` in
the parsers at every cut, end to end through the openai SDK, one token per chunk in content
and in reasoning, and random prose made of the markers' fragments kept byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import calls, feed_in_pieces, reasoning, rewrite_stream, texts, token_stream
from tests.formats.channel_rows import MODELS, PARSERS, ROWS
from tests.formats.harness import (
    cases,
    expectation,
    fields,
    row_in_parsers,
    row_through_the_sdk,
    three_characters,
)
from tests.oracles import openai_final

CASES = cases(ROWS)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parsers_at_every_cut(fmt: str, row: str) -> None:
    row_in_parsers(PARSERS[fmt], expectation(ROWS[fmt][row]))


def run(fmt: str, tokens: list[str], field: str = "content") -> tuple[bytes, dict[str, str]]:
    options = {"format": "auto"} if fmt in ("gpt-oss", "kimi-stripped") else {"format": fmt}
    body = rewrite_stream(token_stream(tokens, field, model=MODELS[fmt]), **options)
    return body, fields(body)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row])
    row_through_the_sdk(run(fmt, tokens(fmt, expected.text))[0], expected)


def tokens(fmt: str, text: str) -> list[str]:
    """3-character tokens, but Kimi's `functions` whole, a token of its tokenizer (an event cut
    inside it is read only for the cuts `catalogue.kimi_stripped.SNIFF` names: `test_stripped_starts.py`)."""
    if fmt != "kimi-stripped":
        return three_characters(text)
    parts = re.split("(functions)", text)
    return [token for part in parts for token in ([part] if part == "functions" else three_characters(part))]


ONE_TOKEN_A_CHUNK = {  # a capture of `sse_logs/make_channel_captures.py`: calls, reasoning, prose
    "harmony": ("harmony-call", [("get_weather", '{"location":"Paris"}')], "Need the weather in Paris.", ""),
    "gpt-oss": ("harmony-stripped", [("shell", '{"cmd":["ls"]}')], "User wants the files.", ""),
    "seed": ("seed-oss", [("get_weather", '{"city": "Dallas", "days": 3}')], "Check Dallas.", "Checking."),
    "kimi-k3": ("kimi-k3-xtml", [("bash", '{"command": "ls -la"}')], "", "Sure."),
}


def capture_tokens(stem: str) -> list[str]:
    """The content of a capture in `sse_logs/`, one model token a chunk."""
    data = (Path(__file__).parents[2] / "sse_logs" / f"{stem}.sse").read_bytes()
    chunks = [orjson.loads(line[6:]) for line in data.split(b"\n") if line.startswith(b"data: {")]
    return [c["delta"]["content"] for chunk in chunks for c in chunk["choices"] if c["delta"].get("content")]


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize("fmt", list(ONE_TOKEN_A_CHUNK))
def test_one_token_per_chunk_in_content_and_in_reasoning(fmt: str, field: str) -> None:
    stem, expected_calls, thought, prose = ONE_TOKEN_A_CHUNK[fmt]
    body, joined = run(fmt, capture_tokens(stem), field)
    final = openai_final(body).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    if field == "content":
        assert (joined.get("content", ""), joined.get("reasoning_content", "")) == (prose, thought)
    else:  # (the field's own text stays there, after what moved to it)
        assert (joined.get("content", ""), joined.get("reasoning", "")) == ("", thought + prose)


FRAGMENTS = [
    "<|chan ",
    "<|channel| ",
    "nel|> ",
    "<|message ",
    "<|start ",
    "<|end| ",
    "analysis ",
    "assistantfinal ",
    "<seed:tool_call ",
    "<seed:think ",
    "</seed ",
    "<|open| ",
    "<|sep ",
    "tools ",
    "<|close ",
    "call ",
    "functions.x:0 ",
    "functions.x:{",
    "functions",
    "{",
    "}",
    '"',
    "\n",
    "x",
    " ",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=30),
    st.integers(1, 7),
    st.sampled_from(
        ["harmony", "seed", "kimi-k3", "gpt-oss+special-tokens", "special-tokens", "kimi+deepseek"]
    ),
)
def test_prose_made_of_marker_fragments_is_kept_byte_for_byte(parts: list[str], size: int, name: str) -> None:
    text = "".join(parts)
    out = feed_in_pieces(FORMATS[name], text, size)
    assert texts(out) == text
    assert not calls(out) and not reasoning(out)
