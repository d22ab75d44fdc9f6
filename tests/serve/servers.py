"""Helpers for the serve tests: an event loop on a thread, the fake upstream and serve on it.

Tests stay synchronous (the official SDKs' sync clients); the servers run on one loop in
a background thread, on 127.0.0.1 and ephemeral ports only.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aiohttp import web

from examples import leaky_upstream
from sse_rewrite.serve import app
from sse_rewrite.serve.settings import ServeSettings
from sse_rewrite.serve.state import ServerLog
from tests.serve import hostile

T = TypeVar("T")


class LoopThread:
    """An asyncio loop running on a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 10) -> T:
        """Run `coro` on the loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.loop.close()


class LogLines:
    """Stands in for `Diagnostics`: keeps the server's stderr lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, message: str, style: str = "") -> None:
        """Keep one line."""
        self.lines.append(message)


def recording_log() -> tuple[ServerLog, list[str]]:
    """A server log whose lines land in the returned list."""
    log, lines = ServerLog(), LogLines()
    log._diagnostics = lines  # type: ignore[assignment]
    return log, lines.lines


def eventually(condition: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Whether `condition` holds within `timeout` seconds (the server thread may lag the client)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def captured(directory: Path, suffix: str) -> Path:
    """The one capture file with `suffix` in `directory`, once its thread has written all of it.

    Captures are written off the event loop, so the request's end does not mean the file's:
    a whole capture ends as the fake upstream's answers do, a stream with `[DONE]` and a body
    with `}` (a stream's chunks end with `}` too: a stream cut there is not whole).
    """
    end = b"[DONE]" if suffix == ".sse" else b"}"

    def done() -> bool:
        files = [path for path in directory.iterdir() if path.suffix == suffix] if directory.exists() else []
        return len(files) == 1 and files[0].read_bytes().rstrip().endswith(end)

    assert eventually(done)
    [path] = [path for path in directory.iterdir() if path.suffix == suffix]
    return path


def raw_exchange(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    """Send `data` as is to 127.0.0.1:`port`; return everything read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
        return received


class Servers:
    """The fake upstream and any number of serve instances on one loop, stopped together."""

    def __init__(self, loop: LoopThread) -> None:
        self.loop = loop
        self.fake = leaky_upstream.FakeUpstream()
        self._runners: list[web.AppRunner] = [loop.run(leaky_upstream.start(self.fake))]
        self.upstream = f"http://127.0.0.1:{app.bound_port(self._runners[0])}/v1"

    def serve(self, **settings: Any) -> tuple[str, list[str]]:
        """Start serve in front of the fake; return its base URL (`…/v1`) and its log lines."""
        settings.setdefault("upstream", self.upstream)
        log, lines = recording_log()
        runner = self.loop.run(app.start(ServeSettings(host="127.0.0.1", port=0, **settings), log))
        self._runners.append(runner)
        self.runner = runner
        return f"http://127.0.0.1:{app.bound_port(runner)}/v1", lines

    def hostile(self) -> tuple[hostile.Hostile, str]:
        """Start the hostile upstream (`hostile.py`); return what it records and its base URL."""
        seen = hostile.Hostile()
        runner = self.loop.run(hostile.start(seen))
        self._runners.insert(1, runner)  # stopped after the serve instances in front of it
        return seen, f"http://127.0.0.1:{app.bound_port(runner)}/v1"

    def chat_upstream(self, handler: Callable[[web.Request], Coroutine[Any, Any, web.StreamResponse]]) -> str:
        """Start a fake upstream whose `POST /v1/chat/completions` is `handler`; return its base URL.
        It stops with the rest, after the serve instances in front of it."""
        application = web.Application()
        application.router.add_post("/v1/chat/completions", handler)

        async def start() -> web.AppRunner:
            runner = web.AppRunner(application)
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            return runner

        runner = self.loop.run(start())
        self._runners.insert(1, runner)
        return f"http://127.0.0.1:{app.bound_port(runner)}/v1"

    def drain(self, drain_timeout: float) -> None:
        """Stop the newest serve instance as SIGTERM does (`app.stop`), waiting for it."""
        self._runners.remove(self.runner)
        self.loop.run(app.stop(self.runner, drain_timeout), timeout=drain_timeout + 10)

    def stop(self, base_url: str) -> None:
        """Stop the serve instance `serve` returned `base_url` for (the others keep running)."""
        for runner in self._runners[1:]:
            if base_url == f"http://127.0.0.1:{app.bound_port(runner)}/v1":
                self._runners.remove(runner)
                self.loop.run(runner.cleanup())
                return
        raise ValueError(f"no serve instance at {base_url}")

    def close(self) -> None:
        """Stop every server, newest first."""
        for runner in reversed(self._runners):
            self.loop.run(runner.cleanup())


def upstream_saw(servers: Servers) -> dict[str, Any]:
    """The last chat request body the fake upstream received."""
    return servers.fake.requests[-1]["body"]  # type: ignore[no-any-return]


class SDKClient(Protocol):
    def close(self) -> None: ...


C = TypeVar("C", bound=SDKClient)


def sdk_clients(sdk: Callable[..., C]) -> Iterator[Callable[..., C]]:
    """A fixture's body: makes official SDK clients of class `sdk` (no retries, short timeout)
    with `client-key` unless told another key; closes them after the test."""
    made: list[C] = []

    def make(base_url: str, api_key: str = "client-key", **kw: Any) -> C:
        made.append(sdk(base_url=base_url, api_key=api_key, max_retries=0, timeout=10, **kw))
        return made[-1]

    yield make
    for client in made:
        client.close()
