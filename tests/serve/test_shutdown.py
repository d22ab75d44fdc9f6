"""Shutdown: open requests get `--drain-timeout` once; what is left is cut, a stream with an error event."""

from __future__ import annotations

import threading
import time

import httpx2
import pytest

from tests.serve.servers import Servers, eventually

CHAT = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ ls"}]}
ANTHROPIC = {"model": "m", "max_tokens": 8, "stream": True, "messages": [{"role": "user", "content": "hi"}]}


def _in_background(call: object) -> tuple[threading.Thread, list[httpx2.Response]]:
    got: list[httpx2.Response] = []
    thread = threading.Thread(target=lambda: got.append(call()))  # type: ignore[operator]
    thread.start()
    return thread, got


@pytest.mark.parametrize(("path", "body", "ending"), [
    ("/chat/completions", {**CHAT, "stream": True}, '"message":"sse-rewrite serve is shutting down"'),
    ("/messages", ANTHROPIC, "event: error"),
    ("/responses", {"model": "m", "input": "hi", "stream": True, "store": False}, "response.failed"),
    ("/models/gemini-x:streamGenerateContent?alt=sse", {"contents": [{"parts": [{"text": "hi"}]}]},
     '"status":"UNAVAILABLE"'),
], ids=["openai", "anthropic", "responses", "gemini"])
def test_a_stream_cut_at_shutdown_ends_with_an_error_event(servers: Servers, path: str,
                                                           body: dict[str, object], ending: str) -> None:
    seen, upstream = servers.hostile()
    base_url, log = servers.serve(upstream=upstream)
    thread, got = _in_background(lambda: httpx2.post(f"{base_url}{path}", json=body,
                                                     headers={"x-hostile": "hang"}, timeout=10))
    assert eventually(lambda: len(seen.requests) == 1)
    started = time.monotonic()
    servers.drain(drain_timeout=0.5)
    took = time.monotonic() - started
    thread.join(10)
    [response] = got
    assert response.status_code == 200
    assert ending in response.text and "shutting down" in response.text.rstrip().rsplit("\n", 3)[-1]
    assert 0.5 <= took < 0.5 + 1.0 + 0.5  # the drain, then at most the cut's grace: not twice the drain
    assert eventually(lambda: any("drain timeout: cutting 1 open request" in line for line in log))
    assert any("(sse-rewrite serve is shutting down)" in line for line in log)


def test_a_request_cut_before_its_answer_began_gets_a_503(servers: Servers) -> None:
    base_url, log = servers.serve()
    thread, got = _in_background(lambda: httpx2.post(f"{base_url}/chat/completions", json=CHAT, timeout=10,
                                                     headers={"x-fake": "slow-headers=5"}))
    assert eventually(lambda: len(servers.fake.requests) == 1)
    servers.drain(drain_timeout=0.2)
    thread.join(10)
    [response] = got
    assert response.status_code == 503 and response.json()["error"]["code"] == "shutting_down"
    assert eventually(lambda: any("(cut at shutdown)" in line for line in log))


def test_requests_that_finish_within_the_drain_are_not_cut(servers: Servers) -> None:
    base_url, log = servers.serve()
    thread, got = _in_background(lambda: httpx2.post(f"{base_url}/chat/completions", timeout=10,
                                                     json={**CHAT, "stream": True},
                                                     headers={"x-fake": "hang-after=3,hang=0.3"}))
    assert eventually(lambda: len(servers.fake.requests) == 1)
    servers.drain(drain_timeout=5)
    thread.join(10)
    assert got[0].text.endswith("data: [DONE]\n\n")
    assert not any("cutting" in line for line in log)
