"""`serve --stream-arguments` on the Anthropic front: a leaked call's input arrives as several
`input_json_delta` events of one `tool_use` block, read by the official anthropic SDK."""

from __future__ import annotations

import anthropic

from sse_rewrite.stream.rewrite import RewriteOptions
from tests.serve.servers import Servers
from tests.serve.test_anthropic_front import BASH, start


def test_the_anthropic_front_streams_a_calls_input_in_parts(servers: Servers) -> None:
    base_url, _ = start(servers, options=RewriteOptions(stream_arguments=True))
    sdk = anthropic.Anthropic(base_url=base_url, api_key="client-key", max_retries=0, timeout=10)
    messages = [{"role": "user", "content": "please run $ echo one two three"}]
    parts = 0
    try:
        with sdk.messages.stream(model="claude-x", max_tokens=256, messages=messages, tools=[BASH]) as stream:  # type: ignore[arg-type, list-item]
            for event in stream:
                parts += event.type == "content_block_delta" and event.delta.type == "input_json_delta"
            message = stream.get_final_message()
    finally:
        sdk.close()
    [tool] = [block for block in message.content if block.type == "tool_use"]
    assert (tool.name, tool.input) == ("bash", {"command": "echo one two three"})
    assert parts > 1 and message.stop_reason == "tool_use"
