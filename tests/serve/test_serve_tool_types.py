"""Through serve with the official SDKs: the request's tools type a Qwen3-Coder leak's values.

A fake upstream leaks a Qwen3-Coder call writing `42` into `Write(content: string)`, one
token per chunk. Without the schema `42` would be the number Claude Code's `Write` refuses;
with the request's tools, every front hands the client the string `"42"`, streamed and whole,
and a capture keeps the tools so its replay types the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import openai
import orjson
import pytest
from aiohttp import web

from sse_rewrite import goldens
from sse_rewrite.protocols.anthropic.models import ModelChoice
from tests.serve.servers import Servers, captured

QWEN = "qwen/qwen3-coder-480b-a35b-instruct"
LEAK = ("I'll write it.\n<tool_call>\n<function=Write>\n<parameter=file_path>\n/tmp/answer.txt\n"
        "</parameter>\n<parameter=content>\n42\n</parameter>\n</function>\n</tool_call>")
SCHEMA = {"type": "object", "required": ["file_path", "content"],
          "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}}}  # fmt: skip
WRITE = {"name": "Write", "description": "Write a file", "input_schema": SCHEMA}
WRITE_FUNCTION = {"type": "function", "function": {"name": "Write", "parameters": SCHEMA}}
EXPECTED = {"file_path": "/tmp/answer.txt", "content": "42"}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    chunk = {"id": "gen-q", "object": "chat.completion.chunk", "created": 1, "model": QWEN,
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


async def _chat(request: web.Request) -> web.StreamResponse:
    """The fake Qwen upstream: the leak, one token (here: 2 characters) per chunk, or whole."""
    body = await request.json()
    if not body.get("stream"):
        message = {"role": "assistant", "content": LEAK}
        return web.json_response({"id": "gen-q", "object": "chat.completion", "created": 1, "model": QWEN,
                                  "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    response = web.StreamResponse(headers={"content-type": "text/event-stream"})
    await response.prepare(request)
    for i in range(0, len(LEAK), 2):
        await response.write(_chunk({"role": "assistant", "content": LEAK[i : i + 2]}))
    await response.write(_chunk({}, "stop") + b"data: [DONE]\n\n")
    return response


@pytest.fixture
def qwen(servers: Servers) -> str:
    """The fake Qwen upstream's base URL."""
    return servers.chat_upstream(_chat)


@pytest.mark.parametrize("stream", [True, False])
def test_the_openai_front_gives_write_the_string_42(servers: Servers, qwen: str, stream: bool) -> None:
    base_url, _ = servers.serve(upstream=qwen)
    client = openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=10)
    messages: Any = [{"role": "user", "content": "write 42 to /tmp/answer.txt"}]
    try:
        if stream:
            tools: Any = [WRITE_FUNCTION]
            with client.chat.completions.stream(model=QWEN, messages=messages, tools=tools) as events:
                for _ in events:
                    pass
                message = events.get_final_completion().choices[0].message
        else:
            message = client.chat.completions.create(model=QWEN, messages=messages,
                                                     tools=[WRITE_FUNCTION]).choices[0].message  # type: ignore[list-item]
    finally:
        client.close()
    [call] = message.tool_calls or []
    assert (call.function.name, json.loads(call.function.arguments)) == ("Write", EXPECTED)
    assert message.content == "I'll write it.\n"


@pytest.mark.parametrize("stream", [True, False])
def test_the_anthropic_front_gives_write_the_string_42(servers: Servers, qwen: str, stream: bool) -> None:
    base_url, _ = servers.serve(upstream=qwen, models=ModelChoice(model=QWEN))
    client = anthropic.Anthropic(base_url=base_url.removesuffix("/v1"), api_key="x", max_retries=0,
                                 timeout=10)  # fmt: skip
    messages: Any = [{"role": "user", "content": "write 42 to /tmp/answer.txt"}]
    tools: Any = [WRITE]
    try:
        if stream:
            request: Any = {"model": "claude-x", "max_tokens": 256, "messages": messages, "tools": tools}
            with client.messages.stream(**request) as events:
                message = events.get_final_message()
        else:
            message = client.messages.create(model="claude-x", max_tokens=256, messages=messages, tools=tools)
    finally:
        client.close()
    [tool] = [block for block in message.content if block.type == "tool_use"]
    assert (tool.name, tool.input) == ("Write", EXPECTED)
    assert message.stop_reason == "tool_use"


@pytest.mark.parametrize("stream", [True, False])
def test_the_gemini_front_gives_write_the_string_42(servers: Servers, qwen: str, stream: bool) -> None:
    from google import genai
    from google.genai import types

    base_url, _ = servers.serve(upstream=qwen, models=ModelChoice(model=QWEN))
    options = types.HttpOptions(base_url=base_url.removesuffix("/v1"), api_version="v1beta",
                                retry_options=types.HttpRetryOptions(attempts=1))
    client = genai.Client(api_key="k", http_options=options)
    declaration = types.FunctionDeclaration(name="Write", parameters_json_schema=SCHEMA)
    tool = types.Tool(function_declarations=[declaration])
    config = types.GenerateContentConfig(
        tools=[tool], automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    try:
        if stream:
            chunks = list(client.models.generate_content_stream(
                model="gemini-x", contents="write 42 to /tmp/answer.txt", config=config))
            calls = [call for chunk in chunks for call in chunk.function_calls or []]
        else:
            calls = client.models.generate_content(model="gemini-x", contents="write 42 to /tmp/answer.txt",
                                                   config=config).function_calls or []
    finally:
        client.close()
    assert [(call.name, call.args) for call in calls] == [("Write", EXPECTED)]


def test_a_capture_keeps_the_requests_tools(servers: Servers, qwen: str, tmp_path: Path) -> None:
    base_url, _ = servers.serve(upstream=qwen, capture_dir=tmp_path)
    client = openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=10)
    try:
        with client.chat.completions.stream(model=QWEN, messages=[{"role": "user", "content": "go"}],
                                            tools=[WRITE_FUNCTION]) as events:  # type: ignore[list-item]
            for _ in events:
                pass
    finally:
        client.close()
    captured(tmp_path, ".sse")  # (written off the event loop: wait for the whole file)
    [capture] = goldens.find_captures([tmp_path])
    assert json.loads(goldens.tools_path(capture).read_text())["tools"] == [WRITE_FUNCTION]
    output = goldens.replay(capture).output
    arguments = [line for line in output.split(b"\n") if b'"arguments"' in line]
    assert arguments and json.loads(json.loads(arguments[-1][6:])["choices"][0]["delta"]["tool_calls"][0]
                                    ["function"]["arguments"]) == EXPECTED  # fmt: skip
