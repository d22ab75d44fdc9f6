"""Schema-aware repair (docs/behaviour.md, "Types"): each type rule, in each raw-text syntax
(Qwen3-Coder, GLM, FunctionGemma; Seed, Kimi K3, DSML and MiniMax values without a declared
kind), at every cut and streamed;
names matched loosely; arguments checked, never changed."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.machines.raw_values import guessed, value_json
from sse_rewrite.stream.events import Notice, ToolCall
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import calls, chunkings, codes, feed_pieces, texts
from tests.formats.invoke_text import dsml, invoke, m2, m2_invoke
from tests.formats.streamed import checked

CHECKED = "tool-schema"
# (rule, the parameter's schema, raw value, the JSON value it becomes, whether the check says so)
RULES: list[tuple[str, dict[str, Any], str, Any, bool]] = [
    ("string-keeps-digits", {"type": "string"}, "42", "42", False),
    ("string-keeps-true", {"type": "string"}, "true", "true", False),
    ("string-keeps-null", {"type": "string"}, "null", "null", False),
    ("string-keeps-spacing", {"type": "string"}, " 1.0 ", " 1.0 ", False),
    ("string-keeps-json", {"type": "string"}, '{"a": 1}', '{"a": 1}', False),
    ("integer", {"type": "integer"}, " 7 ", 7, False),
    ("integer-not-a-number-stays-text", {"type": "integer"}, "seven", "seven", True),
    ("number", {"type": "number"}, "1.5", 1.5, False),
    ("number-whole", {"type": "number"}, "3", 3, False),
    ("number-exponent", {"type": "number"}, "1e3", 1000.0, False),
    ("number-not-a-number-stays-text", {"type": "number"}, "NaN", "NaN", True),
    ("boolean", {"type": "boolean"}, "true", True, False),
    ("boolean-python-spelling", {"type": "boolean"}, "False", False, False),
    ("boolean-other-word-stays-text", {"type": "boolean"}, "yes", "yes", True),
    ("null", {"type": "null"}, "null", None, False),
    ("null-python-spelling", {"type": "null"}, "None", None, False),
    ("object", {"type": "object"}, '{"a": [1]}', {"a": [1]}, False),
    ("object-python-literal", {"type": "object"}, "{'a': True}", {"a": True}, False),
    ("object-not-json-stays-text", {"type": "object"}, "a: 1", "a: 1", True),
    ("array", {"type": "array"}, '[1, "x"]', [1, "x"], False),
    ("array-python-literal", {"type": "array"}, "['a', None]", ["a", None], False),
    ("type-list", {"type": ["integer", "null"]}, "null", None, False),
    ("type-list-other-member", {"type": ["integer", "null"]}, "5", 5, False),
    ("optional-string-any-of", {"anyOf": [{"type": "string"}, {"type": "null"}]}, "42", "42", False),
    ("any-of-tries-others-before-string", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "42", 42,
     False),
    ("one-of", {"oneOf": [{"type": "boolean"}, {"type": "array"}]}, "[true]", [True], False),
    ("ref-to-defs", {"$ref": "#/$defs/Count"}, "42", 42, False),
    ("ref-to-a-string", {"$ref": "#/$defs/Text"}, "42", "42", False),
    ("nested-array-of-objects", {"type": "array", "items": {"type": "object", "properties": {
        "n": {"type": "integer"}}}}, '[{"n": 1}]', [{"n": 1}], False),
    ("nested-mismatch-is-told-not-changed", {"type": "array", "items": {"type": "object", "properties": {
        "n": {"type": "integer"}}}}, '[{"n": "1"}]', [{"n": "1"}], True),
    ("enum-of-strings", {"enum": ["1", "2"]}, "1", "1", False),
    ("no-declared-type-falls-back-to-the-guess", {"description": "anything"}, "42", 42, False),
]  # fmt: skip
CASES = [pytest.param(*rule, id=rule[0]) for rule in RULES]
DEFS = {"Count": {"type": "integer"}, "Text": {"type": "string"}}


def tools_for(schema: dict[str, Any]) -> ToolSchemas:
    parameters = {"type": "object", "properties": {"v": schema}, "required": ["v"], "$defs": DEFS}
    return ToolSchemas.read([{"type": "function", "function": {"name": "t", "parameters": parameters}}])


def call_text(fmt: str, name: str, value: str) -> str:
    if fmt == "dsml":  # (no `string=`)
        return dsml(invoke(name, ("v", value, None)))
    if fmt == "minimax":
        return m2(m2_invoke(name, v=value))
    if fmt == "seed":  # (no `string=`: the value is raw text)
        return f'<seed:tool_call><function name="{name}"><parameter name="v">{value}</parameter></function></seed:tool_call>'  # noqa: E501
    if fmt == "kimi-k3":  # (no `type=`)
        return (f'<|open|>tools<|sep|><|open|>call tool="{name}" index="1"<|sep|>'
                f'<|open|>argument key="v"<|sep|>{value}<|close|>argument<|sep|><|close|>call<|sep|>'
                "<|close|>tools<|sep|>")  # fmt: skip
    if fmt == "functiongemma":
        return f"<start_function_call>call:{name}{{v:<escape>{value}<escape>}}<end_function_call>"
    if fmt == "qwen3-coder":
        return f"<tool_call>\n<function={name}>\n<parameter=v>\n{value}\n</parameter>\n</function>\n</tool_call>"  # noqa: E501
    return f"<tool_call>{name}\n<arg_key>v</arg_key>\n<arg_value>{value}</arg_value>\n</tool_call>"


@pytest.mark.parametrize("fmt", ["qwen3-coder", "glm", "seed", "kimi-k3", "dsml", "minimax", "functiongemma"])
@pytest.mark.parametrize(("rule", "schema", "raw", "expected", "told"), CASES)
def test_a_raw_value_takes_its_declared_type(fmt: str, rule: str, schema: dict[str, Any], raw: str,
                                             expected: Any, told: bool) -> None:  # fmt: skip
    tools, text = tools_for(schema), call_text(fmt, "t", raw)
    if fmt == "minimax" and rule == "string-keeps-spacing":
        expected = raw.strip()  # (MiniMax's values are trimmed by the format itself)
    out = chunkings(lambda: FORMATS[fmt](tools=tools), text)
    [(_, name, arguments)] = calls(out)
    assert (name, json.loads(arguments)) == ("t", {"v": expected})
    assert (CHECKED in codes(out)) == told
    streamed, _, _ = checked(feed_pieces(FORMATS[fmt](stream_arguments=True, tools=tools), list(text)))
    assert streamed == calls(out)  # streamed member by member, typed the same


@pytest.mark.parametrize(("rule", "schema", "raw", "expected", "told"), CASES)
def test_the_typing_function_other_syntaxes_call(rule: str, schema: dict[str, Any], raw: str,
                                                 expected: Any, told: bool) -> None:  # fmt: skip
    parameters = tools_for(schema).parameters("t")
    assert parameters is not None
    assert json.loads(value_json(raw, parameters.property("v"), parameters)) == expected


def test_without_a_schema_the_guess_stays() -> None:
    for raw, expected in (("42", 42), ("true", True), ("x y", "x y"), ("[1]", [1])):
        assert json.loads(value_json(raw)) == expected
        out = feed_pieces(FORMATS["qwen3-coder"](), [call_text("qwen3-coder", "t", raw)])
        assert json.loads(calls(out)[0][2]) == {"v": expected}


@pytest.mark.parametrize(("written", "taken"), [("functions.Bash", "Bash"), ("default_api.read", "read"),
                                                ("bash", "Bash"), ("Read", "read")])  # fmt: skip
def test_a_loose_name_takes_the_one_tool_it_matches(written: str, taken: str) -> None:
    tools = ToolSchemas.read({"tools": [{"name": "Bash", "input_schema": {}}, {"name": "read"}]})
    for fmt in ("qwen3-coder", "glm"):
        for streams in (False, True):
            parser = FORMATS[fmt](stream_arguments=streams, tools=tools)
            out = feed_pieces(parser, [call_text(fmt, written, "x")])
            assert [c[1] for c in calls(out)] == [taken]
            assert CHECKED in codes(out)
    kimi = f"<|tool_call_begin|>functions.{written}:0<|tool_call_argument_begin|>{{}}<|tool_call_end|>"
    out = feed_pieces(FORMATS["kimi"](tools=tools), [kimi])
    assert [c.name for c in out if isinstance(c, ToolCall)] == [taken]


def test_an_unknown_or_ambiguous_name_stays_as_written_with_a_notice() -> None:
    tools = ToolSchemas.read([{"name": "Read", "input_schema": {}}, {"name": "read", "input_schema": {}}])
    for fmt, written in (("kimi-k3", "write"), ("glm", "READ"), ("kimi-k3", "READ")):
        out = feed_pieces(FORMATS[fmt](tools=tools), [call_text(fmt, written, "x")])
        assert [c[1] for c in calls(out)] == [written]
        assert any(isinstance(p, Notice) and "matches no declared tool" in p.message for p in out)


@pytest.mark.parametrize("streams", [False, True])
@pytest.mark.parametrize("fmt", ["glm", "qwen3-coder"])
def test_a_tag_call_that_names_no_declared_tool_is_text(fmt: str, streams: bool) -> None:
    """A syntax prose can contain (`PROSE`) makes no call of an undeclared name: its text stays."""
    tools = ToolSchemas.read([{"name": "read", "input_schema": {}}])
    text = "See " + call_text(fmt, "write", "x") + " here."
    out = feed_pieces(FORMATS[fmt](stream_arguments=streams, tools=tools), list(text))
    assert (calls(out), texts(out)) == ([], text)
    assert "undeclared-tool" in codes(out)


def test_arguments_are_checked_never_changed() -> None:
    tools = ToolSchemas.read([{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n", "m"]}}}])  # fmt: skip
    body = '<tool_call>{"name": "f", "arguments": {"n": "one"}}</tool_call>'
    out = feed_pieces(FORMATS["hermes"](tools=tools), [body])
    assert calls(out) == [(None, "f", '{"n": "one"}')]
    messages = [p.message for p in out if isinstance(p, Notice) and p.code == CHECKED]
    assert messages == [
        "call f: arguments lacks the required 'm'",
        "call f: arguments.n is string, the schema says integer",
    ]


def test_a_tool_list_never_decides_whether_text_is_a_call() -> None:
    tools = ToolSchemas.read([{"name": "t", "input_schema": {}}])
    prose = "Use <tool_call> t and </tool_call> like that"
    assert feed_pieces(FORMATS["glm"](tools=tools), [prose]) == feed_pieces(FORMATS["glm"](), [prose])


def decoded_guess(value: str) -> str:
    """The schema-less guess by a decode of every value (`guessed` before its first-character check)."""
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError:
        parsed = value
    return orjson.dumps(value).decode() if isinstance(parsed, str) else value.strip()


def test_a_guess_skips_the_decode_only_where_it_fails() -> None:
    """`guessed` decodes only a value whose first character past spacing can begin JSON: the same result
    as decoding every value, for values led by every ASCII character and a few others, spaced or not."""
    bodies = ["", "1", "x", "rue", "ull", "alse", " 2}", '"a"', "]", "e5", "aN"]
    heads = [chr(c) for c in range(128)] + ["é", "\u2028", "\ufeff", "\uff11"]
    values = [space + head + body for space in ("", " ", "\n\t\r ") for head in heads for body in bodies]
    values += ["", " ", "true", " null ", "-1.5e3", '{"a": [1]}', "NaN", "Infinity", "'x'", "tru", "[1,"]
    assert [guessed(value) for value in values] == [decoded_guess(value) for value in values]
