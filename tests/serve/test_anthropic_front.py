"""Through serve with the official anthropic SDK: /v1/messages on a leaky OpenAI upstream."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

import anthropic
import httpx2
import orjson
import pytest

from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.stream.sse import SSEDecoder
from tests.serve.servers import Servers, eventually, sdk_clients, upstream_saw

KIMI = "moonshotai/kimi-k2.5"
SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
BASH = {"name": "bash", "description": "Run a shell command", "input_schema": SCHEMA}
BASH_FUNCTION = {"type": "function", "function": {"name": "bash", "parameters": SCHEMA,
                                                  "description": "Run a shell command"}}
STREAMED = {"model": "claude-x", "max_tokens": 64, "messages": [], "tools": [BASH], "stream": True}
RUN = [{"role": "user", "content": "please run $ echo hi"}]
PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}


def start(servers: Servers, **settings: Any) -> tuple[str, list[str]]:
    """serve in front of the fake, every Anthropic request sent to a Kimi model; its root URL."""
    settings.setdefault("models", ModelChoice(model=KIMI))
    base_url, log = servers.serve(**settings)
    return base_url.removesuffix("/v1"), log


Client = Callable[..., anthropic.Anthropic]


@pytest.fixture
def client() -> Iterator[Client]:
    """Makes official anthropic SDK clients (see `sdk_clients`)."""
    yield from sdk_clients(anthropic.Anthropic)


def test_streaming_sdk_gets_the_leaked_call_as_a_tool_use_block(servers: Servers, client: Client) -> None:
    base_url, log = start(servers)
    with client(base_url).messages.stream(model="claude-sonnet-test", max_tokens=256, messages=RUN,
                                          tools=[BASH]) as stream:
        message = stream.get_final_message()
    text, call = message.content
    assert text.type == "text" and text.text == " I will run it. "
    assert call.type == "tool_use"
    assert (call.id, call.name, call.input) == ("toolu_functions-2Ebash-3A0", "bash", {"command": "echo hi"})
    assert message.stop_reason == "tool_use" and message.usage.input_tokens == 10
    sent = upstream_saw(servers)
    assert (sent["model"], sent["stream"], sent["stream_options"]) == (KIMI, True, {"include_usage": True})
    assert sent["tools"] == [BASH_FUNCTION]
    # the log line is written once the handler is done, which may be just after the client is
    done = f"POST /v1/messages {KIMI} 200"
    assert eventually(lambda: any(done in line and "calls 1" in line for line in log))


def test_stream_events_follow_the_rules_clients_depend_on(servers: Servers) -> None:
    base_url, _ = start(servers)
    response = httpx2.post(f"{base_url}/v1/messages?beta=true", json={**STREAMED, "messages": RUN},
                           headers={"x-api-key": "k"}, timeout=10)
    assert response.status_code == 200
    events = [(e.event, orjson.loads(e.data)) for e in SSEDecoder().feed(response.content) if e.data]
    assert all(name == data["type"] for name, data in events)
    start_event = events[0][1]
    assert start_event["type"] == "message_start"
    assert set(start_event["message"]["usage"]) >= {"input_tokens", "output_tokens"}
    starts = [data for _, data in events if data["type"] == "content_block_start"]
    assert [s["index"] for s in starts] == list(range(len(starts)))
    texts: dict[int, str] = {s["index"]: "" for s in starts if s["content_block"]["type"] == "text"}
    for _, data in events:
        if data["type"] == "content_block_delta" and data["index"] in texts:
            texts[data["index"]] += data["delta"]["text"]
    assert texts and all(text.strip() for text in texts.values())  # no empty text block
    assert [data["type"] for _, data in events[-2:]] == ["message_delta", "message_stop"]


def test_non_streaming_sdk_gets_the_call(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    ls = [{"role": "user", "content": "$ ls -l"}]
    message = client(base_url).messages.create(model="claude-x", max_tokens=64, messages=ls, tools=[BASH])
    assert [block.type for block in message.content] == ["text", "tool_use"]
    call = message.content[1]
    assert call.type == "tool_use" and call.input == {"command": "ls -l"}
    assert call.id == "toolu_functions-2Ebash-3A0"
    assert message.stop_reason == "tool_use"
    assert "stream" not in upstream_saw(servers)


def test_multi_turn_gives_the_upstream_its_own_ids_back(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    sdk = client(base_url)
    first = sdk.messages.create(model="claude-x", max_tokens=64, messages=RUN, tools=[BASH])
    call = next(block for block in first.content if block.type == "tool_use")
    result = {"type": "tool_result", "tool_use_id": call.id, "content": [{"type": "text", "text": "hi"}]}
    history = [*RUN, {"role": "assistant", "content": first.content},
               {"role": "user", "content": [result]}]
    with sdk.messages.stream(model="claude-x", max_tokens=64, messages=history, tools=[BASH]) as stream:
        final = stream.get_final_message()
    assert [(b.type, getattr(b, "text", None)) for b in final.content] == [("text", "The tool returned: hi")]
    assert final.stop_reason == "end_turn"
    sent = upstream_saw(servers)["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "tool"]
    assert sent[1]["tool_calls"][0]["id"] == "functions.bash:0"
    assert sent[1]["tool_calls"][0]["function"] == {"name": "bash", "arguments": '{"command":"echo hi"}'}
    assert sent[2] == {"role": "tool", "tool_call_id": "functions.bash:0", "content": "hi"}


def test_images_reach_the_upstream_as_image_url_parts(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    content = [{"type": "image", "source": PNG},
               {"type": "image", "source": {"type": "url", "url": "https://example.test/cat.jpg"}},
               {"type": "text", "text": "what is this? $ file cat.jpg"}]
    message = client(base_url).messages.create(model="claude-x", max_tokens=64, tools=[BASH],
                                               messages=[{"role": "user", "content": content}])
    assert message.stop_reason == "tool_use"
    [user] = upstream_saw(servers)["messages"]
    assert user["content"] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "image_url", "image_url": {"url": "https://example.test/cat.jpg"}},
        {"type": "text", "text": "what is this? $ file cat.jpg"},
    ]


@pytest.mark.parametrize(
    ("choice", "sent"),
    [
        pytest.param({"type": "auto"}, "auto", id="auto"),
        pytest.param({"type": "any", "disable_parallel_tool_use": True}, "required", id="any"),
        pytest.param({"type": "tool", "name": "bash"}, {"type": "function", "function": {"name": "bash"}},
                     id="tool"),
        pytest.param({"type": "none"}, "none", id="none"),
    ],
)
def test_tool_choice_reaches_the_upstream(servers: Servers, client: Client, choice: Any, sent: Any) -> None:
    base_url, _ = start(servers)
    client(base_url).messages.create(model="claude-x", max_tokens=64, messages=RUN, tools=[BASH],
                                     tool_choice=choice)
    assert upstream_saw(servers)["tool_choice"] == sent
    parallel = not choice.get("disable_parallel_tool_use")
    assert upstream_saw(servers).get("parallel_tool_calls", True) is parallel


ERRORS = [
    (400, anthropic.BadRequestError, "invalid_request_error"),
    (401, anthropic.AuthenticationError, "authentication_error"),
    (403, anthropic.PermissionDeniedError, "permission_error"),
    (404, anthropic.NotFoundError, "not_found_error"),
    (413, anthropic.ContentTooLargeError, "request_too_large"),
    (429, anthropic.RateLimitError, "rate_limit_error"),
    (500, anthropic.InternalServerError, "api_error"),
    (529, anthropic.OverloadedError, "overloaded_error"),
]


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize(("status", "error_class", "kind"), ERRORS, ids=[str(e[0]) for e in ERRORS])
def test_upstream_errors_come_back_in_anthropic_shape(
    servers: Servers, client: Client, status: int, error_class: type[Exception], kind: str, stream: bool
) -> None:
    base_url, _ = start(servers)
    sdk = client(base_url, default_headers={"x-fake": f"status={status}"})
    with pytest.raises(error_class) as raised:
        if stream:
            with sdk.messages.stream(model="claude-x", max_tokens=64, messages=RUN) as events:
                events.get_final_message()
        else:
            sdk.messages.create(model="claude-x", max_tokens=64, messages=RUN)
    error = raised.value
    assert isinstance(error, anthropic.APIStatusError) and error.status_code == status
    message = "Rate limit exceeded: try later"  # what the fake says, whatever the status
    assert error.body == {"type": "error", "error": {"type": kind, "message": message}}
    assert error.response.headers["retry-after"] == "7"


def test_upstream_dying_mid_stream_is_an_error_event(servers: Servers, client: Client) -> None:
    base_url, log = start(servers)
    sdk = client(base_url, default_headers={"x-fake": "die-after=4"})
    with pytest.raises(anthropic.APIStatusError, match="broke off"), sdk.messages.stream(
            model="claude-x", max_tokens=64, messages=RUN, tools=[BASH]) as stream:
        stream.get_final_message()
    assert eventually(lambda: any("upstream ended early" in line for line in log))


def test_unreachable_upstream_is_an_anthropic_502(servers: Servers, client: Client) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    base_url, _ = start(servers, upstream=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(anthropic.InternalServerError) as raised:
        client(base_url).messages.create(model="claude-x", max_tokens=64, messages=RUN)
    assert raised.value.status_code == 502
    assert raised.value.body["error"]["type"] == "api_error"  # type: ignore[index]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(b"{not json", "not JSON", id="not-json"),
        pytest.param(b'{"model": "m", "messages": [{"role": "tool", "content": "x"}]}', "messages.0.role",
                     id="untranslatable"),
    ],
)
def test_bad_requests_are_400_invalid_request_error(servers: Servers, body: bytes, message: str) -> None:
    base_url, _ = start(servers)
    response = httpx2.post(f"{base_url}/v1/messages", content=body, timeout=10)
    assert response.status_code == 400
    error = response.json()
    assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
    assert message in error["error"]["message"]
    assert servers.fake.requests == []


@pytest.mark.parametrize(("proxy_key", "bearer"), [(None, "client-key"), ("proxy-key", "proxy-key")])
def test_the_key_goes_up_as_a_bearer_and_anthropic_headers_stay(servers: Servers, client: Client,
                                                                 proxy_key: str | None, bearer: str) -> None:
    base_url, _ = start(servers, api_key=proxy_key)
    client(base_url).messages.create(model="claude-x", max_tokens=64, messages=RUN)
    headers = {k.lower(): v for k, v in servers.fake.requests[-1]["headers"].items()}
    assert headers["authorization"] == f"Bearer {bearer}"
    assert not {"x-api-key", "anthropic-version"} & set(headers)


def test_pings_go_out_while_the_upstream_is_quiet(servers: Servers, client: Client) -> None:
    # (a pause 25 intervals long: it failed twice in full runs with 6, at load and once quiet, never alone)
    base_url, _ = start(servers, keepalive_interval=0.02)
    response = httpx2.post(f"{base_url}/v1/messages", json={**STREAMED, "messages": RUN}, timeout=10,
                           headers={"x-api-key": "k", "x-fake": "hang-after=8,hang=0.5"})
    events = [e for e in SSEDecoder().feed(response.content) if e.data]
    names = [e.event for e in events]
    assert "ping" in names and names[0] in ("ping", "message_start") and names[-1] == "message_stop", names
    assert all(orjson.loads(e.data) == {"type": "ping"} for e in events if e.event == "ping")
    with client(base_url, default_headers={"x-fake": "hang-after=8,hang=0.3"}).messages.stream(
            model="claude-x", max_tokens=64, messages=RUN, tools=[BASH]) as stream:
        assert stream.get_final_message().stop_reason == "tool_use"  # the SDK skips the pings


def test_client_hanging_up_closes_the_upstream(servers: Servers) -> None:
    base_url, _ = start(servers)
    with httpx2.stream("POST", f"{base_url}/v1/messages", json={**STREAMED, "messages": RUN}, timeout=10,
                       headers={"x-api-key": "k", "x-fake": "hang-after=3,hang=30"}) as response:
        assert b"message_start" in next(response.iter_bytes())
    assert servers.fake.hung_up.wait(1.0)  # the proxy closed its upstream request within a second


def test_count_tokens_is_a_local_estimate(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    forty = [{"role": "user", "content": "x" * 40}]
    count = client(base_url).messages.count_tokens(model="claude-x", messages=forty)
    assert count.input_tokens == 11  # "user" and 40 x: 44 characters / 4
    assert servers.fake.requests == []


def test_models_list_in_anthropic_shape_and_forwarded_for_others(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    page = client(base_url).models.list()
    assert [(m.id, m.type, m.display_name) for m in page.data] == [(KIMI, "model", KIMI)]
    openai_shape = httpx2.get(f"{base_url}/v1/models", timeout=10).json()
    assert openai_shape["object"] == "list" and openai_shape["data"][0]["owned_by"] == "fake"


def test_the_proxy_access_token_refusal_is_anthropic_shaped(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers, access_token="proxy-token")
    with pytest.raises(anthropic.AuthenticationError) as raised:
        client(base_url).messages.create(model="claude-x", max_tokens=8, messages=RUN)
    assert raised.value.body == {"type": "error", "error": {
        "type": "authentication_error", "message": "missing or wrong access token for this proxy"}}
    sdk = client(base_url, api_key="proxy-token")
    message = sdk.messages.create(model="claude-x", max_tokens=8, messages=RUN)
    assert message.stop_reason == "tool_use"
    assert "authorization" not in {k.lower() for k in servers.fake.requests[-1]["headers"]}


def test_a_models_list_error_is_anthropic_shaped(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers, upstream=f"{servers.upstream}/nowhere")
    with pytest.raises(anthropic.NotFoundError) as raised:
        client(base_url).models.list()
    assert raised.value.body == {"type": "error", "error": {"type": "not_found_error",
                                                            "message": "404: Not Found"}}
