"""TokenTemplate: tokens read from raw bytes are exactly what parsing the events would give,
in one slot or in a token and its mirrors."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.fast.token_template import TokenTemplate
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


# -- a run read whole or event by event: the same tokens as parsing each slot on its own

SLOT_BYTES = [
    b"a", b"ls -la", b"\\\"", b"\\\\", b"\\n", b"\\u00e9", b"\\ud83d\\ude00", b"\xc3\xa9", b"", b" ", b"\\",
    b"\\q", b"\\u12", b"\x01", b"\n", b"\xff", b"\xed\xa0\x80", b'"', b'a","b', b"a\\", b"\\/",
]


def with_slot(raw_token: bytes, mirrored_token: bytes | None = None) -> bytes:
    """A reasoning event mirrored in `reasoning_details` whose two slots hold these bytes."""
    before, middle, after = mirrored("a").split(b'"a"')
    other = raw_token if mirrored_token is None else mirrored_token
    return before + b'"' + raw_token + b'"' + middle + b'"' + other + b'"' + after


def content_with_slot(raw_token: bytes) -> bytes:
    before, after = look_alike("a").split(b'"a"')
    return before + b'"' + raw_token + b'"' + after


def parsed_alone(raw_token: bytes) -> str | None:
    """The string a slot holds, or None: bytes between quotes that are one JSON document."""
    try:
        value = orjson.loads(b'"' + raw_token + b'"')
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, str) else None


@settings(max_examples=150)
@given(slots=st.lists(st.sampled_from(SLOT_BYTES) | st.binary(max_size=6), min_size=1, max_size=12),
       mirrored_template=st.booleans())
def test_a_run_takes_the_leading_slots_that_parse_alone(slots: list[bytes], mirrored_template: bool) -> None:
    make = with_slot if mirrored_template else content_with_slot
    raw = make(b"a")
    learned = TokenTemplate.learn(raw, orjson.loads(raw[6:]), "reasoning" if mirrored_template else "content")
    assert learned is not None
    events = [make(slot) for slot in slots]
    data = b"".join(events)
    expected: list[str] = []
    for slot in slots:
        token = parsed_alone(slot)
        if token is None:
            break
        expected.append(token)
    run = learned.run(data, 0, len(data))
    assert run.tokens == expected
    assert run.whole == (len(expected) == len(events))
    assert run.span(len(expected)) == sum(map(len, events[: len(expected)]))
    rest = run.after(len(events[0]))  # the run without its first event, if it took one
    assert (rest is not None and rest.tokens == expected[1:]) if expected else rest is None


def test_a_mirror_that_differs_in_a_run_read_whole_ends_it() -> None:
    raw = mirrored("a")
    learned = TokenTemplate.learn(raw, orjson.loads(raw[6:]), "reasoning")
    assert learned is not None
    data = with_slot(b"one") + with_slot(b"two") + with_slot(b"xy", b"yx") + with_slot(b"three")
    run = learned.run(data, 0, len(data))
    assert (run.tokens, run.whole) == (["one", "two"], False)


@pytest.mark.parametrize(
    ("odd", "why"),
    [
        pytest.param(content_with_slot(b"\x01"), "a raw control character", id="control-char"),
        pytest.param(content_with_slot(b"\xc3("), "invalid UTF-8", id="invalid-utf8"),
        pytest.param(content_with_slot(b"\\x41"), "an escape JSON lacks", id="bad-escape"),
        pytest.param(look_alike("cut")[:-30] + b"\n\n", "an event cut short", id="cut-event"),
        pytest.param(look_alike("b").replace(b'"b"', b'"b" '), "a space after the literal", id="space"),
        pytest.param(look_alike("b").replace(b'"b"', b""), "no literal at all", id="empty-slot"),
    ],
)
def test_a_run_stops_before_an_event_the_general_path_must_read(odd: bytes, why: str) -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    data = look_alike('say "hi"\\') + look_alike("é") + odd + look_alike("after")
    run = learned.run(data, 0, len(data))
    assert (run.tokens, run.whole) == (['say "hi"\\', "é"], False), why
    assert run.span(2) == data.index(odd)
    alone = learned.run(odd, 0, len(odd))
    assert (alone.tokens, alone.whole) == ([], False)


def test_after_is_none_inside_an_event() -> None:
    learned = template({"role": "assistant", "content": "a"})
    assert learned is not None
    data = look_alike("one") + look_alike("two")
    run = learned.run(data, 0, len(data))
    assert run.after(len(look_alike("one")) - 1) is None
    assert run.after(len(data)) is not None and run.after(len(data)).tokens == []  # type: ignore[union-attr]
