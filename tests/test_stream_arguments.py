"""`--stream-arguments` end to end: the same assembled result as without it, call headers
and argument deltas as they arrive, and a live pipe that answers before the call ends."""

from __future__ import annotations

import json
import subprocess
import sys

import orjson
import pytest

from sse_rewrite.stream.assemble import assemble
from sse_rewrite.stream.sse import SSEDecoder
from tests.chunking import chunk_event, field_stream, read_until, rewrite_stream, token_stream
from tests.formats.damage_rows import KIMI, ROWS
from tests.oracles import anthropic_final, openai_final

pytestmark = pytest.mark.usefixtures("accelerators")

CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]
# Rows whose call is announced before it breaks: completed as written instead of released.
_OPEN_AT_STOP = (
    "stop-sequence-inside-an-open-value-is-text",
    "stop-sequence-inside-a-bare-calls-open-parameter-is-text",
)
_CUT = ("kimi", "deepseek", "hermes", "qwen3-coder", "glm")
COMPLETED = {(fmt, "eof-in-call-incomplete") for fmt in _CUT} | {
    # (a value open at a normal finish is text, but an announced call is completed as written)
    ("qwen3-coder", _OPEN_AT_STOP[0]), ("glm", _OPEN_AT_STOP[0]), ("qwen3-coder", _OPEN_AT_STOP[1]),
}


def final(stream: bytes):  # type: ignore[no-untyped-def]
    """What the openai SDK assembles: content, calls (id, name, arguments), finish reason (read
    whole: the SDK reading small pieces is `tests/formats/harness.py`'s)."""
    choice = openai_final(stream).choices[0]
    calls = [(c.id, c.function.name, c.function.arguments) for c in choice.message.tool_calls or []]
    return choice.message.content or "", calls, choice.finish_reason


def assembled(stream: bytes) -> tuple[str, list[tuple[str, str, str]], str | None]:
    """The same as `final`, read by `assemble` (the SDK reads whole calls alike: test_assemble.py)."""
    choice = assemble(stream).choices[0]
    calls = [(c.id, c.name, c.arguments) for _, c in sorted(choice.calls.items())]
    return choice.text.get("content", ""), calls, choice.finish_reason


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_the_openai_sdk_assembles_the_same_result_with_streamed_arguments(fmt: str, row: str) -> None:
    text = ROWS[fmt][row][0]
    for size in (1, 3):
        tokens = [text[i : i + size] for i in range(0, len(text), size)]
        # `eof-*` rows are cut streams (no finish_reason), as in test_damage.py
        stream = field_stream([{"content": t} for t in tokens], finish=None) if row.startswith("eof-") else (
            token_stream(tokens))  # fmt: skip
        plain = assembled(rewrite_stream(stream, format=fmt))
        streamed = final(rewrite_stream(stream, format=fmt, stream_arguments=True))
        if (fmt, row) in COMPLETED:
            assert streamed[0] == text[: text.index("<")] and [c[1] for c in streamed[1]] == ["f"]
            assert plain[1] == []
        else:
            assert streamed == plain


def tool_call_deltas(stream: bytes) -> list[dict[str, object]]:
    decoder = SSEDecoder()
    out = []
    for event in decoder.feed(stream) + decoder.flush():
        if event.data and event.data.startswith("{"):
            for choice in orjson.loads(event.data).get("choices", []):
                out += choice.get("delta", {}).get("tool_calls") or []
    return out


ARGS = json.dumps({"path": "a.txt", "content": "hello " * 20})
LONG_CALL = f"{KIMI['sb']}{KIMI['cb']}functions.write:0{KIMI['ab']}{ARGS}{KIMI['ce']}{KIMI['se']}"


def test_the_header_comes_first_then_argument_parts_then_only_the_rest() -> None:
    tokens = [LONG_CALL[i : i + 5] for i in range(0, len(LONG_CALL), 5)]
    deltas = tool_call_deltas(rewrite_stream(token_stream(tokens), stream_arguments=True))
    header = {"index": 0, "id": "functions.write:0", "type": "function"}
    assert deltas[0] == {**header, "function": {"name": "write", "arguments": ""}}
    assert len(deltas) > 10 and all(set(d) == {"index", "function"} for d in deltas[1:])
    assert "".join(d["function"]["arguments"] for d in deltas) == ARGS  # type: ignore[index]


def test_in_a_pipe_the_first_argument_delta_comes_out_before_the_end_marker_goes_in() -> None:
    command = [sys.executable, "-m", "sse_rewrite", "--stream-arguments"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    head, tail = LONG_CALL.split(KIMI["ce"])
    tokens = [head[i : i + 4] for i in range(0, len(head), 4)]
    try:
        got = b""
        for token in tokens:
            child.stdin.write(chunk_event({"content": token}))
            child.stdin.flush()
        # Every argument token is in; the end marker is not: its header and first part must be out.
        got = read_until(child.stdout.fileno(), b'{"index":0,"function":{"arguments":"{', got)
        assert b'"name":"write"' in got
        child.stdin.write(chunk_event({"content": KIMI["ce"] + tail}) + chunk_event({}, "stop"))
        child.stdin.write(b"data: [DONE]\n\n")
        child.stdin.flush()
        got = read_until(child.stdout.fileno(), b"[DONE]", got)
        assert b'"finish_reason":"tool_calls"' in got
    finally:
        child.stdin.close()
        child.wait(timeout=20)
        child.stdout.close()
    assert child.returncode == 0


def test_to_anthropic_the_parts_become_input_json_deltas_of_one_tool_use_block() -> None:
    tokens = [LONG_CALL[i : i + 5] for i in range(0, len(LONG_CALL), 5)]
    stream = token_stream(["Writing it. ", *tokens])
    plain = rewrite_stream(stream, to="anthropic")
    streamed = rewrite_stream(stream, to="anthropic", stream_arguments=True)
    assert streamed.count(b'"input_json_delta"') > 10 > plain.count(b'"input_json_delta"')
    message = anthropic_final(streamed, chunk=11)
    assert [block.type for block in message.content] == ["text", "tool_use"]
    assert message.content[1].input == json.loads(ARGS) and message.stop_reason == "tool_use"
    assert anthropic_final(plain).content[1].input == json.loads(ARGS)


def test_a_qwen_file_ending_in_a_newline_streams_to_json_arguments() -> None:
    """Issue 26: the streamed member was trimmed, the final one not (no closing brace)."""
    call = ("<tool_call>\n<function=write>\n<parameter=path>\na.py\n</parameter>\n"
            "<parameter=content>\nx = 1\n\n</parameter>\n</function>\n</tool_call>")  # fmt: skip
    stream = token_stream([call[i : i + 4] for i in range(0, len(call), 4)], model="qwen/qwen3-coder")
    deltas = tool_call_deltas(rewrite_stream(stream, stream_arguments=True))
    arguments = "".join(d["function"]["arguments"] for d in deltas)  # type: ignore[index]
    assert json.loads(arguments) == {"path": "a.py", "content": "x = 1\n"}
    assert final(rewrite_stream(stream))[1] == final(rewrite_stream(stream, stream_arguments=True))[1]
