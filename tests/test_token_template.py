"""TokenTemplate: a token read from raw bytes is exactly what parsing the event would give."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMAT_CHOICES
from sse_rewrite.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.token_template import TokenTemplate
from tests.chunking import chunk_event, rewrite_stream
from tests.oracles import openai_final


def template(delta: dict[str, object], field: str = "content") -> TokenTemplate | None:
    raw = chunk_event(delta)
    return TokenTemplate.learn(raw, orjson.loads(raw[6:]), field)


def test_the_same_event_with_another_token_gives_that_token() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    assert learned.token(chunk_event({"role": "assistant", "content": '{"cmd": "ls"}'})) == '{"cmd": "ls"}'


@given(st.text())
def test_any_token_round_trips(token: str) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    raw = chunk_event({"role": "assistant", "content": token})
    assert learned.token(raw) == orjson.loads(raw[6:])["choices"][0]["delta"]["content"]


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(chunk_event({"role": "assistant", "content": "b"}, "stop"), id="finish"),
        pytest.param(chunk_event({"role": "assistant", "content": "b"}, stream_id="gen-2"), id="other-id"),
        pytest.param(chunk_event({"content": "b"}), id="no-role"),
        pytest.param(chunk_event({"role": "assistant", "reasoning": "b"}), id="other-field"),
        pytest.param(chunk_event({"role": "assistant", "content": 1}), id="not-a-string"),
        pytest.param(
            chunk_event({"role": "assistant", "content": "b"}).replace(
                b'"b"', b'"b"},"finish_reason":"stop","x":{"y":"z"'
            ),
            id="injected-structure",
        ),
        pytest.param(
            chunk_event({"role": "assistant", "content": "b"}).replace(b"\n\n", b"\r\n\r\n"), id="crlf"
        ),
    ],
)
def test_anything_but_the_same_event_with_another_token_gives_none(raw: bytes) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    assert learned.token(raw) is None


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(
            chunk_event({"role": "assistant", "content": "a"}).replace(b"\n\n", b"\r\n\r\n"), id="crlf"
        ),
        pytest.param(b": ping\n" + chunk_event({"role": "assistant", "content": "a"}), id="two-lines"),
        pytest.param(chunk_event({"content": "a", "role": "a"}), id="token-also-elsewhere-after-it"),
    ],
)
def test_no_template_where_the_token_place_is_uncertain(raw: bytes) -> None:
    chunk = orjson.loads(raw[raw.index(b"{") :])
    assert TokenTemplate.learn(raw, chunk, "content") is None


def test_a_stream_whose_chunks_differ_in_more_than_the_token_is_rewritten_the_same() -> None:
    tokens = [
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.bash:0",
        "<|tool_call_argument_begin|>",
        '{"cmd":',
        ' "ls',
        ' -la"}',
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
    ]
    events = [
        chunk_event({"role": "assistant", "content": token}, created=i) for i, token in enumerate(tokens)
    ]
    stream = b"".join(events) + chunk_event({}, "stop") + b"data: [DONE]\n\n"
    [call] = openai_final(rewrite_stream(stream)).choices[0].message.tool_calls
    assert (call.function.name, orjson.loads(call.function.arguments)) == ("bash", {"cmd": "ls -la"})


_PIECES = [
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.bash:1",
    "functions",
    ".x:2",
    "<|tool_call_argument_begin|>",
    '{"a":',
    ' "x<|tool_call_end|>"',
    "}",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    " ",
    "\n",
    "text",
    '"',
    "\\",
    "<",
    "é",
    "<tool_call>",
    "</tool_call>",
    '{"name": "f", "arguments": {}}',
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "f<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "TOOL: x\n",
    "ARGUMENTS: {}\n",
]


def _rewrite(stream: bytes, format_name: str, reads: list[int]) -> bytes:
    rewriter = StreamRewriter(RewriteOptions(format=format_name, max_section_bytes=200))
    out, pos = [], 0
    for size in reads:
        out += rewriter.feed(stream[pos : pos + size])
        pos += size
    out += rewriter.feed(stream[pos:]) + rewriter.flush()
    return b"".join(item for item in out if isinstance(item, bytes))


@settings(max_examples=200, deadline=None)
@given(
    tokens=st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=40),
    fields=st.lists(st.sampled_from(["content", "reasoning"]), min_size=1, max_size=3),
    format_name=st.sampled_from(FORMAT_CHOICES),
    reads=st.lists(st.integers(1, 300), max_size=10),
    finish=st.sampled_from([None, "stop", "length"]),
)
def test_the_template_hot_path_changes_no_output_byte(
    tokens: list[str], fields: list[str], format_name: str, reads: list[int], finish: str | None
) -> None:
    events = [chunk_event({"role": "assistant", fields[i % len(fields)]: t}) for i, t in enumerate(tokens)]
    stream = b"".join(events) + chunk_event({}, finish) + b"data: [DONE]\n\n"
    with_templates = _rewrite(stream, format_name, reads)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TokenTemplate, "learn", classmethod(lambda cls, *args: None))
        assert _rewrite(stream, format_name, reads) == with_templates
