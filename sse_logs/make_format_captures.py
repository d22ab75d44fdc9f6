"""Write one raw SSE capture per leaked tool-call syntax (deterministic: same bytes every run).

    python sse_logs/make_format_captures.py

Each capture is shaped like an OpenRouter `chat.completion.chunk` stream: a keep-alive
comment, one chunk per few characters of `delta.content` (so markers split mid-way),
a closing chunk with `finish_reason`, a usage-only chunk and `data: [DONE]`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CREATED = 1763900000
TOKEN_SIZES = (3, 1, 4, 2, 5, 2, 3, 6)  # characters per chunk, cycled


def tokens(text: str) -> list[str]:
    """`text` cut into pieces of TOKEN_SIZES characters, in turn."""
    out, pos = [], 0
    for size in itertools.cycle(TOKEN_SIZES):
        if pos >= len(text):
            return out
        out.append(text[pos : pos + size])
        pos += size
    raise AssertionError("unreachable")


def event(chunk: dict[str, Any]) -> str:
    return "data: " + json.dumps(chunk, ensure_ascii=False, separators=(",", ":")) + "\n\n"


def stream(name: str, model: str, deltas: list[dict[str, Any]], finish: str) -> str:
    """The whole capture: envelope per chunk, one choice, finish, usage, DONE."""
    base = {"id": f"gen-{CREATED}-{name}", "object": "chat.completion.chunk", "created": CREATED,
            "model": model, "provider": "Together"}

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason,
                  "native_finish_reason": finish_reason, "logprobs": None}
        return {**base, "choices": [choice]}

    parts = [": OPENROUTER PROCESSING\n\n", event(chunk({"role": "assistant", "content": ""}))]
    parts += [event(chunk({"role": "assistant", **delta})) for delta in deltas]
    parts.append(event(chunk({"role": "assistant", "content": ""}, finish)))
    usage = {"prompt_tokens": 212, "completion_tokens": 48, "total_tokens": 260}
    parts.append(event({**base, "choices": [], "usage": usage}))
    return "".join(parts) + "data: [DONE]\n\n"


def deltas(pieces: list[str], field: str = "content") -> list[dict[str, Any]]:
    """One delta a token, in `field`."""
    return [{field: piece} for piece in pieces]


def content(text: str) -> list[dict[str, Any]]:
    return deltas(tokens(text))


Captures = dict[str, tuple[str, list[dict[str, Any]], str]]
"""A capture's name: its model, deltas and finish reason."""


def write_captures(captures: Captures, sidecars: dict[str, str], make: Callable[..., str] = stream) -> None:
    """Write each capture as `make` streams it, and the `.args` sidecar of those that have options."""
    for name, (model, chunks, finish) in captures.items():
        (HERE / f"{name}.sse").write_text(make(name, model, chunks, finish), encoding="utf-8", newline="")
    for name, args in sidecars.items():
        (HERE / f"{name}.sse.args").write_text(args + "\n")


HERMES = (
    "I'll check both cities.\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>\n'
    '<tool_call>\n{"name": "search", "arguments": {"query": "what does </tool_call> mean? {braces}"}}\n'
    "</tool_call>"
)
QWEN_XML = (
    "Let me write the file.\n\n<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n"
    '</parameter>\n<parameter=content>\ndef main():\n    print("hello, 世界")\n\n\nif __name__ == '
    '"__main__":\n    main()\n</parameter>\n<parameter=overwrite>\ntrue\n</parameter>\n</function>\n'
    "</tool_call>"
)
B, S, E = "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
DEEPSEEK_V3 = (
    "I need the current weather.<｜tool▁calls▁begin｜>"
    f'{B}function{S}get_weather\n```json\n{{"city": "Tokyo"}}\n```{E}\n'
    f'{B}function{S}get_time\n```json\n{{"timezone": "Asia/Tokyo"}}\n```{E}<｜tool▁calls▁end｜>'
)
DEEPSEEK_V31 = (
    "Looking it up.<｜tool▁calls▁begin｜>"
    f'{B}get_weather{S}{{"city": "Berlin", "days": 3}}{E}'
    f'{B}search{S}{{"query": "Berlin events", "filters": {{"free": true}}}}{E}<｜tool▁calls▁end｜>'
)
GLM = (
    "I'll look up the weather.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas"
    "</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>"
)
TEXT = (
    "I will read the file first.\nTOOL: read\nARGUMENTS: {\"filePath\": \"test.txt\"}\n"
    'TOOL: grep\nARGUMENTS: {\n  "pattern": "if (x) { return; }",\n  "path": "src"\n}\n'
)
# A router serving Kimi under a Claude name: the tokens are recognized whatever the id says.
KIMI_AS_CLAUDE = (
    "Let me list the files.<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0"
    '<|tool_call_argument_begin|>{"command": "ls -la"}<|tool_call_end|><|tool_calls_section_end|>'
)
# Qwen3-Coder without its wrapper: a bare function (a parameter left open, a stray closer
# after it), then a `<function=` missing its `>` (text), then a wrapped call.
QWEN_BARE = (
    "Reading it.\n<function=read_file>\n<parameter=path>\nsrc/app.py\n<parameter=limit>\n50\n"
    "</function>\n</tool_call>\nThe tag <function=read_file is cut.\n<tool_call>\n<function=list_dir>\n"
    "<parameter=path>\nsrc\n</parameter>\n</function>\n</tool_call>"
)
# DeepSeek V3.1 tokens under an alias: a call whose call-begin token is missing, and a
# header with no separator (an orphan, dropped) before the last call.
DEEPSEEK_DAMAGED = (
    f'On it.<｜tool▁calls▁begin｜>{B}get_weather{S}{{"city": "Oslo"}}{E}\nget_time{S}{{"tz": "CET"}}{E}'
    f'{B}get_news{B}search{S}{{"q": "Oslo"}}{E}<｜tool▁calls▁end｜> Done.'
)
LEGACY = [
    {"function_call": {"name": "get_weather", "arguments": ""}},
    *({"function_call": {"arguments": piece}} for piece in tokens('{"location": "Boston, MA", "unit": "f"}')),
]

