"""Synthetic provider-shaped streams for the benchmarks (pure generators, no I/O).

Every stream is a sequence of `chat.completion.chunk` SSE events in the envelopes real
streams have (role repeated on every delta, `provider`, `native_finish_reason`;
reasoning mirrored in `reasoning_details` as OpenRouter sends it; `reasoning_content`
with `", "`-spaced JSON as other OpenAI-compatible hosts send it). `SHAPES` lists the
throughput shapes: where the leaked syntax sits and which syntax it is. Large streams
repeat one pre-encoded cycle of events, so generating 200 MB costs little more than
copying it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import orjson

MODEL = "moonshotai/kimi-k2.5"

SECTION_BEGIN = "<|tool_calls_section_begin|>"
SECTION_END = "<|tool_calls_section_end|>"
CALL_BEGIN = "<|tool_call_begin|>"
ARGUMENT_BEGIN = "<|tool_call_argument_begin|>"
CALL_END = "<|tool_call_end|>"

PROSE = (
    "Let me look at the repository layout first, then run the failing test and read the "
    "traceback before I change anything.\n"
)
SCRIPT = (
    "cd /work/project && python -m pytest -q tests/test_parser.py -x 2>&1 | tail -n 40; "
    "grep -rn \\\"def feed\\\" src/ | head -n 20; sed -n 1,80p src/parser/stream.py"
)


def event(delta: dict[str, object], finish: str | None = None) -> bytes:
    """One OpenRouter-shaped chunk event carrying `delta`."""
    chunk = {
        "id": "gen-1773932889-bench",
        "object": "chat.completion.chunk",
        "created": 1773932889,
        "model": MODEL,
        "provider": "Chutes",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "native_finish_reason": finish}],
    }
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


def token_event(token: str) -> bytes:
    """One content token, as a streaming provider sends it."""
    return event({"role": "assistant", "content": token})


def tokens(text: str, size: int = 4) -> list[str]:
    """`text` cut into model-token-sized pieces."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def _call(number: int, name: str, arguments: str) -> list[str]:
    header = tokens(f" functions.{name}:{number}", 3)
    return [CALL_BEGIN, *header, ARGUMENT_BEGIN, *tokens(arguments), CALL_END]


