"""`--stream-arguments` at the parser level: calls announced early, argument text streamed
as it settles, and the same result as without streaming (DESIGN.md section 2, issue 16)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.stream.events import ArgumentsDelta, CallStart, Notice, ToolCall
from tests.chunking import calls, codes, feed_pieces, rejoin, texts
from tests.formats.damage_rows import DEEPSEEK, KIMI, PARSERS, ROWS
from tests.formats.streamed import checked, streamed_at_every_cut

CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]
# Rows whose call is announced before it breaks: completed as written instead of released.
COMPLETED = {
    ("kimi", "eof-in-call-incomplete"): ("f", '{"a":', "x "),
    ("deepseek", "eof-in-call-incomplete"): ("f", '{"a":', "x "),
    ("hermes", "eof-in-call-incomplete"): ("f", '{"a": ', "x "),
    ("qwen3-coder", "eof-in-call-incomplete"): ("f", '{"a": "val"}', "x "),
    ("glm", "eof-in-call-incomplete"): ("f", '{"a": 1}', "x "),
    # (a call already announced cannot be taken back: an open value completes it as written)
    ("qwen3-coder", "stop-sequence-inside-an-open-value-is-text"): ("f", '{"a": 1, "b": "x y"}', "x "),
    ("qwen3-coder", "stop-sequence-inside-a-bare-calls-open-parameter-is-text"): (
        "f", '{"x": "line one\\nline two"}', ""
    ),
    ("glm", "stop-sequence-inside-an-open-value-is-text"): ("f", '{"a": 1, "b": "x y"}', "x "),
}


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_streamed_at_every_cut_gives_the_unstreamed_result(fmt: str, row: str) -> None:
    text = ROWS[fmt][row][0]
    finished = row.startswith("stop-")  # (a normal finish: see test_damage.py)
    for name in PARSERS[fmt]:
        got_calls, got_text, _ = streamed_at_every_cut(name, text, finished)
        parser = FORMATS[name]()
        reference = parser.feed(text) + parser.flush(finished)
        if (fmt, row) in COMPLETED:
            call_name, arguments, kept = COMPLETED[fmt, row]
            assert [c[1:] for c in got_calls] == [(call_name, arguments)], name
            assert got_text == kept, name
            assert not calls(reference), name  # without streaming: released as text
        else:
            assert (got_calls, got_text) == (calls(reference), texts(reference)), name


def deltas_before(name: str, text: str, end: str) -> str:
    """Feed `text` one character at a time up to `end`; the argument text streamed by then."""
    parser = FORMATS[name](stream_arguments=True)
    out = []
    for char in text[: text.index(end)]:
        out += parser.feed(char)
    return "".join(p.text for p in out if isinstance(p, ArgumentsDelta))


LONG = {"path": "a.txt", "content": "line <| with < and \\" + "x" * 200}


def test_token_arguments_stream_before_their_end_marker() -> None:
    for fmt, t in (("kimi", KIMI), ("deepseek", DEEPSEEK)):
        args = json.dumps(LONG)
        text = f"{t['sb']}{t['cb']}write{t['ab']}  {args}  {t['ce']}{t['se']}"
        assert deltas_before(fmt, text, t["ce"]) == args  # trimmed: the spacing is held back
        out = feed_pieces(FORMATS[fmt](stream_arguments=True), [text])
        assert [type(p) for p in out if not isinstance(p, ArgumentsDelta)][:2] == [CallStart, ToolCall]


def test_a_close_marker_in_a_string_is_held_until_settled() -> None:
    ce, se = KIMI["ce"], KIMI["se"]
    args = '{"cmd": "echo ' + ce + ' x"}'
    text = f"{KIMI['cb']}functions.bash:1{KIMI['ab']}{args}{ce}{se}"
    assert deltas_before("kimi", text, ce + " x") == '{"cmd": "echo'  # (spacing held back too)
    assert calls(feed_pieces(FORMATS["kimi"](stream_arguments=True), [text]))[0][2] == args


def test_hermes_arguments_stream_when_the_name_comes_first() -> None:
    body = json.dumps({"name": "write", "arguments": LONG})
    assert deltas_before("hermes", f"<tool_call>{body}</tool_call>", "}}") == json.dumps(LONG)[:-1]
    reordered = json.dumps({"arguments": LONG, "name": "write"})
    out = feed_pieces(FORMATS["hermes"](stream_arguments=True), [f"<tool_call>{reordered}</tool_call>"])
    assert not [p for p in out if isinstance(p, CallStart | ArgumentsDelta)]
    assert calls(out) == [(None, "write", json.dumps(LONG))]


@pytest.mark.parametrize("name", ["a\\q", "a\nb", "a\\ud800"])
def test_a_hermes_head_whose_name_does_not_decode_announces_nothing(name: str) -> None:
    """A name string that is not valid JSON (an invalid escape, a control character, a lone
    surrogate) announces no call: the body comes out as without streaming, at every cut."""
    text = '<tool_call>{"name": "' + name + '", "arguments": {"x": 1}}</tool_call> ok'
    parser = FORMATS["hermes"]()
    reference = parser.feed(text) + parser.flush()
    assert streamed_at_every_cut("hermes", text) == (calls(reference), texts(reference), [])


def test_tagged_parameters_stream_as_members_when_they_close() -> None:
    for name, text in (
        ("qwen3-coder", "<tool_call>\n<function=w>\n<parameter=n>\n3\n</parameter>\n<parameter=s>\nhi\n"
         "</parameter>\n</function>\n</tool_call>"),
        ("glm", "<tool_call>w\n<arg_key>n</arg_key>\n<arg_value>3</arg_value>\n<arg_key>s</arg_key>\n"
         "<arg_value>hi</arg_value>\n</tool_call>"),
    ):  # fmt: skip
        out = feed_pieces(FORMATS[name](stream_arguments=True), [text[:i] for i in (60,)] + [text[60:]])
        deltas = [p.text for p in out if isinstance(p, ArgumentsDelta)]
        assert "".join(deltas) + "}" == calls(out)[0][2] == '{"n": 3, "s": "hi"}', name
        assert deltas[0] == '{"n": 3', name


def test_deepseek_v3_fenced_calls_come_out_whole() -> None:
    d = DEEPSEEK
    text = f'{d["sb"]}{d["cb"]}function{d["ab"]}f\n```json\n{{"a": 1}}\n```{d["ce"]}{d["se"]}'
    for name in ("deepseek", "special-tokens"):
        out = feed_pieces(FORMATS[name](stream_arguments=True), [text])
        assert not [p for p in out if isinstance(p, CallStart | ArgumentsDelta)]
        assert calls(out) == [(None, "f", '{"a": 1}')]


def test_an_announced_call_over_the_cap_is_completed_as_written() -> None:
    for name, opener in (
        ("kimi", f'{KIMI["sb"]}{KIMI["cb"]}functions.a:0{KIMI["ab"]}{{"d": "'),
        ("hermes", '<tool_call>{"name": "a", "arguments": {"d": "'),
    ):
        parser = FORMATS[name](100, stream_arguments=True)
        out = parser.feed(opener) + parser.feed("x" * 150) + parser.feed(" after") + parser.flush()
        got_calls, kept, _ = checked(out)
        assert [c[1:] for c in got_calls] == [("a", '{"d": "' + "x" * 150)], name
        assert "section-cap" in codes(out) and kept == ' after', name


def test_a_body_that_contradicts_what_was_streamed_keeps_the_streamed_text() -> None:
    body = '{"name": "f", "arguments": {"a": 1}, "arguments": {"b": 2}}'
    pieces = ["<tool_call>" + body[:40], body[40:] + "</tool_call>"]
    out = feed_pieces(FORMATS["hermes"](stream_arguments=True), pieces)
    assert calls(out) == [(None, "f", '{"a": 1}')]
    assert "streamed-arguments" in codes(out)


def test_an_announced_call_takes_no_absorb() -> None:
    parser = FORMATS["kimi"](stream_arguments=True)
    parser.feed(f"{KIMI['cb']}functions.a:0{KIMI['ab']}{{")
    assert parser.absorb(['"x"']) == 0
    plain = FORMATS["kimi"]()
    plain.feed(f"{KIMI['cb']}functions.a:0{KIMI['ab']}{{")
    assert plain.absorb(['"x"']) == 1


PIECES = [
    "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.bash:1", "<|tool_call_argument_begin|>",
    '{"a":', ' "x<|tool_call_end|>"', "}", "<|tool_call_end|>", "<|tool_calls_section_end|>", " ", "\n",
    "text", '"', "\\", "<", "é", "<tool_call>", "</tool_call>", '{"name": "f", "arguments": {', '"k": [1]}}',
    DEEPSEEK["sb"], DEEPSEEK["cb"], "f" + DEEPSEEK["ab"], DEEPSEEK["ce"],
    "<function=f>", "<parameter=a>", "1", "</parameter>", "</function>", "g\n<arg_key>k</arg_key>",
    "<arg_value>", "v", "</arg_value>",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=30),
    name=st.sampled_from(sorted(FORMATS)),
    cap=st.sampled_from([40, 1 << 20]),
)
def test_any_input_streams_to_the_unstreamed_result_unless_an_announced_call_broke(
    pieces: list[str], name: str, cap: int
) -> None:
    text = "".join(pieces)
    out = feed_pieces(FORMATS[name](cap, stream_arguments=True), pieces)
    got_calls, got_text, _ = checked(out)
    assert rejoin(out) == text
    reference = feed_pieces(FORMATS[name](cap), [text] if cap > 40 else pieces)
    if not any(isinstance(p, Notice) and "already streamed" in p.message for p in out):
        assert (got_calls, got_text) == (calls(reference), texts(reference))
