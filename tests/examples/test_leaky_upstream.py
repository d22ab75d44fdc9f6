"""The fake upstream in examples/: what it answers, and that it stops by itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from examples.leaked_syntaxes import LEAKS, WHOLE_ANSWERS, kimi, tokens
from examples.leaky_upstream import answer, stream_events
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import rewrite_stream
from tests.oracles import openai_final

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "leaky_upstream.py"
SHELL = {"type": "function", "function": {"name": "run_shell_command",
                                          "parameters": {"properties": {"description": {}, "command": {}}}}}
SEARCH = {"type": "function", "function": {"name": "tool_search", "parameters": {"properties": {"q": {}}}}}


def test_it_calls_the_offered_shell_tool_with_the_command_after_the_dollar() -> None:
    request = {"messages": [{"role": "user", "content": "hello\nplease run $ ls -la /tmp"}],
               "tools": [SEARCH, SHELL]}
    call = kimi("run_shell_command", {"command": "ls -la /tmp"}, 0)
    assert answer(request) == " I will run it. " + call


def test_without_a_shell_tool_it_calls_the_first_with_its_first_parameter() -> None:
    request = {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}], "tools": [SEARCH]}
    assert answer(request).endswith(kimi("tool_search", {"q": "ls"}, 0))


def test_of_several_tools_named_it_calls_the_one_named_last() -> None:
    # (Claude Code's last user message holds a reminder naming its tools before the prompt)
    content = [{"type": "text", "text": "<reminder>tool_search is there</reminder>"},
               {"type": "text", "text": "use run_shell_command: $ pwd"}]
    request = {"messages": [{"role": "user", "content": content}], "tools": [SEARCH, SHELL]}
    assert answer(request).endswith(kimi("run_shell_command", {"command": "pwd"}, 0))
    request["tools"] = [SHELL, SEARCH]
    content[1]["text"] = "then tool_search: $ a"
    assert answer(request).endswith(kimi("tool_search", {"q": "a"}, 0))


def test_after_a_tool_result_it_answers_text_and_counts_calls_like_kimi() -> None:
    call = {"id": "functions.bash:0", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    history = [{"role": "user", "content": "$ ls"}, {"role": "assistant", "tool_calls": [call]}]
    result = {"role": "tool", "content": "a.txt\n"}
    assert answer({"messages": [*history, result]}) == "The tool returned: a.txt"
    assert "functions.bash:1" in answer({"messages": [*history, {"role": "user", "content": "$ pwd"}]})


def test_tokens_come_one_marker_at_a_time() -> None:
    text = answer({"messages": [{"role": "user", "content": "$ ls"}]})
    cut = tokens(text)
    assert "".join(cut) == text
    assert "<|tool_call_begin|>" in cut and "<|tool_call_argument_begin|>" in cut


# A model id of each family, as a provider names it.
MODELS = {"kimi": "moonshotai/kimi-k2.5", "dsml": "deepseek/deepseek-v3.2", "harmony": "openai/gpt-oss-120b",
          "qwen3-coder": "qwen/qwen3-coder", "minimax": "minimax/minimax-m2.5",
          "gemma4": "google/gemma-4-31b-it", "mistral": "mistralai/devstral-medium",
          "hunyuan": "tencent/hunyuan-a13b-instruct", "granite": "ibm-granite/granite-3.0-8b-instruct",
          "nemotron": "nvidia/llama-3.3-nemotron-super-49b-v1", "cohere": "cohere/command-a",
          "olmo": "allenai/olmo-3-7b-instruct", "glm": "gpt-4o", "kimi-k3-sep": "moonshotai/kimi-k3",
          "llama": "gpt-4o", "harmony-stripped": "gpt-4o", "kimi-stripped": "gpt-4o"}
"""(GLM, Llama's whole-answer JSON, stripped harmony's call and stripped Kimi under a gateway's alias:
read because the request declares the tool they call.)"""


@pytest.mark.parametrize("syntax", list(LEAKS))  # MiniMax M2 ids start inside the reasoning
def test_every_syntax_it_leaks_comes_out_as_one_tool_call(syntax: str) -> None:
    request = {"messages": [{"role": "user", "content": "please run $ ls -la"}], "tools": [SHELL]}
    body = b"".join(stream_events("gen-1", MODELS[syntax], answer(request, syntax=syntax)))
    out = rewrite_stream(body, tools=ToolSchemas.of_request(request))  # (as serve reads them)
    message = openai_final(out).choices[0].message
    assert [(c.function.name, c.function.arguments) for c in message.tool_calls] == [
        ("run_shell_command", '{"command": "ls -la"}')]
    deltas = [orjson.loads(line[6:])["choices"] for line in out.split(b"\n") if line.startswith(b"data: {")]
    said = "".join(d[0]["delta"].get(f) or "" for d in deltas if d for f in ("content", "reasoning_content"))
    # (harmony's analysis: reasoning; under the alias, stripped harmony's text before its call: content)
    kept = {"harmony": "Need to use function run_shell_command.",
            "harmony-stripped": "analysisNeed to use function run_shell_command.assistantcommentary to"}
    analysis = kept.get(syntax, "")
    # MiniMax M2's prompt opens <think> and no </think> came: its answer, sent as reasoning, is sent
    # again in content at the finish (docs/behaviour.md, "Think tags")
    again = "I will run it." if syntax == "minimax" else ""
    lead = "" if syntax in WHOLE_ANSWERS else "I will run it."
    assert said.split() == f"{lead} {analysis} {again}".split()


def test_the_script_announces_its_port_and_stops_by_itself() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT), "--port", "0", "--lifetime", "0.3"],
                            capture_output=True, timeout=30, check=False)
    assert result.returncode == 0
    assert result.stdout.startswith(b"leaky upstream on http://127.0.0.1:")
