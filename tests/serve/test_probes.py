"""`/livez` and `/readyz`: ready once the upstream answers, not ready from SIGTERM on (while still
serving during `--shutdown-delay`), open to probes without the access token."""

from __future__ import annotations

import socket
import threading

import httpx2
import pytest

from tests.serve.servers import Servers, eventually

CHAT = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ ls"}]}


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_ready_when_the_upstream_answers_a_probe(servers: Servers) -> None:
    base_url, _ = servers.serve(access_token="sekret")  # probes need no token
    root = base_url.removesuffix("/v1")
    assert httpx2.get(f"{root}/livez", timeout=5).json() == {"status": "live"}
    ready = httpx2.get(f"{root}/readyz", timeout=5)
    assert (ready.status_code, ready.json()) == (200, {"status": "ready"})
    assert servers.fake.requests == []  # the probe is a GET of /models, never a chat request


def test_not_ready_while_the_upstream_cannot_be_reached(servers: Servers) -> None:
    base_url, _ = servers.serve(upstream=f"http://127.0.0.1:{closed_port()}/v1")
    root = base_url.removesuffix("/v1")
    ready = httpx2.get(f"{root}/readyz", timeout=5)
    assert ready.status_code == 503 and ready.json()["status"] == "not ready"
    assert ready.json()["reasons"][0].startswith("upstream not reached")
    assert httpx2.get(f"{root}/livez", timeout=5).status_code == 200
    assert httpx2.get(f"{root}/healthz", timeout=5).status_code == 200  # as it always was


def test_readiness_flips_during_a_drain(servers: Servers) -> None:
    """From SIGTERM on /readyz says 503, and during the shutdown delay requests are still answered."""
    base_url, log = servers.serve(shutdown_delay=4)  # (room for a loaded machine's slow requests)
    root = base_url.removesuffix("/v1")
    assert httpx2.get(f"{root}/readyz", timeout=5).status_code == 200
    draining = threading.Thread(target=servers.drain, args=(1.0,))
    draining.start()
    try:
        assert eventually(lambda: httpx2.get(f"{root}/readyz", timeout=5).status_code == 503, timeout=2.0)
        assert httpx2.get(f"{root}/readyz", timeout=5).json()["status"] == "draining"
        answered = httpx2.post(f"{base_url}/chat/completions", json=CHAT, timeout=5)
        assert answered.status_code == 200 and "tool_calls" in answered.text  # still served
    finally:
        draining.join(10)
    assert any("not ready: serving 4s more before the drain" in line for line in log)
    with pytest.raises(httpx2.TransportError):  # no longer listening
        httpx2.get(f"{root}/livez", timeout=2)
