"""The marker-then-list captures in `sse_logs/` rewrite to the expected calls (openai SDK as oracle)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.chunking import rewrite_stream
from tests.oracles import openai_final
from tests.rewrite_runs import chunks

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

SSE_LOGS = Path(__file__).parent.parent.parent / "sse_logs"
MARKERS = ("[TOOL_CALLS]", "[ARGS]", "<|python_tag|>", "<|python_start|>", "<|tool_call", "<tool_call|>",
           "call:", "[THINK]", "<|channel>", "<tool_calls>", "<TOOLCALL>", "<|START_ACTION|>", "Action:",
           "```", "functools", "<|tools_prefix|>", "<function_calls>", "<start_function_call>", "<escape>",
           "<function", "<parameter", "<|message_model|>", "<|content", "<think>", "<response>")

# capture: (calls' names, content kept, field the text is in)
EXPECTED = {
    "mistral-v11-calls": (["bash", "read_file"], "I'll list the files and read the README.", "content"),
    "mistral-v11-under-alias": (["bash", "read_file"], "I'll list the files and read the README.", "content"),
    "mistral-pre-v11-array": (["add", "multiply"], "Let me add them.", "content"),
    "llama3-python-tag": (["get_weather", "get_time"], "", "content"),
    "llama3-bare-json": (["search"], "", "content"),
    "llama4-pythonic": (["get_weather", "get_time"], "", "content"),
    "lfm2-echo": (["get_weather"], "Checking the weather. Done.", "content"),
    "lfm2-in-reasoning": (["get_weather"], "Checking the weather. Done.", "reasoning"),
    "gemma4-tool-calls": (["get_weather", "search"], "", "content"),
    "gemma4-stripped": (["get_weather"], "Let me check.", "content"),
    "magistral-think": (["bash"], "Listing the files.", "content"),
    "gemma4-thought": (["get_weather"], "", "content"),
    "magistral-think-stripped": (["bash"], "\n", "content"),
    "devstral-llama-cpp-envelope": (["bash"], "", "content"),
    "lfm2-stripped": (["get_weather"], "", "content"),
    "minimax-m1-tool-calls": (["get_weather", "get_weather"], "I'll check both cities.\n", "content"),
    # FORMATS-2.md §C and §F
    "granite-30-tool-call": (["get_weather", "get_time"], "I'll look both up.", "content"),
    "granite-30-under-alias": (["get_weather", "get_time"], "I'll look both up.", "content"),
    "granite-31-tool-call": (["search"], "\nSearching now.", "content"),
    "jamba-tool-calls": (["get_weather"], "Checking the forecast.\n", "content"),
    "apriel-tool-calls": (["read_file", "list_dir"], "", "content"),
    "hunyuan-a13b-tool-calls": (["get_weather"], "", "content"),
    "nemotron-toolcall": (["get_weather", "get_time"], "", "content"),
    "cohere-start-action": (["web_search"], "I will search for that.", "content"),
    "command-r-plus-action": (["get_weather"], "Plan: I will look up the weather.\n", "content"),
    "phi4-mini-functools": (["sum_numbers"], "", "content"),
    "firefunction-functools": (["get_stock_price"], " ", "content"),
    "apertus-tools-prefix": (["get_weather", "get_time"], "Let me check.", "content"),
    "xlam-bare-list": (["get_weather"], "", "content"),
    "xlam-fenced-list": (["search_hotels"], "Here you go:\n\nI'll report back.", "content"),
    "olmo3-function-calls": (["get_weather", "get_time"], "Let me check both.\n", "content"),
    "llama32-pythonic": (["get_weather", "get_time"], "", "content"),
    "functiongemma-call": (["set_alarm"], "", "content"),
    "functiongemma-stream-arguments": (["set_alarm"], "", "content"),
    # FORMATS-2.md §B, and Granite 3.3's lines after its reasoning
    "granite-33-call-lines": (["get_weather", "get_time"], "", "content"),
    "functionary-v31-both-bodies": (["get_weather", "get_time"], "Checking both.\n\n", "content"),
    "granite-20b-function-call": (["get_weather", "get_time"], "Looking it up.  ", "content"),
    "gigachat31-function-call": (["get_weather"], "Сейчас узнаю.", "content"),
    "inkling-blocks": (["get_weather"], "Checking Lisbon.", "content"),
    "gigachat3-role-header": (["get_time"], "", "content"),
    "longcat-next-function-calls": (["get_weather", "get_time"], "Let me check both.\n", "content"),
}
THOUGHT = {
    "magistral-think": "The user wants the files listed. I'll call bash with ls.",
    "gemma4-thought": "Paris weather: call get_weather for two days.",
    "magistral-think-stripped": "The user wants the files listed. I'll call bash with ls.",
    # (Command A reasoning ids start inside <|START_THINKING|>: the text before the call is reasoning)
    "cohere-start-action": "I will search for that.",
    "granite-33-call-lines": "Two lookups: the weather, then the time.",
    "inkling-blocks": "Need the weather first.",
}
"""The reasoning a capture's content holds (it goes to `reasoning_content`)."""


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_capture_becomes_the_expected_tool_calls(stem: str) -> None:
    names, kept, field = EXPECTED[stem]
    body = rewrite_stream((SSE_LOGS / f"{stem}.sse").read_bytes())
    choice = openai_final(body, chunk=11).choices[0]
    assert choice.finish_reason == "tool_calls"
    assert [call.function.name for call in choice.message.tool_calls] == names
    for call in choice.message.tool_calls:
        orjson.loads(call.function.arguments)
    text = "".join(ch["delta"].get(field) or "" for c in chunks(body) for ch in c["choices"])
    assert text == kept
    assert not any(marker in text for marker in MARKERS)
    thought = "".join(ch["delta"].get("reasoning_content") or "" for c in chunks(body) for ch in c["choices"])
    assert thought == THOUGHT.get(stem, "")
