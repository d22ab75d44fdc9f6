"""Through serve with the official openai SDK: leaked Kimi calls come out as tool_calls."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

from sse_rewrite.stream.rewrite import RewriteOptions
from tests.serve.servers import Servers, eventually

TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {
    "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}]
MODEL = "moonshotai/kimi-k2.5"


def client(base_url: str, **kw: object) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="client-key", max_retries=0, timeout=10, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["content", "reasoning"])
def test_streaming_sdk_gets_the_leaked_call_as_a_tool_call(servers: Servers, field: str) -> None:
    base_url, log = servers.serve()
    messages = [{"role": "user", "content": "please run $ echo hi"}]
    with client(base_url).chat.completions.stream(
        model=MODEL, messages=messages, tools=TOOLS, extra_headers={"x-fake": f"field={field}"},  # type: ignore[arg-type]
    ) as stream:
        completion = stream.get_final_completion()
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    [call] = choice.message.tool_calls or []
    assert (call.id, call.function.name, call.function.arguments) == ("functions.bash:0", "bash",
                                                                      '{"command": "echo hi"}')
    text = choice.message.content if field == "content" else choice.message.reasoning  # type: ignore[attr-defined]
    assert text == " I will run it. "
    assert "<|" not in (choice.message.content or "") + str(getattr(choice.message, "reasoning", ""))
    assert eventually(lambda: any("POST /v1/chat/completions moonshotai/kimi-k2.5 200" in line
                                  and "calls 1" in line for line in log))


def test_non_streaming_sdk_gets_the_call(servers: Servers) -> None:
    base_url, _ = servers.serve()
    completion = client(base_url).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "$ ls -l"}], tools=TOOLS)  # type: ignore[arg-type]
    message = completion.choices[0].message
    assert completion.choices[0].finish_reason == "tool_calls"
    [call] = message.tool_calls or []
    assert call.function.name == "bash" and call.function.arguments == '{"command": "ls -l"}'
    assert message.content == " I will run it. "


def test_concurrent_streams_each_get_exactly_their_own_calls(servers: Servers) -> None:
    base_url, _ = servers.serve()
    sdk = client(base_url)

    def one(number: int) -> tuple[int, list[tuple[str, str]]]:
        with sdk.chat.completions.stream(
            model=MODEL, messages=[{"role": "user", "content": f"$ echo stream-{number}"}], tools=TOOLS,  # type: ignore[arg-type]
            extra_headers={"x-fake": "delay=0.002"},
        ) as stream:
            message = stream.get_final_completion().choices[0].message
        return number, [(c.function.name, c.function.arguments) for c in message.tool_calls or []]

    with ThreadPoolExecutor(24) as pool:
        results = list(pool.map(one, range(24)))
    assert results == [(n, [("bash", f'{{"command": "echo stream-{n}"}}')]) for n in range(24)]


def test_a_two_turn_agent_loop_through_serve(servers: Servers) -> None:
    """What an agent does: run the repaired call, send its result back, get the final text."""
    base_url, _ = servers.serve()
    search = {"name": "tool_search", "parameters": {"properties": {"q": {}}}}
    shell = {"name": "run_shell_command", "parameters": {"properties": {"description": {}, "command": {}}}}
    tools = [{"type": "function", "function": search}, {"type": "function", "function": shell}]
    messages: list[dict[str, object]] = [{"role": "user", "content": "please run $ echo hello"}]
    sdk = client(base_url)
    first = sdk.chat.completions.create(model=MODEL, messages=messages, tools=tools, stream=True)  # type: ignore[call-overload]
    calls = {}
    for chunk in first:
        for delta in chunk.choices[0].delta.tool_calls or [] if chunk.choices else []:
            calls.setdefault(delta.index, []).append(delta)
    [[head, *_]] = calls.values()
    assert (head.id, head.function.name, head.function.arguments) == (
        "functions.run_shell_command:0", "run_shell_command", '{"command": "echo hello"}')
    function = {"name": head.function.name, "arguments": head.function.arguments}
    messages += [{"role": "assistant", "content": None,
                  "tool_calls": [{"id": head.id, "type": "function", "function": function}]},
                 {"role": "tool", "tool_call_id": head.id, "content": "hello"}]
    second = sdk.chat.completions.create(model=MODEL, messages=messages, tools=tools)  # type: ignore[call-overload]
    assert second.choices[0].message.content == "The tool returned: hello"
    assert second.choices[0].finish_reason == "stop" and not second.choices[0].message.tool_calls
    sent_back = servers.fake.requests[-1]["body"]["messages"][1]["tool_calls"][0]["id"]
    assert sent_back == "functions.run_shell_command:0"  # Kimi sees its own id again


def test_a_gzip_body_is_decoded_before_it_is_rewritten(servers: Servers) -> None:
    base_url, _ = servers.serve()
    completion = client(base_url).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "$ ls"}], extra_headers={"x-fake": "gzip"})  # type: ignore[arg-type]
    assert completion.choices[0].message.tool_calls[0].function.name == "bash"  # type: ignore[index]
    assert servers.fake.requests[-1]["headers"]["Accept-Encoding"] == "identity"


def test_serve_streams_arguments_when_asked(servers: Servers) -> None:
    base_url, _ = servers.serve(options=RewriteOptions(stream_arguments=True))
    messages = [{"role": "user", "content": "please run $ echo one two three"}]
    parts = []
    with client(base_url).chat.completions.stream(model=MODEL, messages=messages, tools=TOOLS) as stream:  # type: ignore[arg-type]
        for event in stream:
            if event.type == "chunk" and event.chunk.choices:  # (the usage chunk has none)
                parts += [c for c in event.chunk.choices[0].delta.tool_calls or [] if c.id is None]
        completion = stream.get_final_completion()
    [call] = completion.choices[0].message.tool_calls or []
    assert (call.id, call.function.name) == ("functions.bash:0", "bash")
    assert call.function.arguments == '{"command": "echo one two three"}'
    assert len(parts) > 1  # the arguments came in parts after the header, not whole
    assert "".join(p.function.arguments or "" for p in parts if p.function) == call.function.arguments
