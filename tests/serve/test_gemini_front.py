"""Through serve with the official google-genai SDK: the Gemini API on a leaky upstream."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import orjson
import pytest
from click.testing import CliRunner
from google import genai
from google.genai import errors, types

from sse_rewrite.cli import cli
from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.stream.sse import SSEDecoder
from tests.serve.servers import Servers, captured, eventually, upstream_saw

KIMI = "moonshotai/kimi-k2.5"
SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
SHELL = types.Tool(function_declarations=[types.FunctionDeclaration(
    name="run_shell_command", description="Run a shell command", parameters_json_schema=SCHEMA)])
CONFIG = types.GenerateContentConfig(
    tools=[SHELL], automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
STREAM_PATH = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"

Client = Callable[..., genai.Client]


@pytest.fixture
def client() -> Iterator[Client]:
    """Makes google-genai clients for a serve base URL (no retries, short timeout)."""
    made: list[genai.Client] = []

    def make(base_url: str, api_key: str = "client-key", headers: dict[str, str] | None = None,
             api_version: str = "v1beta") -> genai.Client:
        options = types.HttpOptions(base_url=base_url.removesuffix("/v1"), api_version=api_version,
                                    headers=headers, timeout=10_000,
                                    retry_options=types.HttpRetryOptions(attempts=1))
        made.append(genai.Client(api_key=api_key, http_options=options))
        return made[-1]

    yield make
    for sdk in made:
        sdk.close()


def start(servers: Servers, **settings: Any) -> tuple[str, list[str]]:
    """serve in front of the fake, every Gemini model name sent to the Kimi model."""
    settings.setdefault("models", ModelChoice(KIMI))
    return servers.serve(**settings)


def call_parts(chunks: list[types.GenerateContentResponse]) -> list[types.FunctionCall]:
    return [part.function_call for chunk in chunks for candidate in chunk.candidates or []
            for part in (candidate.content.parts if candidate.content else None) or [] if part.function_call]


def texts(chunks: list[types.GenerateContentResponse], *, thought: bool) -> str:
    return "".join(part.text or "" for chunk in chunks for candidate in chunk.candidates or []
                   for part in (candidate.content.parts if candidate.content else None) or []
                   if bool(part.thought) == thought)


@pytest.mark.parametrize("api_version", ["v1beta", "v1"])
def test_a_streamed_leak_comes_back_as_a_function_call_part(servers: Servers, client: Client,
                                                            api_version: str) -> None:
    base_url, log = start(servers)
    chunks = list(client(base_url, api_version=api_version).models.generate_content_stream(
        model="gemini-2.5-pro", contents="please run $ echo hi", config=CONFIG))
    [call] = call_parts(chunks)
    assert (call.id, call.name, call.args) == ("functions.run_shell_command:0", "run_shell_command",
                                              {"command": "echo hi"})
    assert texts(chunks, thought=False) == " I will run it. "
    last = chunks[-1]
    assert last.candidates is not None and last.candidates[0].finish_reason == types.FinishReason.STOP
    assert last.usage_metadata is not None and last.usage_metadata.prompt_token_count == 10
    assert {chunk.model_version for chunk in chunks} == {KIMI} and chunks[0].response_id == "gen-1"
    sent = upstream_saw(servers)
    assert (sent["model"], sent["stream"], sent["stream_options"]) == (KIMI, True, {"include_usage": True})
    assert sent["messages"] == [{"role": "user", "content": "please run $ echo hi"}]
    assert sent["tools"] == [{"type": "function", "function": {
        "name": "run_shell_command", "parameters": SCHEMA, "description": "Run a shell command"}}]
    path = f"/{api_version}/models/gemini-2.5-pro:streamGenerateContent"
    assert eventually(lambda: any(f"POST {path} {KIMI} 200" in line and "calls 1" in line for line in log))


def test_a_model_id_with_slashes_goes_upstream_as_it_is(servers: Servers, client: Client) -> None:
    """`gemini -m qwen/qwen3-coder`: an OpenRouter-style id is one model, not a path of two."""
    base_url, log = servers.serve()
    chunks = list(client(base_url).models.generate_content_stream(model=KIMI, contents="please run $ echo hi",
                                                                  config=CONFIG))
    assert [call.args for call in call_parts(chunks)] == [{"command": "echo hi"}]
    assert upstream_saw(servers)["model"] == KIMI
    path = f"/v1beta/models/{KIMI}:streamGenerateContent"
    assert eventually(lambda: any(f"POST {path} {KIMI} 200" in line for line in log))


def test_a_leak_in_reasoning_comes_back_as_thought_parts_and_a_call(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    sdk = client(base_url, headers={"x-fake": "field=reasoning"})
    chunks = list(sdk.models.generate_content_stream(model="gemini-2.5-pro", contents="run $ ls",
                                                     config=CONFIG))
    assert [call.args for call in call_parts(chunks)] == [{"command": "ls"}]
    assert texts(chunks, thought=True) == " I will run it. " and texts(chunks, thought=False) == ""


def test_a_whole_answer_holds_the_call(servers: Servers, client: Client) -> None:
    base_url, log = start(servers)
    response = client(base_url).models.generate_content(model="gemini-2.5-flash", contents="run $ echo hi",
                                                        config=CONFIG)
    assert [(c.id, c.name, c.args) for c in response.function_calls or []] == [
        ("functions.run_shell_command:0", "run_shell_command", {"command": "echo hi"})]
    assert response.candidates is not None and response.candidates[0].finish_reason == types.FinishReason.STOP
    assert "stream" not in upstream_saw(servers)
    assert eventually(lambda: any(":generateContent " in line and " 200 " in line for line in log))


def test_a_function_response_gives_the_upstream_its_own_ids(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    sdk = client(base_url)
    first = sdk.models.generate_content(model="gemini-2.5-pro", contents="run $ echo hi", config=CONFIG)
    assert first.candidates is not None and first.candidates[0].content is not None
    [call] = first.function_calls or []
    history = [types.Content(role="user", parts=[types.Part(text="run $ echo hi")]),
               first.candidates[0].content,
               types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                   id=call.id, name=call.name, response={"output": "hi\n"}))])]
    second = sdk.models.generate_content(model="gemini-2.5-pro", contents=history, config=CONFIG)
    assert second.text == "The tool returned: hi"
    messages = upstream_saw(servers)["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]
    call_id = "functions.run_shell_command:0"
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"] == call_id
    assert messages[1]["tool_calls"][0]["function"] == {"name": "run_shell_command",
                                                        "arguments": '{"command":"echo hi"}'}
    assert messages[1]["content"] == " I will run it. " and messages[2]["content"] == "hi\n"


def test_json_mode_asks_the_upstream_for_the_schema(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    schema = types.Schema(type=types.Type.OBJECT, properties={"score": types.Schema(type=types.Type.INTEGER)},
                          required=["score"])
    config = types.GenerateContentConfig(response_mime_type="application/json", response_schema=schema,
                                         thinking_config=types.ThinkingConfig(thinking_budget=20000))
    client(base_url).models.generate_content(model="gemini-2.5-flash", contents="rate it", config=config)
    sent = upstream_saw(servers)
    assert sent["response_format"] == {"type": "json_schema", "json_schema": {"name": "response", "schema": {
        "type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}}}
    assert sent["reasoning_effort"] == "high"


@pytest.mark.parametrize(("status", "error", "name"), [
    pytest.param(429, errors.ClientError, "RESOURCE_EXHAUSTED", id="429"),
    pytest.param(500, errors.ServerError, "INTERNAL", id="500"),
])
def test_upstream_errors_come_back_in_google_shape(servers: Servers, client: Client, status: int,
                                                  error: type[errors.APIError], name: str) -> None:
    base_url, _ = start(servers)
    sdk = client(base_url, headers={"x-fake": f"status={status}"})
    for call in (sdk.models.generate_content, lambda **kw: list(sdk.models.generate_content_stream(**kw))):
        with pytest.raises(error) as raised:
            call(model="gemini-2.5-pro", contents="hi")
        assert (raised.value.code, raised.value.status) == (status, name)
        assert raised.value.message == "Rate limit exceeded: try later"
    raw = httpx2.post(base_url.removesuffix("/v1") + STREAM_PATH, json={"contents": []}, timeout=10,
                      headers={"x-fake": f"status={status}"})
    assert raw.headers["retry-after"] == "7"
    message = "Rate limit exceeded: try later"
    assert raw.json() == {"error": {"code": status, "message": message, "status": name}}


def test_an_upstream_dying_mid_stream_ends_with_an_error_event(servers: Servers, client: Client) -> None:
    base_url, log = start(servers)
    sdk = client(base_url, headers={"x-fake": "die-after=5"})
    seen: list[types.GenerateContentResponse] = []
    with pytest.raises(errors.ServerError) as raised:
        seen.extend(sdk.models.generate_content_stream(model="gemini-2.5-pro", contents="run $ ls",
                                                       config=CONFIG))
    assert (raised.value.code, raised.value.status) == (502, "UNAVAILABLE")
    assert "broke off" in (raised.value.message or "")
    assert texts(seen, thought=False) == " I will run it"  # the four tokens before the break
    assert call_parts(seen) == []
    assert eventually(lambda: any("upstream ended early" in line for line in log))


def test_a_client_hanging_up_closes_the_upstream(servers: Servers) -> None:
    base_url, _ = start(servers)
    with httpx2.stream("POST", base_url.removesuffix("/v1") + STREAM_PATH, timeout=10,
                       json={"contents": [{"parts": [{"text": "run $ ls"}]}]},
                       headers={"x-fake": "hang-after=3,hang=30"}) as response:
        assert b'"candidates"' in next(response.iter_bytes())
    assert servers.fake.hung_up.wait(1.0)  # the proxy closed its upstream request within a second


def test_keep_alives_are_chunks_the_sdk_reads(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers, keepalive_interval=0.05)
    quiet = {"x-fake": "hang-after=8,hang=0.3"}
    raw = httpx2.post(base_url.removesuffix("/v1") + STREAM_PATH, timeout=10, headers=quiet,
                      json={"contents": [{"parts": [{"text": "run $ ls"}]}]})
    events = [e for e in SSEDecoder().feed(raw.content) if e.data]
    assert not [line for line in raw.content.splitlines() if line.startswith(b":")]  # no comment, not even
    # the fake's own `: OPENROUTER PROCESSING`: the SDK would read it as JSON
    assert sum(orjson.loads(e.data) == orjson.loads(_keepalive_data()) for e in events) >= 2
    chunks = list(client(base_url, headers=quiet).models.generate_content_stream(
        model="gemini-2.5-pro", contents="run $ ls", config=CONFIG))
    assert [call.args for call in call_parts(chunks)] == [{"command": "ls"}]
    assert texts(chunks, thought=False) == " I will run it. "


def _keepalive_data() -> bytes:
    from sse_rewrite.protocols.gemini.front import KEEPALIVE

    return KEEPALIVE.removeprefix(b"data: ").strip()


@pytest.mark.parametrize(("body", "message"), [
    pytest.param(b"{not json", "not JSON", id="not-json"),
    pytest.param(b"[1]", "JSON object", id="not-an-object"),
    pytest.param(b'{"contents": [{"role": "system", "parts": []}]}', "contents.0.role", id="bad-role"),
    pytest.param(b'{"contents": [{"parts": "hi"}]}', "contents.0.parts", id="parts-not-a-list"),
])
def test_bad_bodies_are_a_google_400(servers: Servers, body: bytes, message: str) -> None:
    base_url, _ = start(servers)
    response = httpx2.post(base_url.removesuffix("/v1") + STREAM_PATH, content=body, timeout=10)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == 400 and error["status"] == "INVALID_ARGUMENT" and message in error["message"]
    assert servers.fake.requests == []


def test_an_unknown_method_is_a_google_404(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    response = httpx2.post(base_url.removesuffix("/v1") + "/v1beta/models/gemini-x:embedContent", json={},
                           timeout=10)
    assert response.status_code == 404 and response.json()["error"]["status"] == "NOT_FOUND"


@pytest.mark.parametrize(("proxy_key", "bearer"), [(None, "client-key"), ("proxy-key", "proxy-key")])
def test_the_key_goes_up_as_a_bearer_and_google_headers_stay(servers: Servers, client: Client,
                                                             proxy_key: str | None, bearer: str) -> None:
    base_url, log = start(servers, api_key=proxy_key)
    client(base_url).models.generate_content(model="gemini-2.5-pro", contents="hi")
    headers = {k.lower(): v for k, v in servers.fake.requests[-1]["headers"].items()}
    assert headers["authorization"] == f"Bearer {bearer}"
    assert not [name for name in headers if name.startswith("x-goog-")]
    url = base_url.removesuffix("/v1") + "/v1beta/models/gemini-2.5-pro:generateContent?key=query-key"
    httpx2.post(url, json={"contents": [{"parts": [{"text": "hi"}]}]}, timeout=10)
    headers = {k.lower(): v for k, v in servers.fake.requests[-1]["headers"].items()}
    assert headers["authorization"] == f"Bearer {bearer if proxy_key else 'query-key'}"
    assert eventually(lambda: len(log) == 2)
    assert not [line for line in log if "key" in line], log  # neither the key nor the query is logged


def test_the_access_token_comes_as_x_goog_api_key_and_stays_here(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers, access_token="proxy-token")
    with pytest.raises(errors.ClientError) as raised:
        client(base_url).models.generate_content(model="gemini-2.5-pro", contents="hi")
    assert (raised.value.code, raised.value.status) == (401, "UNAUTHENTICATED")
    assert raised.value.message == "missing or wrong access token for this proxy"
    path = "/v1beta/models/gemini-2.5-pro:generateContent"
    token_in_query = base_url.removesuffix("/v1") + path + "?key=proxy-token"
    assert httpx2.post(token_in_query, json={"contents": []}, timeout=10).status_code == 401
    sdk = client(base_url, api_key="proxy-token")
    response = sdk.models.generate_content(model="gemini-2.5-pro", contents="run $ ls", config=CONFIG)
    assert response.function_calls
    headers = {k.lower() for k in servers.fake.requests[-1]["headers"]}
    assert not {"authorization", "x-goog-api-key"} & headers
    forwarded = httpx2.get(f"{base_url}/echo/x", headers={"x-goog-api-key": "proxy-token"}, timeout=10).json()
    assert "x-goog-api-key" not in {k.lower() for k in forwarded["headers"]}  # nor on a forwarded path


def test_count_tokens_is_a_local_estimate(servers: Servers, client: Client) -> None:
    base_url, _ = start(servers)
    count = client(base_url).models.count_tokens(model="gemini-2.5-pro", contents="x" * 40)
    assert count.total_tokens == 11  # "user" and 40 x: 44 characters / 4
    assert servers.fake.requests == []


@pytest.mark.parametrize(("method", "suffix"), [
    pytest.param("streamGenerateContent", ".sse", id="streamed"),
    pytest.param("generateContent", ".json", id="whole"),
])
def test_a_capture_round_trips_through_diff(servers: Servers, tmp_path: Path, method: str,
                                            suffix: str) -> None:
    base_url, log = start(servers, capture_dir=tmp_path)
    body = {"contents": [{"parts": [{"text": "run $ echo captured"}]}],
            "tools": [{"functionDeclarations": [{"name": "run_shell_command",
                                                 "parametersJsonSchema": SCHEMA}]}]}
    url = base_url.removesuffix("/v1") + f"/v1beta/models/gemini-2.5-pro:{method}?alt=sse"
    client_got = httpx2.post(url, json=body, timeout=10).content
    assert eventually(lambda: len(log) == 1)  # the request is over: the capture is closed
    capture = captured(tmp_path, suffix)
    assert b"<|tool_call_begin|>" in capture.read_bytes()
    assert "--to gemini" in capture.with_name(capture.name + ".args").read_text()
    assert CliRunner().invoke(cli, ["diff", "--update", str(capture)]).exit_code == 0
    assert capture.with_name(capture.name + ".golden").read_bytes() == client_got
    assert b'"functionCall":{"id":"functions.run_shell_command:0"' in client_got
