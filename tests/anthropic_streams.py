"""Kimi and native OpenAI streams for the `--to anthropic` tests, and how their output is read."""

from __future__ import annotations

import re
from typing import Any

import orjson

from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import SSEDecoder
from tests.chunking import field_stream

ID_PATTERN = re.compile(r"^[a-zA-Z0-9_-]+$")
BASH = '<|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{"cmd": "ls -la"}<|tool_call_end|>'
READ = '<|tool_call_begin|>functions.read:1<|tool_call_argument_begin|>{"path": "a.txt"}<|tool_call_end|>'
REASONING = f"Let me look. <|tool_calls_section_begin|>{BASH}<|tool_calls_section_end|> Now answer."
CONTENT = f"Here you go.<|tool_calls_section_begin|>{READ}<|tool_calls_section_end|>"
USAGE = {
    "prompt_tokens": 125,
    "completion_tokens": 97,
    "total_tokens": 222,
    "prompt_tokens_details": {"cached_tokens": 64, "cache_write_tokens": 0},
}
KIMI_BLOCKS = [
    ("thinking", "Let me look. "),
    ("tool_use", ("bash", {"cmd": "ls -la"}, "toolu_functions-2Ebash-3A0")),
    ("thinking", " Now answer."),
    ("text", "Here you go."),
    ("tool_use", ("read", {"path": "a.txt"}, "toolu_functions-2Eread-3A1")),
]


def to_anthropic(stream: bytes, size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """Rewrite `stream` in anthropic mode, fed whole or `size` bytes at a time."""
    rewriter = StreamRewriter(RewriteOptions(to="anthropic", **options))
    out = []
    for piece in [stream] if size is None else [stream[i : i + size] for i in range(0, len(stream), size)]:
        out += rewriter.feed(piece)
    out += rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def events(body: bytes) -> list[tuple[str | None, Any]]:
    """(event name, decoded JSON) of every data event in `body`."""
    decoded = SSEDecoder().feed(body)
    return [(e.event, orjson.loads(e.data)) for e in decoded if e.data is not None]


def blocks(message: Any) -> list[tuple[str, Any]]:
    """The message's content blocks in the shape of KIMI_BLOCKS."""
    out: list[tuple[str, Any]] = []
    for block in message.content:
        if block.type == "thinking":
            out.append(("thinking", block.thinking))
        elif block.type == "text":
            out.append(("text", block.text))
        else:
            out.append(("tool_use", (block.name, block.input, block.id)))
    return out


def kimi_stream(reasoning: list[str], content: list[str]) -> bytes:
    """Reasoning tokens (mirrored in reasoning_details, as OpenRouter does), then content tokens."""
    deltas: list[dict[str, object]] = [
        {"content": "", "reasoning": t, "reasoning_details": [{"type": "reasoning.text", "text": t}]}
        for t in reasoning
    ]
    deltas += [{"content": t} for t in content]
    return field_stream(deltas, "tool_calls", USAGE)


def native_stream() -> bytes:
    """Two native OpenAI tool calls with arguments streamed in pieces, after some reasoning."""

    def call(index: int, arguments: str, **first: str) -> dict[str, object]:
        head: dict[str, object] = {"id": first["id"], "type": "function"} if first else {}
        function = {"name": first["name"], "arguments": arguments} if first else {"arguments": arguments}
        return {"content": None, "tool_calls": [{"index": index, **head, "function": function}]}

    deltas: list[dict[str, object]] = [
        {"reasoning": "Add, "},
        {"reasoning": "then multiply."},
        call(0, "", id="functions.add:0", name="add"),
        call(0, '{"a": 1'),
        call(0, ", "),
        call(0, '"b": 2}'),
        call(1, '{"a"', id="call_9", name="mul"),
        call(1, ": 3}"),
    ]
    return field_stream(deltas, "tool_calls", USAGE)
