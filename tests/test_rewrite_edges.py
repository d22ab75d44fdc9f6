"""StreamRewriter end to end: native calls beside leaked ones, stream ends, caps, bodies, any chunking."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite import StreamRewriter, rewrite_completion
from tests.chunking import chunk_event, token_stream
from tests.oracles import openai_state
from tests.rewrite_runs import AB, CB, CE, ONE_CALL, SB, SE, chunks, run, tool_call_deltas

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


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


def test_length_finish_inside_a_call_keeps_even_a_complete_call_as_text() -> None:
    # (the model was cut off: a `length` finish recovers no call, docs/behaviour.md "Damage")
    text = f'{SB}{CB}functions.a:0{AB}{{"x": 1}}'
    body, notices = run(chunk_event({"content": text}) + chunk_event({}, "length"))
    assert tool_call_deltas(body) == []
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks(body)) == text
    assert "cut-off-call" in [n.code for n in notices]
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
    # Scanning resumes after the released text: the closers, vocabulary tokens with nothing open
    # that end the message, are dropped (DESIGN.md §4); the released text is whole.
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


@settings(max_examples=10, deadline=None)
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
    if before.rsplit("\n", 1)[-1].lstrip(" \t").startswith("|"):  # a table row: quoted
        assert (message.content, message.tool_calls) == (text, None)
        return
    assert (message.content or "") == before + after
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls] == [
        ("functions.bash:15", "bash", args)
    ]
