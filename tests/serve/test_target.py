"""The upstream is fixed at start-up: a request adds only a normalized origin-form path and its query."""

from __future__ import annotations

import pytest

from sse_rewrite.serve.target import TargetError, UpstreamBase
from tests.serve.servers import Servers, raw_exchange


@pytest.mark.parametrize(("base", "target", "url"), [
    ("https://api.deepseek.com", "/v1/chat/completions", "https://api.deepseek.com/chat/completions"),
    ("https://api.deepseek.com", "/v1?x=1", "https://api.deepseek.com/?x=1"),
    ("https://api.deepseek.com", "/v1/../../x", "https://api.deepseek.com/x"),
    ("https://api.deepseek.com", "/v1/%2e%2e/%2E%2E/x", "https://api.deepseek.com/x"),
    ("https://api.deepseek.com", "//munity/x", "https://api.deepseek.com/munity/x"),
    ("http://up/api/v1", "/v1?x=1", "http://up/api/v1?x=1"),
    ("http://up/api/v1", "/v1/models?x=%20", "http://up/api/v1/models?x=%20"),
    ("http://up/api/v1", "/v1/a/./b/../c/", "http://up/api/v1/a/c/"),
    ("http://up/api/v1", "/../../../../etc/passwd", "http://up/api/v1/etc/passwd"),
    ("http://up/api/v1", "/v1/models/a%2Fb.c", "http://up/api/v1/models/a%2Fb.c"),
    ("http://up/api/v1", "/v1x/y", "http://up/api/v1/v1x/y"),
    ("http://up:8000/v1/", "/chat/completions", "http://up:8000/v1/chat/completions"),
])
def test_targets_map_onto_the_fixed_upstream(base: str, target: str, url: str) -> None:
    assert UpstreamBase.parse(base).url(target) == url


@pytest.mark.parametrize("target", [
    "t://x/healthz", "munity://x/", "http://evil.example/v1/models", "api.deepseek.community:443", "*",
    "x", "/..%2f..%2fx", "/a/..%5Cb", "/a b", "/a#frag",
])
def test_targets_that_are_not_plain_paths_are_refused(target: str) -> None:
    with pytest.raises(TargetError):
        UpstreamBase.parse("https://api.deepseek.com").url(target)


@pytest.mark.parametrize("url", ["ftp://x/v1", "https://user@x/v1", "https:///v1", "https://x/v1?a=1",
                                 "http://x:port/v1"])
def test_an_upstream_url_with_anything_but_scheme_host_port_path_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        UpstreamBase.parse(url)


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1].split("/")[0])


@pytest.mark.parametrize("target", ["t://x/healthz", "http://localhos/v1/models",
                                    "127.0.0.1:9", "munity://x/v1/models"])
def test_absolute_and_authority_form_targets_get_a_400_over_the_wire(servers: Servers, target: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream.removesuffix("/v1"), api_key="key")
    for method in ("GET", "POST", "CONNECT"):
        answer = raw_exchange(_port(base_url), f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                               "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
        assert answer.split(b"\r\n", 1)[0].endswith(b" 400 Bad Request"), answer[:200]
    assert not seen.requests


@pytest.mark.parametrize(("target", "received"), [
    ("/v1/../../x?y=1", "/x?y=1"),
    ("/v1/%2e%2e/%2e%2e/models", "/models"),
    ("//evil.example/v1/models", "/evil.example/v1/models"),
    ("/v1?x=1", "/?x=1"),
])
def test_dot_segments_never_leave_the_base(servers: Servers, target: str, received: str) -> None:
    seen, upstream = servers.hostile()
    base_url, _ = servers.serve(upstream=upstream.removesuffix("/v1"), api_key="key")
    answer = raw_exchange(_port(base_url), f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                           "Connection: close\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert [request["target"] for request in seen.requests] == [received]
    assert seen.requests[0]["headers"]["Host"] == upstream.removeprefix("http://").removesuffix("/v1")
