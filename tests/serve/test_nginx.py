"""The README's nginx config, run by a real nginx in front of two serve instances on one PostgreSQL.

A Responses conversation through nginx alternates between the instances (each one's
`/metrics`, scraped directly, counts its turns) and every turn sees the whole conversation;
a stream comes through event by event: the first event reaches the client while the upstream
(a fake the test holds) has not sent the rest. Skipped, with the reason, where there is no
nginx or no PostgreSQL server (`.ci/run` installs nginx).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx2
import openai
import orjson
import pytest
from aiohttp import web

from tests.serve.metrics_text import scrape, value
from tests.serve.nginx import Nginx
from tests.serve.servers import Servers

MODEL = "moonshotai/kimi-k2.5"
HOST = {"Host": "sse.internal"}  # the README's server_name, and serve's --allow-host


def chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    """One upstream SSE event."""
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + orjson.dumps(body) + b"\n\n"


class Upstream:
    """The fake upstream both instances use: it echoes how many user turns it got; a stream asked
    with `hold` in its last message stops after its first event until the test lets it go on."""

    def __init__(self) -> None:
        self.go_on = asyncio.Event()
        self.turns: list[int] = []

    async def chat(self, request: web.Request) -> web.StreamResponse:
        """`POST /v1/chat/completions`."""
        body = await request.json()
        users = [m for m in body["messages"] if m["role"] == "user"]
        self.turns.append(len(users))
        text = f"you said {len(users)} things"
        if not body.get("stream"):
            message = {"role": "assistant", "content": text}
            return web.json_response({"id": "c1", "object": "chat.completion", "created": 1, "model": MODEL,
                                      "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
        answer = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await answer.prepare(request)
        await answer.write(chunk({"role": "assistant", "content": "first "}))
        if "hold" in str(users[-1]["content"]):
            await self.go_on.wait()
        await answer.write(chunk({"content": text}) + chunk({}, "stop") + b"data: [DONE]\n\n")
        return answer


@pytest.fixture
def nginx_pair(servers: Servers, pg_url: str) -> Iterator[tuple[Nginx, list[str], Upstream]]:
    """nginx (the README's config) in front of two instances on one database, their fake upstream."""
    upstream = Upstream()
    base = servers.chat_upstream(upstream.chat)
    settings = {"upstream": base, "store": pg_url, "allow_hosts": ("sse.internal",), "metrics_public": True}
    instances = [servers.serve(**settings)[0] for _ in range(2)]
    addresses = tuple(url.removeprefix("http://").removesuffix("/v1") for url in instances)
    nginx, why_not = Nginx.start_new((addresses[0], addresses[1]))
    if nginx is None:
        pytest.skip(why_not)
    yield nginx, instances, upstream
    servers.loop.loop.call_soon_threadsafe(upstream.go_on.set)
    nginx.stop()


def turns_answered(instance: str) -> float:
    """The Responses requests `instance` answered with 200, from its own `/metrics`."""
    samples = scrape(instance.removesuffix("/v1"))
    return value(samples, "sse_rewrite_requests_total", front="responses", status="200",
                 upstream_status="200")


def test_a_conversation_through_nginx_alternates_between_the_instances(
        nginx_pair: tuple[Nginx, list[str], Upstream]) -> None:
    nginx, instances, upstream = nginx_pair
    client = openai.OpenAI(base_url=nginx.url, api_key="k", max_retries=0, timeout=10, default_headers=HOST)
    previous = None
    for turn in range(6):
        if turn % 2:
            response = client.responses.create(model=MODEL, input=f"turn {turn}",
                                               previous_response_id=previous)
        else:  # every other turn streamed
            with client.responses.stream(model=MODEL, input=f"turn {turn}",
                                         previous_response_id=previous) as stream:
                response = stream.get_final_response()
        assert response.status == "completed" and response.output_text.endswith(f"you said {turn + 1} things")
        previous = response.id
    client.close()
    assert upstream.turns == [1, 2, 3, 4, 5, 6]  # each turn had the whole conversation, from either instance
    answered = [turns_answered(instance) for instance in instances]
    assert sum(answered) == 6 and min(answered) >= 1, answered  # both instances served turns
    assert httpx2.get(f"http://127.0.0.1:{nginx.port}/metrics", headers=HOST).status_code == 404


def test_a_stream_through_nginx_is_not_buffered(nginx_pair: tuple[Nginx, list[str], Upstream],
                                                servers: Servers) -> None:
    nginx, _, upstream = nginx_pair
    body = {"model": MODEL, "input": "hold", "stream": True}
    with httpx2.stream("POST", f"{nginx.url}/responses", json=body, headers=HOST, timeout=10) as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        lines = events.iter_lines()
        try:  # the upstream holds its second event until this one has come through nginx
            first = next(line for line in lines if '"response.output_text.delta"' in line)
        finally:
            servers.loop.loop.call_soon_threadsafe(upstream.go_on.set)
        rest = list(lines)
    assert '"delta":"first "' in first
    assert any("response.completed" in line for line in rest)
    assert "[error]" not in nginx.log()
