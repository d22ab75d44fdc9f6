"""--to responses: rewritten chunks as Responses API events, read back by the official openai SDK."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import orjson
import pytest
from click.testing import CliRunner
from openai import OpenAI

from sse_rewrite import goldens
from sse_rewrite.cli import cli
from sse_rewrite.protocols.responses.events import ResponsesEmitter
from sse_rewrite.protocols.responses.items import ResponseContext
from sse_rewrite.protocols.responses.whole import completion_response
from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.anthropic_streams import CONTENT, REASONING, events, kimi_stream, native_stream

SSE_LOGS = Path(__file__).parent.parent / "sse_logs"
PATCH = "*** Begin Patch\n"
KIMI_ITEMS = [
    ("reasoning", "Let me look. "),
    ("function_call", ("bash", '{"cmd": "ls -la"}', "functions.bash:0")),
    ("reasoning", " Now answer."),
    ("message", "Here you go."),
    ("function_call", ("read", '{"path": "a.txt"}', "functions.read:1")),
]


def sdk_events(body: bytes) -> tuple[list[Any], Any]:
    """The SDK's events for an SSE body, and its final response (or the exception it raised)."""
    transport = httpx2.MockTransport(
        lambda request: httpx2.Response(200, headers={"content-type": "text/event-stream"},
                                        content=iter([body])))
    client = OpenAI(api_key="x", base_url="http://oracle.invalid/v1", max_retries=0,
                    http_client=httpx2.Client(transport=transport))
    with client.responses.stream(model="m", input="x") as stream:
        seen = list(stream)
        try:
            return seen, stream.get_final_response()
        except RuntimeError as error:
            return seen, error


def items(response: Any) -> list[tuple[str, Any]]:
    """The response's output in the shape of KIMI_ITEMS."""
    out: list[tuple[str, Any]] = []
    for item in response.output:
        if item.type == "reasoning":
            out.append(("reasoning", item.content[0].text))
        elif item.type == "message":
            out.append(("message", item.content[0].text))
        elif item.type == "function_call":
            out.append(("function_call", (item.name, item.arguments, item.call_id)))
        else:
            out.append((item.type, (item.name, item.input, item.call_id)))
    return out


