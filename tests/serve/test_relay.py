"""Streams through serve when the upstream stalls, dies, or the client hangs up."""

from __future__ import annotations

import httpx2
import orjson
import pytest

from examples.leaked_syntaxes import tokens
from examples.leaky_upstream import answer
from tests.serve.servers import Servers, eventually

REQUEST = {"model": "moonshotai/kimi-k2.5", "stream": True,
           "messages": [{"role": "user", "content": "$ echo hi"}]}


def event_number(token: str) -> int:
    """The number of the upstream event carrying `token` (event 0 is the keep-alive comment)."""
    return tokens(answer(REQUEST)).index(token) + 1


def events(body: bytes) -> list[bytes]:
    """The SSE blocks of `body`."""
    return [block for block in body.split(b"\n\n") if block]


def tool_calls(body: bytes) -> list[dict[str, object]]:
    """Every tool_calls delta in an OpenAI SSE body."""
    found = []
    for block in events(body):
        if block.startswith(b"data: {"):
            for choice in orjson.loads(block[6:]).get("choices", []):
                found += choice["delta"].get("tool_calls", [])
    return found


def post(base_url: str, knobs: str, timeout: float = 10) -> httpx2.Response:
    return httpx2.post(f"{base_url}/chat/completions", json=REQUEST, headers={"x-fake": knobs},
                       timeout=timeout)


def test_a_keepalive_comment_goes_out_while_a_call_is_held_back(servers: Servers) -> None:
    base_url, _ = servers.serve(keepalive_interval=0.05)
    stall = event_number("<|tool_call_argument_begin|>")
    body = post(base_url, f"hang-after={stall},hang=0.3").content
    blocks = events(body)
    first_keepalive = blocks.index(b": keep-alive")
    assert blocks.count(b": keep-alive") >= 2  # one an interval while the upstream stalls, not one
    assert not tool_calls(b"\n\n".join(blocks[:first_keepalive]))  # the call was held, not lost
    assert blocks[-1] == b"data: [DONE]"
    [call] = tool_calls(body)
    assert call["function"] == {"name": "bash", "arguments": '{"command": "echo hi"}'}


def test_no_keepalive_while_the_stream_flows(servers: Servers) -> None:
    base_url, _ = servers.serve(keepalive_interval=5)
    assert b": keep-alive" not in post(base_url, "").content


def test_an_upstream_that_dies_mid_call_ends_the_stream_with_what_was_repaired(servers: Servers) -> None:
    base_url, log = servers.serve()
    body = post(base_url, f"die-after={event_number('<|tool_call_end|>')}").content
    assert b"[DONE]" not in body
    [call] = tool_calls(body)  # its arguments were complete: the flush recovers it
    assert call["function"] == {"name": "bash", "arguments": '{"command": "echo hi"}'}
    assert eventually(lambda: any("upstream-ended" in line for line in log))
    assert eventually(lambda: any("(upstream ended early)" in line for line in log))


def test_an_upstream_silent_past_the_read_timeout_mid_stream_ends_the_stream(servers: Servers) -> None:
    base_url, log = servers.serve(read_timeout=0.3, keepalive_interval=0.05)
    body = post(base_url, f"hang-after={event_number('<|tool_call_end|>')},hang=5").content
    assert b": keep-alive" in body and b"[DONE]" not in body
    [call] = tool_calls(body)
    assert call["function"] == {"name": "bash", "arguments": '{"command": "echo hi"}'}
    assert eventually(lambda: any("upstream-ended" in line for line in log))


def test_an_upstream_that_dies_in_the_arguments_loses_no_text(servers: Servers) -> None:
    base_url, _ = servers.serve()
    body = post(base_url, f"die-after={event_number('<|tool_call_argument_begin|>') + 2}").content
    assert not tool_calls(body)
    text = b"".join(orjson.loads(block[6:])["choices"][0]["delta"].get("content", "").encode()
                    for block in events(body) if block.startswith(b"data: {"))
    assert text.startswith(b" I will run it. <|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0")


def test_an_upstream_dead_before_any_byte_is_a_502(servers: Servers) -> None:
    base_url, _ = servers.serve()
    response = post(base_url, "die-after=0")
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "upstream_broken"


@pytest.mark.parametrize("fake", ["hang-after=3", "prose=2000,delay=0.005"], ids=["silent", "streaming"])
def test_a_client_that_hangs_up_closes_the_upstream_request(servers: Servers, fake: str) -> None:
    base_url, log = servers.serve()  # no keep-alive is due: only the hang-up can end it
    url, knobs = f"{base_url}/chat/completions", {"x-fake": fake}
    with httpx2.Client(timeout=10) as http, http.stream("POST", url, json=REQUEST, headers=knobs) as stream:
        for _ in stream.iter_bytes():
            break  # got the first bytes: hang up while the upstream is silent
    assert servers.fake.hung_up.wait(1.0)
    assert eventually(lambda: any("(client gone)" in line for line in log))
