"""The app around the fronts: /healthz, bad requests, the guard, the access token, draining."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx2
import openai
import pytest

from sse_rewrite.stream.rewrite import Output, RewriteOptions, StreamRewriter
from tests.serve.servers import Servers, eventually

CHAT = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ ls"}]}


def test_healthz_answers_without_the_upstream(servers: Servers) -> None:
    base_url, _ = servers.serve(upstream="http://127.0.0.1:9/v1", access_token="t")
    response = httpx2.get(base_url.removesuffix("/v1") + "/healthz", timeout=10)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


@pytest.mark.parametrize("body", [b"not json", b'{"model": ', b"[1, 2]", b""],
                         ids=["text", "cut", "array", "empty"])
def test_a_request_that_is_not_a_json_object_is_a_400(servers: Servers, body: bytes) -> None:
    base_url, _ = servers.serve()
    response = httpx2.post(f"{base_url}/chat/completions", content=body, timeout=10)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error" and error["code"] == "invalid_json"
    assert not servers.fake.requests


def test_an_internal_error_is_a_json_500_and_one_log_line(servers: Servers) -> None:
    base_url, log = servers.serve(options=RewriteOptions(format="no-such-format"))
    response = httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": True}, timeout=10)
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "server_error"
    assert "Traceback" not in response.text
    assert eventually(lambda: any("internal error: KeyError" in line for line in log))


def test_an_internal_error_mid_stream_ends_the_stream_and_serving_goes_on(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, log = servers.serve()
    feed, reads = StreamRewriter.feed, []

    def failing_third_read(self: StreamRewriter, data: bytes) -> list[Output]:
        reads.append(data)
        if len(reads) == 3:
            raise RuntimeError("boom")
        return feed(self, data)

    monkeypatch.setattr(StreamRewriter, "feed", failing_third_read)
    response = httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": True},
                           headers={"x-fake": "delay=0.01"}, timeout=10)
    assert response.status_code == 200  # the headers had gone out: the body just ends, well-formed
    assert response.text.startswith(": OPENROUTER PROCESSING") and "HTTP/1.1" not in response.text
    assert eventually(lambda: any("internal error: RuntimeError: boom" in line for line in log))
    assert eventually(lambda: any(line.endswith("(internal error)") for line in log))
    monkeypatch.setattr(StreamRewriter, "feed", feed)
    again = httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": True}, timeout=10)
    assert again.status_code == 200 and '"tool_calls"' in again.text


def test_the_clients_authorization_goes_upstream_as_is(servers: Servers) -> None:
    base_url, _ = servers.serve()
    httpx2.post(f"{base_url}/chat/completions", json=CHAT, headers={"Authorization": "Bearer mine"},
                timeout=10)
    assert servers.fake.requests[-1]["headers"]["Authorization"] == "Bearer mine"


def test_a_configured_key_replaces_the_clients(servers: Servers) -> None:
    base_url, _ = servers.serve(api_key="proxy-key")
    httpx2.post(f"{base_url}/chat/completions", json=CHAT, headers={"x-api-key": "mine"}, timeout=10)
    headers = servers.fake.requests[-1]["headers"]
    assert headers["Authorization"] == "Bearer proxy-key" and "x-api-key" not in {k.lower() for k in headers}


@pytest.mark.parametrize(("headers", "status"), [
    ({}, 401),
    ({"Authorization": "Bearer wrong"}, 401),
    ({"Authorization": "Basic token"}, 401),
    ({"Authorization": "Bearer token"}, 200),
    ({"x-api-key": "token"}, 200),
    ({"x-api-key": "other", "Authorization": "Bearer token"}, 200),
], ids=["none", "wrong", "not-bearer", "bearer", "x-api-key", "either"])
def test_an_access_token_must_be_presented(servers: Servers, headers: dict[str, str], status: int) -> None:
    base_url, _ = servers.serve(api_key="proxy-key", access_token="token")
    models = httpx2.get(f"{base_url}/models", headers=headers, timeout=10)
    response = httpx2.post(f"{base_url}/chat/completions", json=CHAT, headers=headers, timeout=10)
    assert (models.status_code, response.status_code) == (status, status)
    if status == 401:
        assert response.json()["error"]["code"] == "invalid_access_token"
        assert not servers.fake.requests
    else:
        assert servers.fake.requests[-1]["headers"]["Authorization"] == "Bearer proxy-key"


def test_the_sdk_presents_the_access_token_as_its_api_key(servers: Servers) -> None:
    base_url, _ = servers.serve(access_token="token")  # no key of its own: the token is not sent on
    client = openai.OpenAI(base_url=base_url, api_key="token", max_retries=0, timeout=10)
    assert client.models.list().data[0].id == "moonshotai/kimi-k2.5"
    client.chat.completions.create(**CHAT)  # type: ignore[call-overload]
    assert "Authorization" not in servers.fake.requests[-1]["headers"]
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=base_url, api_key="nope", max_retries=0, timeout=10).models.list()


def test_the_filter_never_imports_aiohttp() -> None:
    code = "import sys; from sse_rewrite.cli import main; sys.argv = ['x', '--stats', '/dev/null']; main()"
    report = "atexit.register(lambda: print('aiohttp' in sys.modules, file=sys.stderr))"
    probe = f"import atexit, sys; {report}; {code}"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=60, check=False)
    assert result.returncode == 0 and result.stderr.strip().endswith(b"False")


def test_sigterm_drains_open_streams_then_exits(servers: Servers) -> None:
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", servers.upstream, "--port", "0",
               "--drain-timeout", "10"]
    with subprocess.Popen(command, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}) as server:
        try:
            drain_on_sigterm(server, servers)
        finally:
            if server.poll() is None:
                server.kill()


def drain_on_sigterm(server: subprocess.Popen[bytes], servers: Servers) -> None:
    """SIGTERM while a stream is open: the stream completes, then the server exits 0."""
    assert server.stderr is not None
    first = server.stderr.readline().decode()
    base_url = first.split("listening on ")[1].split()[0]
    received: list[bytes] = []
    started = threading.Event()

    def stream() -> None:
        with httpx2.stream("POST", f"{base_url}/chat/completions", timeout=10,
                           json={**CHAT, "stream": True}, headers={"x-fake": "hang-after=3,hang=0.5"}) as r:
            for data in r.iter_bytes():
                received.append(data)
                started.set()

    reader = threading.Thread(target=stream)
    reader.start()
    assert started.wait(10)
    server.send_signal(signal.SIGTERM)
    reader.join(10)
    assert b"".join(received).endswith(b"data: [DONE]\n\n")
    assert server.wait(10) == 0
    assert b"stopped" in server.stderr.read()


def test_workers_share_the_port_and_all_drain_on_sigterm(servers: Servers) -> None:
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", servers.upstream, "--port", "0",
               "--workers", "2"]
    with subprocess.Popen(command, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}) as server:
        try:
            assert server.stderr is not None
            first = server.stderr.readline().decode()
            assert first.rstrip().endswith("2 workers")
            base_url = first.split("listening on ")[1].split()[0]
            client = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)

            def one(number: int) -> str:
                message = client.chat.completions.create(
                    model="moonshotai/kimi-k2.5", messages=[{"role": "user", "content": f"$ echo {number}"}],
                ).choices[0].message
                return (message.tool_calls or [])[0].function.arguments  # type: ignore[union-attr]

            with ThreadPoolExecutor(8) as pool:
                assert list(pool.map(one, range(8))) == [f'{{"command": "echo {n}"}}' for n in range(8)]
            server.send_signal(signal.SIGTERM)
            assert server.wait(10) == 0
            assert server.stderr.read().count(b"sse-rewrite serve: stopped") == 2
        finally:
            if server.poll() is None:
                server.kill()
