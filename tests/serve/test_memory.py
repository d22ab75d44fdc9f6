"""Bounded memory against a hostile upstream: each case sends 256 MB, the process's peak RSS is measured.

The servers run in this process (on the loop thread), so the test resets this process's
peak resident size (`/proc/self/clear_refs`) and reads it (`VmHWM`) after the request.
With the caps set to a megabyte or less, the peak may grow by a few tens of megabytes
(buffers, allocator slack), never by the hundreds a held body would take.
"""

from __future__ import annotations

import gzip
import re
import time

import httpx2
import pytest

from sse_rewrite.serve.limits import Limits
from tests.serve.hostile import TOTAL, bomb
from tests.serve.servers import Servers, eventually

LIMITS = Limits(request_bytes=1 << 20, line_bytes=64 << 10, event_bytes=256 << 10, body_bytes=1 << 20)
MARGIN = 48 << 20
"""The peak may grow this much at most: a fifth of what the hostile upstream sends."""
CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
ANTHROPIC = {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}
RESPONSES = {"model": "m", "input": "hi", "store": False}


def peak_rss() -> int:
    """This process's peak resident size since the last reset, in bytes."""
    with open("/proc/self/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1)) * 1024  # type: ignore[union-attr]


def reset_peak() -> int:
    """Reset the peak to the current resident size; return it."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return peak_rss()


@pytest.mark.parametrize(("mode", "path", "body", "message"), [
    ("line", "/chat/completions", {**CHAT, "stream": True}, "a line of more than"),
    ("event", "/chat/completions", {**CHAT, "stream": True}, "an event of more than"),
    ("brace", "/chat/completions", {**CHAT, "stream": True}, "a body of more than"),
    ("gzip-stream", "/chat/completions", {**CHAT, "stream": True}, "a line of more than"),
    ("line", "/messages", {**ANTHROPIC, "stream": True}, "a line of more than"),
    ("line", "/responses", {**RESPONSES, "stream": True}, "a line of more than"),
], ids=["line", "event", "brace", "gzip-bomb-stream", "anthropic-line", "responses-line"])
def test_an_endless_stream_ends_with_an_error_event(servers: Servers, mode: str, path: str,
                                                    body: dict[str, object], message: str) -> None:
    seen, upstream = servers.hostile()
    base_url, log = servers.serve(upstream=upstream, limits=LIMITS)
    bomb()  # made before the measure: it is the upstream's memory, not serve's
    before = reset_peak()
    response = httpx2.post(f"{base_url}{path}", json=body, headers={"x-hostile": mode}, timeout=10)
    grown = peak_rss() - before
    assert response.status_code == 200
    assert message in response.text[-2000:]  # the last event is the error, the stream ended cleanly
    tail = response.text.rstrip()[-1000:]
    assert "error" in tail and (tail.endswith("}") or "event: error" in tail)
    assert grown < MARGIN, f"peak RSS grew by {grown >> 20} MB"
    assert seen.sent < TOTAL // 4  # the upstream connection was closed early
    assert eventually(lambda: any(message in line for line in log))


@pytest.mark.parametrize(("mode", "path", "body", "headers"), [
    ("whole", "/chat/completions", CHAT, {}),
    ("gzip-whole", "/chat/completions", CHAT, {}),
    ("whole", "/messages", ANTHROPIC, {}),
    ("whole", "/models", None, {"anthropic-version": "2023-06-01"}),
    ("whole", "/responses", RESPONSES, {}),
], ids=["json", "gzip-bomb-json", "anthropic-json", "anthropic-models", "responses-json"])
def test_an_endless_whole_answer_is_a_502(servers: Servers, mode: str, path: str,
                                          body: dict[str, object] | None, headers: dict[str, str]) -> None:
    _, upstream = servers.hostile()
    base_url, log = servers.serve(upstream=upstream, limits=LIMITS)
    bomb()
    before = reset_peak()
    method = "POST" if body is not None else "GET"
    response = httpx2.request(method, f"{base_url}{path}", json=body, headers={"x-hostile": mode, **headers},
                              timeout=10)
    grown = peak_rss() - before
    assert response.status_code == 502
    assert "larger than" in response.text
    assert grown < MARGIN, f"peak RSS grew by {grown >> 20} MB"
    assert eventually(lambda: any("larger than" in line for line in log))


def test_a_gzip_bomb_request_is_a_413_without_inflating_it(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, limits=LIMITS)
    bomb = gzip.compress(b'{"model": "m", "messages": [], "x": "' + bytes(64 << 20), compresslevel=1)
    before = reset_peak()
    response = httpx2.post(f"{base_url}/chat/completions", content=bomb, timeout=10,
                           headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})
    grown = peak_rss() - before
    assert response.status_code == 413 and not seen.requests
    assert grown < MARGIN // 2, f"peak RSS grew by {grown >> 20} MB"


def test_a_client_that_stops_reading_stops_the_upstream(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, limits=LIMITS)
    before = reset_peak()
    with httpx2.Client(timeout=10) as http, http.stream("POST", f"{base_url}/chat/completions",
                                                         json={**CHAT, "stream": True},
                                                         headers={"x-hostile": "valid"}) as stream:
        next(stream.iter_raw())  # the stream flows; now this client reads nothing more
        sent = [-1]

        def settled() -> bool:  # the upstream's writes block: serve stopped reading it
            sent.append(seen.sent)
            time.sleep(0.05)
            return sent[-1] == sent[-2] == seen.sent
        assert eventually(settled)
    grown = peak_rss() - before
    assert seen.sent < TOTAL // 8 and grown < MARGIN, (seen.sent >> 20, grown >> 20)
