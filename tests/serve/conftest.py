"""Fixtures for the serve tests: one loop thread per session, fresh servers per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.servers import LoopThread, Servers


@pytest.fixture(scope="session")
def loop_thread() -> Iterator[LoopThread]:
    """The background event loop the servers run on."""
    loop = LoopThread()
    yield loop
    loop.close()


@pytest.fixture
def servers(loop_thread: LoopThread) -> Iterator[Servers]:
    """The fake upstream, started and stopped around each test."""
    servers = Servers(loop_thread)
    yield servers
    servers.close()
