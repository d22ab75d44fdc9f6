"""The damage table (docs/behaviour.md, "Damage"): every row, in every format it applies to.

Each case runs (a) through the parser of its format and of the `auto` compositions
that contain it, whole, at the sizes of `chunkings` and cut in two at every point
(`every_cut`), and (b) end to end: a stream of 3-character tokens through the
rewriter with `--format`, assembled by the openai SDK.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sse_rewrite.formats import FORMATS, ToolSyntax
from sse_rewrite.stream.events import Piece
from tests.chunking import calls, every_cut, field_stream, rewrite_stream, token_stream
from tests.formats.damage_rows import DEEPSEEK, KIMI, OPEN_VALUE, PARSERS, ROWS, glm, hermes, qwen
from tests.formats.harness import (
    cases,
    expectation,
    invalid_utf8_replaced_only_where_rewritten,
    over_the_cap_released,
    prose_released_at_once,
    row_at_every_cut,
    row_through_the_sdk,
    three_characters,
)
from tests.fuzzing import assemble
from tests.oracles import openai_final

CASES = cases(ROWS)


class _FinishedNormally:
    """A parser whose stream finishes normally (`stop`): `flush(finished=True)`."""

    def __init__(self, parser: ToolSyntax) -> None:
        self._parser = parser

    def feed(self, text: str) -> list[Piece]:
        return self._parser.feed(text)

    def flush(self) -> list[Piece]:
        return self._parser.flush(finished=True)


def _factory(name: str, finished: bool) -> Callable[[], ToolSyntax]:
    parser = FORMATS[name]
    return (lambda: _FinishedNormally(parser())) if finished else parser  # type: ignore[return-value]


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parser_at_every_cut(fmt: str, row: str) -> None:
    # `auto` reads Hermes JSON and Qwen XML alike for a Qwen model: only `--format` reads one body
    for name in (fmt,) if row == "another-formats-body-is-text" else PARSERS[fmt]:
        row_at_every_cut(name, _factory(name, finished=row.startswith("stop-")), expectation(ROWS[fmt][row]))


# Rows whose closers are dropped for standing alone on a line: a stream decides so only where the
# parser read the line's start, and a token without a marker may pass it unread (docs/behaviour.md,
# "Damage"); through the SDK these rows come as one event each (`test_a_line_start_passed_unread...`).
ALONE_ON_A_LINE = {row for rows in ROWS.values() for row in rows if "alone-on" in row}


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row])
    tokens = [expected.text] if row in ALONE_ON_A_LINE else three_characters(expected.text)
    if row.startswith("eof-"):  # cut: no finish_reason, the end of input (`length` is the same)
        stream = field_stream([{"content": token} for token in tokens], finish=None)
    else:
        stream = token_stream(tokens)
    row_through_the_sdk(rewrite_stream(stream, format=fmt), expected, finished=not row.startswith("eof-"))


@pytest.mark.parametrize("fmt", list(OPEN_VALUE))
@pytest.mark.parametrize("finish", ["stop", "tool_calls", "length", "error", None])
def test_a_value_cut_stays_text_at_any_end(fmt: str, finish: str | None) -> None:
    text = OPEN_VALUE[fmt]
    tokens = [text[i : i + 3] for i in range(0, len(text), 3)]
    events = [{"content": token} for token in tokens]
    out = assemble(rewrite_stream(field_stream(events, finish=finish), format=fmt))
    assert out == ({"content": text}, [])


PROSE_AT_ONCE = {
    "kimi": f"The {KIMI['sb']} token is",
    "deepseek": f"The {DEEPSEEK['cb']} token is",
    "hermes": "Use <tool_call> tags like",
    "qwen3-coder": "Use <function=f> as in",
    "glm": "Use <tool_call> tags like",
    "text": "TOOL: is a",
}


@pytest.mark.parametrize("fmt", list(PARSERS))
def test_prose_after_an_opener_is_released_without_waiting(fmt: str) -> None:
    prose_released_at_once(PARSERS[fmt], PROSE_AT_ONCE[fmt])


CAP_OPENERS = {
    "kimi": f'{KIMI["sb"]}{KIMI["cb"]}functions.a:0{KIMI["ab"]}{{"d": "',
    "deepseek": f'{DEEPSEEK["sb"]}{DEEPSEEK["cb"]}a{DEEPSEEK["ab"]}{{"d": "',
    "hermes": '<tool_call>{"name": "a", "arguments": {"d": "',
    "qwen3-coder": "<tool_call>\n<function=a>\n<parameter=d>\n",
    "glm": "<tool_call>a\n<arg_key>d</arg_key>\n<arg_value>",
    "text": 'TOOL: a\nARGUMENTS: {"d": "',
}
LATER_CALL = {
    "kimi": f"{KIMI['cb']}functions.b:1{KIMI['ab']}{{}}{KIMI['ce']}",
    "deepseek": f"{DEEPSEEK['cb']}b{DEEPSEEK['ab']}{{}}{DEEPSEEK['ce']}",
    "hermes": hermes("b", {}),
    "qwen3-coder": qwen("b"),
    "glm": glm("b"),
    "text": "TOOL: b\nARGUMENTS: {}",
}


@pytest.mark.parametrize("fmt", list(PARSERS))
def test_a_call_over_the_cap_is_released_and_scanning_resumes(fmt: str) -> None:
    over_the_cap_released(fmt, PARSERS[fmt], CAP_OPENERS[fmt], LATER_CALL[fmt])


@pytest.mark.parametrize(
    ("header", "name"),
    [
        pytest.param("functions.foo", "foo", id="no-index"),
        pytest.param("foo:3", "foo", id="no-functions-prefix"),
    ],
)
def test_ids_without_index_or_prefix_are_still_calls(header: str, name: str) -> None:
    text = f"{KIMI['cb']}{header}{KIMI['ab']}{{}}{KIMI['ce']}"
    for parser in PARSERS["kimi"]:
        assert calls(every_cut(FORMATS[parser], text)) == [(header, name, "{}")]
    final = openai_final(rewrite_stream(token_stream([text]))).choices[0]
    assert [(c.id, c.function.name) for c in final.message.tool_calls] == [(header, name)]


ONE_CALL = {"kimi": LATER_CALL["kimi"], "deepseek": LATER_CALL["deepseek"], "hermes": hermes("b", {}),
            "qwen3-coder": qwen("b"), "glm": glm("b"), "text": "TOOL: b\nARGUMENTS: {}"}  # fmt: skip


@pytest.mark.parametrize("fmt", list(PARSERS))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(fmt: str) -> None:
    invalid_utf8_replaced_only_where_rewritten(fmt, ONE_CALL[fmt])


@pytest.mark.parametrize("fmt", ["kimi", "hermes", "qwen3-coder"])
def test_a_closer_alone_on_its_line_is_dropped_whether_its_line_start_was_read_or_not(fmt: str) -> None:
    closer = KIMI["se"] if fmt == "kimi" else "</tool_call>"
    # "\n" has no marker: it passes the parser unread, and the field's quote state tells the line start
    for tokens in (["done.", "\n", closer, "\n", "next"], ["done.", f"\n{closer}", "\n", "next"]):
        final = openai_final(rewrite_stream(token_stream(tokens), format=fmt)).choices[0]
        assert final.message.content == "done.\n\nnext"


@pytest.mark.parametrize("fmt", ["kimi", "deepseek", "hermes", "qwen3-coder", "glm"])
def test_text_between_a_call_and_a_closer_is_read_even_without_a_marker(fmt: str) -> None:
    tokens = {"kimi": KIMI, "deepseek": DEEPSEEK}.get(fmt)
    call = ONE_CALL[fmt] if tokens is None else tokens["sb"] + ONE_CALL[fmt] + tokens["se"]
    closer = "</tool_call>" if tokens is None else tokens["ce"]
    stream = token_stream([call, "\n", "words", f" {closer} ", "more"])
    final = openai_final(rewrite_stream(stream, format=fmt)).choices[0]
    assert final.message.content == f"\nwords {closer} more"
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


COMPLETE_AT_THE_END = [
    pytest.param(fmt, row, id=f"{fmt}-{row}")
    for fmt, rows in ROWS.items()
    for row in rows
    if row.startswith("eof-in-call-complete")
]


@pytest.mark.parametrize(("fmt", "row"), COMPLETE_AT_THE_END)
@pytest.mark.parametrize(
    ("finish", "recovered"),
    [
        pytest.param("length", False, id="length-cut-off-is-text"),
        pytest.param(None, True, id="no-finish-recovered"),
        pytest.param("stop", True, id="stop-recovered"),
        pytest.param("tool_calls", True, id="tool-calls-recovered"),
    ],
)
def test_a_complete_call_at_a_length_finish_is_text(
    fmt: str, row: str, finish: str | None, recovered: bool
) -> None:
    # DESIGN.md §4: a call whose values are complete is recovered at the end, except at `length`
    expected = expectation(ROWS[fmt][row])
    events = [{"content": token} for token in three_characters(expected.text)]
    texts, made = assemble(rewrite_stream(field_stream(events, finish=finish), format=fmt))
    if recovered:
        assert (texts.get("content", ""), made) == (expected.kept, expected.calls)
    else:
        assert (texts, made) == ({"content": expected.text}, [])