def run(stream: bytes, size: int | None = None, context: ResponseContext | None = None,
        **options: Any) -> tuple[bytes, list[Notice]]:
    """`stream` rewritten to Responses events, fed whole or `size` bytes at a time."""
    from sse_rewrite.protocols.responses.output import ResponsesOutput

    rewriter = StreamRewriter(RewriteOptions(to="responses", **options), ResponsesOutput(context))
    pieces = [stream] if size is None else [stream[i : i + size] for i in range(0, len(stream), size)]
    out = [item for piece in pieces for item in rewriter.feed(piece)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    """One chunk event of stream `s1`."""
    body = {"id": "s1", "model": "m", "created": 1, "choices": [{"index": 0, "delta": delta,
                                                                 "finish_reason": finish}], **extra}
    return b"data: " + orjson.dumps(body) + b"\n\n"


def test_cli_to_responses_gives_every_item_in_order() -> None:
    result = CliRunner().invoke(cli, ["--to", "responses"], input=kimi_stream([REASONING], [CONTENT]))
    assert result.exit_code == 0, result.output
    seen, response = sdk_events(result.stdout_bytes)
    assert items(response) == KIMI_ITEMS
    assert [event.sequence_number for event in seen] == list(range(len(seen)))
    assert response.usage.input_tokens_details.cached_tokens == 64 and response.usage.total_tokens == 222
    assert b"[DONE]" not in result.stdout_bytes and b"chat.completion" not in result.stdout_bytes


@pytest.mark.parametrize("size", [1, 13])
def test_the_response_does_not_depend_on_read_sizes(size: int) -> None:
    stream = kimi_stream([REASONING], [CONTENT])
    assert items(sdk_events(run(stream, size)[0])[1]) == KIMI_ITEMS


def test_streamed_arguments_arrive_as_deltas_and_assemble() -> None:
    body, _ = run(native_stream(), stream_arguments=True)
    kind = "response.function_call_arguments.delta"
    deltas = [data["delta"] for _, data in events(body) if data["type"] == kind]
    assert deltas == ['{"a": 1', ", ", '"b": 2}', '{"a"', ": 3}"]
    assert items(sdk_events(body)[1])[1:] == [
        ("function_call", ("add", '{"a": 1, "b": 2}', "functions.add:0")),
        ("function_call", ("mul", '{"a": 3}', "call_9"))]


def test_a_custom_tool_call_carries_the_raw_input() -> None:
    call = {"index": 0, "id": "functions.apply_patch:0", "type": "function",
            "function": {"name": "apply_patch", "arguments": orjson.dumps({"input": PATCH}).decode()}}
    stream = chunk({"tool_calls": [call]}) + chunk({}, "tool_calls") + b"data: [DONE]\n\n"
    context = ResponseContext("resp_1", {"model": "asked"}, frozenset({"apply_patch"}))
    body, _ = run(stream, context=context)
    kinds = [data["type"] for _, data in events(body)]
    assert "response.custom_tool_call_input.done" in kinds
    assert "response.function_call_arguments.delta" not in kinds
    response = sdk_events(body)[1]
    assert (response.id, response.model) == ("resp_1", "asked")
    assert items(response) == [("custom_tool_call", ("apply_patch", PATCH, "functions.apply_patch:0"))]


def test_custom_tool_arguments_that_are_no_object_are_the_input_with_a_notice() -> None:
    emitter = ResponsesEmitter(ResponseContext(custom_tools=frozenset({"patch"})))
    call = {"index": 0, "function": {"name": "patch", "arguments": "raw text"}}
    out = emitter.feed({"id": "s", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
    out += emitter.flush()
    assert [n.code for n in out if isinstance(n, Notice)] == ["no-finish", "custom-input-raw"]
    assert emitter.response is not None and emitter.response["output"][0]["input"] == "raw text"


def test_late_arguments_of_a_closed_call_are_dropped_with_a_notice() -> None:
    first = {"index": 0, "id": "c0", "function": {"name": "f", "arguments": "{}"}}
    stream = chunk({"tool_calls": [first]}) + chunk({"content": "and"}) + chunk(
        {"tool_calls": [{"index": 0, "function": {"arguments": "more"}}]}, "tool_calls")
    body, notices = run(stream)
    assert "late-tool-arguments" in [n.code for n in notices]
    assert items(sdk_events(body)[1]) == [("function_call", ("f", "{}", "c0")), ("message", "and")]


def test_only_choice_zero_becomes_the_response() -> None:
    emitter = ResponsesEmitter()
    two = {"id": "s", "choices": [{"index": 0, "delta": {"content": "a"}},
                                  {"index": 1, "delta": {"content": "b"}}]}
    out = emitter.feed(two) + emitter.feed(two) + emitter.flush()
    assert [n.code for n in out if isinstance(n, Notice)] == ["extra-choices", "no-finish"]
    assert emitter.response is not None and emitter.response["output"][0]["content"][0]["text"] == "aa"


def test_an_empty_stream_sends_nothing() -> None:
    out = ResponsesEmitter().flush()
    assert [notice.code for notice in out if isinstance(notice, Notice)] == ["empty-stream"] and len(out) == 1


def test_a_length_cutoff_is_an_incomplete_response() -> None:
    body = (SSE_LOGS / "responses-kimi-length-cutoff.sse.golden").read_bytes()
    seen, error = sdk_events(body)
    assert isinstance(error, RuntimeError)  # the SDK's get_final_response wants response.completed
    assert seen[-1].type == "response.incomplete"
    assert seen[-1].response.incomplete_details.reason == "max_output_tokens"
    # the call was cut off (never recovered at `length`, DESIGN.md §4): its text is the message
    assert [(item.type, item.status) for item in seen[-1].response.output] == [("message", "incomplete")]


def test_an_error_mid_stream_is_a_failed_response_without_the_open_item() -> None:
    seen, _ = sdk_events((SSE_LOGS / "responses-openrouter-error-mid-stream.sse.golden").read_bytes())
    assert seen[-1].type == "response.failed" and seen[-1].response.output == []
    assert seen[-1].response.error.message == "Provider returned error"


def test_the_reasoning_capture_completes_with_both_calls() -> None:
    _, response = sdk_events((SSE_LOGS / "responses-kimi-reasoning-tool.sse.golden").read_bytes())
    assert [kind for kind, _ in items(response)] == ["reasoning", "function_call", "reasoning", "message",
                                                     "function_call"]
    assert response.usage.output_tokens_details.reasoning_tokens == 41


def test_a_whole_completion_is_the_same_response_as_its_stream() -> None:
    completion = orjson.loads((SSE_LOGS / "kimi-completion-body.json").read_bytes())
    golden = orjson.loads((SSE_LOGS / "responses-kimi-completion-body.json.golden").read_bytes())
    assert [item["type"] for item in golden["output"]] == ["reasoning", "message", "function_call",
                                                           "function_call"]
    rewritten = orjson.loads(
        CliRunner().invoke(cli, [str(SSE_LOGS / "kimi-completion-body.json")]).stdout_bytes)
    response, stream, _ = completion_response(rewritten)
    assert response == golden and completion["id"] in response["id"]
    assert sdk_events(stream)[1].output[2].call_id == golden["output"][2]["call_id"]
    error, _, _ = completion_response({"error": {"message": "slow down", "code": 429}})
    expected = {"message": "slow down", "type": "rate_limit_error", "code": None, "param": None}
    assert error == {"error": expected}


def test_a_changed_responses_golden_is_explained_by_its_items() -> None:
    golden = (SSE_LOGS / "responses-kimi-reasoning-tool.sse.golden").read_bytes()
    changed = golden.replace(b"ls -la", b"ls -l").replace(b"I'll look", b"I look")
    assert goldens.compare(golden, changed)[1] == "content lost 3 chars; call 0 arguments differ"
