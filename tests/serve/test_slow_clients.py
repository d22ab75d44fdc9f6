"""Slow and numerous clients: header, body and idle deadlines, and a cap on open connections."""

from __future__ import annotations

import contextlib
import resource
import socket

import httpx2
import pytest

from sse_rewrite.serve.connections import fit_descriptors
from tests.serve.servers import Servers, eventually

SHORT = {"header_timeout": 0.3, "body_timeout": 0.3, "idle_timeout": 1.0}


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1].split("/")[0])


def _connect(base_url: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", _port(base_url)), timeout=5)


def _read_all(connection: socket.socket) -> bytes:
    """Everything until the server closes the connection (the socket's timeout bounds the wait)."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def _read_response(connection: socket.socket) -> bytes:
    """One response with a Content-Length (the server may keep reading a refused body a while)."""
    received = b""
    while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < _length(received):
        chunk = connection.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def _length(head: bytes) -> int:
    for line in head.partition(b"\r\n\r\n")[0].lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return int(line.partition(b":")[2])
    return 0


def test_headers_that_never_end_get_a_408_and_the_connection_closed(servers: Servers) -> None:
    base_url, _ = servers.serve(**SHORT)
    with _connect(base_url) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert _read_all(connection).startswith(b"HTTP/1.1 408")


def test_a_connection_that_sends_nothing_is_closed(servers: Servers) -> None:
    base_url, _ = servers.serve(**SHORT)
    with _connect(base_url) as connection:
        assert _read_all(connection) == b""


def test_a_body_that_stalls_gets_a_408(servers: Servers) -> None:
    base_url, log = servers.serve(**SHORT)
    with _connect(base_url) as connection:
        connection.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           b"Content-Length: 100\r\n\r\n{\"model\": ")
        answer = _read_response(connection)
    assert answer.startswith(b"HTTP/1.1 408") and b"stalled" in answer
    assert not servers.fake.requests
    assert eventually(lambda: any(" 408 " in line for line in log))


def test_an_idle_keepalive_connection_is_closed(servers: Servers) -> None:
    base_url, _ = servers.serve(**{**SHORT, "idle_timeout": 0.3})
    with _connect(base_url) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = _read_all(connection)  # the answer, then the close once the connection idles
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"status": "ok"}')


def test_past_the_connection_cap_a_503_and_healthz_answers_again_once_they_go(servers: Servers) -> None:
    base_url, log = servers.serve(max_connections=8)
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(_connect(base_url)) for _ in range(8)]
        for connection in held:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
        for _ in range(3):
            with _connect(base_url) as extra:
                answer = _read_all(extra)
            assert answer.startswith(b"HTTP/1.1 503") and b"too_many_connections" in answer
        assert sum("--max-connections" in line for line in log) == 1
    assert eventually(lambda: _healthz(base_url) == 200)


def _healthz(base_url: str) -> int:
    with contextlib.suppress(httpx2.HTTPError):
        return httpx2.get(base_url.removesuffix("/v1") + "/healthz", timeout=5).status_code
    return 0


def test_the_connection_cap_fits_the_descriptor_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    limits = {"now": (1024, 1024)}
    monkeypatch.setattr(resource, "getrlimit", lambda kind: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda kind, value: limits.update(now=value))
    assert fit_descriptors(100, said.append) == 100 and limits["now"] == (1024, 1024)
    assert fit_descriptors(512, said.append) == 480 and len(said) == 1  # 1024 - 64 spare, halved
    limits["now"] = (1024, 4096)
    assert fit_descriptors(512, said.append) == 512 and limits["now"] == (1088, 4096)
