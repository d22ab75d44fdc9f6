"""The log cannot be forged or driven by what clients and the upstream send; bad requests give one line."""

from __future__ import annotations

import httpx2
import pytest

from sse_rewrite.serve.request_log import printable
from sse_rewrite.serve.state import LOG
from tests.serve.servers import Servers, eventually, raw_exchange


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1].split("/")[0])


def test_control_characters_are_spelled_out() -> None:
    assert printable("a\nb\r\x1b[31mc\u2028d\x85\x7f") == "a\\x0ab\\x0d\\x1b[31mc\\u2028d\\x85\\x7f"
    assert printable("moonshotai/kimi-k2.5 \u00e9") == "moonshotai/kimi-k2.5 \u00e9"


def test_a_model_and_a_path_cannot_forge_log_lines(servers: Servers) -> None:
    base_url, log = servers.serve()
    model = "m\n#99 POST /v1/chat/completions admin 200 0.01s\x1b[2J"
    httpx2.post(f"{base_url}/chat/completions", json={"model": model, "messages": []}, timeout=5)
    raw_exchange(_port(base_url),
                 b"GET /v1/x%0a\x1b[31m HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert eventually(lambda: len(log) >= 2)
    assert all("\n" not in line and "\x1b" not in line for line in log)
    assert any("m\\x0a#99 POST" in line for line in log)


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Length: 5\r\nContent-Length: 6\r\n\r\n",
], ids=["garbage", "bad-header", "long-line", "bad-chunk", "two-lengths"])
def test_a_malformed_request_is_a_400_and_no_traceback(servers: Servers, capfd: pytest.CaptureFixture[str],
                                                      request_bytes: bytes) -> None:
    base_url, log = servers.serve()
    answer = raw_exchange(_port(base_url), request_bytes)
    assert answer.split(b" ", 2)[1] in (b"400", b"413", b"431"), answer[:200]
    assert "Traceback" not in capfd.readouterr().err
    assert all("Traceback" not in line and "\n" not in line for line in log)
    assert not servers.fake.requests


def test_a_bad_header_line_is_not_quoted_in_the_log(servers: Servers) -> None:
    base_url, log = servers.serve(access_token="token-secret")
    raw_exchange(_port(base_url), b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                  b"Authorization: Bearer token-secret\r\n"
                                  b"Transfer-Encoding: chunked\r\n\r\nzz\r\n")
    assert eventually(lambda: any("BadHttpMessage" in line for line in log))
    assert all("zz" not in line and "token-secret" not in line for line in log)


def test_a_log_that_cannot_be_written_fails_no_request(servers: Servers) -> None:
    base_url, _ = servers.serve()
    log = servers.runner.app[LOG]

    def broken_pipe(message: str, style: str = "") -> None:
        raise BrokenPipeError(32, "Broken pipe")

    log._diagnostics.say = broken_pipe  # type: ignore[method-assign]
    chat = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ ls"}]}
    response = httpx2.post(f"{base_url}/chat/completions", json=chat, timeout=5)
    assert response.status_code == 200 and "tool_calls" in response.text
