"""`GET /metrics`: after a leaky stream, an upstream error, a stream that breaks and a client that
hangs up, the counters say what happened; the route is covered by the access token."""

from __future__ import annotations

import re
from pathlib import Path

import httpx2
import pytest

from sse_rewrite.serve.access import refusal
from sse_rewrite.serve.settings import ServeSettings
from tests.serve.metrics_text import scrape, total, value
from tests.serve.servers import Servers, eventually

KIMI = "moonshotai/kimi-k2.5"
CHAT = {"model": KIMI, "stream": True, "messages": [{"role": "user", "content": "run $ ls"}],
        "tools": [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]}


def chat(base_url: str, knobs: str = "") -> httpx2.Response:
    """One streamed chat request (fake knobs in `x-fake`)."""
    return httpx2.post(f"{base_url}/chat/completions", json=CHAT, headers={"x-fake": knobs}, timeout=10)


def test_the_counters_match_what_happened(servers: Servers) -> None:
    base_url, log = servers.serve()
    root = base_url.removesuffix("/v1")
    leaky = chat(base_url)
    assert leaky.status_code == 200 and '"tool_calls"' in leaky.text
    assert chat(base_url, "status=429").status_code == 429
    assert chat(base_url, "die-after=5").status_code == 200  # the upstream breaks off: a notice
    url = f"{base_url}/chat/completions"
    with httpx2.Client(timeout=10) as http, http.stream("POST", url, json=CHAT,
                                                        headers={"x-fake": "hang-after=3"}) as stream:
        for _ in stream.iter_bytes():
            break  # the first bytes are in: hang up
    assert servers.fake.hung_up.wait(2.0)
    assert eventually(lambda: sum(" /v1/chat/completions " in line for line in log) == 4)
    lines = [line for line in log if " /v1/chat/completions " in line]
    samples = scrape(root)

    requests = "sse_rewrite_requests_total"
    assert value(samples, requests, front="openai", status="429", upstream_status="429") == 1
    answered = total(samples, requests, front="openai", upstream_status="200")
    assert answered == 3 == sum(" 200 " in line or "client gone" in line for line in lines)
    calls = {dict(labels)["syntax"]: count for (name, labels), count in samples.items()
             if name == "sse_rewrite_repaired_calls_total" and dict(labels)["model"] == KIMI}
    assert sum(calls.values()) == sum(int(m[1]) for line in lines if (m := re.search(r"calls (\d+)", line)))
    assert all("kimi" in syntax for syntax in calls)  # the syntaxes the rewriter read Kimi's stream as
    assert value(samples, "sse_rewrite_notices_total", code="upstream-ended") == \
        sum("upstream-ended" in line for line in log) == 1
    events = [re.search(r"events (\d+)>(\d+)", line) for line in lines]
    assert value(samples, "sse_rewrite_events_in_total", front="openai") == \
        sum(int(m[1]) for m in events if m)
    assert value(samples, "sse_rewrite_events_out_total", front="openai") == \
        sum(int(m[2]) for m in events if m)
    assert value(samples, "sse_rewrite_stream_duration_seconds_count", front="openai") == 3  # the streams
    assert value(samples, "sse_rewrite_time_to_first_byte_seconds_count", front="openai") == 4
    assert value(samples, "sse_rewrite_upstream_time_to_first_byte_seconds_count", front="openai") == 4
    assert value(samples, "sse_rewrite_open_upstream_connections") == 0
    assert value(samples, "sse_rewrite_open_client_connections") >= 1  # the scrape's own
    again = scrape(root)  # the first scrape is counted as the server's own request
    assert value(again, "sse_rewrite_requests_total", front="server", status="200", upstream_status="-") == 1


def test_a_whole_answers_calls_are_counted_under_the_syntax_read(servers: Servers) -> None:
    """Not streamed (chat.completions and Responses): the repaired calls carry the syntax the
    body was read as, as a stream's do."""
    base_url, _ = servers.serve()
    assert '"tool_calls"' in httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": False},
                                         timeout=10).text
    answer = httpx2.post(f"{base_url}/responses", timeout=10, json={
        "model": KIMI, "input": "run ls", "tools": [{"type": "function", "name": "bash", "parameters": {}}]})
    assert '"function_call"' in answer.text
    samples = scrape(base_url.removesuffix("/v1"))
    calls = {dict(labels)["syntax"]: count for (name, labels), count in samples.items()
             if name == "sse_rewrite_repaired_calls_total" and dict(labels)["model"] == KIMI}
    assert sum(calls.values()) == 2 and all("kimi" in syntax for syntax in calls), calls


_FRONTS = {  # front: its path (streamed, whole) and a request body that leaks a Kimi call
    "openai": (("/v1/chat/completions",) * 2, {"model": KIMI, "messages": CHAT["messages"],
                                                "tools": CHAT["tools"]}),
    "anthropic": (("/v1/messages",) * 2, {"model": KIMI, "max_tokens": 100, "messages": CHAT["messages"]}),
    "responses": (("/v1/responses",) * 2, {"model": KIMI, "input": "run $ ls"}),
    "gemini": (("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
                "/v1beta/models/gemini-2.5-pro:generateContent"),
               {"contents": [{"parts": [{"text": "run $ ls"}]}]}),
}


