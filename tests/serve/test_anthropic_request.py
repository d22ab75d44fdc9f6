"""Anthropic Messages request -> chat.completions request: one table row per rule."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.options import take_options
from sse_rewrite.protocols.anthropic.mapping import status_error
from sse_rewrite.protocols.anthropic.models import ModelChoice, models_list, parse_model_map
from sse_rewrite.protocols.anthropic.request import (
    ERROR_PREFIX,
    RequestError,
    translate_request,
)
from sse_rewrite.protocols.anthropic.token_estimate import IMAGE_TOKENS, estimate_tokens
from sse_rewrite.serve.settings import settings_from

HI = {"role": "user", "content": "hi"}
BASH_TOOL = {"name": "bash", "description": "Run a command", "input_schema": {"type": "object"}}
BASH_FUNCTION = {
    "type": "function",
    "function": {"name": "bash", "parameters": {"type": "object"}, "description": "Run a command"},
}
CALL = {"type": "tool_use", "id": "toolu_functions-2Ebash-3A0", "name": "bash", "input": {"cmd": "ls"}}
NATIVE_CALL = {"id": "functions.bash:0", "type": "function",
               "function": {"name": "bash", "arguments": '{"cmd":"ls"}'}}
PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
PNG_PART = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}


def result(content: Any, **fields: Any) -> dict[str, Any]:
    """A tool_result block answering CALL."""
    return {"type": "tool_result", "tool_use_id": CALL["id"], "content": content, **fields}


def turn(*results: dict[str, Any], text: str | None = None) -> list[dict[str, Any]]:
    """HI, the assistant's CALL, then a user turn with `results` and optional text."""
    user = [*results, *([{"type": "text", "text": text}] if text is not None else [])]
    return [HI, {"role": "assistant", "content": [CALL]}, {"role": "user", "content": user}]


def answered(*after: dict[str, Any]) -> list[dict[str, Any]]:
    """The translated messages of `turn(...)`: HI, the native call, then `after`."""
    return [HI, {"role": "assistant", "content": None, "tool_calls": [NATIVE_CALL]}, *after]


def tool(content: str) -> dict[str, Any]:
    """The tool message answering NATIVE_CALL."""
    return {"role": "tool", "tool_call_id": "functions.bash:0", "content": content}


