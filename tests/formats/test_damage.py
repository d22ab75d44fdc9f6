"""The damage table (docs/behaviour.md, "Damage"): every row, in every format it applies to.

Each case runs (a) through the parser of its format and of the `auto` compositions
that contain it, whole, at the sizes of `chunkings` and cut in two at every point
(`every_cut`), and (b) end to end: a stream of 3-character tokens through the
rewriter with `--format`, assembled by the openai SDK.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sse_rewrite.events import Piece
from sse_rewrite.formats import FORMATS, ToolSyntax
from tests.chunking import (
    calls,
    chunk_event,
    codes,
    every_cut,
    feed_pieces,
    field_stream,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.damage_rows import DEEPSEEK, KIMI, PARSERS, ROWS, STOPPED, glm, hermes, qwen
from tests.fuzzing import assemble
from tests.oracles import openai_final

CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]


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
    text, expected_calls, kept, notices = ROWS[fmt][row]
    # `auto` reads Hermes JSON and Qwen XML alike for a Qwen model: only `--format` reads one body
    for name in (fmt,) if row == "another-formats-body-is-text" else PARSERS[fmt]:
        out = every_cut(_factory(name, finished=row.startswith("stop-")), text)
        assert [(c[1], c[2]) for c in calls(out)] == expected_calls, name
        assert texts(out) == kept, name
        assert notices <= codes(out), name


# Rows whose closers are dropped for standing alone on a line: a stream decides so only where the
# parser read the line's start, and a token without a marker may pass it unread (docs/behaviour.md,
# "Damage"); through the SDK these rows come as one event each (`test_a_line_start_passed_unread...`).
ALONE_ON_A_LINE = {row for rows in ROWS.values() for row in rows if "alone-on" in row}


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    text, expected_calls, kept, _ = ROWS[fmt][row]
    tokens = [text] if row in ALONE_ON_A_LINE else [text[i : i + 3] for i in range(0, len(text), 3)]
    if row.startswith("eof-"):  # cut: no finish_reason, the end of input (`length` is the same)
        stream = field_stream([{"content": token} for token in tokens], finish=None)
    else:
        stream = token_stream(tokens)
    final = openai_final(rewrite_stream(stream, format=fmt), chunk=7).choices[0]
    assert (final.message.content or "") == kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    if not row.startswith("eof-"):
        assert final.finish_reason == ("tool_calls" if expected_calls else "stop")


@pytest.mark.parametrize("fmt", ["qwen3-coder", "glm"])
@pytest.mark.parametrize("finish", ["length", "error", None])
def test_a_value_cut_stays_text_unless_the_finish_is_normal(fmt: str, finish: str | None) -> None:
    text = STOPPED[fmt][0]
    tokens = [text[i : i + 3] for i in range(0, len(text), 3)]
    events = [{"content": token} for token in tokens]
    out = assemble(rewrite_stream(field_stream(events, finish=finish), format=fmt))
    assert out == ({"content": text}, [])
    out = assemble(rewrite_stream(field_stream(events, finish="tool_calls"), format=fmt))
    assert out == ({}, [("f", STOPPED[fmt][1])])


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
    for name in PARSERS[fmt]:
        parser = FORMATS[name]()
        assert texts(parser.feed(PROSE_AT_ONCE[fmt])) == PROSE_AT_ONCE[fmt], name
        assert not parser.pending, name


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
    held = CAP_OPENERS[fmt] + "x" * 200
    for name in PARSERS[fmt]:
        out = feed_pieces(FORMATS[name](100), [held, " then\n", LATER_CALL[fmt]])
        assert texts(out) == held + " then\n", name
        assert [c[1] for c in calls(out)] == ["b"], name
        assert "section-cap" in codes(out), name
        assert rejoin(out) == held + " then\n" + LATER_CALL[fmt]
    stream = token_stream([held[i : i + 3] for i in range(0, len(held), 3)] + [" then\n", LATER_CALL[fmt]])
    final = openai_final(rewrite_stream(stream, format=fmt, max_section_bytes=100)).choices[0]
    assert final.message.content == held + " then\n"
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


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
    plain = chunk_event({"content": "plain @@ text\n"}).replace(b"@@", b"\xff")
    rewritten = chunk_event({"content": ONE_CALL[fmt] + "\n@@ after"}).replace(b"@@", b"\xfe")
    body = rewrite_stream(plain + rewritten + b"data: [DONE]\n\n", format=fmt)
    assert body.startswith(plain)  # passed through byte for byte
    assert "\ufffd after".encode() in body  # replaced inside the rewritten text
    final = openai_final(body.removeprefix(plain)).choices[0]  # the SDK rejects the invalid bytes
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


@pytest.mark.parametrize("fmt", ["kimi", "hermes", "qwen3-coder"])
def test_a_line_start_passed_unread_keeps_the_closer(fmt: str) -> None:
    closer = KIMI["se"] if fmt == "kimi" else "</tool_call>"
    # "\n" has no marker: while nothing is held it passes unread, so the line start is unknown
    tokens = ["done.", "\n", closer, "\n", "next"]
    final = openai_final(rewrite_stream(token_stream(tokens), format=fmt)).choices[0]
    assert final.message.content == "".join(tokens)
    # read with the closer, the same line start makes it stand alone: dropped
    tokens = ["done.", f"\n{closer}", "\n", "next"]
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
