"""Through serve with the official openai SDK's Responses API: /v1/responses on a leaky upstream."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import openai
import orjson
import pytest
from aiohttp import web

from sse_rewrite.stream.sse import SSEDecoder
from tests.serve.servers import Servers, eventually, sdk_clients, upstream_saw

KIMI = "moonshotai/kimi-k2.5"
SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
SHELL = {"type": "function", "name": "bash", "description": "Run a shell command", "parameters": SCHEMA}
PATCH = "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch"
APPLY_PATCH = {"type": "custom", "name": "apply_patch", "description": "Edit files",
               "format": {"type": "grammar", "syntax": "lark", "definition": "start: /(.|\\n)+/"}}

Client = Callable[..., openai.OpenAI]


@pytest.fixture
def client() -> Iterator[Client]:
    """Makes official openai SDK clients (see `sdk_clients`)."""
    yield from sdk_clients(openai.OpenAI)


def test_stream_helper_gets_the_leaked_call_as_a_function_call(servers: Servers, client: Client) -> None:
    base_url, log = servers.serve()
    with client(base_url).responses.stream(model=KIMI, input="please run $ echo hi", tools=[SHELL]) as stream:
        response = stream.get_final_response()
    message, call = response.output
    assert message.type == "message" and message.content[0].text == " I will run it. "  # type: ignore[union-attr]
    assert call.type == "function_call"
    assert (call.call_id, call.name, call.arguments) == ("functions.bash:0", "bash", '{"command": "echo hi"}')
    assert response.status == "completed" and response.usage is not None and response.usage.input_tokens == 10
    sent = upstream_saw(servers)
    assert (sent["model"], sent["stream"], sent["stream_options"]) == (KIMI, True, {"include_usage": True})
    assert sent["tools"] == [{"type": "function", "function": {"name": "bash", "parameters": SCHEMA,
                                                               "description": "Run a shell command"}}]
    done = f"POST /v1/responses {KIMI} 200"
    assert eventually(lambda: any(done in line and "calls 1" in line for line in log))


def test_create_stream_events_are_numbered_and_end_without_done(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    events = list(client(base_url).responses.create(model=KIMI, input="run $ ls", tools=[SHELL], stream=True))
    assert [event.sequence_number for event in events] == list(range(len(events)))
    kinds = [event.type for event in events]
    assert kinds[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert kinds[-1] == "response.completed"
    assert "response.function_call_arguments.done" in kinds
    raw = httpx2.post(f"{base_url}/responses", json={"model": KIMI, "input": "x", "stream": True}, timeout=10)
    decoded = [e for e in SSEDecoder().feed(raw.content) if e.data]
    assert all(e.event == orjson.loads(e.data)["type"] for e in decoded) and b"[DONE]" not in raw.content


def test_a_function_call_output_gives_the_upstream_its_own_ids(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    sdk = client(base_url)
    first = sdk.responses.create(model=KIMI, input="run $ echo hi", tools=[SHELL])
    call = first.output[-1]
    assert call.type == "function_call"
    history = [{"role": "user", "content": "run $ echo hi"}, *(item.to_dict() for item in first.output),
               {"type": "function_call_output", "call_id": call.call_id, "output": "hi\n"}]
    second = sdk.responses.create(model=KIMI, input=history, tools=[SHELL])  # type: ignore[arg-type]
    assert second.output_text == "The tool returned: hi"
    messages = upstream_saw(servers)["messages"]
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"] == "functions.bash:0"
    assert messages[1]["content"] == " I will run it. " and messages[2]["content"] == "hi\n"


def test_a_custom_tool_round_trip(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    sdk = client(base_url)
    with sdk.responses.stream(model=KIMI, input=f"apply $ {PATCH}", tools=[APPLY_PATCH]) as stream:
        kinds = [event.type for event in stream]
        response = stream.get_final_response()
    call = response.output[-1]
    assert call.type == "custom_tool_call" and (call.name, call.input) == ("apply_patch", PATCH)
    assert "response.custom_tool_call_input.done" in kinds
    function = upstream_saw(servers)["tools"][0]["function"]
    assert function["parameters"]["required"] == ["input"]
    about = function["parameters"]["properties"]["input"]["description"]
    assert about.endswith("grammar:\nstart: /(.|\\n)+/")
    output = {"type": "custom_tool_call_output", "call_id": call.call_id, "output": "Done!"}
    second = sdk.responses.create(model=KIMI, input=[*(item.to_dict() for item in response.output), output],
                                  tools=[APPLY_PATCH])  # type: ignore[arg-type]
    assert second.output_text == "The tool returned: Done!"
    assistant, tool = upstream_saw(servers)["messages"][-2:]
    assert orjson.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"input": PATCH}
    assert tool == {"role": "tool", "tool_call_id": call.call_id, "content": "Done!"}


def test_previous_response_id_survives_a_restart(servers: Servers, client: Client, tmp_path: Path) -> None:
    store = tmp_path / "responses.sqlite3"
    base_url, _ = servers.serve(store=store)
    with client(base_url).responses.stream(model=KIMI, instructions="Be brief.", input="run $ echo hi",
                                           tools=[SHELL]) as stream:
        first = stream.get_final_response()
    servers.stop(base_url)
    base_url, _ = servers.serve(store=store)
    sdk = client(base_url)
    assert sdk.responses.retrieve(first.id).output[-1].type == "function_call"
    output = {"type": "function_call_output", "call_id": "functions.bash:0", "output": "hi"}
    second = sdk.responses.create(model=KIMI, previous_response_id=first.id, input=[output],  # type: ignore[list-item]
                                  tools=[SHELL])
    assert second.output_text == "The tool returned: hi"
    roles = [m["role"] for m in upstream_saw(servers)["messages"]]
    assert roles == ["user", "assistant", "tool"]  # instructions are not inherited
    third = sdk.responses.create(model=KIMI, previous_response_id=second.id, input="thanks", store=False)
    assert [m["role"] for m in upstream_saw(servers)["messages"]] == [*roles, "assistant", "user"]
    with pytest.raises(openai.NotFoundError):
        sdk.responses.retrieve(third.id)  # store: false kept nothing
    sdk.responses.delete(first.id)
    with pytest.raises(openai.BadRequestError, match="no stored response"):
        sdk.responses.create(model=KIMI, previous_response_id=first.id, input="again")


def test_without_a_store_previous_response_id_is_a_clear_400(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    with pytest.raises(openai.BadRequestError, match="--store none") as error:
        client(base_url).responses.create(model=KIMI, previous_response_id="resp_x", input="hi")
    assert error.value.body["type"] == "invalid_request_error"  # type: ignore[index]


def test_upstream_errors_come_back_in_the_responses_shape(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    with pytest.raises(openai.RateLimitError) as error:
        client(base_url).responses.create(model=KIMI, input="hi", extra_headers={"x-fake": "status=429"})
    assert error.value.response.headers["retry-after"] == "7"
    assert error.value.body == {"message": "Rate limit exceeded: try later", "type": "rate_limit_error",
                                "code": None, "param": None}
    response = httpx2.post(f"{base_url}/responses", content=b"{", timeout=10)
    assert response.status_code == 400 and response.json()["error"]["type"] == "invalid_request_error"


def test_upstream_dying_mid_stream_is_a_failed_response(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve()
    stream = client(base_url).responses.create(model=KIMI, input="run $ ls", tools=[SHELL], stream=True,
                                               extra_headers={"x-fake": "die-after=5"})
    events = list(stream)
    assert events[-1].type == "response.failed"
    assert events[-1].response.error is not None and "broke off" in events[-1].response.error.message
    assert not any(event.type == "response.output_item.added" and event.item.type == "function_call"
                   for event in events)


def test_client_hanging_up_closes_the_upstream(servers: Servers) -> None:
    base_url, _ = servers.serve()
    body = {"model": KIMI, "input": "run $ ls", "stream": True}
    with httpx2.stream("POST", f"{base_url}/responses", json=body, timeout=10,
                       headers={"x-fake": "hang-after=3,hang=30"}) as response:
        assert b"response.created" in next(response.iter_bytes())
    assert servers.fake.hung_up.wait(1.0)  # the proxy closed its upstream request within a second


def test_keep_alives_go_out_while_the_upstream_is_quiet(servers: Servers, client: Client) -> None:
    base_url, _ = servers.serve(keepalive_interval=0.05)
    body, quiet = {"model": KIMI, "input": "run $ ls", "stream": True}, {"x-fake": "hang-after=8,hang=0.3"}
    raw = httpx2.post(f"{base_url}/responses", json=body, timeout=10, headers=quiet)
    assert b": keep-alive\n\n" in raw.content
    with client(base_url, default_headers=quiet).responses.stream(
            model=KIMI, input="run $ ls", tools=[SHELL]) as stream:
        assert stream.get_final_response().output[-1].type == "function_call"  # the SDK skips comments


def test_a_stream_is_kept_when_its_client_closes_the_moment_it_ends(servers: Servers, client: Client,
                                                                     tmp_path: Path) -> None:
    """curl and one-shot HTTP clients close the connection as the stream ends, while the proxy
    stores the response: it is stored all the same, and the request is logged as a 200."""
    base_url, lines = servers.serve(store=tmp_path / "responses.sqlite3")
    body = {"model": KIMI, "input": "run $ ls", "stream": True, "tools": [SHELL]}
    for _ in range(3):  # (the close races the store's write: each try is a chance to lose it)
        raw = httpx2.post(f"{base_url}/responses", json=body, timeout=10)  # its connection closes on return
        assert raw.content.rstrip().endswith(b"}") and b"event: response.completed" in raw.content
        first = re.search(rb'"id":"(resp_[0-9a-f]+)"', raw.content)
        assert first is not None
        second = client(base_url).responses.create(model=KIMI, previous_response_id=first[1].decode(),
                                                   input="thanks")
        assert second.status == "completed"
        assert [m["role"] for m in upstream_saw(servers)["messages"]] == ["user", "assistant", "user"]
    assert eventually(lambda: sum(" /v1/responses " in line for line in lines) == 6)
    streamed = [line for line in lines if " /v1/responses " in line and " events " in line]
    assert all(" 200 " in line and "client gone" not in line for line in streamed), streamed


ANSWER = [  # a short answer whose finish and usage both come before the stream's end
    {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": KIMI,
     "choices": [{"index": 0, "delta": {"role": "assistant", "content": "done"}, "finish_reason": None}]},
    {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": KIMI,
     "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": KIMI, "choices": [],
     "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}},
]


@pytest.mark.parametrize("kind", [pytest.param("sqlite", id="sqlite"),
                                  pytest.param("postgresql", id="postgresql")])
def test_a_streamed_response_is_stored_before_its_last_event(servers: Servers, tmp_path: Path,
                                                             request: pytest.FixtureRequest,
                                                             kind: str) -> None:
    """The upstream holds its stream open after the answer's finish and usage: the client has
    `response.completed` while the stream is still open, and another instance on the same store
    answers `GET` for it at once (a response still reserved would keep it waiting)."""
    store = tmp_path / "responses.sqlite3" if kind == "sqlite" else request.getfixturevalue("pg_url")
    ended = asyncio.Event()

    async def chat(upstream_request: web.Request) -> web.StreamResponse:
        answer = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await answer.prepare(upstream_request)
        for chunk in ANSWER:
            await answer.write(b"data: " + orjson.dumps(chunk) + b"\n\n")
        await ended.wait()
        await answer.write(b"data: [DONE]\n\n")
        return answer

    first, _ = servers.serve(upstream=servers.chat_upstream(chat), store=store)
    second, _ = servers.serve(store=store)
    body = {"model": KIMI, "input": "hi", "stream": True}
    with httpx2.stream("POST", f"{first}/responses", json=body, timeout=10) as events:
        lines = events.iter_lines()
        completed = next(line for line in lines if line.startswith("data:") and "response.completed" in line)
        response = orjson.loads(completed.removeprefix("data:"))["response"]
        try:
            stored = httpx2.get(f"{second}/responses/{response['id']}", timeout=5)
        finally:
            servers.loop.loop.call_soon_threadsafe(ended.set)
        assert not any("response.failed" in line for line in lines)  # then it ends normally
    assert stored.status_code == 200 and stored.json() == response


@pytest.mark.parametrize("kind", [pytest.param("sqlite", id="sqlite"),
                                  pytest.param("postgresql", id="postgresql")])
def test_a_whole_answer_is_stored_as_the_bytes_its_client_got(servers: Servers, tmp_path: Path,
                                                              request: pytest.FixtureRequest,
                                                              kind: str) -> None:
    """Encoded once: another instance's `GET` serves the very body the creating request answered,
    and the conversation it stored continues there."""
    store = tmp_path / "responses.sqlite3" if kind == "sqlite" else request.getfixturevalue("pg_url")
    first, _ = servers.serve(store=store)
    second, _ = servers.serve(store=store)
    created = httpx2.post(f"{first}/responses", json={"model": KIMI, "input": "run $ echo hi"}, timeout=10)
    assert created.status_code == 200 and created.json()["store"] is True
    stored = httpx2.get(f"{second}/responses/{created.json()['id']}", timeout=5)
    assert stored.status_code == 200 and stored.content == created.content
    body = {"model": KIMI, "input": "thanks", "previous_response_id": created.json()["id"]}
    assert httpx2.post(f"{second}/responses", json=body, timeout=10).status_code == 200
    assert [m["role"] for m in upstream_saw(servers)["messages"]][:2] == ["user", "assistant"]