def text(value: str, **fields: Any) -> dict[str, Any]:
    """A text block."""
    return {"type": "text", "text": value, **fields}


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A user message made of `blocks`."""
    return {"role": "user", "content": list(blocks)}


def choosing(choice: dict[str, Any]) -> dict[str, Any]:
    """Request fields: HI, the bash tool and `tool_choice`."""
    return {"messages": [HI], "tools": [BASH_TOOL], "tool_choice": choice}


def chosen(**fields: Any) -> dict[str, Any]:
    """Expected fields: HI, the bash function and `fields`."""
    return {"messages": [HI], "tools": [BASH_FUNCTION], **fields}


EPHEMERAL = {"type": "ephemeral"}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}
IMAGE_MOVED = "(image: attached to the next user message)"
ASKED = {"role": "user", "content": "again"}


def thinks(budget: int) -> dict[str, Any]:
    """Request fields with extended thinking on at `budget` tokens."""
    return {"messages": [HI], "thinking": {"type": "enabled", "budget_tokens": budget}}


# (request fields besides model, expected fields besides model, notice codes)
RULES = [
    pytest.param({"system": "Be brief.", "messages": [HI]},
                 {"messages": [{"role": "system", "content": "Be brief."}, HI]}, [], id="system-string"),
    pytest.param({"system": [text("A"), text("B", cache_control=EPHEMERAL)], "messages": [HI]},
                 {"messages": [{"role": "system", "content": "A\nB"}, HI]}, [], id="system-blocks-joined"),
    pytest.param({"system": "S", "messages": [HI, {"role": "system", "content": [text("R")]}, ASKED]},
                 {"messages": [{"role": "system", "content": "S"}, HI,
                               {"role": "system", "content": "R"}, ASKED]}, [], id="system-role-in-place"),
    pytest.param({"messages": [user(text("a"), text("b"))]},
                 {"messages": [{"role": "user", "content": "a\nb"}]}, [], id="text-blocks-joined"),
    pytest.param({"messages": [user(text("what"), text("is it"), {"type": "image", "source": PNG})]},
                 {"messages": [user(text("what\nis it"), PNG_PART)]}, [], id="image-base64"),
    pytest.param({"messages": [user({"type": "image", "source": {"type": "url", "url": "https://x.test/a.jpg"}})]},
                 {"messages": [user({"type": "image_url", "image_url": {"url": "https://x.test/a.jpg"}})]},
                 [], id="image-url"),
    pytest.param({"messages": [user({"type": "document", "source": {"type": "text", "data": "doc"}})]},
                 {"messages": [{"role": "user", "content": "doc"}]}, [], id="text-document"),
    pytest.param({"messages": [HI, {"role": "assistant", "content": [text("Looking."), CALL]}]},
                 {"messages": [HI, {"role": "assistant", "content": "Looking.",
                                    "tool_calls": [NATIVE_CALL]}]}, [], id="tool-use-to-tool-calls"),
    pytest.param({"messages": [HI, {"role": "assistant", "content": [
                     {"type": "thinking", "thinking": "hmm", "signature": ""}, text("ok")]}]},
                 {"messages": [HI, {"role": "assistant", "content": "ok"}]}, [],
                 id="thinking-blocks-dropped"),
    pytest.param({"messages": turn(result("file.txt"), text="go on")},
                 {"messages": answered(tool("file.txt"), {"role": "user", "content": "go on"})},
                 [], id="tool-result-before-user-text"),
    pytest.param({"messages": [*turn()[:2], user(text("first"), result("out"))]},
                 {"messages": answered(tool("out"), {"role": "user", "content": "first"})},
                 [], id="tool-result-moved-before-earlier-text"),
    pytest.param({"messages": turn(result([text("a"), text("b")]))},
                 {"messages": answered(tool("a\nb"))}, [], id="tool-result-array-joined"),
    pytest.param({"messages": turn(result("exit 1", is_error=True))},
                 {"messages": answered(tool(ERROR_PREFIX + "exit 1"))}, [], id="tool-result-is-error-shown"),
    pytest.param({"messages": turn(result([{"type": "image", "source": PNG}]))},
                 {"messages": answered(tool(IMAGE_MOVED), {"role": "user", "content": [PNG_PART]})},
                 [], id="tool-result-image-moves-to-user"),
    pytest.param({"messages": [HI, {"role": "assistant", "content": [dict(CALL, id="toolu_01A-x")]},
                               user(dict(result("r"), tool_use_id="toolu_01A-x"))]},
                 {"messages": [HI, {"role": "assistant", "content": None,
                                    "tool_calls": [dict(NATIVE_CALL, id="toolu_01A-x")]},
                               {"role": "tool", "tool_call_id": "toolu_01A-x", "content": "r"}]},
                 [], id="foreign-ids-unchanged"),
    pytest.param({"messages": [HI], "tools": [dict(BASH_TOOL, cache_control=EPHEMERAL)]},
                 {"messages": [HI], "tools": [BASH_FUNCTION]}, [], id="tools-input-schema"),
    pytest.param({"messages": [HI], "tools": [BASH_TOOL, WEB_SEARCH]},
                 {"messages": [HI], "tools": [BASH_FUNCTION]}, ["server-tool-dropped"],
                 id="server-tool-dropped"),
    pytest.param(choosing({"type": "auto"}), chosen(tool_choice="auto"), [], id="tool-choice-auto"),
    pytest.param(choosing({"type": "any"}), chosen(tool_choice="required"), [], id="tool-choice-any"),
    pytest.param(choosing({"type": "tool", "name": "bash"}),
                 chosen(tool_choice={"type": "function", "function": {"name": "bash"}}), [],
                 id="tool-choice-tool"),
    pytest.param(choosing({"type": "none"}), chosen(tool_choice="none"), [], id="tool-choice-none"),
    pytest.param(choosing({"type": "auto", "disable_parallel_tool_use": True}),
                 chosen(tool_choice="auto", parallel_tool_calls=False), [], id="disable-parallel-tool-use"),
    pytest.param({"messages": [HI], "tool_choice": {"type": "any"}}, {"messages": [HI]}, [],
                 id="tool-choice-without-tools-left-out"),
    pytest.param({"messages": [HI], "max_tokens": 512, "temperature": 0.2, "top_p": 0.9, "top_k": 40},
                 {"messages": [HI], "max_tokens": 512, "temperature": 0.2, "top_p": 0.9, "top_k": 40},
                 [], id="sampling-copied"),
    pytest.param({"messages": [HI], "stop_sequences": ["END"]}, {"messages": [HI], "stop": ["END"]}, [],
                 id="stop-sequences"),
    pytest.param({"messages": [HI], "metadata": {"user_id": "u-1"}}, {"messages": [HI], "user": "u-1"}, [],
                 id="metadata-user-id"),
    pytest.param(thinks(4095), {"messages": [HI], "reasoning_effort": "low"}, [], id="thinking-low"),
    pytest.param(thinks(4096), {"messages": [HI], "reasoning_effort": "medium"}, [], id="thinking-medium"),
    pytest.param(thinks(16384), {"messages": [HI], "reasoning_effort": "high"}, [], id="thinking-high"),
    pytest.param({"messages": [HI], "thinking": {"type": "disabled"}}, {"messages": [HI]}, [],
                 id="thinking-disabled"),
    pytest.param({"messages": [HI], "thinking": {"type": "adaptive"}, "output_config": {"effort": "max"}},
                 {"messages": [HI], "reasoning_effort": "high"}, [], id="output-config-effort"),
    pytest.param({**thinks(1024), "output_config": {"effort": "high", "format": {}}},
                 {"messages": [HI], "reasoning_effort": "low"}, ["request-fields-dropped"],
                 id="budget-before-effort-and-format-noticed"),
    pytest.param({"messages": [HI], "context_management": {"edits": []}}, {"messages": [HI]}, [],
                 id="context-management-dropped-quietly"),
    pytest.param({"messages": [user(text("hi", cache_control=EPHEMERAL))]}, {"messages": [HI]}, [],
                 id="cache-control-removed"),
    pytest.param({"messages": [HI], "stream": True},
                 {"messages": [HI], "stream": True, "stream_options": {"include_usage": True}}, [],
                 id="stream-asks-for-usage"),
    pytest.param({"messages": [HI], "stream": False}, {"messages": [HI]}, [], id="no-stream"),
    pytest.param({"messages": [HI], "service_tier": "auto"}, {"messages": [HI]}, ["request-fields-dropped"],
                 id="unknown-field-noticed"),
    pytest.param({"messages": [user({"type": "search_result", "content": []}, text("hi"))]},
                 {"messages": [HI]}, ["block-dropped"], id="unknown-block-noticed"),
]


@pytest.mark.parametrize(("fields", "expected", "codes"), RULES)
def test_translation_rule(fields: dict[str, Any], expected: dict[str, Any], codes: list[str]) -> None:
    out, notices = translate_request({"model": "claude-x", **fields})
    assert out == {"model": "claude-x", **expected}
    assert [notice.code for notice in notices] == codes
    assert b"cache_control" not in orjson.dumps(out)


MAP = (("claude-*-haiku-*", "small"), ("claude-*", "big"), ("claude-3*", "never"))


@pytest.mark.parametrize(
    ("choice", "requested", "upstream"),
    [
        pytest.param(ModelChoice(), "moonshotai/kimi-k2", "moonshotai/kimi-k2", id="forwarded"),
        pytest.param(ModelChoice(model="kimi"), "claude-sonnet-4", "kimi", id="model-for-all"),
        pytest.param(ModelChoice(model_map=MAP), "claude-3-5-haiku-2024", "small", id="map-first-match"),
        pytest.param(ModelChoice(model_map=MAP), "claude-3-opus", "big", id="map-first-match-wins"),
        pytest.param(ModelChoice(model_map=MAP), "gpt-4o", "gpt-4o", id="map-no-match-forwarded"),
        pytest.param(ModelChoice(model_map=MAP), "Claude-x", "Claude-x", id="map-case-sensitive"),
    ],
)
def test_model_selection(choice: ModelChoice, requested: str, upstream: str) -> None:
    out, _ = translate_request({"model": requested, "messages": [HI]}, choice)
    assert out["model"] == upstream


def test_parse_model_map() -> None:
    assert parse_model_map("claude-*=a=b") == ("claude-*", "a=b")
    for bad in ("claude", "=x", "x="):
        with pytest.raises(ValueError, match="PATTERN=NAME"):
            parse_model_map(bad)


def test_model_options_on_the_command_line() -> None:
    args = ["--upstream", "http://127.0.0.1:9/v1", "--model-map", "claude-haiku-*=small",
            "--model-map", "claude-*=big"]
    params = dict(cli.commands["serve"].make_context("serve", args).params)
    params.pop("workers")  # the command runs the workers; the settings are one server's
    settings = settings_from(params, take_options(params))
    assert settings.models == ModelChoice(None, (("claude-haiku-*", "small"), ("claude-*", "big")))
    result = CliRunner().invoke(cli, ["serve", *args[:2], "--model-map", "claude"])
    assert result.exit_code == 2 and "expected PATTERN=NAME" in result.stderr


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param([], "JSON object", id="not-an-object"),
        pytest.param({"messages": [HI]}, "model:", id="no-model"),
        pytest.param({"model": "m"}, "messages:", id="no-messages"),
        pytest.param({"model": "m", "messages": [{"role": "tool", "content": "x"}]}, r"messages\.0\.role",
                     id="bad-role"),
        pytest.param({"model": "m", "messages": [{"role": "user", "content": 3}]}, r"messages\.0\.content",
                     id="bad-content"),
        pytest.param({"model": "m", "messages": [{"role": "user", "content": [{"type": "text"}]}]},
                     r"messages\.0\.content\.0\.text", id="text-without-text"),
        pytest.param({"model": "m", "messages": [HI], "tools": [BASH_TOOL], "tool_choice": {"type": "some"}},
                     "tool_choice.type", id="bad-tool-choice"),
        pytest.param({"model": "m", "messages": [HI], "tools": {"a": 1}}, "tools:", id="tools-not-a-list"),
    ],
)
def test_untranslatable_request(body: Any, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        translate_request(body)


def test_estimate_tokens() -> None:
    request, _ = translate_request({"model": "m", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "x" * 9}, {"type": "image", "source": PNG}]}]})
    # string values "user", "text" and nine x: 17 characters -> 5 tokens; the image's data is not counted
    assert estimate_tokens(request) == 5 + IMAGE_TOKENS


def test_status_error_types() -> None:
    kinds = {status: status_error(status, "m")["error"]["type"] for status in
             (400, 401, 403, 404, 413, 422, 429, 500, 502, 529)}
    assert kinds == {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                     404: "not_found_error", 413: "request_too_large", 422: "invalid_request_error",
                     429: "rate_limit_error", 500: "api_error", 502: "api_error", 529: "overloaded_error"}
    assert status_error(429, "slow down") == {
        "type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}


def test_models_list() -> None:
    upstream = {"object": "list", "data": [
        {"id": "moonshotai/kimi-k2", "object": "model", "created": 1700000000, "name": "Kimi K2"},
        {"id": "qwen3", "object": "model"},
        {"object": "model"},
    ]}
    assert models_list(upstream) == {
        "data": [
            {"type": "model", "id": "moonshotai/kimi-k2", "display_name": "Kimi K2",
             "created_at": "2023-11-14T22:13:20Z"},
            {"type": "model", "id": "qwen3", "display_name": "qwen3", "created_at": "1970-01-01T00:00:00Z"},
        ],
        "has_more": False, "first_id": "moonshotai/kimi-k2", "last_id": "qwen3",
    }
    assert models_list({"error": "x"}) == {"data": [], "has_more": False, "first_id": None, "last_id": None}
