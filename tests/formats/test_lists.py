"""The marker-then-list syntaxes against their reference parsers' behaviour, their streamed
arguments, the hot path, and prose that holds fragments of their markers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.kimi_stripped import StrippedKimiParser
from sse_rewrite.formats.catalogue.lists import PlainTextParser
from sse_rewrite.stream.events import ArgumentsDelta, Piece
from tests.chunking import (
    assert_same_for_any_cut,
    calls,
    codes,
    every_cut,
    feed_pieces,
    texts,
)
from tests.formats.streamed import streamed_at_every_cut
from tests.formats.test_fast_paths import run

# (format, text, the reference's calls as (name, arguments), the reference's content) for the
# cases ../shared/FORMATS.md lists; `ours` notes where we deliberately keep more text.
REFERENCE = [
    pytest.param(
        "mistral", "Just text, no [token] at all.", [], "Just text, no [token] at all.", id="mistral-no-token"
    ),
    pytest.param(
        "mistral",
        'Sure.[TOOL_CALLS]add[ARGS]{"a": 3.5}[TOOL_CALLS]mul[ARGS]{"b": 4}',
        [("add", '{"a": 3.5}'), ("mul", '{"b": 4}')],
        "Sure.",
        id="mistral-v11-content-before",
    ),
    pytest.param(
        "mistral", '[TOOL_CALLS]add{"a": 1}', [("add", '{"a": 1}')], "", id="mistral-v11-args-marker-lost"
    ),
    pytest.param(
        "mistral",
        "[TOOL_CALLS]add[ARGS]{'a': 1}",
        [("add", "{'a': 1}")],
        "",
        id="mistral-v11-not-json-passed-through",
    ),
    pytest.param(
        "mistral",
        '[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}]',
        [("add", '{"a": 3.5, "b": 4}')],
        "",
        id="mistral-pre-v11",
    ),
    pytest.param(
        "mistral",
        '[TOOL_CALLS] [{"name": "f", "arguments": {}}] trailing',
        [("f", "{}")],
        " trailing",
        id="mistral-pre-v11-trailing-text-ours-kept",
    ),
    pytest.param(
        "llama",
        '<|python_tag|>{"name": "f", "arguments": {"a": 1}, "parameters": {"b": 2}}',
        [("f", '{"a": 1}')],
        "",
        id="llama-arguments-over-parameters",
    ),
    pytest.param(
        "llama",
        '{"name": "f", "parameters": {"a": 1}}; {"name": "g", "parameters": {}}',
        [("f", '{"a": 1}'), ("g", "{}")],
        "",
        id="llama-bare-json-whole-answer",
    ),
    pytest.param(
        "llama", ' \n{"name": "f", "parameters": {}}\n', [("f", "{}")], " \n\n", id="llama-bare-spacing-kept"
    ),
    pytest.param("llama", '{"query": "x"}', [], '{"query": "x"}', id="llama-object-without-name-is-content"),
    pytest.param(
        "llama",
        '{"tool_calls": [{"name": "f", "arguments": {"a": 1}, "id": "c1"}, {"name": "g", "arguments": {}}]}',
        [("f", '{"a": 1}'), ("g", "{}")],
        "",
        id="llama-cpp-generic-envelope",
    ),
    pytest.param(
        "llama", '{"tool_calls": []} ok', [], '{"tool_calls": []} ok', id="llama-cpp-envelope-with-text"
    ),
    pytest.param(
        "llama",
        'Here: {"name": "f", "parameters": {}}',
        [],
        'Here: {"name": "f", "parameters": {}}',
        id="llama-prose-first-is-content",
    ),
    pytest.param(
        "llama",
        '{"name": "f", "parameters": {}} is how',
        [],
        '{"name": "f", "parameters": {}} is how',
        id="llama-not-the-whole-answer-is-content",
    ),
    pytest.param(
        "llama",
        '[get_weather(location="Dublin, Ireland", date="2025-04-14"), get_time()]',
        [("get_weather", '{"location": "Dublin, Ireland", "date": "2025-04-14"}'), ("get_time", "{}")],
        "",
        id="llama4-pythonic-whole-answer",
    ),
    pytest.param("llama", "Try [f(a=1)]", [], "Try [f(a=1)]", id="llama4-prose-before-list-is-content"),
    pytest.param(
        "llama", "<|python_start|>[f(a=1)]<|python_end|>", [("f", '{"a": 1}')], "", id="llama4-python-start"
    ),
    pytest.param(
        "lfm2",
        'Ok. <|tool_call_start|>[f(a="x")]<|tool_call_end|> Done.',
        [("f", '{"a": "x"}')],
        "Ok.  Done.",
        id="lfm2-text-around-ours-untrimmed",
    ),
    pytest.param(
        "gemma",
        '<|tool_call>call:get_weather{location:<|"|>Dublin<|"|>,n:42,flag:true}<tool_call|>',
        [("get_weather", '{"location": "Dublin", "n": 42, "flag": true}')],
        "",
        id="gemma-tokens",
    ),
    pytest.param(
        "gemma",
        "Checking.call:get_weather{location:Dublin,days:3}",
        [("get_weather", '{"location": "Dublin", "days": 3}')],
        "Checking.",
        id="gemma-tokens-stripped",
    ),
]


@pytest.mark.parametrize(("fmt", "text", "expected", "content"), REFERENCE)
def test_the_reference_cases(fmt: str, text: str, expected: list[tuple[str, str]], content: str) -> None:
    out = every_cut(FORMATS[fmt], text)
    assert [(c[1], c[2]) for c in calls(out)] == expected
    assert texts(out) == content


def test_mistral_v11_arguments_stream_as_written() -> None:
    text = (
        'Ok.[TOOL_CALLS]write[CALL_ID]a1B2c3D4e[ARGS]{"path": "a.md", "text": "x } y"}[TOOL_CALLS]ls[ARGS]{}'
    )
    for name in ("mistral", "special-tokens"):
        found, kept, announced = streamed_at_every_cut(name, text)
        assert announced == ["write", "ls"]
        assert found == [("a1B2c3D4e", "write", '{"path": "a.md", "text": "x } y"}'), (None, "ls", "{}")]
        assert kept == "Ok."


def test_mistral_argument_texts_taken_one_at_a_time_stream_what_feed_streams() -> None:
    value = '{"a": "x\\\\", "b": "} ] )\\"\\n\\\\\\"é", "c": [1, {"d": 2}]}'
    text = "[TOOL_CALLS]f[ARGS]" + value + " ok"
    for size in (1, 2, 3, 4):
        texts = [text[i : i + size] for i in range(0, len(text), size)]
        fast, fed = FORMATS["mistral"](stream_arguments=True), FORMATS["mistral"](stream_arguments=True)
        out: list[Piece] = []
        for piece in texts:
            reference = fed.feed(piece)
            streamed = fast.absorb_argument(piece)
            got = fast.feed(piece) if streamed is None else [ArgumentsDelta(streamed)] if streamed else []
            assert got == reference, (size, piece)
            out += got
        end = fast.flush()
        assert end == fed.flush()
        assert calls(out + end) == [(None, "f", value)]


def test_a_streamed_call_cut_off_is_completed_as_written() -> None:
    out = feed_pieces(FORMATS["mistral"](stream_arguments=True), ['[TOOL_CALLS]f[ARGS]{"a": "b', "c"])
    assert calls(out) == [(None, "f", '{"a": "bc')]
    assert "truncated-call" in codes(out)


FRAGMENTS = [
    "[TOOL_CALL",
    "[ARGS",
    "<|python_ta",
    "<|python_star",
    "<|python_en",
    "<|tool_call_star",
    "<|tool_call_en",
    "<|tool_cal",
    "<tool_call",
    '<|"',
    "[THIN",
    "[/THIN",
    "<|channe",
    "<channel|",
    "thought",
    "call",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    '"',
    "'",
    "=",
    ";",
    "x",
    " ",
    "\n",
    "é",
    "😀",
]


STRIPPED_ANSWER = re.compile(r"\s*(?:[A-Za-z_][A-Za-z0-9_.\-]*\{.*\}\s*)+", re.DOTALL)
"""The shape of an answer made only of Mistral calls with their tokens stripped (`NAME{…}`)."""
FRAGMENT_FORMATS = (
    "mistral", "lfm2", "gemma", "special-tokens", "gemma+special-tokens", "mistral+special-tokens"
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30), st.data())
def test_prose_with_fragments_of_the_markers_comes_out_byte_for_byte(
    parts: list[str], data: st.DataObject
) -> None:
    text = "".join(parts)
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=4))
    for name in FRAGMENT_FORMATS:
        out = feed_pieces(FORMATS[name](), [text])
        if name == "mistral+special-tokens" and calls(out):  # (`x{}` alone is a stripped call, not prose)
            assert STRIPPED_ANSWER.fullmatch(text), text
        else:
            assert texts(out) == text, name
        assert_same_for_any_cut(FORMATS[name], text, points)


LIST_CALLS = (
    'Ok.[TOOL_CALLS]f[ARGS]{"a": "x}\\\\\\"]", "b": [1, {"c": ")"}]}'
    '[TOOL_CALLS]read_file[CALL_ID]a1B2c3D4e[ARGS]{"p": "(x)"}[TOOL_CALLS] {}[TOOL_CALLS]no-[args]'
    '[TOOL_CALLS] [{"name": "g", "arguments": {}}] t'
    '<|tool_call_start|>[f(a="x)]", b=[1, (2,)])]<|tool_call_end|>'
    '<|tool_call>call:f{a:<|"|>}]) <|"|>,b:[1]}<tool_call|>'
)


@st.composite
def list_texts(draw: st.DrawFn) -> list[str]:
    """The calls above with prose around them, cut at random points."""
    whole = draw(st.sampled_from(["", "text "])) + LIST_CALLS + draw(st.sampled_from(["", "}"]))
    cuts = sorted(draw(st.sets(st.integers(1, len(whole) - 1), max_size=60)))
    return [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]


@settings(max_examples=100, deadline=None)
@given(list_texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([60, 1 << 20]))
def test_absorbed_texts_change_nothing(texts: list[str], windows: list[int], cap: int) -> None:
    for name in ("special-tokens", "gemma"):
        absorbing = run(FORMATS[name](cap), texts, windows)
        assert absorbing == run(FORMATS[name](cap), texts, []), name



HEADER_SHAPED = (
    'Ok.functions.bash:1{"a": "x"}functions.read_file:22<|tool_call_argument_begin|>{"p": 1}'
    "functions.x:y{}functions.f:3 {} t\nTOOL: read\nARGUMENTS: {}\nTOOL: a b\n"
)


@st.composite
def header_texts(draw: st.DrawFn) -> list[str]:
    """Stripped Kimi calls and `TOOL:` lines (headers with a `header_start`), cut at random points."""
    cuts = sorted(draw(st.sets(st.integers(1, len(HEADER_SHAPED) - 1), max_size=60)))
    return [HEADER_SHAPED[a:b] for a, b in zip([0, *cuts], [*cuts, len(HEADER_SHAPED)], strict=True)]


@settings(max_examples=100, deadline=None)
@given(header_texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([60, 1 << 20]))
def test_a_header_absorbed_while_it_keeps_its_shape_changes_nothing(
    texts: list[str], windows: list[int], cap: int
) -> None:
    for parser in (StrippedKimiParser, PlainTextParser):
        assert run(parser(cap), texts, windows) == run(parser(cap), texts, []), parser


def test_a_stripped_kimi_header_is_absorbed_while_it_keeps_its_shape() -> None:
    """`functions.bash` opens the header; `:` and `1` keep its shape (`header_start`): taken unfed, where
    the head step would wait on them; `x` after the index breaks it: the step reads it."""
    parser = StrippedKimiParser()
    parser.feed("Ok.functions")
    parser.feed(".bash")
    assert parser.absorb([":", "1", "x"]) == 2

def test_ids_written_in_json_calls_are_kept() -> None:
    envelope = '{"tool_calls": [{"name": "f", "arguments": {}, "id": "c1"}]}'
    assert calls(feed_pieces(FORMATS["llama"](), [envelope])) == [("c1", "f", "{}")]
    array = '[TOOL_CALLS] [{"name": "f", "arguments": {}, "id": "a1B2c3D4e"}, {"name": "g", "arguments": {}}]'
    assert calls(feed_pieces(FORMATS["mistral"](), [array])) == [("a1B2c3D4e", "f", "{}"), (None, "g", "{}")]
