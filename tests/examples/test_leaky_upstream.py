"""The fake upstream in examples/: what it answers, and that it stops by itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from examples.leaky_upstream import answer, kimi_tokens, leaked_call

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "leaky_upstream.py"
SHELL = {"type": "function", "function": {"name": "run_shell_command",
                                          "parameters": {"properties": {"description": {}, "command": {}}}}}
SEARCH = {"type": "function", "function": {"name": "tool_search", "parameters": {"properties": {"q": {}}}}}


def test_it_calls_the_offered_shell_tool_with_the_command_after_the_dollar() -> None:
    request = {"messages": [{"role": "user", "content": "hello\nplease run $ ls -la /tmp"}],
               "tools": [SEARCH, SHELL]}
    call = leaked_call("run_shell_command", {"command": "ls -la /tmp"}, 0)
    assert answer(request) == " I will run it. " + call


def test_without_a_shell_tool_it_calls_the_first_with_its_first_parameter() -> None:
    request = {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}], "tools": [SEARCH]}
    assert answer(request).endswith(leaked_call("tool_search", {"q": "ls"}, 0))


def test_after_a_tool_result_it_answers_text_and_counts_calls_like_kimi() -> None:
    call = {"id": "functions.bash:0", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    history = [{"role": "user", "content": "$ ls"}, {"role": "assistant", "tool_calls": [call]}]
    result = {"role": "tool", "content": "a.txt\n"}
    assert answer({"messages": [*history, result]}) == "The tool returned: a.txt"
    assert "functions.bash:1" in answer({"messages": [*history, {"role": "user", "content": "$ pwd"}]})


def test_tokens_come_one_marker_at_a_time() -> None:
    text = answer({"messages": [{"role": "user", "content": "$ ls"}]})
    tokens = kimi_tokens(text)
    assert "".join(tokens) == text
    assert "<|tool_call_begin|>" in tokens and "<|tool_call_argument_begin|>" in tokens


def test_the_script_announces_its_port_and_stops_by_itself() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT), "--port", "0", "--lifetime", "0.3"],
                            capture_output=True, timeout=30, check=False)
    assert result.returncode == 0
    assert result.stdout.startswith(b"leaky upstream on http://127.0.0.1:")
