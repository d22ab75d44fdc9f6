"""PlainTextParser: `TOOL:` / `ARGUMENTS:` line pairs, prose, damage, chunking invariance."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.catalogue.lists import PlainTextParser
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


def parse(text: str) -> list[Piece]:
    return chunkings(PlainTextParser, text)


def call(name: str, arguments: str) -> str:
    return f"TOOL: {name}\nARGUMENTS: {arguments}"


def test_single_call() -> None:
    out = parse(call("read", '{"filePath": "test.txt"}'))
    assert calls(out) == [(None, "read", '{"filePath": "test.txt"}')]
    assert texts(out) == ""
    assert codes(out) == set()


def test_several_calls_with_text_around() -> None:
    text = "I'll look.\n" + call("read", "{}") + "\n" + call("ls", '{"dir": "/"}') + "\nDone."
    out = parse(text)
    assert calls(out) == [(None, "read", "{}"), (None, "ls", '{"dir": "/"}')]
    assert texts(out) == "I'll look.\n\n\nDone."


def test_json_spanning_lines_with_braces_and_unicode_in_strings() -> None:
    arguments = json.dumps({"code": "if x { y }\n\"}\"", "deep": {"é": ["世界", None]}}, indent=2)
    out = parse(call("edit", arguments) + "\nok")
    assert calls(out) == [(None, "edit", arguments)]
    assert texts(out) == "\nok"


def test_crlf_lines_and_blank_line_before_arguments() -> None:
    out = parse('x\r\nTOOL: read\r\n\r\nARGUMENTS:\r\n{"a": 1}\r\n')
    assert calls(out) == [(None, "read", '{"a": 1}')]
    assert texts(out) == "x\r\n\r\n"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Use the TOOL: read convention.", id="not-at-line-start"),
        pytest.param("TOOL: none needed here\nok", id="name-with-spaces"),
        pytest.param("TOOL: read\nthen I stop", id="no-arguments-label"),
        pytest.param("TOOL: read\nARGUMENTS: none", id="no-json-object"),
        pytest.param(f"TOOL: {'x' * 400}", id="line-too-long"),
        pytest.param("tool: read\nARGUMENTS: {}", id="lower-case"),
    ],
)
def test_prose_is_released_unchanged(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text


def test_prose_line_is_released_and_the_next_line_can_be_a_call() -> None:
    out = parse(f"TOOL: read\nnot arguments\n{call('x', '{}')}")
    assert calls(out) == [(None, "x", "{}")]
    assert texts(out) == "TOOL: read\nnot arguments\n"


def test_empty_arguments() -> None:
    assert calls(parse(call("now", "{}"))) == [(None, "now", "{}")]


def test_invalid_json_is_emitted_with_a_notice() -> None:
    out = parse(call("f", '{"a": }'))
    assert calls(out) == [(None, "f", '{"a": }')]
    assert "invalid-arguments" in codes(out)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('TOOL: read\nARGUMENTS: {"a": [1, ', id="json-cut"),
        pytest.param("TOOL: read\nARGU", id="label-cut"),
        pytest.param("TOOL: read", id="name-line-cut"),
    ],
)
def test_truncated_call_comes_out_raw_with_a_notice(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text
    assert "truncated-call" in codes(out)


def test_call_over_the_cap_is_released_and_scanning_resumes() -> None:
    big = 'TOOL: f\nARGUMENTS: {"d": "' + "x" * 200
    out = feed_pieces(PlainTextParser(max_section_bytes=100), [big, '"}\n', call("g", "{}")])
    assert texts(out) == big + '"}\n'
    assert calls(out) == [(None, "g", "{}")]
    assert "section-cap" in codes(out)


def test_feed_after_flush_raises_and_nothing_is_pending() -> None:
    parser = PlainTextParser()
    parser.feed("TOOL: x\n")
    parser.flush()
    assert not parser.pending
    with pytest.raises(RuntimeError):
        parser.feed("x")


# -- property: any chunking, same result; nothing lost

_prose = st.lists(
    st.sampled_from(["a", "b c", " ", "\n", "\r", "{", "}", '"', "é", "TOOL:", "TOO", "ARGUMENTS:", "x"]),
    max_size=8,
).map("".join)
_value = json_values('x"\\{}\n')


@st.composite
def plain_texts(draw: st.DrawFn) -> str:
    parts = []
    for i in range(draw(st.integers(0, 3))):
        parts.append(draw(_prose) + "\n")
        value = {"v": draw(_value)}
        parts.append(call(f"f{i}", json.dumps(value, indent=draw(st.sampled_from([None, 2])))))
    parts.append(draw(_prose))
    return "".join(parts)


@settings(max_examples=100, deadline=None)
@given(text=plain_texts(), data=st.data())
def test_any_chunking_gives_the_same_result_and_loses_nothing(text: str, data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert_same_for_any_cut(PlainTextParser, text, points)


# -- end to end through StreamRewriter, assembled by the openai SDK


def test_stream_becomes_tool_calls_the_openai_sdk_assembles() -> None:
    text = "Reading it.\n" + call("read", '{"filePath": "test.txt"}') + "\n"
    tokens = [text[i : i + 3] for i in range(0, len(text), 3)]
    body = rewrite_stream(token_stream(tokens, model="mistralai/mistral-small"), format="text")
    choice = openai_final(body, chunk=6).choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Reading it.\n\n"
    [tool_call] = choice.message.tool_calls
    assert tool_call.function.name == "read"
    assert orjson.loads(tool_call.function.arguments) == {"filePath": "test.txt"}
    assert tool_call.id.startswith("call_")
