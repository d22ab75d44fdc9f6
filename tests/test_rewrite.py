"""StreamRewriter end to end at the SSE level, with the openai SDK as the assembling oracle."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite import Notice, RewriteOptions, StreamRewriter, rewrite_completion
from sse_rewrite.sse import SSEDecoder
from tests.chunking import chunk_event, token_stream
from tests.oracles import openai_final, openai_state

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
ONE_CALL = [SB, CB, " functions", ".bash", ":", "15", AB, '{"cmd"', ': "ls', ' -la"}', CE, SE]


def run(data: bytes, read_size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """Rewrite `data` fed whole or in reads of `read_size` bytes; the output must not depend on it."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    parts = [data] if read_size is None else [data[i : i + read_size] for i in range(0, len(data), read_size)]
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    body = b"".join(item for item in out if isinstance(item, bytes))
    if read_size is None:
        assert run(data, 1, **options)[0] == body, "output depends on read sizes"
    return body, [item for item in out if isinstance(item, Notice)]


def chunks(body: bytes) -> list[dict[str, Any]]:
    decoder = SSEDecoder()
    events = decoder.feed(body) + decoder.flush()
    return [orjson.loads(e.data) for e in events if e.data and e.data != "[DONE]"]


def tool_call_deltas(body: bytes) -> list[dict[str, Any]]:
    return [tc for c in chunks(body) for ch in c["choices"] for tc in ch["delta"].get("tool_calls", [])]


def test_events_without_syntax_pass_through_byte_for_byte() -> None:
    stream = token_stream(["Hello", " <b>world</b>", " 1 < 2"]) + b": keep-alive\r\n\r\n"
    assert run(stream)[0] == stream


def test_done_passes_through_after_an_event_held_for_a_possible_marker() -> None:
    stream = chunk_event({"content": "a <"}) + b"data: [DONE]\n\n"
    assert run(stream)[0] == stream  # the event was held whole, and nothing followed the `<`


def test_one_call_in_one_chunk() -> None:
    text = f'Checking.{SB}{CB}functions.bash:15{AB}{{"cmd": "ls"}}{CE}{SE}'
    body, notices = run(token_stream([text]))
    assert tool_call_deltas(body) == [
        {
            "index": 0,
            "id": "functions.bash:15",
            "type": "function",
            "function": {"name": "bash", "arguments": '{"cmd": "ls"}'},
        }
    ]
    final = openai_final(body)
    assert final.choices[0].message.content == "Checking."
    assert final.choices[0].finish_reason == "tool_calls"
    assert notices == []


def test_one_call_spread_one_token_per_chunk() -> None:
    body, _ = run(token_stream(["Let me look.", *ONE_CALL]))
    message = openai_final(body, chunk=5).choices[0].message
    assert message.content == "Let me look."
    [call] = message.tool_calls
    assert (call.id, call.function.name, call.function.arguments) == (
        "functions.bash:15",
        "bash",
        '{"cmd": "ls -la"}',
    )


def test_several_calls_get_increasing_indexes() -> None:
    tokens = [SB] + [f'{CB}functions.read:{i}{AB}{{"n": {i}}}{CE}' for i in range(3)] + [SE]
    body, _ = run(token_stream(tokens))
    assert [d["index"] for d in tool_call_deltas(body)] == [0, 1, 2]
    calls = openai_final(body).choices[0].message.tool_calls
    assert [c.function.arguments for c in calls] == ['{"n": 0}', '{"n": 1}', '{"n": 2}']


def test_text_before_and_after_the_section_stays_in_order() -> None:
    body, _ = run(token_stream(["Before ", *ONE_CALL, " after", " more"]))
    assert openai_final(body).choices[0].message.content == "Before  after more"


def test_text_after_a_call_in_the_same_chunk_follows_the_call() -> None:
    body, _ = run(token_stream([f"a{CB}functions.x:0{AB}{{}}{CE}b"]))
    kinds = [
        ("call" if "tool_calls" in ch["delta"] else ch["delta"].get("content"))
        for c in chunks(body)
        for ch in c["choices"]
    ]
    assert kinds[:3] == ["a", "call", "b"]


