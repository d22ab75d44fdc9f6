"""The FORMATS-2.md §B, §C and §F syntaxes of the list machine, and FORMATS.md's: the engines'
cases (`engine_list_rows.py`, `engine_list_2026_rows.py`) in every parser that reads them, at every
cut, and end to end through the openai SDK; prose after an opener, the section cap and invalid
UTF-8 as for every family (docs/behaviour.md, "Damage")."""

from __future__ import annotations

import json

import pytest

from sse_rewrite.formats import FORMATS
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import calls, feed_pieces, normalize, texts
from tests.formats import engine_list_2026_rows, engine_list_rows
from tests.formats.harness import (
    cases,
    expectation,
    invalid_utf8_replaced_only_where_rewritten,
    over_the_cap_released,
    prose_released_at_once,
    row_in_parsers,
    three_characters,
    tokens_through_the_sdk,
)

PARSERS = {**engine_list_rows.PARSERS, **engine_list_2026_rows.PARSERS}
ROWS = {**engine_list_rows.ROWS, **engine_list_2026_rows.ROWS}
CASES = cases(ROWS)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parser_at_every_cut(fmt: str, row: str) -> None:
    row_in_parsers(PARSERS[fmt], expectation(ROWS[fmt][row]))


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row])
    tokens_through_the_sdk(three_characters(expected.text), expected, format=PARSERS[fmt][0])


PROSE_AT_ONCE = {
    "tool-calls-list": "The <tool_calls> tag, then",
    "command-r-plus": "Action: we wait",
    "functools": "functools.partial is",
    "olmo": "The <function_calls> tag is",
    "granite-20b": "The <function_call> tag is",
    "functionary": "The <function=NAME> tag is",
    "functionary-v3.2": "The >>>NAME header is",
}


@pytest.mark.parametrize("fmt", list(PROSE_AT_ONCE))
def test_prose_after_an_opener_is_released_without_waiting(fmt: str) -> None:
    prose_released_at_once(PARSERS[fmt], PROSE_AT_ONCE[fmt])


CAP_OPENERS = {
    "granite": '<|tool_call|>[{"name": "a", "arguments": {"d": "',
    "cohere": '<|START_ACTION|>[{"tool_name": "a", "parameters": {"d": "',
    "apertus": '<|tools_prefix|>[{"a": {"d": "',
    "functiongemma": "<start_function_call>call:a{d:<escape>",
    "olmo": '<function_calls>a(d="',
    "gigachat": '<|function_call|>{"name": "a", "arguments": {"d": "',
    "functionary": '<function=a>{"d": "',
    "functionary-v3.2": '>>>a\n{"d": "',
}
LATER_CALL = {
    "granite": '<|tool_call|>[{"name": "b", "arguments": {}}]',
    "cohere": '<|START_ACTION|>[{"tool_name": "b", "parameters": {}}]<|END_ACTION|>',
    "apertus": '<|tools_prefix|>[{"b": {}}]<|tools_suffix|>',
    "functiongemma": "<start_function_call>call:b{}<end_function_call>",
    "olmo": "<function_calls>b()</function_calls>",
    "gigachat": '<|function_call|>{"name": "b", "arguments": {}}',
    "functionary": "<function=b>{}</function>",
    "functionary-v3.2": ">>>b\n{}",
}


@pytest.mark.parametrize("fmt", list(CAP_OPENERS))
def test_a_call_over_the_cap_is_released_and_scanning_resumes(fmt: str) -> None:
    over_the_cap_released(PARSERS[fmt][0], PARSERS[fmt], CAP_OPENERS[fmt], LATER_CALL[fmt])


@pytest.mark.parametrize("fmt", list(LATER_CALL))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(fmt: str) -> None:
    invalid_utf8_replaced_only_where_rewritten(PARSERS[fmt][0], LATER_CALL[fmt])


@pytest.mark.parametrize(
    ("declared", "made"),
    [
        pytest.param("list_files", [("list_files", "{}")], id="declared"),
        pytest.param("other", [], id="undeclared"),
    ],
)
def test_granite_lines_name_a_declared_tool_where_the_tools_are_known(declared: str, made: list) -> None:
    tools = ToolSchemas.read([{"type": "function", "function": {"name": declared, "parameters": {}}}])
    for name in PARSERS["granite-lines"]:
        out = feed_pieces(FORMATS[name](tools=tools), list("list_files()"))
        assert [(c[1], c[2]) for c in calls(normalize(out))] == made, name
        assert texts(normalize(out)) == ("" if made else "list_files()"), name


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        pytest.param({"type": "string"}, "108.", id="string-keeps-the-text"),
        pytest.param({"type": "number"}, 108.0, id="number"),
        pytest.param({}, 108.0, id="no-type-the-number-it-spells"),
    ],
)
def test_a_bare_number_with_a_trailing_dot_takes_the_schema(schema: dict, value: object) -> None:
    """(FunctionGemma's values are typed by the schema; its bare ones are read as Gemma 4's stripped ones.)"""
    properties = {"type": "object", "properties": {"left": schema}}
    tools = ToolSchemas.read([{"name": "f", "input_schema": properties}])
    text = "<start_function_call>call:f{left:108.}<end_function_call>"
    out = feed_pieces(FORMATS["functiongemma"](tools=tools), list(text))
    assert [(c[1], json.loads(c[2])) for c in calls(normalize(out))] == [("f", {"left": value})]
