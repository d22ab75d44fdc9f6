"""ToolCallTagParser: Hermes JSON, Qwen3-Coder XML and GLM bodies, damage, chunking invariance."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.machines.tool_call_tag import ToolCallTagParser
from sse_rewrite.stream.events import Piece
from tests.chunking import (
    assert_same_for_any_cut,
    calls,
    chunkings,
    codes,
    feed_pieces,
    json_values,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.oracles import openai_final


def parse(text: str) -> list[Piece]:
    return chunkings(ToolCallTagParser, text)


def hermes(name: str, arguments: object) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def qwen(name: str, **params: str) -> str:
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


def glm(name: str, **args: str) -> str:
    body = "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n" for k, v in args.items())
    return f"<tool_call>{name}\n{body}</tool_call>"


# -- Hermes / Qwen2.5 JSON


def test_hermes_single_call() -> None:
    out = parse(hermes("get_weather", {"city": "Tokyo"}))
    assert calls(out) == [(None, "get_weather", '{"city": "Tokyo"}')]
    assert texts(out) == ""
    assert codes(out) == set()


def test_hermes_several_calls_in_a_row_with_text_around() -> None:
    text = f"Checking.\n{hermes('a', {'x': 1})}\n{hermes('b', {})}\nDone."
    out = parse(text)
    assert calls(out) == [(None, "a", '{"x": 1}'), (None, "b", "{}")]
    assert texts(out) == "Checking.\n\n\nDone."


def test_hermes_nested_unicode_and_look_alikes_inside_strings() -> None:
    arguments = {"q": "</tool_call> {not} \"quoted\" \\ é 世界 🎉", "deep": {"list": [1, {"k": None}]}}
    out = parse(hermes("search", arguments))
    assert [orjson.loads(c[2]) for c in calls(out)] == [arguments]


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        pytest.param('{"name": "now", "arguments": {}}', "{}", id="empty-object"),
        pytest.param('{"name": "now"}', "{}", id="no-arguments-key"),
        pytest.param('{"name": "f", "arguments": "{\\"x\\": 1}"}', '{"x": 1}', id="arguments-as-string"),
        pytest.param('{"name": "f", "arguments": ""}', "{}", id="empty-string"),
        pytest.param('{"name": "f", "parameters": {"x": 1}}', '{"x": 1}', id="parameters-key"),
        pytest.param('{"arguments": {"x":1.50,  "y": "\\u00e9"}, "name": "f"}', '{"x":1.50,  "y": "\\u00e9"}',
                     id="byte-for-byte"),
    ],
)
def test_hermes_argument_shapes(body: str, arguments: str) -> None:
    assert calls(parse(f"<tool_call>{body}</tool_call>"))[0][2] == arguments


def test_hermes_string_arguments_that_hold_no_object_stay_the_json_string_written() -> None:
    out = parse('<tool_call>{"name": "f", "arguments": "not json"}</tool_call>')
    assert calls(out) == [(None, "f", '"not json"')]
    assert "invalid-arguments" not in codes(out)


# -- Qwen3-Coder XML


def test_qwen_xml_single_call() -> None:
    out = parse(qwen("get_weather", city="Dallas"))
    assert calls(out) == [(None, "get_weather", '{"city": "Dallas"}')]


def test_qwen_xml_values_are_typed_and_multi_line_code_is_kept() -> None:
    code = 'def f():\n    return "</tool_call>"\n'
    text = qwen("run", n="5", ok="true", none="null", obj='{"a": [1]}', arr="[1, 2]", s="hello", q='"x"',
                code=code)
    arguments = orjson.loads(calls(parse(text))[0][2])
    assert arguments == {"n": 5, "ok": True, "none": None, "obj": {"a": [1]}, "arr": [1, 2],
                         "s": "hello", "q": '"x"', "code": code}


def test_qwen_xml_without_parameters_and_several_calls() -> None:
    text = f"a {qwen('now')} b {qwen('later', when='tomorrow')} c"
    out = parse(text)
    assert calls(out) == [(None, "now", "{}"), (None, "later", '{"when": "tomorrow"}')]
    assert texts(out) == "a  b  c"


# -- GLM-4.5 / 4.6


def test_glm_single_call_with_typed_values() -> None:
    out = parse(glm("get_weather", city="Dallas", days="3", 世界="é"))
    assert calls(out) == [(None, "get_weather", '{"city": "Dallas", "days": 3, "世界": "é"}')]


def test_glm_call_without_arguments_and_look_alike_in_a_value() -> None:
    out = parse(f"{glm('now')}{glm('echo', text='</tool_call> {')}")
    assert calls(out) == [(None, "now", "{}"), (None, "echo", '{"text": "</tool_call> {"}')]


# -- damage: nothing is lost


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Wrap calls in <tool_call> tags.", id="prose-after-opener"),
        pytest.param("Use <tool_call>{ and } like this", id="brace-then-prose"),
        pytest.param("<tool_call><b>bold</b>", id="markup-after-opener"),
        pytest.param("<tool_call></tool_call>", id="empty-tag"),
        pytest.param(f"<tool_call>{'x' * 400}", id="name-too-long"),
    ],
)
def test_prose_is_released_unchanged(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text


def test_prose_after_an_opener_is_released_without_waiting() -> None:
    parser = ToolCallTagParser()
    assert texts(parser.feed("Use <tool_call> tags like")) == "Use <tool_call> tags like"
    assert not parser.pending


@pytest.mark.parametrize(
    "body",
    [
        pytest.param('{"nam": "f"}', id="no-name"),
        pytest.param('{"name": "f", "arguments": {"a": 1,}}', id="invalid-json"),
        pytest.param('{"name": "two words"}', id="bad-name"),
        pytest.param("f\n<arg_key>a</arg_key>\n", id="glm-key-without-value"),
    ],
)
def test_malformed_body_comes_out_raw_with_a_notice(body: str) -> None:
    text = f"x<tool_call>{body}</tool_call>y"
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text
    assert "malformed-call" in codes(out)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('<tool_call>\n{"name": "f", "arguments": {"a": [1, ', id="json-cut"),
        pytest.param("<tool_call>\n<function=f>\n<parameter=a>\nval", id="xml-cut"),
        pytest.param("<tool_call>f\n<arg_key>a</arg_key><arg_value>1", id="glm-cut"),
    ],
)
def test_truncated_call_comes_out_raw_with_a_notice(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text
    assert "truncated-call" in codes(out)


def test_complete_call_missing_only_its_close_is_recovered() -> None:
    out = parse('<tool_call>{"name": "f", "arguments": {"a": 1}}\n</tool_')
    assert calls(out) == [(None, "f", '{"a": 1}')]
    assert "recovered-call" in codes(out)


def test_complete_json_call_followed_by_text_instead_of_close_is_kept() -> None:
    out = parse('<tool_call>{"name": "f"} and more')
    assert calls(out) == [(None, "f", "{}")]
    assert texts(out) == " and more"
    assert "missing-close" in codes(out)


def test_call_over_the_cap_is_released_and_scanning_resumes() -> None:
    big = '<tool_call>{"name": "f", "arguments": {"data": "' + "x" * 200
    pieces = [big, '"}}</tool_call> then ', hermes("g", {})]
    out = feed_pieces(ToolCallTagParser(max_section_bytes=100), pieces)
    assert calls(out) == [(None, "g", "{}")]
    # scanning resumed: the released call's closer follows words, not syntax, so it is words too
    assert texts(out) == big + '"}}</tool_call> then '
    assert "section-cap" in codes(out)


def test_feed_after_flush_raises_and_nothing_is_pending() -> None:
    parser = ToolCallTagParser()
    parser.feed("<tool_call>{")
    parser.flush()
    assert not parser.pending
    with pytest.raises(RuntimeError):
        parser.feed("x")


# -- property: any chunking, same result; nothing lost

_prose = st.lists(
    st.sampled_from(["a", "b c", " ", "\n", "<", ">", "{", "}", '"', "é", "<tool_call>", "</tool_call>",
                     "<function=", "<arg_key>", "name"]),
    max_size=8,
).map("".join)
_value = json_values('xy"\\<>/{}_')
_raw_value = st.text(alphabet=st.sampled_from('xy1 \n"{}[]<>/'), max_size=10)


@st.composite
def tag_texts(draw: st.DrawFn) -> str:
    parts = []
    for i in range(draw(st.integers(0, 3))):
        parts.append(draw(_prose))
        kind = draw(st.sampled_from(["hermes", "qwen", "glm"]))
        if kind == "hermes":
            parts.append(hermes(f"f{i}", draw(_value)))
        elif kind == "qwen":
            parts.append(qwen(f"f{i}", p=draw(_raw_value).replace("</parameter>", "")))
        else:
            parts.append(glm(f"f{i}", k=draw(_raw_value).replace("</arg_value>", "")))
    parts.append(draw(_prose))
    return "".join(parts)


@settings(max_examples=100, deadline=None)
@given(text=tag_texts(), data=st.data())
def test_any_chunking_gives_the_same_result_and_loses_nothing(text: str, data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert_same_for_any_cut(ToolCallTagParser, text, points)


def test_every_single_character_cut_of_a_mixed_text() -> None:
    text = f"a<{hermes('h', {'s': '}'})}<tool_ {qwen('q', v='1')}{glm('g', k='</tool_call>')}z"
    out = parse(text)
    assert [c[1] for c in calls(out)] == ["h", "q", "g"]
    assert rejoin(out) == text


# -- end to end through StreamRewriter, assembled by the openai SDK


@pytest.mark.parametrize(
    ("model", "call_text"),
    [
        pytest.param("qwen/qwen-2.5-72b-instruct", hermes("get_weather", {"city": "Paris"}), id="hermes"),
        pytest.param("qwen/qwen3-coder", qwen("get_weather", city="Paris"), id="qwen3-coder"),
        pytest.param("z-ai/glm-4.6", glm("get_weather", city="Paris"), id="glm"),
        pytest.param("nousresearch/hermes-3-llama-3.1-70b", hermes("get_weather", {"city": "Paris"}),
                     id="nous-hermes"),
    ],
)
def test_stream_becomes_tool_calls_the_openai_sdk_assembles(model: str, call_text: str) -> None:
    text = f"Let me check. {call_text}"
    tokens = [text[i : i + 3] for i in range(0, len(text), 3)]
    message = openai_final(rewrite_stream(token_stream(tokens, model=model)), chunk=7).choices[0]
    assert message.finish_reason == "tool_calls"
    assert message.message.content == "Let me check. "
    [tool_call] = message.message.tool_calls
    assert tool_call.function.name == "get_weather"
    assert orjson.loads(tool_call.function.arguments) == {"city": "Paris"}
    assert tool_call.id.startswith("call_")