def test_empty_arguments_become_empty_object() -> None:
    body, _ = run(token_stream([SB, CB, "functions.now:0", AB, CE, SE]))
    assert tool_call_deltas(body)[0]["function"]["arguments"] == "{}"


def test_reasoning_and_content_fields_are_kept_apart() -> None:
    stream = b"".join(
        [
            chunk_event({"reasoning": "think ", "content": ""}),
            chunk_event({"reasoning": f"{SB}{CB}functions.a:0{AB}{{}}{CE}{SE}", "content": ""}),
            chunk_event({"content": "answer"}),
            chunk_event({}, "stop"),
        ]
    )
    body, _ = run(stream)
    message = openai_state(body).choices[0].message
    assert message.content == "answer"
    assert message.reasoning == "think "  # type: ignore[attr-defined]
    assert [c.function.name for c in message.tool_calls] == ["a"]


def test_reasoning_content_field_is_scanned() -> None:
    tokens = ["Need weather.", SB, CB, "functions.get_weather:0", AB, '{"city": "Florence"}', CE, SE]
    body, _ = run(token_stream(tokens, field="reasoning_content"))
    texts = "".join(ch["delta"].get("reasoning_content") or "" for c in chunks(body) for ch in c["choices"])
    assert texts == "Need weather."
    assert [d["function"]["name"] for d in tool_call_deltas(body)] == ["get_weather"]


def test_mirrored_reasoning_details_lose_the_markers_too() -> None:
    body, _ = run(
        token_stream(["Plan: ", f"{SB}{CB}functions.a:0{AB}{{}}{CE}{SE}", " done"], field="reasoning")
    )
    for chunk in chunks(body):
        delta = chunk["choices"][0]["delta"]
        details = "".join(d["text"] for d in delta.get("reasoning_details", []))
        assert details == (delta.get("reasoning") or "")
        assert "<|" not in details
    assert len(tool_call_deltas(body)) == 1


def test_identical_reasoning_content_is_a_mirror_not_a_second_call() -> None:
    text = f"{CB}functions.a:0{AB}{{}}{CE}"
    body, _ = run(chunk_event({"reasoning": text, "reasoning_content": text}) + chunk_event({}, "stop"))
    assert len(tool_call_deltas(body)) == 1
    assert all("<|" not in str(c) for c in chunks(body))


def test_marker_split_at_any_byte_of_the_token_stream() -> None:
    text = f'Hi {SB}{CB}functions.bash:15{AB}{{"cmd": "ls"}}{CE}{SE} bye'
    expected = None
    for size in (1, 2, 3, 5, 8, 13):
        body, _ = run(token_stream([text[i : i + size] for i in range(0, len(text), size)]))
        final = openai_state(body).choices[0]
        got = (final.message.content, [(c.id, c.function.arguments) for c in final.message.tool_calls])
        assert expected is None or got == expected
        expected = got
    assert expected == ("Hi  bye", [("functions.bash:15", '{"cmd": "ls"}')])


def test_usage_only_chunk_passes_through_and_stays_last() -> None:
    usage = b'data: {"id":"gen-1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":9}}\n\n'
    stream = token_stream(ONE_CALL).replace(b"data: [DONE]", usage + b"data: [DONE]")
    body, _ = run(stream)
    assert usage + b"data: [DONE]\n\n" in body
    assert openai_state(body).usage.completion_tokens == 9


def test_invalid_json_line_passes_through_with_a_notice() -> None:
    stream = b"data: {not json\n\n" + token_stream(["ok"])
    body, notices = run(stream)
    assert body == stream
    assert [n.code for n in notices] == ["invalid-json"]


@pytest.mark.parametrize("data", [b"[]", b'"x"', b"1", b"null"])
def test_non_object_json_passes_through(data: bytes) -> None:
    stream = b"data: " + data + b"\n\n"
    body, notices = run(stream)
    assert body == stream
    assert [n.code for n in notices] == ["not-a-chunk"]


def test_error_chunk_passes_through() -> None:
    error = b'data: {"error":{"message":"upstream died","type":"server_error"}}\n\n'
    assert run(error)[0] == error


