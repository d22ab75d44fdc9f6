"""Through serve with the openai SDK: the request's tools are evidence (docs/behaviour.md, "Types").

A fake upstream answers as `gpt-4o` (a gateway's alias for a Qwen backend) with the user's
message as its text, a few characters per chunk or whole: a Hermes or Qwen3-Coder call that
names a tool the request declares comes back as a tool call; one that names no declared tool
stays text, byte for byte. Under Kimi's own id, a stripped Kimi call must name a declared tool too.
Kimi K3's call with only `<|sep|>` left is read under the alias from its `<|sep|>call `, stripped
harmony's call from its `=functions.NAME` where NAME is declared, stripped Gemma 4's `call:NAME{…}` so.
Under a Qwen id, a whole answer of Llama's bare JSON is read as under the alias.
"""

from __future__ import annotations

import json
from typing import Any

import openai
import orjson
import pytest
from aiohttp import web

from tests.serve.servers import Servers

ALIAS = "gpt-4o"
READ: Any = {"type": "function", "function": {"name": "read", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}  # fmt: skip
HERMES = '<tool_call>\n{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}\n</tool_call>'
QWEN_XML = "<tool_call>\n<function={}>\n<parameter=path>\n/etc/hosts\n</parameter>\n</function>\n</tool_call>"
STRIPPED_KIMI = 'functions.{}:0{{"path": "/etc/hosts"}}'
TOOL_CALLS = '<tool_calls>[{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]</tool_calls>'
M1 = '<tool_calls>\n{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}\n</tool_calls>'
HY3 = "<tool_calls>\n<tool_call>{}<tool_sep>\n<arg_key>path</arg_key>\n<arg_value>/etc/hosts</arg_value>\n" \
      "</tool_call>\n</tool_calls>"  # fmt: skip
LLAMA = '{"name": "read", "parameters": {"path": "/etc/hosts"}}'
JSON_MODE = '{"name": "Paris", "country": "France", "population": 2102650}'
QWEN_ID = "Qwen/Qwen3-235B-A22B"
K3_SEP = 'tools<|sep|>call tool="{}" index="1"<|sep|>argument key="path" type="string"<|sep|>/etc/hosts ' \
         "argument<|sep|>call<|sep|>tools<|sep|>"  # fmt: skip
GEMMA = "call:{}{{path:/etc/hosts}}"
HARMONY = 'analysisUser wants the hosts file.assistantcommentary to=functions.{} json{{"path": "/etc/hosts"}}'
LEFT = {HY3: "\n", K3_SEP: "tools", HARMONY: "analysisUser wants the hosts file.assistantcommentary to"}
"""What a call read leaves as text: Hunyuan 3's newline before its block's closer (as under its own ids);
the word before K3's `<|sep|>call `, read from there under any id; stripped harmony's text before its
`=functions.NAME`, read from there under any id."""


def _chunk(delta: dict[str, Any], finish: str | None = None, model: str = ALIAS) -> bytes:
    chunk = {"id": "gen-a", "object": "chat.completion.chunk", "created": 1, "model": model,
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


async def _chat(request: web.Request) -> web.StreamResponse:
    """The fake upstream: the user's message as the answer, 3 characters per chunk, or whole, as the
    model the request names."""
    body = await request.json()
    answer, model = body["messages"][-1]["content"], body["model"]
    if not body.get("stream"):
        message = {"role": "assistant", "content": answer}
        return web.json_response({"id": "gen-a", "object": "chat.completion", "created": 1, "model": model,
                                  "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    response = web.StreamResponse(headers={"content-type": "text/event-stream"})
    await response.prepare(request)
    for i in range(0, len(answer), 3):
        await response.write(_chunk({"role": "assistant", "content": answer[i : i + 3]}, model=model))
    await response.write(_chunk({}, "stop", model) + b"data: [DONE]\n\n")
    return response


@pytest.fixture
def echo(servers: Servers) -> str:
    """The fake upstream's base URL."""
    return servers.chat_upstream(_chat)


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize(
    ("template", "name", "called", "model"),
    [
        pytest.param(HERMES, "read", True, ALIAS, id="hermes-declared"),
        pytest.param(QWEN_XML, "read", True, ALIAS, id="qwen3-coder-declared"),
        pytest.param(HERMES, "rm", False, ALIAS, id="hermes-undeclared"),
        pytest.param(QWEN_XML, "rm", False, ALIAS, id="qwen3-coder-undeclared"),
        pytest.param(TOOL_CALLS, "read", True, ALIAS, id="tool-calls-list-declared"),
        pytest.param(TOOL_CALLS, "rm", False, ALIAS, id="tool-calls-list-undeclared"),
        # (under Kimi's own id: a stripped call must name a declared tool too)
        pytest.param(STRIPPED_KIMI, "read", True, "moonshotai/kimi-k2.5", id="stripped-kimi-declared"),
        pytest.param(STRIPPED_KIMI, "rm", False, "moonshotai/kimi-k2.5", id="stripped-kimi-undeclared"),
        # (under any id, where its call names a declared tool as declared: docs/behaviour.md, "Evidence")
        pytest.param(STRIPPED_KIMI, "read", True, ALIAS, id="stripped-kimi-alias-declared"),
        pytest.param(STRIPPED_KIMI, "rm", False, ALIAS, id="stripped-kimi-alias-undeclared"),
        pytest.param(M1, "read", True, ALIAS, id="minimax-m1-declared"),
        pytest.param(M1, "rm", False, ALIAS, id="minimax-m1-undeclared"),
        pytest.param(HY3, "read", True, ALIAS, id="hy3-block-declared"),
        pytest.param(HY3, "rm", False, ALIAS, id="hy3-block-undeclared"),
        pytest.param(K3_SEP, "read", True, ALIAS, id="kimi-k3-sep"),  # (from `<|sep|>call `, any id)
        pytest.param(HARMONY, "read", True, ALIAS, id="stripped-harmony-alias-declared"),  # (`=functions.`)
        pytest.param(HARMONY, "rm", False, ALIAS, id="stripped-harmony-alias-undeclared"),
        pytest.param(GEMMA, "read", True, ALIAS, id="stripped-gemma-alias-declared"),  # (`call:NAME{`)
        pytest.param(GEMMA, "rm", False, ALIAS, id="stripped-gemma-alias-undeclared"),
    ],
)
def test_an_alias_leaking_tag_calls(
    servers: Servers, echo: str, template: str, name: str, called: bool, model: str, stream: bool
) -> None:
    base_url, _ = servers.serve(upstream=echo)
    client = openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=10)
    leak = template.format(name)
    messages: Any = [{"role": "user", "content": f"Let me look.\n{leak}\nDone."}]
    try:
        if stream:
            with client.chat.completions.stream(model=model, messages=messages, tools=[READ]) as events:
                for _ in events:
                    pass
                choice = events.get_final_completion().choices[0]
        else:
            choice = client.chat.completions.create(model=model, messages=messages, tools=[READ]).choices[0]
    finally:
        client.close()
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in choice.message.tool_calls or []]
    assert calls == ([("read", {"path": "/etc/hosts"})] if called else [])
    kept = LEFT.get(template, "") if called else leak
    assert choice.message.content == "Let me look.\n" + kept + "\nDone."
    assert choice.finish_reason == ("tool_calls" if called else "stop")


@pytest.mark.parametrize(
    ("answer", "called", "model"),
    [
        pytest.param(LLAMA, True, ALIAS, id="llama-json"),
        pytest.param('[read(path="/etc/hosts")]', True, ALIAS, id="pythonic-list"),
        pytest.param('[{"name": "read", "arguments": {"path": "/etc/hosts"}}]', True, ALIAS, id="bare-list"),
        pytest.param(JSON_MODE, False, ALIAS, id="json-mode"),
        # (under a tag family's id: Qwen's writes the tags, but a Llama-style call is read as under `gpt-4o`)
        pytest.param(LLAMA, True, QWEN_ID, id="qwen-id-llama-json"),
        pytest.param(JSON_MODE, False, QWEN_ID, id="qwen-id-json-mode"),
    ],
)
def test_a_whole_answer_of_bare_calls_or_json(
    servers: Servers, echo: str, answer: str, called: bool, model: str
) -> None:
    """A whole answer of bare calls naming a declared tool is read, under an alias or a tag family's
    id; a JSON-mode answer streams as text (held only until its `name` is read:
    tests/test_declared_tools.py)."""
    base_url, _ = servers.serve(upstream=echo)
    client = openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=10)
    messages: Any = [{"role": "user", "content": answer}]
    try:
        with client.chat.completions.stream(model=model, messages=messages, tools=[READ]) as events:
            deltas = [event.delta for event in events if event.type == "content.delta"]
            choice = events.get_final_completion().choices[0]
    finally:
        client.close()
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in choice.message.tool_calls or []]
    assert calls == ([("read", {"path": "/etc/hosts"})] if called else [])
    assert (choice.message.content or "") == ("" if called else answer)
    assert "".join(deltas) == ("" if called else answer)
