"""Harmony headers whose recipient is followed directly by a control token (docs/behaviour.md,
harmony): the output does not depend on where the text is cut, in the parsers and the stream."""

from __future__ import annotations

import itertools

import orjson
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import assert_same_for_any_cut, rewrite_stream, token_stream

RECIPIENT = st.sampled_from(["to=functions.get_weather", "to=functions.f", "to=functions.f json", "to=fun"])
GLUED = st.tuples(st.sampled_from(["", "<|channel|>commentary", "<|channel|>final", "<|channel|>nope",
                                   "<|start|>", "<|"]),
                  st.sampled_from(["", " "]), st.sampled_from(["", "<|constrain|>"]),
                  st.sampled_from(["", "json"])).map("".join)
HEADER = st.tuples(st.sampled_from(["", "<|start|>assistant"]), st.just("<|channel|>commentary "), RECIPIENT,
                   GLUED, st.sampled_from(["<|message|>", ""]), st.sampled_from(['{"a":1}', "hi"]),
                   st.sampled_from(["<|call|>", "<|end|>", ""])).map("".join)
CUTS = st.lists(st.integers(min_value=0, max_value=200), max_size=4)
REPORTED = ("<|start|>assistant<|channel|>commentary to=functions.get_weather"
            '<|channel|>commentary <|constrain|>json<|message|>{"a":1}<|call|>')


@settings(max_examples=150, deadline=None)
@given(HEADER, CUTS)
@example(REPORTED, [80])
@example('<|channel|>commentary to=functions.f<|start|>json<|message|>{"a":1}<|call|>', [38])  # role json
def test_a_glued_header_reads_the_same_at_any_cut_in_the_parsers(text: str, points: list[int]) -> None:
    for name in ("harmony", "gpt-oss+special-tokens"):
        assert_same_for_any_cut(FORMATS[name], text, [point % (len(text) + 1) for point in points])


def _answer(tokens: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """The content and the calls (name, arguments) of the stream of `tokens` under gpt-oss."""
    out = rewrite_stream(token_stream(tokens, model="openai/gpt-oss-120b"))
    text, calls = "", []
    for line in out.split(b"\n"):
        if line.startswith(b"data: {"):
            for choice in orjson.loads(line[6:])["choices"]:
                text += choice["delta"].get("content") or ""
                for call in choice["delta"].get("tool_calls") or []:
                    function = call["function"]
                    if function.get("name"):
                        calls.append((function["name"], ""))
                    calls[-1] = (calls[-1][0], calls[-1][1] + (function.get("arguments") or ""))
    return text, calls


GLUED_TAIL = ("<|start|>assistant<|channel|>commentary to=functions.get_weather<|channel|>commentaryjson"
              "<|message|>hi")


@settings(max_examples=60, deadline=None)
@given(HEADER, CUTS)
@example(REPORTED, [80])
@example(GLUED_TAIL, [3, GLUED_TAIL.index("<|message|>") + 1])  # `<|s`, then a text ending in `<`: sent twice
def test_a_glued_header_reads_the_same_at_any_cut_in_the_stream(text: str, points: list[int]) -> None:
    bounds = sorted({point % (len(text) + 1) for point in points} | {0, len(text)})
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]
    assert _answer(pieces) == _answer([text])
