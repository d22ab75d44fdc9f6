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

from collections.abc import Iterator

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
