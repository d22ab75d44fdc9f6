"""Fixtures shared by the test modules."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter


@pytest.fixture(params=["accelerated", "general-path"])
def accelerators(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test twice: as written, and with every accelerator (`sse_rewrite/stream/fast/`) off.

    Stream test modules use it with `pytestmark = pytest.mark.usefixtures("accelerators")`.
    Off, every `StreamRewriter` the test makes (directly, through the CLI, `replay` or a
    golden) gets its options with `plain_runs` and `token_runs` false: the same public
    switches a user has.
    """
    if request.param == "general-path":
        original = StreamRewriter.__init__

        def without_accelerators(self: StreamRewriter, options: RewriteOptions | None = None) -> None:
            options = dataclasses.replace(options or RewriteOptions(), plain_runs=False, token_runs=False)
            original(self, options)

        monkeypatch.setattr(StreamRewriter, "__init__", without_accelerators)
    yield request.param
