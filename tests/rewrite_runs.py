"""Kimi marker tokens and a harness that rewrites an SSE stream and reads the chunks back."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from sse_rewrite import Notice, RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import SSEDecoder

SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
ONE_CALL = [SB, CB, " functions", ".bash", ":", "15", AB, '{"cmd"', ': "ls', ' -la"}', CE, SE]


@contextlib.contextmanager
def general_path_contents() -> Iterator[list[object]]:
    """While open, the `content` of each event the general path decodes (`StreamRewriter._on_event`)."""
    on_event, contents = StreamRewriter._on_event, []

    def counted(self: StreamRewriter, raw: bytes, value: bytes | None, read: bool = False) -> list[object]:
        if value is not None and value.startswith(b"{"):
            contents.append(orjson.loads(value)["choices"][0]["delta"].get("content"))
        return on_event(self, raw, value, read)  # type: ignore[return-value]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamRewriter, "_on_event", counted)
        yield contents


def small_reads(data: bytes) -> list[bytes]:
    """`data` in reads of 1 to 16 bytes, drawn from a generator seeded by `data` (the same cuts
    every run): a cut at every kind of place, one-byte reads among them."""
    draw, parts, start = random.Random(data), [], 0
    while start < len(data):
        size = draw.randint(1, 16)
        parts.append(data[start : start + size])
        start += size
    return parts


def run(data: bytes, read_size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """Rewrite `data` fed whole or in reads of `read_size` bytes; fed whole, the output must be the
    same in small reads (`small_reads`; the codec's any-read-size property is `test_sse`'s)."""
    parts = [data] if read_size is None else [data[i : i + read_size] for i in range(0, len(data), read_size)]
    body, notices = _rewrite(parts, options)
    if read_size is None:
        assert _rewrite(small_reads(data), options)[0] == body, "output depends on read sizes"
    return body, notices


def _rewrite(parts: list[bytes], options: dict[str, Any]) -> tuple[bytes, list[Notice]]:
    rewriter = StreamRewriter(RewriteOptions(**options))
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    body = b"".join(item for item in out if isinstance(item, bytes))
    return body, [item for item in out if isinstance(item, Notice)]


def chunks(body: bytes) -> list[dict[str, Any]]:
    """Every JSON chunk in `body`, `[DONE]` left out."""
    decoder = SSEDecoder()
    events = decoder.feed(body) + decoder.flush()
    return [orjson.loads(e.data) for e in events if e.data and e.data != "[DONE]"]


def tool_call_deltas(body: bytes) -> list[dict[str, Any]]:
    """Every `tool_calls` entry of every choice delta in `body`, in order."""
    return [tc for c in chunks(body) for ch in c["choices"] for tc in ch["delta"].get("tool_calls", [])]
