"""Upstream errors, timeouts and untouched forwarding, through serve."""

from __future__ import annotations

import httpx2
import openai
import pytest
from multidict import CIMultiDict

from sse_rewrite.serve.settings import ServeSettings
from sse_rewrite.serve.upstream import Upstream, end_to_end
from tests.serve.servers import Servers, eventually

REQUEST = {"model": "moonshotai/kimi-k2.5", "stream": True, "messages": [{"role": "user", "content": "$ ls"}]}


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_an_upstream_http_error_keeps_status_body_and_retry_after(servers: Servers, stream: bool) -> None:
    base_url, _ = servers.serve()
    client = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)
    with pytest.raises(openai.RateLimitError) as raised:
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=stream,
                                       extra_headers={"x-fake": "status=429"})
    assert raised.value.status_code == 429
    assert raised.value.response.headers["retry-after"] == "7"
    assert raised.value.body == {"code": 429, "message": "Rate limit exceeded: try later"}


def test_an_upstream_silent_before_its_first_byte_is_a_504(servers: Servers) -> None:
    base_url, _ = servers.serve(read_timeout=0.2)
    response = httpx2.post(f"{base_url}/chat/completions", json=REQUEST, headers={"x-fake": "slow-headers=1"},
                           timeout=10)
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "upstream_timeout"
    assert response.json()["error"]["type"] == "upstream_error"


def test_an_unreachable_upstream_is_a_502(servers: Servers) -> None:
    base_url, _ = servers.serve(upstream="http://127.0.0.1:9/v1")  # discard port: nothing listens
    response = httpx2.post(f"{base_url}/chat/completions", json=REQUEST, timeout=10)
    assert response.status_code == 502
    error = response.json()["error"]
    assert error["code"] == "upstream_unreachable" and "unreachable" in error["message"]
    assert httpx2.get(f"{base_url}/models", timeout=10).status_code == 502


def test_models_are_forwarded_untouched(servers: Servers) -> None:
    base_url, _ = servers.serve()
    direct = httpx2.get(f"{servers.upstream}/models", timeout=10)
    proxied = httpx2.get(f"{base_url}/models", timeout=10)
    assert (proxied.status_code, proxied.content) == (200, direct.content)
    assert proxied.headers["content-type"] == direct.headers["content-type"]


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
def test_other_paths_keep_method_query_body_and_end_to_end_headers(servers: Servers, method: str) -> None:
    base_url, _ = servers.serve()
    response = httpx2.request(
        method, f"{base_url}/echo/a%20b?x=1&y=%2F", content=b"raw \x00 bytes" if method != "GET" else b"",
        headers={"X-Keep": "1", "X-Drop": "1", "Connection": "keep-alive, X-Drop",
                 "Authorization": "Bearer c"},
        timeout=10)
    echo = response.json()
    assert (echo["method"], echo["raw_path"]) == (method, "/v1/echo/a%20b?x=1&y=%2F")
    assert echo["body"] == ("raw \x00 bytes" if method != "GET" else "")
    assert echo["headers"]["X-Keep"] == "1" and echo["headers"]["Authorization"] == "Bearer c"
    assert "X-Drop" not in echo["headers"]
    assert response.headers["x-echo"] == "yes"


def test_hop_by_hop_headers_and_those_connection_names_are_dropped() -> None:
    headers = CIMultiDict({"Connection": "close, X-Private", "X-Private": "1", "Keep-Alive": "5",
                           "Transfer-Encoding": "chunked", "Host": "h", "TE": "trailers", "X-Ok": "1"})
    assert dict(end_to_end(headers)) == {"X-Ok": "1"}


@pytest.mark.parametrize(("path", "url"), [
    ("/v1/models", "http://up/api/v1/models"),
    ("/v1/models?x=%20", "http://up/api/v1/models?x=%20"),
    ("/chat/completions", "http://up/api/v1/chat/completions"),
    ("/v1x/y", "http://up/api/v1/v1x/y"),
])
def test_client_paths_map_onto_the_upstream_base(path: str, url: str) -> None:
    assert Upstream(ServeSettings(upstream="http://up/api/v1")).url(path) == url


def test_upstream_connections_are_reused_between_requests(servers: Servers) -> None:
    base_url, _ = servers.serve()
    for stream in (True, False, True):
        httpx2.post(f"{base_url}/chat/completions", json={**REQUEST, "stream": stream}, timeout=10)
    assert len({request["peer"] for request in servers.fake.requests}) == 1


def test_a_forwarded_body_cut_short_cuts_the_clients_connection(servers: Servers) -> None:
    base_url, log = servers.serve()
    with pytest.raises(httpx2.RemoteProtocolError):
        httpx2.get(f"{base_url}/echo/x", headers={"x-fake": "die-after"}, timeout=10)
    assert eventually(lambda: any("(upstream ended early" in line for line in log))