def tool_turn_tokens() -> list[str]:
    """One agent turn: a sentence of prose, then a section with two calls, one per token."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()
    return [
        *tokens(PROSE),
        SECTION_BEGIN,
        *_call(1, "bash", bash),
        *_call(2, "read_file", read),
        SECTION_END,
    ]


def plain_turn_tokens() -> list[str]:
    """The same amount of text with no tool syntax at all."""
    return tokens((PROSE * 5)[: sum(len(t) for t in tool_turn_tokens())])


def _repeat(cycle: bytes, size: int) -> Iterator[bytes]:
    yield event({"role": "assistant", "content": ""})
    for _ in range(max(1, size // len(cycle))):
        yield cycle
    yield event({"role": "assistant", "content": ""}, "stop")
    yield b"data: [DONE]\n\n"


def tool_heavy(size: int) -> Iterator[bytes]:
    """About `size` bytes of a Kimi stream that is mostly tool calls, one token per chunk."""
    return _repeat(b"".join(token_event(t) for t in tool_turn_tokens()), size)


def plain(size: int) -> Iterator[bytes]:
    """About `size` bytes of the same stream shape without any leaked syntax."""
    return _repeat(b"".join(token_event(t) for t in plain_turn_tokens()), size)


def one_char_section(chars: int) -> Iterator[bytes]:
    """One call whose argument string is `chars` characters, delivered one character per chunk."""
    yield event({"role": "assistant", "content": ""})
    for token in (SECTION_BEGIN, CALL_BEGIN, "functions.write_file:0", ARGUMENT_BEGIN, '{"text": "'):
        yield token_event(token)
    letters = b"".join(token_event(c) for c in "abcdefghij klmnopqrstuvwxyz")
    for _ in range(chars // 27):
        yield letters
    for token in ('"}', CALL_END, SECTION_END):
        yield token_event(token)
    yield event({"role": "assistant", "content": ""}, "stop")
    yield b"data: [DONE]\n\n"


def hostile_section(size: int, piece: int = 16384) -> Iterator[bytes]:
    """An opened call whose arguments never end: `size` bytes of argument text in big chunks."""
    yield token_event(SECTION_BEGIN + CALL_BEGIN + "functions.flood:0" + ARGUMENT_BEGIN + '{"a": "')
    body = token_event("x" * piece)
    for _ in range(size // piece):
        yield body
    yield event({"role": "assistant", "content": ""}, "stop")
    yield b"data: [DONE]\n\n"


def marker_flood(count: int, per_event: int = 1000) -> Iterator[bytes]:
    """`count` bare `<|tool_call_begin|>` markers, `per_event` to an event."""
    body = token_event(CALL_BEGIN * per_event)
    for _ in range(count // per_event):
        yield body
    yield event({"role": "assistant", "content": ""}, "stop")
    yield b"data: [DONE]\n\n"


def long_line(size: int) -> Iterator[bytes]:
    """One event whose content is a single `size`-byte line, sent in 64 KiB reads."""
    whole = token_event("<" + "y" * size)
    for i in range(0, len(whole), 65536):
        yield whole[i : i + 65536]
    yield b"data: [DONE]\n\n"


def ping_event() -> bytes:
    """One small content event for the latency ping-pong."""
    return token_event("pong")


# -- the real stream shapes (`SHAPES`), each tool-heavy and plain

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


MISTRAL_MODEL = "mistralai/devstral-2512"


def mistral_turn_tokens() -> list[str]:
    """One agent turn in Mistral v11 tokens: prose, then two `[TOOL_CALLS]NAME[ARGS]{…}` calls."""
    bash = orjson.dumps({"command": SCRIPT, "timeout": 120}).decode()
    read = orjson.dumps({"path": "src/parser/stream.py", "offset": 1, "limit": 200}).decode()
    return [*tokens(PROSE), "[TOOL_CALLS]", "bash", "[ARGS]", *tokens(bash),
            "[TOOL_CALLS]", "read", "_file", "[ARGS]", *tokens(read)]


@dataclass(frozen=True)
class Shape:
    """Where a stream's leaked syntax sits: how a token becomes an event, and one turn's tokens."""

    name: str
    event: Callable[[str], bytes]
    turn: Callable[[], list[str]]

    def heavy(self, size: int) -> Iterator[bytes]:
        """About `size` bytes of this shape, mostly tool calls, one token per chunk."""
        return self._repeat(self.turn(), size)

    def plain(self, size: int) -> Iterator[bytes]:
        """The same envelope and amount of text without any syntax."""
        return self._repeat(tokens((PROSE * 8)[: sum(len(t) for t in self.turn())]), size)

    def _repeat(self, turn: list[str], size: int) -> Iterator[bytes]:
        cycle = b"".join(self.event(t) for t in turn)
        yield self.event("")
        for _ in range(max(1, size // len(cycle))):
            yield cycle
        yield self.event("").replace(b'"finish_reason":null', b'"finish_reason":"stop"').replace(
            b'"finish_reason": null', b'"finish_reason": "stop"')
        yield b"data: [DONE]\n\n"


SHAPES: tuple[Shape, ...] = (
    Shape("kimi in content", token_event, tool_turn_tokens),
    Shape("kimi in reasoning + reasoning_details", openrouter_reasoning_event, tool_turn_tokens),
    Shape("kimi in reasoning_content", compat_reasoning_event, tool_turn_tokens),
    Shape("hermes tags in content", model_event(HERMES_MODEL), hermes_turn_tokens),
    Shape("deepseek tokens in content", model_event(DEEPSEEK_MODEL), deepseek_turn_tokens),
    Shape("qwen3-coder xml in content", model_event(QWEN_MODEL), qwen_turn_tokens),


    Shape("harmony channels in content", model_event(GPT_OSS_MODEL), harmony_turn_tokens),
    Shape("dsml in content", model_event(DSML_MODEL), dsml_turn_tokens),
    Shape("mistral [TOOL_CALLS] in content", model_event(MISTRAL_MODEL), mistral_turn_tokens),
)
"""The throughput shapes: the syntax and the field it leaks into, in real envelopes."""
