"""Harmony (and its stripped form), Seed-OSS and Kimi K3 XTML: every row of `channel_rows` in
the parsers at every cut, end to end through the openai SDK, one token per chunk in content
and in reasoning, and random prose made of the markers' fragments kept byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.events import Markup, Piece, Reasoning, Text, ToolCall
from sse_rewrite.formats import FORMATS, ToolSyntax
from tests.chunking import (
    SIZES,
    calls,
    codes,
    feed_in_pieces,
    feed_pieces,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.channel_rows import MODELS, PARSERS, ROWS
from tests.oracles import openai_final

CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]


def normalize(pieces: Iterable[Piece]) -> list[Piece]:
    """Adjacent text, reasoning and markup merged; notices dropped (they may move with chunking)."""
    out: list[Piece] = []
    for piece in pieces:
        kind = type(piece)
        if kind in (Text, Reasoning, Markup) and out and type(out[-1]) is kind:
            field = "raw" if kind is Markup else "text"
            out[-1] = kind(getattr(out[-1], field) + getattr(piece, field))  # type: ignore[call-arg]
        elif kind in (Text, Reasoning, Markup, ToolCall):
            out.append(piece)
    return out


def rejoin(pieces: Iterable[Piece]) -> str:
    """Every span the pieces cover, in order: must be the input."""
    return "".join(
        p.text if isinstance(p, Text | Reasoning) else p.raw
        for p in pieces
        if isinstance(p, Text | Reasoning | Markup | ToolCall)
    )


def reasoning(pieces: Iterable[Piece]) -> str:
    return "".join(p.text for p in pieces if isinstance(p, Reasoning))


def every_cut(factory: Callable[[], ToolSyntax], text: str) -> list[Piece]:
    """The pieces of `text` fed whole; the same at every size of SIZES and every cut in two."""
    whole = feed_in_pieces(factory, text, None)
    expected = normalize(whole)
    assert rejoin(whole) == text
    cuts = [list(feed_in_pieces(factory, text, size)) for size in SIZES[1:]]
    cuts += [feed_pieces(factory(), [text[:point], text[point:]]) for point in range(1, len(text))]
    for out in cuts:
        assert normalize(out) == expected
        assert rejoin(out) == text
    return whole


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parsers_at_every_cut(fmt: str, row: str) -> None:
    text, expected_calls, kept, thought, notices = ROWS[fmt][row]
    for name in PARSERS[fmt]:
        out = every_cut(FORMATS[name], text)
        assert [(c[1], c[2]) for c in calls(out)] == expected_calls, name
        assert texts(out) == kept, name
        assert reasoning(out) == thought, name
        assert notices <= codes(out), name


def fields(body: bytes) -> dict[str, str]:
    """Each delta text field of an output stream, joined."""
    joined: dict[str, str] = {}
    for line in body.split(b"\n"):
        if line.startswith(b"data: {"):
            for choice in orjson.loads(line[6:])["choices"]:
                for key, value in choice["delta"].items():
                    if isinstance(value, str) and key != "role":
                        joined[key] = joined.get(key, "") + value
    return joined


def run(fmt: str, tokens: list[str], field: str = "content") -> tuple[bytes, dict[str, str]]:
    options = {"format": "auto"} if fmt in ("gpt-oss", "kimi-stripped") else {"format": fmt}
    body = rewrite_stream(token_stream(tokens, field, model=MODELS[fmt]), **options)
    return body, fields(body)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    text, expected_calls, kept, thought, _ = ROWS[fmt][row]
    body, joined = run(fmt, [text[i : i + 3] for i in range(0, len(text), 3)])
    final = openai_final(body, chunk=7).choices[0]
    assert (final.message.content or "") == kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    assert final.finish_reason == ("tool_calls" if expected_calls else "stop")
    assert joined.get("reasoning_content", "") == thought


ONE_TOKEN_A_CHUNK = {
    "harmony": (
        [
            "<|channel|>",
            "analysis",
            "<|message|>",
            "Need",
            " weather",
            "<|end|>",
            "<|start|>",
            "assistant",
            "<|channel|>",
            "commentary",
            " to",
            "=functions",
            ".get",
            "_weather",
            " <|constrain|>",
            "json",
            "<|message|>",
            '{"',
            "city",
            '":"',
            "SF",
            '"}',
            "<|call|>",
        ],
        "Need weather",
    ),
    "gpt-oss": (
        [
            "analysis",
            "Need",
            " weather",
            ".",
            "assistant",
            "commentary",
            " to",
            "=functions",
            ".get",
            "_weather",
            " json",
            '{"',
            "city",
            '":"',
            "SF",
            '"}',
        ],
        "Need weather.",
    ),
    "seed": (
        [
            "<seed:think>",
            "Need",
            " weather",
            "</seed:think>",
            "<seed:tool_call>",
            "\n",
            "<function=",
            "get",
            "_weather",
            ">\n",
            "<parameter=",
            "city",
            ">\n",
            "SF",
            "\n",
            "</parameter>",
            "\n",
            "</function>",
            "\n",
            "</seed:tool_call>",
        ],
        "Need weather",
    ),
    "kimi-k3": (
        [
            "<|open|>",
            "tools",
            "<|sep|>",
            "<|open|>",
            "call",
            ' tool="',
            "get",
            "_weather",
            '" index="1"',
            "<|sep|>",
            "<|open|>",
            "argument",
            ' key="city"',
            ' type="string"',
            "<|sep|>",
            "SF",
            "<|close|>",
            "argument",
            "<|sep|>",
            "<|close|>",
            "call",
            "<|sep|>",
            "<|close|>",
            "tools",
            "<|sep|>",
        ],
        "",
    ),
}


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize("fmt", list(ONE_TOKEN_A_CHUNK))
def test_one_token_per_chunk_in_content_and_in_reasoning(fmt: str, field: str) -> None:
    tokens, thought = ONE_TOKEN_A_CHUNK[fmt]
    body, joined = run(fmt, tokens, field)
    final = openai_final(body).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == [
        ("get_weather", '{"city":"SF"}' if fmt in ("harmony", "gpt-oss") else '{"city": "SF"}')
    ]
    assert joined.get("content", "") == ""
    assert joined.get("reasoning_content" if field == "content" else "reasoning", "") == thought


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
