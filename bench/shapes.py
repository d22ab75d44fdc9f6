"""The throughput shapes (`SHAPES`): where a stream's leaked syntax sits and which it is.

Each shape is one agent turn's tokens in one syntax, in the envelope a real provider sends
it (`streams.py` makes the events and repeats a turn's cycle to any size), tool-heavy or,
with the same envelope and amount of text, without any syntax.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import orjson
from streams import MODEL, PROSE, SCRIPT, event, token_event, tokens, tool_turn_tokens

HERMES_MODEL = "nousresearch/hermes-4-70b"
DEEPSEEK_MODEL = "deepseek/deepseek-chat-v3.1"
DSML_MODEL = "deepseek/deepseek-chat"  # (DeepSeek's API serves V3.2/V4 so; no --think for it)


def openrouter_reasoning_event(token: str) -> bytes:
    """A reasoning token as OpenRouter sends Kimi K2.5's: `reasoning`, mirrored in `reasoning_details`."""
    detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
    return event({"content": "", "role": "assistant", "reasoning": token, "reasoning_details": [detail]})


def compat_reasoning_event(token: str) -> bytes:
    """A reasoning token as an OpenAI-compatible host sends it: `reasoning_content` (and its
    `reasoning_details` mirror), JSON spaced the way Python's json module writes it."""
    detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
    delta = {"content": "", "role": "assistant", "reasoning_details": [detail], "reasoning_content": token}
    chunk = {
        "id": "gen-1773932889-bench",
        "object": "chat.completion.chunk",
        "created": 1773932889,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": None, "native_finish_reason": None}],
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def model_event(model: str) -> Callable[[str], bytes]:
    """Content token events of `model` in the OpenRouter envelope."""
    def make(token: str) -> bytes:
        chunk = {
            "id": "gen-1773932889-bench",
            "object": "chat.completion.chunk",
            "created": 1773932889,
            "model": model,
            "provider": "Chutes",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": token},
                         "finish_reason": None, "native_finish_reason": None}],
        }
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    return make


def model_reasoning_event(model: str) -> Callable[[str], bytes]:
    """Reasoning token events of `model` as a host that splits the reasoning sends them: in
    `reasoning_content`, beside an empty `content` (under an id whose prompt opens `<think>`)."""
    def make(token: str) -> bytes:
        delta = {"role": "assistant", "content": "", "reasoning_content": token}
        chunk = {
            "id": "gen-1773932889-bench",
            "object": "chat.completion.chunk",
            "created": 1773932889,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        }
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    return make


def hermes_turn_tokens() -> list[str]:
    """One agent turn in Hermes tags: prose, then two `<tool_call>` JSON bodies, one per token."""
    bash = orjson.dumps({"name": "bash", "arguments": {"command": SCRIPT, "timeout": 120}}).decode()
    read = orjson.dumps({"name": "read_file", "arguments": {"path": "src/parser/stream.py"}}).decode()
    return [*tokens(PROSE), "<tool_call>", "\n", *tokens(bash), "\n", "</tool_call>",
            "<tool_call>", "\n", *tokens(read), "\n", "</tool_call>"]