@pytest.mark.parametrize("front", [pytest.param(front, id=front) for front in _FRONTS])
def test_every_front_counts_events_in_and_out(servers: Servers, front: str) -> None:
    """A stream counts the upstream's events and those its client got; a whole answer one of each."""
    base_url, log = servers.serve()
    root = base_url.removesuffix("/v1")
    (streamed_path, whole_path), body = _FRONTS[front]
    streamed = httpx2.post(root + streamed_path, json={**body, "stream": True}, timeout=10)
    whole = httpx2.post(root + whole_path, json={**body, "stream": False}, timeout=10)
    assert streamed.status_code == whole.status_code == 200
    assert eventually(lambda: sum(" 200 " in line for line in log) == 2)  # (and any notice lines)
    counted = [re.search(r"events (\d+)>(\d+)", line) for line in log if " 200 " in line]
    assert counted[1] is not None and counted[1].groups() == ("1", "1"), log  # the whole one
    assert counted[0] is not None and int(counted[0][1]) > 1, log
    written = streamed.text.count("\n\n")
    assert int(counted[0][2]) == written, log
    samples = scrape(root)
    assert value(samples, "sse_rewrite_events_in_total", front=front) == int(counted[0][1]) + 1
    assert value(samples, "sse_rewrite_events_out_total", front=front) == written + 1


def test_store_operations_are_counted(servers: Servers, tmp_path: Path) -> None:
    """A stream's response is reserved, then written; a whole answer's is only written (its id
    reaches the client with it); `previous_response_id` reads one."""
    base_url, _ = servers.serve(store=tmp_path / "r.sqlite3")
    body = {"model": KIMI, "input": "run $ ls"}
    events = httpx2.post(f"{base_url}/responses", json={**body, "stream": True}, timeout=10).text
    first_id = re.search(r'"id":"(resp_[^"]+)"', events).group(1)  # type: ignore[union-attr]
    httpx2.post(f"{base_url}/responses", json={**body, "previous_response_id": first_id}, timeout=10)
    samples = scrape(base_url.removesuffix("/v1"))
    counts = {op: value(samples, "sse_rewrite_store_operations_total", operation=op, outcome="ok")
              for op in ("reserve", "put", "get")}
    assert counts == {"reserve": 1, "put": 2, "get": 1}
    assert total(samples, "sse_rewrite_store_operations_total", outcome="error") == 0


def test_metrics_need_the_access_token_unless_public_to_loopback(servers: Servers) -> None:
    base_url, _ = servers.serve(access_token="sekret")
    root = base_url.removesuffix("/v1")
    assert httpx2.get(f"{root}/metrics", timeout=5).status_code == 401
    assert "sse_rewrite_requests_total" in httpx2.get(f"{root}/metrics", timeout=5,
                                                      headers={"Authorization": "Bearer sekret"}).text
    public, _ = servers.serve(access_token="sekret", metrics_public=True)
    assert httpx2.get(f"{public.removesuffix('/v1')}/metrics", timeout=5).status_code == 200


@pytest.mark.parametrize(("target", "public", "status"), [
    pytest.param("/metrics", False, 401, id="token-needed"),
    pytest.param("/metrics", True, None, id="public-from-loopback"),
    pytest.param("/metrics?x=1", True, 401, id="public-means-exactly-metrics"),
    pytest.param("/v1/models", True, 401, id="public-metrics-opens-nothing-else"),
    pytest.param("/readyz", False, None, id="probes-are-open"),
    pytest.param("/livez", False, None, id="liveness-is-open"),
])
def test_who_may_read_metrics_and_probes(target: str, public: bool, status: int | None) -> None:
    settings = ServeSettings(upstream="http://127.0.0.1:9/v1", access_token="sekret")
    refused = refusal("GET", target, {"Host": "127.0.0.1"}, settings, public_metrics=public)
    assert (refused.status if refused else None) == status


def test_one_scrape_sees_every_worker(servers: Servers, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", servers.upstream, "--port", "0",
               "--workers", "2", "--store", "none"]
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with subprocess.Popen(command, stderr=subprocess.PIPE, env=env) as server:
        try:
            assert server.stderr is not None
            base_url = server.stderr.readline().decode().split("listening on ")[1].split()[0]
            server.stderr.readline()  # the workers' ids
            for _ in range(8):  # new connections each: the kernel spreads them over both workers
                assert chat(base_url).status_code == 200
            for _ in range(3):  # whichever worker answers the scrape, it counts all eight
                samples = scrape(base_url.removesuffix("/v1"))
                assert value(samples, "sse_rewrite_requests_total", front="openai", status="200",
                             upstream_status="200") == 8
                assert total(samples, "sse_rewrite_repaired_calls_total", model=KIMI) == 8
            server.send_signal(signal.SIGTERM)
            assert server.wait(10) == 0
        finally:
            if server.poll() is None:
                server.kill()
