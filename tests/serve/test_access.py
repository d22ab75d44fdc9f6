"""One access decision per request, before any route: the token, /healthz, browsers, methods."""

from __future__ import annotations

import httpx2
import pytest

from tests.serve.servers import Servers, raw_exchange

TOKEN = "token"


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1].split("/")[0])


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize("target", ["/healthz?x=1", "/%68ealthz", "/healthz/", "/HEALTHZ", "//healthz",
                                    "/v1/../healthz", "/healthz/..", "/v1/models", "/v1/chat/completions",
                                    "/v1/responses", "/v1/responses/resp_x"])
def test_without_the_token_nothing_but_get_and_head_of_healthz_is_open(servers: Servers, target: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, api_key="key", access_token=TOKEN)
    for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "PROPFIND"):
        answer = raw_exchange(_port(base_url), f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                               "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
        assert _status(answer) == 401, (method, answer[:300])
    assert not seen.requests


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_get_and_head_of_healthz_answer_without_the_token_and_without_the_upstream(
        servers: Servers, method: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, api_key="key", access_token=TOKEN)
    response = httpx2.request(method, base_url.removesuffix("/v1") + "/healthz", timeout=5)
    assert response.status_code == 200 and not seen.requests


@pytest.mark.parametrize("value", ["Bearer t\u00f6ken", "Bearer \u2603", "Bearer \udcff"])
def test_a_token_header_that_is_not_ascii_is_a_401(servers: Servers, value: str) -> None:
    base_url, log = servers.serve(access_token=TOKEN)
    raw = value.encode("utf-8", "surrogateescape")
    answer = raw_exchange(_port(base_url), b"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                          + raw + b"\r\nx-api-key: " + raw + b"\r\nConnection: close\r\n\r\n")
    assert _status(answer) == 401, answer[:300]
    assert not any("internal error" in line for line in log)


@pytest.mark.parametrize("method", ["TRACE", "CONNECT"])
def test_trace_and_connect_are_refused(servers: Servers, method: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream)
    target = "127.0.0.1:80" if method == "CONNECT" else "/v1/models"
    answer = raw_exchange(_port(base_url), f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                           "Connection: close\r\n\r\n".encode())
    assert _status(answer) in (400, 405) and not seen.requests


@pytest.mark.parametrize("host", ["rebind.evil.example", "rebind.evil.example:8787",
                                  "localhost.evil.example"])
def test_a_host_that_is_not_this_server_is_a_403(servers: Servers, host: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, api_key="key")
    response = httpx2.post(f"{base_url}/chat/completions", json={}, headers={"Host": host}, timeout=5)
    assert response.status_code == 403 and response.json()["error"]["code"] == "host_not_allowed"
    assert not seen.requests


@pytest.mark.parametrize("host", ["127.0.0.1:8787", "localhost:8787", "[::1]:8787", "LOCALHOST",
                                  "gpu-box", "gpu-box.lan:8787"])
def test_addresses_localhost_and_allowed_names_are_hosts_of_this_server(servers: Servers, host: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, allow_hosts=("gpu-box", "GPU-box.lan"))
    response = httpx2.get(f"{base_url}/models", headers={"Host": host}, timeout=5)
    assert response.status_code == 200 and len(seen.requests) == 1


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}])
def test_a_web_page_is_refused_without_allow_origin(servers: Servers, headers: dict[str, str]) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, api_key="key", allow_origins=("https://app.example",))
    response = httpx2.post(f"{base_url}/chat/completions", content=b"{}", timeout=5,
                           headers={**headers, "Content-Type": "text/plain", "x-hostile": "cors"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in response.headers
    assert not seen.requests


def test_options_is_answered_here_and_a_preflight_only_for_an_allowed_origin(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, access_token=TOKEN, allow_origins=("https://app.example",))
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
    allowed = httpx2.options(f"{base_url}/chat/completions", timeout=5,
                             headers={"Origin": "https://app.example", **preflight})
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == "https://app.example"
    assert allowed.headers["access-control-allow-headers"] == "authorization"
    refused = httpx2.options(f"{base_url}/chat/completions", timeout=5,
                             headers={"Origin": "https://evil.example", **preflight})
    assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers
    assert httpx2.options(f"{base_url}/models", timeout=5).status_code == 204
    assert not seen.requests


@pytest.mark.parametrize("origin", [None, "https://app.example"])
def test_the_upstreams_cors_headers_never_reach_the_client(servers: Servers, origin: str | None) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, allow_origins=("https://app.example",))
    headers = {"x-hostile": "cors", **({"Origin": origin} if origin else {})}
    for response in (httpx2.get(f"{base_url}/models", headers=headers, timeout=5),
                     httpx2.post(f"{base_url}/chat/completions", json={"stream": True}, headers=headers,
                                 timeout=5)):
        assert response.status_code == 200
        cors = {k: v for k, v in response.headers.items() if k.lower().startswith("access-control-")}
        assert cors == ({"access-control-allow-origin": origin} if origin else {})
    assert len(seen.requests) == 2
