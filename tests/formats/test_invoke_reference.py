"""Reference behaviour of the invoke family (docs/behaviour.md "Invoke/parameter XML"): DeepSeek
V4's unwrapping of a lone `arguments`/`input` parameter, whole, at every cut and streamed; the
bodies of MiniMax's `[TOOL_CALL]` wrapper as the leaks write them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.machines.hash_calls import read_hash_call
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import calls, every_cut, feed_pieces
from tests.formats.invoke_text import dsml, invoke
from tests.formats.streamed import checked

PROPERTIES = {"path": {"type": "string"}, "n": {"type": "integer"}}
OBJECT = '{"path": "a.py", "n": 2}'
# (case, the tool's properties or None for no tools, the invoke's parameters, the arguments expected)
UNWRAP: list[tuple[str, dict[str, Any] | None, list[tuple[str, str, str | None]], Any]] = [
    ("arguments-object", PROPERTIES, [("arguments", OBJECT, "false")], {"path": "a.py", "n": 2}),
    ("input-string-holding-json", PROPERTIES, [("input", f" {OBJECT}\n", "true")], {"path": "a.py", "n": 2}),
    ("untyped-arguments", PROPERTIES, [("arguments", '{"path": "b"}', None)], {"path": "b"}),
    ("undeclared-key-inside-stays", PROPERTIES, [("arguments", '{"x": 1}', "false")],
     {"arguments": {"x": 1}}),
    ("declared-wrapper-stays", {"arguments": {"type": "object"}}, [("arguments", '{"x": 1}', "false")],
     {"arguments": {"x": 1}}),
    ("no-tools-stays", None, [("arguments", OBJECT, "false")], {"arguments": {"path": "a.py", "n": 2}}),
    ("not-alone-stays", PROPERTIES, [("arguments", OBJECT, "false"), ("n", "1", "false")],
     {"arguments": {"path": "a.py", "n": 2}, "n": 1}),
    ("string-not-json-stays", PROPERTIES, [("input", "a.py", "true")], {"input": "a.py"}),
    ("other-name-stays", PROPERTIES, [("args", OBJECT, "false")], {"args": {"path": "a.py", "n": 2}}),
]  # fmt: skip


@pytest.mark.parametrize(("case", "properties", "parameters", "expected"), UNWRAP, ids=[u[0] for u in UNWRAP])
def test_a_lone_wrapper_parameter_is_unwrapped_as_v4_does(
    case: str, properties: dict[str, Any] | None, parameters: list[tuple[str, str, str | None]], expected: Any
) -> None:
    schema = {"type": "object", "properties": properties}
    tools = None if properties is None else ToolSchemas.read([{"name": "t", "input_schema": schema}])
    text = dsml(invoke("t", *parameters))
    out = every_cut(lambda: FORMATS["dsml"](tools=tools), text)
    [(_, name, arguments)] = calls(out)
    assert (name, json.loads(arguments)) == ("t", expected)
    if case == "arguments-object":
        assert arguments == OBJECT  # (as written)
    streamed, _, _ = checked(feed_pieces(FORMATS["dsml"](stream_arguments=True, tools=tools), list(text)))
    assert streamed == calls(out)


# (body of a `[TOOL_CALL]` wrapper as MiniMax M2.x leaks it, the call it is or None)
HASH_BODIES: list[tuple[str, tuple[str, Any] | None]] = [
    ('\n{tool => "shell", args => {\n  --command "uname -a"\n}}\n', ("shell", {"command": "uname -a"})),
    ('{tool => "search", args => { --pattern: "**/*.ts" }}', ("search", {"pattern": "**/*.ts"})),
    ('{tool => "search" args => {"query":"NET stock price"}}', ("search", {"query": "NET stock price"})),
    ('{tool => "recall", args => { query => "topic", k => 3 }}', ("recall", {"query": "topic", "k": 3})),
    ('{tool => "w", args => { --text "a\\tb \\"q\\"" --raw "C:\\dir" }}',
     ("w", {"text": 'a\tb "q"', "raw": "C:\\dir"})),
    ('{tool => "skill", args => {}}', ("skill", {})),
    ('{tool => "skill"}', ("skill", {})),
    ('{tool => "w", args => { hello world }}', None),
    ('{tool => "w", args => { --a "unclosed }}', None),
    ('{name => "w"}', None),
    ("plain words", None),
]  # fmt: skip


@pytest.mark.parametrize(("body", "expected"), HASH_BODIES)
def test_a_hash_call_body_reads_as_the_leaks_write_it(body: str, expected: tuple[str, Any] | None) -> None:
    read = read_hash_call(body)
    assert (read if read is None else (read[0], json.loads(read[1]))) == expected


def test_a_hash_call_bare_value_takes_its_declared_type() -> None:
    tools = ToolSchemas.read([{"name": "t", "input_schema": {"properties": {"n": {"type": "string"}}}}])
    text = '[TOOL_CALL]{tool => "t", args => { --n 42 --m 42 }}[/TOOL_CALL]'
    out = every_cut(lambda: FORMATS["minimax"](tools=tools), text)
    assert [(c[1], json.loads(c[2])) for c in calls(out)] == [("t", {"n": "42", "m": 42})]
