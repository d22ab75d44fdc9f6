"""DeepSeekParser (V3/R1 and V3.1 tokens) and the SpecialTokensParser fallback."""

from __future__ import annotations

import json
from collections.abc import Callable

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.catalogue.deepseek import DeepSeekParser, deepseek_call_parts
from sse_rewrite.formats.catalogue.special_tokens import SpecialTokensParser
from sse_rewrite.stream.events import Piece
from tests.chunking import (
    assert_same_for_any_cut,
    calls,
    chunkings,
    codes,
    feed_pieces,
    json_values,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.oracles import openai_final

SB, SE = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
CB, SEP, CE = "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
CallText = Callable[[str, str], str]
TOKYO, X1 = '{"city": "Tokyo"}', '{"x": 1}'


def v3(name: str, arguments: str) -> str:
    return f"{CB}function{SEP}{name}\n```json\n{arguments}\n```{CE}"


def v31(name: str, arguments: str) -> str:
    return f"{CB}{name}{SEP}{arguments}{CE}"


def parse(text: str) -> list[Piece]:
    return chunkings(DeepSeekParser, text)


def test_full_width_markers_are_spelled_as_documented() -> None:
    assert SB == "<\uff5ctool\u2581calls\u2581begin\uff5c>"
    assert SEP == "<\uff5ctool\u2581sep\uff5c>"


@pytest.mark.parametrize("call", [v3, v31], ids=["v3", "v3.1"])
def test_single_call(call: CallText) -> None:
    out = parse(f"{SB}{call('get_weather', TOKYO)}{SE}")
    assert calls(out) == [(None, "get_weather", '{"city": "Tokyo"}')]
    assert texts(out) == ""
    assert codes(out) == set()


def test_several_calls_and_text_around() -> None:
    text = f"Let me see.\n{SB}{v3('a', '{}')}\n{v3('b', '[1]')}{SE}\nthen {SB}{v31('c', X1)}{SE} end"
    out = parse(text)
    assert calls(out) == [(None, "a", "{}"), (None, "b", "[1]"), (None, "c", '{"x": 1}')]
    assert texts(out) == "Let me see.\n\nthen  end"


def test_nested_unicode_and_markers_inside_strings() -> None:
    arguments = json.dumps({"q": f"grep '{CE}' {{x}}", "n": {"é": ["世界", 1]}}, ensure_ascii=False)
    out = parse(f"{SB}{v31('search', arguments)}{SE}")
    assert calls(out) == [(None, "search", arguments)]


@pytest.mark.parametrize(
    ("header", "arguments", "parts"),
    [
        pytest.param("function", "f\n```json\n{}\n```", (None, "f", "{}"), id="v3"),
        pytest.param("function", "f\n```\n{}\n```", (None, "f", "{}"), id="v3-bare-fence"),
        pytest.param("function", "f\n", (None, "f", "{}"), id="v3-no-arguments"),
        pytest.param("function", '{"a": 1}', (None, "function", '{"a": 1}'), id="v31-tool-named-function"),
        pytest.param("f", "  ", (None, "f", "{}"), id="v31-empty"),
    ],
)
def test_call_parts(header: str, arguments: str, parts: tuple[None, str, str]) -> None:
    assert deepseek_call_parts(header, arguments) == parts


def test_empty_arguments_become_an_empty_object() -> None:
    assert calls(parse(f"{SB}{v31('now', '')}{SE}")) == [(None, "now", "{}")]


def test_prose_mentioning_the_opener_is_released() -> None:
    text = f"DeepSeek writes {SB} and then words"
    assert texts(parse(text)) == text


def test_invalid_arguments_are_emitted_with_a_notice() -> None:
    out = parse(f"{SB}{v31('f', '{oops')}{SE}")
    assert calls(out) == [(None, "f", "{oops")]
    assert "invalid-arguments" in codes(out)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f'{SB}{CB}function{SEP}f\n```json\n{{"a": [1', id="v3-cut"),
        pytest.param(f'{SB}{CB}f{SEP}{{"a": ', id="v31-cut"),
        pytest.param(f"{SB}{CB}f", id="in-header"),
    ],
)
def test_truncated_call_comes_out_raw_with_a_notice(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text
    assert "truncated-call" in codes(out)


def test_truncated_call_with_complete_arguments_is_recovered() -> None:
    out = parse(f'{SB}{CB}function{SEP}f\n```json\n{{"a": 1}}\n```')
    assert calls(out) == [(None, "f", '{"a": 1}')]
    assert "recovered-call" in codes(out)


def test_section_over_the_cap_is_released() -> None:
    big = f'{SB}{CB}f{SEP}{{"d": "{"x" * 200}"}}'
    out = feed_pieces(DeepSeekParser(max_section_bytes=100), [big, " ", v31("g", "{}")])
    assert texts(out) == big + " "
    assert calls(out) == [(None, "g", "{}")]
    assert "section-cap" in codes(out)


# -- the special-token fallback: Kimi and DeepSeek, nothing else


def test_special_tokens_parser_reads_both_families_by_their_own_rules() -> None:
    kimi = '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}'
    text = f"{kimi}<|tool_call_end|><|tool_calls_section_end|> and {SB}{v3('b', '{}')}{SE}"
    out = chunkings(SpecialTokensParser, text + " <tool_call>{}</tool_call>")
    assert calls(out) == [("functions.a:0", "a", "{}"), (None, "b", "{}")]
    assert texts(out) == " and  <tool_call>{}</tool_call>"


# -- property: any chunking, same result; nothing lost

_prose = st.lists(st.sampled_from(["a", " ", "\n", "<", "｜", "▁", "{", '"', "`", SB, CE, "function"]),
                  max_size=8).map("".join)
_value = json_values('x"\\<｜▁>`')


@st.composite
def deepseek_texts(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        parts.append(draw(_prose))
        section = [draw(st.sampled_from([v3, v31]))(f"f{i}", json.dumps(draw(_value)))
                   for i in range(draw(st.integers(1, 2)))]
        parts.append(SB + draw(st.sampled_from(["", "\n"])).join(section) + SE)
    parts.append(draw(_prose))
    return "".join(parts)


@settings(max_examples=100, deadline=None)
@given(text=deepseek_texts(), data=st.data())
def test_any_chunking_gives_the_same_result_and_loses_nothing(text: str, data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert_same_for_any_cut(DeepSeekParser, text, points)
    assert_same_for_any_cut(SpecialTokensParser, text, points)


KIMI_SECTION = (
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.k:0<|tool_call_argument_begin|>{"a": "}"}'
    "<|tool_call_end|><|tool_calls_section_end|>"
)


@settings(max_examples=50, deadline=None)
@given(texts=st.lists(deepseek_texts(), min_size=1, max_size=3), data=st.data())
def test_special_tokens_mixing_both_families_in_any_chunking(texts: list[str], data: st.DataObject) -> None:
    text = ("\n" + KIMI_SECTION).join(texts)  # (on a line of its own: a backtick before it opens no span)
    while "```" in text:  # (nor is it in a fence: quoted syntax is text, DESIGN.md §4)
        text = text.replace("```", "``")  # (not `assume`: it filtered out too many inputs)
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert_same_for_any_cut(SpecialTokensParser, text, points)
    kimi_calls = [c for c in calls(chunkings(SpecialTokensParser, text)) if c[0] == "functions.k:0"]
    assert len(kimi_calls) == len(texts) - 1


# -- end to end through StreamRewriter, assembled by the openai SDK


@pytest.mark.parametrize(
    ("model", "call"),
    [
        pytest.param("deepseek/deepseek-chat", v3, id="v3"),
        pytest.param("deepseek/deepseek-chat-v3.1", v31, id="v3.1"),
        pytest.param("somevendor/unknown-model", v31, id="unknown-model-fallback"),
    ],
)
def test_stream_becomes_tool_calls_the_openai_sdk_assembles(model: str, call: CallText) -> None:
    text = f"Sure. {SB}{call('get_weather', TOKYO)}{SE}"
    tokens = [text[i : i + 2] for i in range(0, len(text), 2)]
    choice = openai_final(rewrite_stream(token_stream(tokens, model=model)), chunk=5).choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Sure. "
    [tool_call] = choice.message.tool_calls
    assert (tool_call.function.name, orjson.loads(tool_call.function.arguments)) == ("get_weather",
                                                                                    {"city": "Tokyo"})
    assert tool_call.id.startswith("call_")
