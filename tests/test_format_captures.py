"""The per-format captures in `sse_logs/` rewrite to the expected calls (openai SDK as oracle)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.chunking import rewrite_stream
from tests.oracles import openai_final

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

SSE_LOGS = Path(__file__).parent.parent / "sse_logs"

EXPECTED = {
    "hermes-qwen25": ["get_weather", "search"],
    "qwen3-coder-xml": ["write_file"],
    "deepseek-v3": ["get_weather", "get_time"],
    "deepseek-v31": ["get_weather", "search"],
    "glm-45": ["get_weather"],
    "text-tool-arguments": ["read", "grep"],
    "legacy-function-call": ["get_weather"],
}


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_capture_becomes_the_expected_tool_calls(stem: str) -> None:
    capture = (SSE_LOGS / f"{stem}.sse").read_bytes()
    body = rewrite_stream(capture, format="text" if stem.startswith("text-") else "auto")
    choice = openai_final(body, chunk=11).choices[0]
    assert choice.finish_reason == "tool_calls"
    assert [call.function.name for call in choice.message.tool_calls] == EXPECTED[stem]
    for call in choice.message.tool_calls:
        orjson.loads(call.function.arguments)
    assert "tool_call" not in (choice.message.content or "")
    assert "TOOL:" not in (choice.message.content or "")
