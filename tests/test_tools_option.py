"""`--tools FILE` on the filter and `replay`, and the `.tools` sidecar `replay`/`diff` read."""

from __future__ import annotations

from pathlib import Path

import orjson

from sse_rewrite import goldens
from tests.chunking import token_stream
from tests.cli_runs import invoke
from tests.fuzzing import assemble

WRITE = {"name": "Write", "description": "Write a file", "input_schema": {
    "type": "object", "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
    "required": ["file_path", "content"]}}  # fmt: skip
LEAK = ("<tool_call>\n<function=Write>\n<parameter=file_path>\n/tmp/a\n</parameter>\n"
        "<parameter=content>\n42\n</parameter>\n</function>\n</tool_call>")
STREAM = token_stream([LEAK[i : i + 4] for i in range(0, len(LEAK), 4)], model="qwen/qwen3-coder-480b")


def arguments(output: bytes) -> object:
    _, calls = assemble(output)
    return [(name, orjson.loads(args)) for name, args in calls]


def test_the_filter_types_values_by_the_tools_of_a_request_body_or_an_array(tmp_path: Path) -> None:
    assert arguments(invoke([], STREAM).stdout_bytes) == [("Write", {"file_path": "/tmp/a", "content": 42})]
    openai_tools = [{"type": "function", "function": {"name": "Write", "parameters": WRITE["input_schema"]}}]
    for value in ({"model": "m", "messages": [], "tools": openai_tools}, [WRITE]):
        (tmp_path / "tools.json").write_bytes(orjson.dumps(value))
        result = invoke(["--tools", str(tmp_path / "tools.json")], STREAM)
        assert result.exit_code == 0, result.output
        assert arguments(result.stdout_bytes) == [("Write", {"file_path": "/tmp/a", "content": "42"})]


def test_a_tools_file_that_is_no_tools_is_a_usage_error(tmp_path: Path) -> None:
    for data in (b"{not json", b'{"model": "m"}'):
        (tmp_path / "tools.json").write_bytes(data)
        result = invoke(["--tools", str(tmp_path / "tools.json")], STREAM)
        assert result.exit_code == 2
        assert "tools.json" in result.stderr and "Traceback" not in result.stderr


def test_replay_and_diff_read_the_tools_sidecar(tmp_path: Path) -> None:
    capture = tmp_path / "write.sse"
    capture.write_bytes(STREAM)
    goldens.tools_path(capture).write_bytes(orjson.dumps({"tools": [WRITE]}))
    assert invoke(["diff", "--update", str(capture)]).exit_code == 0
    assert arguments(goldens.golden_path(capture).read_bytes())[0][1]["content"] == "42"
    assert invoke(["diff", str(capture)]).exit_code == 0
    assert arguments(invoke(["replay", str(capture)]).stdout_bytes)[0][1]["content"] == "42"
    (tmp_path / "none.json").write_bytes(b"[]")  # options given on the command line win
    replayed = invoke(["replay", "--tools", str(tmp_path / "none.json"), str(capture)]).stdout_bytes
    assert arguments(replayed)[0][1]["content"] == 42


def test_replay_json_names_the_tools_it_read(tmp_path: Path) -> None:
    capture = tmp_path / "write.sse"
    capture.write_bytes(STREAM)
    goldens.tools_path(capture).write_bytes(orjson.dumps({"tools": [WRITE]}))
    result = invoke(["replay", "--json", str(capture)])
    assert result.exit_code == 0, result.output
    [view] = orjson.loads(result.stdout_bytes)
    assert view["options"]["tools"] == ["Write"]
    assert view["choices"][0]["tool_calls"][0]["arguments"] == '{"file_path": "/tmp/a", "content": "42"}'