def deepseek_turn_tokens() -> list[str]:
    """One agent turn in DeepSeek V3.1 tokens: prose, then a section with two calls."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()
    return [*tokens(PROSE), "<｜tool▁calls▁begin｜>",
            "<｜tool▁call▁begin｜>", "bash", "<｜tool▁sep｜>", *tokens(bash), "<｜tool▁call▁end｜>",
            "<｜tool▁call▁begin｜>", "read", "_file", "<｜tool▁sep｜>", *tokens(read), "<｜tool▁call▁end｜>",
            "<｜tool▁calls▁end｜>"]


QWEN_MODEL = "qwen/qwen3-coder"


def qwen_turn_tokens() -> list[str]:
    """One agent turn in Qwen3-Coder XML: prose, then a call writing 2 KB, a value token per chunk."""
    content = ((SCRIPT + "\n") * 9)[:2048]
    out = [*tokens(PROSE), "<tool_call>", "\n", "<function=", "write_file", ">", "\n"]
    for key, value in (("path", "src/parser/stream.py"), ("content", content)):
        out += ["<parameter=", key, ">", "\n", *tokens(value), "\n", "</parameter>", "\n"]
    return [*out, "</function>", "\n", "</tool_call>"]


SEED_MODEL = "bytedance-seed/seed-oss-36b-instruct"


def seed_turn_tokens() -> list[str]:
    """One agent turn in Seed-OSS tags: the Qwen3-Coder turn's call inside `<seed:tool_call>`."""
    turn = qwen_turn_tokens()
    return [{"<tool_call>": "<seed:tool_call>", "</tool_call>": "</seed:tool_call>"}.get(t, t) for t in turn]


GPT_OSS_MODEL = "openai/gpt-oss-120b"


