"""Strategies and the harness shared by the hostile-input tests: cut points, rewrite in pieces, read back."""

from __future__ import annotations

import itertools
from typing import Any

import orjson
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from sse_rewrite import Notice, RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import SSEDecoder

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FUZZ_BUDGET = 600
"""Examples a fuzz test parametrized over the catalogue gets in all, shared among its parameters."""


def fuzz_each(parameters: int) -> settings:
    """`FUZZ` with `FUZZ_BUDGET` shared among `parameters` runs (at least 8 each).

    The catalogue grew from 17 formats to 81 parsers; at 150 examples each, the fuzz tests over
    it took a third of the suite's time. A fixed budget keeps the total below what 17 had (2,550):
    about 600-650 examples a test (81 parsers, or 32 `--format` choices x 2 accelerator modes; the
    old floor of 25 made it 1,600 to 2,000, 12 about 1,000). The examples differ from run to run:
    CI runs add up.
    """
    return settings(FUZZ, max_examples=max(8, FUZZ_BUDGET // parameters))

# Text that no format can take for syntax: no `<`, no upper case (TOOL:), no braces.
plain_text = st.text(alphabet="abcdefghij klmnop.,;!?\n\t\"'0123456789é日\x00", max_size=30)

cut_points = st.lists(st.integers(0, 1 << 16), max_size=12)
"""Where to cut an input, each point taken modulo the input's length."""


def pieces(seq: Any, points: list[int]) -> list[Any]:
    """`seq` cut at `points` (modulo its length)."""
    bounds = [0, *sorted({p % (len(seq) + 1) for p in points}), len(seq)]
    return [seq[a:b] for a, b in itertools.pairwise(bounds)]


def rewrite(data: bytes, points: list[int], **options: Any) -> tuple[bytes, list[Notice]]:
    """Run the rewriter over `data` fed in pieces; return the output bytes and notices."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    out = [item for part in pieces(data, points) for item in rewriter.feed(part)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def assemble(body: bytes) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """What a client reads from choice 0: text by field, and (name, arguments) per call."""
    decoder = SSEDecoder()
    texts: dict[str, str] = {}
    calls: list[tuple[str, str]] = []
    for event in decoder.feed(body) + decoder.flush():
        if not event.data or event.data == "[DONE]":
            continue
        for choice in orjson.loads(event.data)["choices"]:
            for key, value in choice["delta"].items():
                if key == "tool_calls":
                    calls += [(c["function"]["name"], c["function"]["arguments"]) for c in value]
                elif isinstance(value, str) and key != "role":
                    texts[key] = texts.get(key, "") + value
    return {k: v for k, v in texts.items() if v}, calls