# For `--stream-arguments` (sidecars): a Kimi call writing a file, long enough to stream in parts.
KIMI_WRITE = (
    "Writing the file.<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0"
    '<|tool_call_argument_begin|> {"path": "notes.md", "content": "# Notes\\n\\n- one\\n- two '
    '<|tool_call_end|> in a string\\n"} <|tool_call_end|><|tool_calls_section_end|> Done.'
)
# For `--think`: R1 begins inside its reasoning (the template opened the tag), then answers with a call.
R1_INSIDE = (
    "The user wants Oslo's weather. I should call get_weather.\n</think>\n\nChecking now."
    f'<｜tool▁calls▁begin｜>{B}function{S}get_weather\n```json\n{{"city": "Oslo"}}\n```{E}'
    "<｜tool▁calls▁end｜>"
)
# Qwen3 served without a reasoning parser: tags in content, a Hermes call after them.
QWEN3_THINK = (
    "<think>\nA listing needs ls. Maybe <tool_call> tags are right.\n</think>\n\nListing it.\n"
    '<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call>'
)
# Kimi-Thinking without a reasoning parser: its call leaks inside the think tags.
KIMI_THINKING = (
    "<think>I will list the files first.<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0"
    '<|tool_call_argument_begin|>{"command": "ls"}<|tool_call_end|><|tool_calls_section_end|></think>'
    "Listing."
)

CAPTURES = {
    "hermes-qwen25": ("qwen/qwen-2.5-72b-instruct", content(HERMES), "stop"),
    "qwen3-coder-xml": ("qwen/qwen3-coder", content(QWEN_XML), "stop"),
    "deepseek-v3": ("deepseek/deepseek-chat", content(DEEPSEEK_V3), "stop"),
    "deepseek-v31": ("deepseek/deepseek-chat-v3.1", content(DEEPSEEK_V31), "stop"),
    "glm-45": ("z-ai/glm-4.5", content(GLM), "stop"),
    "text-tool-arguments": ("mistralai/mistral-small-3.2-24b-instruct", content(TEXT), "stop"),
    "legacy-function-call": ("qwen/qwen-2.5-72b-instruct", LEGACY, "function_call"),
    "kimi-relabelled-claude": ("anthropic/claude-sonnet-4", content(KIMI_AS_CLAUDE), "stop"),
    "qwen3-coder-bare-function": ("qwen/qwen3-coder", content(QWEN_BARE), "stop"),
    "deepseek-v31-damaged": ("my-agent", content(DEEPSEEK_DAMAGED), "stop"),
    "kimi-stream-arguments": ("moonshotai/kimi-k2.5", content(KIMI_WRITE), "stop"),
    "anthropic-kimi-stream-arguments": ("moonshotai/kimi-k2.5", content(KIMI_WRITE), "stop"),
    "qwen3-coder-stream-arguments": ("qwen/qwen3-coder", content(QWEN_XML), "stop"),
    "deepseek-r1-think-inside": ("deepseek/deepseek-r1", content(R1_INSIDE), "stop"),
    "qwen3-think-stream-arguments": ("qwen/qwen3-235b-a22b", content(QWEN3_THINK), "stop"),
    "kimi-thinking-think-tags": ("moonshotai/kimi-k2-thinking", content(KIMI_THINKING), "stop"),
    "kimi-thinking-think-off": ("moonshotai/kimi-k2-thinking", content(KIMI_THINKING), "stop"),
}
# Options of the captures that run with some (their `.args` sidecars).
SIDECARS = {
    "kimi-stream-arguments": "--stream-arguments",
    "anthropic-kimi-stream-arguments": "--stream-arguments --to anthropic",
    "qwen3-coder-stream-arguments": "--stream-arguments",
    "qwen3-think-stream-arguments": "--stream-arguments --think on",
    "kimi-thinking-think-off": "--think off",
}


if __name__ == "__main__":
    write_captures(CAPTURES, SIDECARS)
