"""StreamRewriter end to end at the SSE level: leaked calls, fields, and what passes through."""

from __future__ import annotations

import orjson
import pytest

from tests.chunking import chunk_event, token_stream
from tests.oracles import openai_final, openai_state
from tests.rewrite_runs import AB, CB, CE, ONE_CALL, SB, SE, chunks, run, tool_call_deltas

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


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


def test_data_that_is_not_utf8_is_read_as_its_text() -> None:
    # orjson reads an event's bytes; bytes that are not UTF-8 are read as the decoder's text
    # (each invalid sequence replaced), inside a call and outside one, as the text was before.
    tokens = [*ONE_CALL[:7], '{"cmd": "QQ', '"}', *ONE_CALL[10:]]
    stream = token_stream(["Look QQ", *tokens]).replace(b"QQ", b"\xff\xe2\x82")
    body, notices = run(stream, format="kimi")
    assert notices == []
    assert tool_call_deltas(body)[0]["function"]["arguments"] == '{"cmd": "\ufffd\ufffd"}'
    assert b"Look \xff\xe2\x82" in body  # (an event nothing changes keeps its bytes)


def test_invalid_json_that_is_not_utf8_gets_the_notice_its_text_gets() -> None:
    body, notices = run(b"data: {\xff\n\n")
    assert body == b"data: {\xff\n\n"
    with pytest.raises(orjson.JSONDecodeError) as error:
        orjson.loads("{\ufffd")
    assert [n.code for n in notices] == ["invalid-json"]
    assert notices[0].message.startswith(f"event 1: {error.value};")
