"""Client connections: a cap on how many are open, and a deadline for each request's headers.

aiohttp has neither, so `GuardedSite` listens with a protocol that wraps aiohttp's own
(`RequestHandler`, created by the runner's server as usual):

- **A connection cap** (`max_connections`, nginx's `worker_connections`): one connection
  more gets `503` with a JSON error and is closed, with a log line when the cap is first
  reached, so a flood of half-open connections cannot use up the process's file
  descriptors and `/healthz` stays answerable once they go.
- **A header deadline** (`header_timeout`, nginx's `client_header_timeout`): from the
  moment a connection opens, or the first byte of its next request, the request line and
  headers must be in within the deadline (the guard says when a request has started);
  else `408` and the connection is closed. An idle keep-alive connection is aiohttp's
  `keepalive_timeout` (`idle_timeout`), the body's silences `request_body.py`'s.

Each client connection may hold an upstream one too, so the cap must fit twice in the
process's file descriptor limit: `fit_descriptors` raises the soft limit toward the hard
one when it must, and lowers the cap (with a log line) when even that is not enough.
"""

from __future__ import annotations

import asyncio
import resource
import socket
from collections.abc import Callable

import orjson
from aiohttp import web

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_BUSY: Final = orjson.dumps({"error": {
    "message": "sse-rewrite serve has too many open connections: try again shortly",
    "type": "server_error", "param": None, "code": "too_many_connections"}})
BUSY_RESPONSE: Final = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                        b"Retry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                        % (len(_BUSY), _BUSY))
TIMEOUT_RESPONSE: Final = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
SPARE_DESCRIPTORS: Final = 64
"""Descriptors kept for everything but connections: the listener, logs, captures, the loop."""


def fit_descriptors(wanted: int, say: Callable[[str], None]) -> int:
    """The connection cap that fits the file descriptor limit (raised if it can be): `wanted` or less."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * wanted + SPARE_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and need > soft:
        raised = need if hard == resource.RLIM_INFINITY else min(need, hard)
        if raised > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == resource.RLIM_INFINITY or need <= soft:
        return wanted
    fits = max(1, (soft - SPARE_DESCRIPTORS) // 2)
    say(f"--max-connections {wanted} needs {need} file descriptors and the limit is {soft}: "
        f"capping at {fits} connections")
    return fits


class Connections:
    """The open connections of one server: counted, capped, their header deadlines kept."""

    def __init__(self, limit: int, header_timeout: float, say: Callable[[str], None]) -> None:
        self.limit, self.header_timeout, self._say = limit, header_timeout, say
        self.open: dict[asyncio.BaseTransport, GuardedProtocol] = {}
        self._refusing = False

    def protocol_factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """The factory to listen with: aiohttp's protocol inside a guarded one."""
        return lambda: GuardedProtocol(self, inner)

    def request_started(self, transport: asyncio.BaseTransport | None) -> None:
        """A request's headers are in: its connection's header deadline is met."""
        protocol = self.open.get(transport) if transport is not None else None
        if protocol is not None:
            protocol.busy(True)

    def request_ended(self, transport: asyncio.BaseTransport | None) -> None:
        """The request is over: the connection's next bytes start a new deadline."""
        protocol = self.open.get(transport) if transport is not None else None
        if protocol is not None:
            protocol.busy(False)

    def admit(self, protocol: GuardedProtocol, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in, or say no when the cap is reached."""
        if len(self.open) >= self.limit:
            if not self._refusing:
                self._say(f"{self.limit} connections open (--max-connections): refusing more with 503")
            self._refusing = True
            return False
        self._refusing = False
        self.open[transport] = protocol
        return True


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the cap and the header deadline."""

    def __init__(self, connections: Connections, inner: Callable[[], asyncio.Protocol]) -> None:
        self._connections, self._make_inner = connections, inner
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.Transport | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._busy = self._got_bytes = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        if not self._connections.admit(self, transport):
            transport.write(BUSY_RESPONSE)
            transport.close()
            return
        self._inner = self._make_inner()
        self._inner.connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._inner is not None and self._transport is not None:
            self._connections.open.pop(self._transport, None)
            self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._inner is None:
            return
        if not self._busy:
            self._got_bytes = True
            if self._deadline is None:
                self._arm()
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def busy(self, busy: bool) -> None:
        """A request is being handled (no deadline) or is over (the next bytes start one)."""
        self._busy = busy
        self._got_bytes = False
        self._disarm()

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self._connections.header_timeout, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self._transport is None or self._busy:
            return
        if self._got_bytes:
            self._transport.write(TIMEOUT_RESPONSE)
        self._transport.close()


class GuardedSite(web.BaseSite):
    """A listening socket (given, or bound to `host`:`port`) served through `Connections`."""

    __slots__ = ("_connections", "_host", "_port", "_sock")

    def __init__(self, runner: web.BaseRunner, connections: Connections, *, host: str | None = None,
                 port: int = 0, sock: socket.socket | None = None) -> None:
        super().__init__(runner, backlog=1024)
        self._connections, self._host, self._port, self._sock = connections, host, port, sock

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}" if self._sock is None else f"socket {self._sock.fileno()}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        factory = self._connections.protocol_factory(server)
        loop = asyncio.get_running_loop()
        if self._sock is not None:
            self._server = await loop.create_server(factory, sock=self._sock, backlog=self._backlog)
        else:
            self._server = await loop.create_server(factory, self._host, self._port, backlog=self._backlog,
                                                    reuse_address=True)