def test_error_chunk_after_held_back_text_flushes_it_first_and_passes_unchanged() -> None:
    error = chunk_event(
        {"role": "assistant", "content": ""}, "error", error={"code": 502, "message": "provider died"}
    )
    body, notices = run(chunk_event({"content": f"Let me look.{SB}{CB}functions.ls"}) + error)
    assert body.endswith(error)
    assert [c["choices"][0]["delta"].get("content") for c in chunks(body)[:-1]] == [
        "Let me look.",
        f"{SB}{CB}functions.ls",
    ]
    assert [n.code for n in notices] == ["truncated-call"]


def test_native_tool_calls_pass_through_untouched() -> None:
    first = {
        "role": "assistant",
        "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}
        ],
    }
    stream = b"".join(
        [
            chunk_event(first),
            chunk_event({"tool_calls": [{"index": 0, "function": {"arguments": '{"a":'}}]}),
            chunk_event({"tool_calls": [{"index": 0, "function": {"arguments": " 1}"}}]}),
            chunk_event({}, "tool_calls"),
            b"data: [DONE]\n\n",
        ]
    )
    assert run(stream)[0] == stream


def test_leaked_call_after_native_calls_continues_their_indexes() -> None:
    native = {
        "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ]
    }
    stream = (
        chunk_event(native)
        + chunk_event({"content": f"{CB}functions.g:1{AB}{{}}{CE}"})
        + chunk_event({}, "stop")
    )
    body, _ = run(stream)
    calls = openai_state(body).choices[0].message.tool_calls
    assert [(c.index, c.function.name) for c in calls] == [(0, "f"), (1, "g")]


def test_native_calls_after_leaked_ones_are_shifted() -> None:
    native = {
        "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ]
    }
    stream = (
        chunk_event({"content": f"{CB}functions.g:0{AB}{{}}{CE}"})
        + chunk_event(native)
        + chunk_event({}, "tool_calls")
    )
    calls = openai_state(run(stream)[0]).choices[0].message.tool_calls
    assert [(c.index, c.function.name) for c in calls] == [(0, "g"), (1, "f")]


def test_finish_reason_stop_becomes_tool_calls_only_when_calls_were_emitted() -> None:
    assert openai_state(run(token_stream(ONE_CALL))[0]).choices[0].finish_reason == "tool_calls"
    assert openai_state(run(token_stream(["plain"]))[0]).choices[0].finish_reason == "stop"


def test_openai_id_style_is_deterministic_and_prefixed() -> None:
    body1, _ = run(token_stream(ONE_CALL), id_style="openai")
    body2, _ = run(token_stream(ONE_CALL), id_style="openai")
    [delta] = tool_call_deltas(body1)
    assert delta["id"].startswith("call_") and len(delta["id"]) == 29
    assert body1 == body2
    body3, _ = run(token_stream(ONE_CALL, stream_id="gen-2"), id_style="openai")
    assert tool_call_deltas(body3)[0]["id"] != delta["id"]


def test_envelope_and_other_fields_are_copied() -> None:
    body, _ = run(token_stream(ONE_CALL, system_fingerprint="fp_1"))
    call_chunk = next(c for c in chunks(body) if c["choices"][0]["delta"].get("tool_calls"))
    assert {k: call_chunk[k] for k in ("id", "model", "provider", "created", "system_fingerprint")} == {
        "id": "gen-1",
        "model": "moonshotai/kimi-k2.5",
        "provider": "Chutes",
        "created": 1773932889,
        "system_fingerprint": "fp_1",
    }


def test_finish_reason_inside_a_call_flushes_a_complete_call() -> None:
    stream = chunk_event({"content": f'{SB}{CB}functions.a:0{AB}{{"x": 1}}'}) + chunk_event({}, "length")
    body, notices = run(stream)
    assert [d["function"]["arguments"] for d in tool_call_deltas(body)] == ['{"x": 1}']
    assert "recovered-call" in [n.code for n in notices]
    assert chunks(body)[-1]["choices"][0]["finish_reason"] == "length"


def test_truncated_stream_inside_a_call_returns_the_raw_text() -> None:
    text = f'go {SB}{CB}functions.a:0{AB}{{"x": [1,'
    stream = b"".join(chunk_event({"content": text[i : i + 4]}) for i in range(0, len(text), 4))
    body, notices = run(stream)
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in chunks(body)) == text
    assert "truncated-call" in [n.code for n in notices]


