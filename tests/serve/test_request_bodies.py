"""What goes upstream from a client's request: compressed bodies, and the headers that stay here."""

from __future__ import annotations

import gzip
import zlib

import httpx2
import orjson
import pytest

from sse_rewrite.serve.limits import Limits
from tests.serve.servers import Servers

CHAT = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi " * 1000}]}


@pytest.mark.parametrize(("encoding", "compress"), [
    ("gzip", gzip.compress), ("deflate", zlib.compress),
    ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, as some clients send it
], ids=["gzip", "deflate", "raw-deflate"])
@pytest.mark.parametrize("path", ["/chat/completions", "/echo/x"])
def test_a_compressed_body_goes_upstream_inflated_and_labelled_so(servers: Servers, encoding: str,
                                                                  compress: object, path: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream)
    body = orjson.dumps(CHAT)
    sent = compress(body)  # type: ignore[operator]
    response = httpx2.post(f"{base_url}{path}", content=sent, timeout=5,
                           headers={"Content-Encoding": encoding, "Content-Type": "application/json"})
    assert response.status_code == 200
    [request] = seen.requests
    assert request["body"] == body
    headers = {name.lower(): value for name, value in request["headers"].items()}
    assert "content-encoding" not in headers and headers["content-length"] == str(len(body))


def test_a_broken_gzip_body_is_a_400(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream)
    response = httpx2.post(f"{base_url}/chat/completions", content=b"\x1f\x8b not gzip", timeout=5,
                           headers={"Content-Encoding": "gzip"})
    assert response.status_code == 400 and not seen.requests


def test_an_encoding_not_known_here_goes_on_as_sent(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream)
    httpx2.post(f"{base_url}/echo/x", content=b"\x00br bytes", headers={"Content-Encoding": "br"}, timeout=5)
    [request] = seen.requests
    assert request["body"] == b"\x00br bytes" and request["headers"]["Content-Encoding"] == "br"


def test_client_only_headers_stay_here(servers: Servers) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, api_key="key")
    client_headers = {"Cookie": "session=1", "Forwarded": "for=1.2.3.4", "X-Forwarded-For": "1.2.3.4",
                      "X-Forwarded-Host": "evil.example", "X-Real-IP": "1.2.3.4", "X-Keep": "1",
                      "Proxy-Authorization": "Basic x", "Authorization": "Bearer client"}
    for path in ("/chat/completions", "/echo/x"):
        httpx2.post(f"{base_url}{path}", json=CHAT, headers=client_headers, timeout=5)
    for request in seen.requests:
        names = {name.lower() for name in request["headers"]}
        assert names.isdisjoint({"cookie", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip",
                                 "proxy-authorization"})
        assert request["headers"]["X-Keep"] == "1" and request["headers"]["Authorization"] == "Bearer key"


@pytest.mark.parametrize("path", ["/chat/completions", "/messages", "/responses", "/echo/x"])
def test_a_body_over_the_cap_is_a_413_and_goes_nowhere(servers: Servers, path: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream, limits=Limits(request_bytes=1000))
    response = httpx2.post(f"{base_url}{path}", content=b"{" + b" " * 5000 + b"}", timeout=5)
    assert response.status_code == 413 and not seen.requests
    if path == "/messages":
        assert response.json()["error"]["type"] == "request_too_large"