def harmony_turn_tokens() -> list[str]:
    """One agent turn in gpt-oss harmony: reasoning on the analysis channel, then two calls."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()

    def call(name: str, arguments: str) -> list[str]:
        return ["<|start|>", "assistant", "<|channel|>", "commentary", " to", "=functions", f".{name}",
                " <|constrain|>", "json", "<|message|>", *tokens(arguments), "<|call|>"]

    return ["<|channel|>", "analysis", "<|message|>", *tokens(PROSE), "<|end|>", *call("bash", bash),
            *call("read_file", read)]


def stripped_harmony_turn_tokens() -> list[str]:
    """One agent turn in gpt-oss harmony with its tokens stripped: `analysis` glued to the reasoning
    (a later turn's is reasoning text), then two calls glued to it."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()

    def call(name: str, arguments: str) -> list[str]:
        return ["assistant", "commentary", " to", "=functions", f".{name}", " json", *tokens(arguments)]

    return ["analysis", *tokens(PROSE), *call("bash", bash), *call("read_file", read)]


LLAMA_MODEL = "meta-llama/llama-3.3-70b-instruct"


def llama_turn_tokens() -> list[str]:
    """One agent turn in Llama 3 tokens: prose, then `<|python_tag|>` and two `{"name": …, "parameters": …}`
    calls joined by `; `."""
    bash = orjson.dumps({"name": "bash", "parameters": {"command": SCRIPT, "timeout": 120}}).decode()
    read = orjson.dumps({"name": "read_file", "parameters": {"path": "src/parser/stream.py"}}).decode()
    return [*tokens(PROSE), "<|python_tag|>", *tokens(bash), ";", " ", *tokens(read), "\n\n"]


def stripped_kimi_turn_tokens() -> list[str]:
    """One agent turn in Kimi K2 with its tokens stripped: prose, then two calls glued to it."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()
    return [*tokens(PROSE), "functions", ".bash", ":1", *tokens(bash), "functions", ".read_file", ":2",
            *tokens(read)]


def dsml_turn_tokens() -> list[str]:
    """One agent turn in DeepSeek V4 DSML: prose, then a block of two invokes, one tag word per token."""
    bar = "｜DSML｜"

    def parameter(name: str, typed: str, value: list[str]) -> list[str]:
        return [f"<{bar}parameter", " name", '="', name, '"', " string", '="', typed, '">', *value,
                f"</{bar}parameter>", "\n"]

    def invoke(name: str, *parameters: list[str]) -> list[str]:
        body = [token for tokens_ in parameters for token in tokens_]
        return [f"<{bar}invoke", " name", '="', name, '">', "\n", *body, f"</{bar}invoke>", "\n"]

    command = parameter("command", "true", tokens(SCRIPT))
    bash = invoke("bash", command, parameter("timeout", "false", ["120"]))
    path = parameter("path", "true", tokens("src/parser/stream.py"))
    read = invoke("read_file", path, parameter("limit", "false", ["200"]))
    return [*tokens(PROSE), f"<{bar}tool_calls>", "\n", *bash, *read, f"</{bar}tool_calls>"]


K3_MODEL = "moonshotai/kimi-k3"


def k3_turn_tokens() -> list[str]:
    """One agent turn in Kimi K3 XTML: prose, then a section of two calls, a special token or a
    value token per chunk."""

    def argument(key: str, typed: str, value: list[str]) -> list[str]:
        return ["<|open|>", "argument", " key", '="', key, '"', " type", '="', typed, '"', "<|sep|>", *value,
                "<|close|>", "argument", "<|sep|>"]

    def call(name: str, index: str, *arguments: list[str]) -> list[str]:
        body = [token for tokens_ in arguments for token in tokens_]
        return ["<|open|>", "call", " tool", '="', name, '"', " index", '="', index, '"', "<|sep|>", *body,
                "<|close|>", "call", "<|sep|>"]

    bash = call("bash", "1", argument("command", "string", tokens(SCRIPT)),
                argument("timeout", "integer", ["120"]))
    read = call("read_file", "2", argument("path", "string", tokens("src/parser/stream.py")),
                argument("limit", "integer", ["200"]))
    return [*tokens(PROSE), "<|open|>", "tools", "<|sep|>", *bash, *read, "<|close|>", "tools", "<|sep|>"]


MISTRAL_MODEL = "mistralai/devstral-2512"


def mistral_turn_tokens() -> list[str]:
    """One agent turn in Mistral v11 tokens: prose, then two `[TOOL_CALLS]NAME[ARGS]{…}` calls."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()
    return [*tokens(PROSE), "[TOOL_CALLS]", "bash", "[ARGS]", *tokens(bash),
            "[TOOL_CALLS]", "read", "_file", "[ARGS]", *tokens(read)]


MINIMAX_MODEL = "minimax/minimax-m2.1"
GLM_MODEL = "z-ai/glm-4.7"
QWEN_THINKING_MODEL = "qwen/qwen3-235b-a22b-thinking-2507"
R1_MODEL = "deepseek/deepseek-r1-0528"
REASONING = (
    "The test fails on a cut token; the parser must hold a marker's start until it knows. I should read "
    "the traceback, then the feed loop, and change as little as I can.\n"
)


def minimax_turn_tokens() -> list[str]:
    """One agent turn in MiniMax M2: prose, then a `<minimax:tool_call>` block of two invokes."""
    def invoke(name: str, *parameters: tuple[str, str]) -> list[str]:
        out = ["<invoke", " name", '="', name, '">', "\n"]
        for key, value in parameters:
            out += ["<parameter", " name", '="', key, '">', *tokens(value), "</parameter>", "\n"]
        return [*out, "</invoke>", "\n"]

    bash = invoke("bash", ("command", SCRIPT), ("timeout", "120"))
    read = invoke("read_file", ("path", "src/parser/stream.py"))
    return [*tokens(PROSE), "<minimax:tool_call>", "\n", *bash, *read, "</minimax:tool_call>"]


def glm_turn_tokens() -> list[str]:
    """One agent turn in GLM-4.5+ tags: prose, then two `<tool_call>NAME<arg_key>…` calls."""
    def call(name: str, *arguments: tuple[str, str]) -> list[str]:
        out = ["<tool_call>", name, "\n"]
        for key, value in arguments:
            out += ["<arg_key>", key, "</arg_key>", "\n", "<arg_value>", *tokens(value), "</arg_value>", "\n"]
        return [*out, "</tool_call>"]

    return [*tokens(PROSE), *call("bash", ("command", SCRIPT), ("timeout", "120")),
            *call("read_file", ("path", "src/parser/stream.py"))]


def think_block(size: int) -> list[str]:
    """A think block the prompt opened: 30 KB of reasoning in `content`, one token per event (less
    in a small stream: its events a third of it at most), then `</think>`."""
    length = min(30_000, size // 3 // 64)  # (an event of a 4-byte token takes about 64 times its bytes)
    return [*tokens((REASONING * (length // len(REASONING) + 1))[:length]), "</think>", "\n\n"]


@dataclass(frozen=True)
class Shape:
    """Where a stream's leaked syntax sits: how a token becomes an event, and one turn's tokens."""

    name: str
    event: Callable[[str], bytes]
    turn: Callable[[], list[str]]
    lead: Callable[[int], list[str]] | None = None  # tokens before the turns (a think block), by size

    def heavy(self, size: int) -> Iterator[bytes]:
        """About `size` bytes of this shape, mostly tool calls, one token per chunk (after the lead)."""
        return self._repeat(self.turn(), size, [] if self.lead is None else self.lead(size))

    def plain(self, size: int) -> Iterator[bytes]:
        """The same envelope and amount of text without any syntax."""
        return self._repeat(tokens((PROSE * 8)[: sum(len(t) for t in self.turn())]), size)

    def _repeat(self, turn: list[str], size: int, lead: list[str] | None = None) -> Iterator[bytes]:
        cycle = b"".join(self.event(t) for t in turn)
        yield self.event("")
        for token in lead or ():
            yield self.event(token)
        for _ in range(max(1, size // len(cycle))):
            yield cycle
        yield self.event("").replace(b'"finish_reason":null', b'"finish_reason":"stop"').replace(
            b'"finish_reason": null', b'"finish_reason": "stop"')
        yield b"data: [DONE]\n\n"


SHAPES: tuple[Shape, ...] = (
    Shape("kimi in content", token_event, tool_turn_tokens),
    Shape("kimi in reasoning + reasoning_details", openrouter_reasoning_event, tool_turn_tokens),
    Shape("kimi in reasoning_content", compat_reasoning_event, tool_turn_tokens),
    Shape("stripped kimi in content", token_event, stripped_kimi_turn_tokens),
    Shape("hermes tags in content", model_event(HERMES_MODEL), hermes_turn_tokens),
    Shape("deepseek tokens in content", model_event(DEEPSEEK_MODEL), deepseek_turn_tokens),
    Shape("qwen3-coder xml in content", model_event(QWEN_MODEL), qwen_turn_tokens),
    Shape("seed-oss tags in content", model_event(SEED_MODEL), seed_turn_tokens),
    Shape("harmony channels in content", model_event(GPT_OSS_MODEL), harmony_turn_tokens),
    Shape("stripped harmony in content", model_event(GPT_OSS_MODEL), stripped_harmony_turn_tokens),
    Shape("llama python_tag in content", model_event(LLAMA_MODEL), llama_turn_tokens),
    Shape("dsml in content", model_event(DSML_MODEL), dsml_turn_tokens),
    Shape("kimi-k3 xtml in content", model_event(K3_MODEL), k3_turn_tokens),
    Shape("mistral [TOOL_CALLS] in content", model_event(MISTRAL_MODEL), mistral_turn_tokens),
    Shape("minimax-m2 think block, then calls", model_event(MINIMAX_MODEL), minimax_turn_tokens, think_block),
    Shape("glm-4.7 think block, then calls", model_event(GLM_MODEL), glm_turn_tokens, think_block),
    Shape("qwen3 thinking think block, then calls", model_event(QWEN_THINKING_MODEL), hermes_turn_tokens,
          think_block),
    Shape("r1 think block, then calls", model_event(R1_MODEL), deepseek_turn_tokens, think_block),
    Shape("minimax-m2 calls, no think block", model_event(MINIMAX_MODEL), minimax_turn_tokens),
    Shape("glm-4.7 calls in its own reasoning_content field", model_reasoning_event(GLM_MODEL),
          glm_turn_tokens),
)
"""The throughput shapes: the syntax and the field it leaks into, in real envelopes."""