def test_stream_ending_mid_event_is_still_rewritten() -> None:
    stream = chunk_event({"content": f"{CB}functions.a:0{AB}{{}}{CE}"}).rstrip(b"\n")
    body, notices = run(stream)
    assert len(tool_call_deltas(body)) == 1
    assert "truncated-event" in [n.code for n in notices]


def test_an_unterminated_last_event_goes_out_after_the_flushed_text() -> None:
    partial = chunk_event({"content": "more"})[:40]
    body, notices = run(chunk_event({"content": f"Go.{SB}{CB}functions.a:0{AB}{{\"x\": 1"}) + partial)
    assert body.endswith(b"\n\n" + partial)
    assert [c["choices"][0]["delta"]["content"] for c in chunks(body[: -len(partial)])] == [
        "Go.",
        f'{SB}{CB}functions.a:0{AB}{{"x": 1',
    ]
    assert [n.code for n in notices] == ["truncated-event", "invalid-json", "truncated-call"]


def test_format_none_changes_nothing() -> None:
    stream = token_stream(ONE_CALL)
    assert run(stream, format="none")[0] == stream


def test_section_cap_releases_raw_text() -> None:
    tokens = [SB, CB, "functions.a:0", AB, '{"x": "' + "y" * 50, '"}', CE, SE]
    body, notices = run(token_stream(tokens), max_section_bytes=40)
    assert tool_call_deltas(body) == []
    # Scanning resumes after the released text, so the now-orphan closers are dropped.
    assert openai_state(body).choices[0].message.content == "".join(tokens[:-2])
    assert {"section-cap", "orphan-marker"} <= {n.code for n in notices}


def test_non_streaming_body_is_rewritten_whole() -> None:
    completion = {
        "id": "gen-9",
        "object": "chat.completion",
        "model": "moonshotai/kimi-k2",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": f'Sure.{SB}{CB}functions.ls:3{AB}{{"d": "/"}}{CE}{SE}',
                },
            }
        ],
    }
    body, notices, calls = rewrite_completion(orjson.dumps(completion))
    choice = orjson.loads(body)["choices"][0]
    assert choice["message"]["content"] == "Sure."
    assert choice["message"]["tool_calls"] == [
        {"id": "functions.ls:3", "type": "function", "function": {"name": "ls", "arguments": '{"d": "/"}'}}
    ]
    assert choice["finish_reason"] == "tool_calls"
    assert (notices, calls) == ([], 1)
    assert run(orjson.dumps(completion))[0] == body


def test_stats_count_a_non_streaming_body() -> None:
    rewriter = StreamRewriter()
    rewriter.feed(b'{"model": "moonshotai/kimi-k2", "choices": []}')
    rewriter.flush()
    stats = rewriter.stats
    assert (stats.events_in, stats.events_out, stats.passed_through) == (1, 1, 1)
    assert stats.format == "kimi+deepseek"


def test_non_streaming_body_without_syntax_is_returned_byte_for_byte() -> None:
    raw = (
        b'{"id": "x", "choices": [{"index": 0, '
        b'"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}'
    )
    assert run(raw)[0] == raw


@settings(max_examples=40, deadline=None)
@given(
    before=st.text(alphabet="ab <>|\n", max_size=8),
    after=st.text(alphabet="ab <>|\n", max_size=8),
    cmd=st.text(alphabet='xy"\\<|>_{}', max_size=10),
    cuts=st.lists(st.integers(1, 6), min_size=1, max_size=40),
)
def test_any_token_chunking_assembles_to_the_same_message(
    before: str, after: str, cmd: str, cuts: list[int]
) -> None:
    args = orjson.dumps({"cmd": cmd}).decode()
    text = f"{before}{SB}{CB}functions.bash:15{AB}{args}{CE}{SE}{after}"
    tokens, pos = [], 0
    for size in cuts * (len(text) // len(cuts) + 1):
        if pos >= len(text):
            break
        tokens.append(text[pos : pos + size])
        pos += size
    body, _ = run(token_stream(tokens))
    message = openai_state(body).choices[0].message
    assert (message.content or "") == before + after
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls] == [
        ("functions.bash:15", "bash", args)
    ]
