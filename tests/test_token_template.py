"""TokenTemplate: tokens read from raw bytes are exactly what parsing the events would give,
in one slot or in a token and its mirrors."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sse_rewrite.fast.token_template import TokenTemplate
from tests.chunking import chunk_event, rewrite_stream
from tests.oracles import openai_final


def template(delta: dict[str, object], field: str = "content") -> TokenTemplate | None:
    raw = chunk_event(delta)
    return TokenTemplate.learn(raw, orjson.loads(raw[6:]), field)


def tokens(learned: TokenTemplate, raw: bytes) -> list[str]:
    return learned.run(raw, 0, len(raw)).tokens


def test_the_same_event_with_another_token_gives_that_token() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    raw = chunk_event({"role": "assistant", "content": '{"cmd": "ls"}'})
    assert tokens(learned, raw) == ['{"cmd": "ls"}']


@given(st.text())
def test_any_token_round_trips(token: str) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    raw = chunk_event({"role": "assistant", "content": token})
    assert tokens(learned, raw) == [orjson.loads(raw[6:])["choices"][0]["delta"]["content"]]


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
    assert tokens(learned, raw) == []


def look_alike(token: str) -> bytes:
    return chunk_event({"role": "assistant", "content": token})


def test_a_run_reads_look_alikes_up_to_the_first_other_event() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    other = chunk_event({"role": "assistant", "content": "x"}, "stop")
    data = look_alike("one") + look_alike(" two") + other + look_alike("three")
    run = learned.run(data, 0, len(data))
    assert (run.tokens, run.whole) == (["one", " two"], False)
    assert run.span(2) == len(look_alike("one") + look_alike(" two"))
    assert run.span(1) == len(look_alike("one"))
    whole = learned.run(data, 0, len(look_alike("one")))
    assert (whole.tokens, whole.whole) == (["one"], True)


@pytest.mark.parametrize(
    "middles",
    [
        # Each parses only with the other: as one JSON array they make two strings.
        pytest.param([b'"ab\\"', b'","""'], id="literals-that-pair-up"),
        pytest.param([b'"a" ', b'"b"'], id="space-after-the-literal"),
        pytest.param([b'"a\nb"', b'"c"'], id="line-break-inside"),
        pytest.param([b'"a"\r', b'"b"'], id="cr-after-the-literal"),
    ],
)
def test_a_run_stops_at_a_middle_that_is_not_exactly_one_literal(middles: list[bytes]) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    before, after = look_alike("a").split(b'"a"')
    data = look_alike("ok") + b"".join(before + middle + after for middle in middles)
    assert learned.run(data, 0, len(data)).tokens == ["ok"]


def test_a_lone_line_break_after_a_run_is_left_to_the_decoder() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    data = look_alike("one") + b"\n" + look_alike("two")
    cut = len(look_alike("one")) + 1
    run = learned.run(data, 0, cut)
    assert (run.tokens, run.whole, run.span(1)) == (["one"], False, cut - 1)


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


def mirrored(token: str) -> bytes:
    detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
    delta = {"content": "", "role": "assistant", "reasoning": token, "reasoning_details": [detail]}
    return chunk_event(delta)


@given(st.text())
def test_a_token_mirrored_in_reasoning_details_is_read_from_both_slots(token: str) -> None:
    raw = mirrored("a")
    learned = TokenTemplate.learn(raw, orjson.loads(raw[6:]), "reasoning")
    assert learned is not None
    assert tokens(learned, mirrored(token)) == [token]


def test_a_mirror_that_differs_from_its_token_ends_the_run() -> None:
    raw = mirrored("a")
    learned = TokenTemplate.learn(raw, orjson.loads(raw[6:]), "reasoning")
    assert learned is not None
    odd = mirrored("bc").replace(b'"text":"bc"', b'"text":"xy"')
    assert tokens(learned, mirrored("one") + odd + mirrored("two")) == ["one"]
