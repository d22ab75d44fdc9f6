"""Fixtures for the serve tests: one loop thread per session, fresh servers per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.postgres import PostgresServer
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


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session (skipped, with the reason, where none can run)."""
    server, why_not = PostgresServer.start_new()
    if server is None:
        pytest.skip(why_not)
    yield server
    server.remove()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The URL of a fresh database on the session's server."""
    return postgres.new_database()
