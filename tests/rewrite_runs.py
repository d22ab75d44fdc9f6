"""Kimi marker tokens and a harness that rewrites an SSE stream and reads the chunks back."""

from __future__ import annotations

from typing import Any

import orjson

from sse_rewrite import Notice, RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import SSEDecoder

SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
ONE_CALL = [SB, CB, " functions", ".bash", ":", "15", AB, '{"cmd"', ': "ls', ' -la"}', CE, SE]


def run(data: bytes, read_size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """Rewrite `data` fed whole or in reads of `read_size` bytes; the output must not depend on it."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    parts = [data] if read_size is None else [data[i : i + read_size] for i in range(0, len(data), read_size)]
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    body = b"".join(item for item in out if isinstance(item, bytes))
    if read_size is None:
        assert run(data, 1, **options)[0] == body, "output depends on read sizes"
    return body, [item for item in out if isinstance(item, Notice)]


def chunks(body: bytes) -> list[dict[str, Any]]:
    """Every JSON chunk in `body`, `[DONE]` left out."""
    decoder = SSEDecoder()
    events = decoder.feed(body) + decoder.flush()
    return [orjson.loads(e.data) for e in events if e.data and e.data != "[DONE]"]


def tool_call_deltas(body: bytes) -> list[dict[str, Any]]:
    """Every `tool_calls` entry of every choice delta in `body`, in order."""
    return [tc for c in chunks(body) for ch in c["choices"] for tc in ch["delta"].get("tool_calls", [])]
