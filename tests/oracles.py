"""The official SDKs as test oracles: assemble our output the way real clients do."""

from __future__ import annotations

from typing import Any

import httpx2
from anthropic import Anthropic
from openai import OpenAI
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk


def _client(body: bytes, chunk: int | None) -> httpx2.Client:
    parts = [body] if not chunk else [body[i : i + chunk] for i in range(0, len(body), chunk)]

    def respond(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=iter(parts))

    return httpx2.Client(transport=httpx2.MockTransport(respond))


def openai_final(body: bytes, chunk: int | None = None) -> Any:
    """`ParsedChatCompletion` the openai SDK's streaming helper assembles from SSE `body`."""
    client = OpenAI(
        api_key="x", base_url="http://oracle.invalid/v1", max_retries=0, http_client=_client(body, chunk)
    )
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "x"}]) as stream:
        for _ in stream:
            pass
        return stream.get_final_completion()


def openai_state(body: bytes) -> Any:
    """The same via `ChatCompletionStreamState` over the SDK's own SSE decoder (no HTTP)."""
    client = OpenAI(api_key="x", base_url="http://oracle.invalid/v1")
    from openai._streaming import Stream

    state = ChatCompletionStreamState()
    stream = Stream(
        cast_to=ChatCompletionChunk, client=client, response=httpx2.Response(200, content=iter([body]))
    )
    for chunk in stream:
        state.handle_chunk(chunk)
    return state.get_final_completion()


def anthropic_final(body: bytes, chunk: int | None = None) -> Any:
    """`ParsedMessage` the anthropic SDK's `MessageStream` assembles from SSE `body`."""
    client = Anthropic(
        api_key="x", base_url="http://oracle.invalid", max_retries=0, http_client=_client(body, chunk)
    )
    messages: Any = [{"role": "user", "content": "x"}]
    with client.messages.stream(model="m", max_tokens=16, messages=messages) as stream:
        for _ in stream:
            pass
        return stream.get_final_message()
