"""The invoke/parameter family's damage rows and spellings (`dsml_rows`, `minimax_rows`), in every
parser that reads them.

Each row runs through each parser of its group whole, at the sizes of `chunkings` and cut
in two at every point, then end to end with `--format` (3-character tokens, the openai SDK
assembling the result); the cap and invalid UTF-8 rows of docs/behaviour.md run per syntax.
"""

from __future__ import annotations

import re

import pytest

from sse_rewrite.events import ArgumentsDelta
from sse_rewrite.formats import FORMATS
from tests.chunking import (
    calls,
    chunk_event,
    codes,
    every_cut,
    feed_pieces,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.dsml_rows import DSML_PLAIN_ROWS, DSML_ROWS
from tests.formats.invoke_text import BAR, NS, dsml, invoke, m2, m2_invoke, m3
from tests.formats.minimax_rows import M2_BARE_ROWS, M2_ROWS, M3_ROWS, M3_STRIPPED_ROWS
from tests.formats.streamed import streamed_at_every_cut
from tests.oracles import openai_final

EVERY_STREAM = (
    "special-tokens",  # (`kimi+deepseek` and `native+special-tokens` are the same parser)
    "qwen+special-tokens",
    "deepseek+kimi",
    "minimax+special-tokens",
)
ROWS = {
    "dsml": DSML_ROWS,
    "dsml-plain": DSML_PLAIN_ROWS,
    "minimax-m2": M2_ROWS,
    "minimax-bare": M2_BARE_ROWS,
    "minimax-m3": M3_ROWS,
    "minimax-m3-stripped": M3_STRIPPED_ROWS,
}
PARSERS = {
    "dsml": ("dsml", *EVERY_STREAM),
    "dsml-plain": ("dsml", "deepseek+kimi"),
    "minimax-m2": ("minimax", *EVERY_STREAM),
    "minimax-bare": ("minimax", "minimax+special-tokens"),
    "minimax-m3": ("minimax", *EVERY_STREAM),
    "minimax-m3-stripped": ("minimax", "minimax+special-tokens"),
}
FORMAT = {
    "dsml": "dsml",
    "dsml-plain": "dsml",
    "minimax-m2": "minimax",
    "minimax-bare": "minimax",
    "minimax-m3": "minimax",
    "minimax-m3-stripped": "minimax",
}


def tokens(text: str) -> list[str]:
    """3-character tokens, but M3's namespace token whole, as models write it (a `]` alone in an
    event without `<` is not read: docs/behaviour.md, "Invoke/parameter XML")."""
    parts = re.split(f"({re.escape(NS)})", text)
    return [p[i : i + 3] if p != NS else p for p in parts for i in range(0, len(p), 3 if p != NS else len(p))]


CASES = [pytest.param(group, row, id=f"{group}-{row}") for group, rows in ROWS.items() for row in rows]


@pytest.mark.parametrize(("group", "row"), CASES)
def test_row_in_every_parser_at_every_cut(group: str, row: str) -> None:
    text, expected_calls, kept, notices = ROWS[group][row]
    for name in PARSERS[group]:
        out = every_cut(FORMATS[name], text)
        assert [(c[1], c[2]) for c in calls(out)] == expected_calls, name
        assert texts(out) == kept, name
        assert notices <= codes(out), name


@pytest.mark.parametrize(("group", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(group: str, row: str) -> None:
    text, expected_calls, kept, _ = ROWS[group][row]
    final = openai_final(rewrite_stream(token_stream(tokens(text)), format=FORMAT[group]), chunk=7).choices[0]
    assert (final.message.content or "") == kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    assert final.finish_reason == ("tool_calls" if expected_calls else "stop")


@pytest.mark.parametrize("group", ["dsml-plain", "minimax-bare", "minimax-m3-stripped"])
def test_plain_invoke_grammar_is_text_in_streams_no_model_id_picks_it_for(group: str) -> None:
    for text, _, _, _ in ROWS[group].values():
        out = feed_pieces(FORMATS["special-tokens"](), [text])
        assert texts(out) == text
        assert not calls(out)


CAP_OPENERS = {
    "dsml": f'<{BAR}tool_calls><{BAR}invoke name="a"><{BAR}parameter name="d" string="true">',
    "minimax": '<minimax:tool_call><invoke name="a"><parameter name="d">',
    "minimax-m3": f'{NS}<tool_call>{NS}<invoke name="a">{NS}<d>',
}
LATER_CALL = {"dsml": dsml(invoke("b")), "minimax": m2(m2_invoke("b")), "minimax-m3": m3("b")}
FORMAT_OF = {"dsml": "dsml", "minimax": "minimax", "minimax-m3": "minimax"}


@pytest.mark.parametrize("syntax", list(CAP_OPENERS))
def test_a_block_over_the_cap_is_released_and_scanning_resumes(syntax: str) -> None:
    held = CAP_OPENERS[syntax] + "x" * 200
    for name in (FORMAT_OF[syntax], "special-tokens"):
        out = feed_pieces(FORMATS[name](100), [held, " then\n", LATER_CALL[syntax]])
        assert texts(out) == held + " then\n", name
        assert [c[1] for c in calls(out)] == ["b"], name
        assert "section-cap" in codes(out), name
        assert rejoin(out) == held + " then\n" + LATER_CALL[syntax]
    stream = token_stream([held[i : i + 3] for i in range(0, len(held), 3)] + [" then\n", LATER_CALL[syntax]])
    final = openai_final(rewrite_stream(stream, format=FORMAT_OF[syntax], max_section_bytes=100)).choices[0]
    assert final.message.content == held + " then\n"
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


@pytest.mark.parametrize("syntax", list(CAP_OPENERS))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(syntax: str) -> None:
    plain = chunk_event({"content": "plain @@ text\n"}).replace(b"@@", b"\xff")
    rewritten = chunk_event({"content": LATER_CALL[syntax] + "\n@@ after"}).replace(b"@@", b"\xfe")
    body = rewrite_stream(plain + rewritten + b"data: [DONE]\n\n", format=FORMAT_OF[syntax])
    assert body.startswith(plain)  # passed through byte for byte
    assert "\ufffd after".encode() in body  # replaced inside the rewritten text
    final = openai_final(body.removeprefix(plain)).choices[0]
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


PROSE_AT_ONCE = [
    f"The <{BAR}tool_calls> tag is",
    "Use <minimax:tool_call> tags like",
    f"The {NS}<tool_call> token is",
]


@pytest.mark.parametrize("prose", PROSE_AT_ONCE)
def test_prose_after_an_opener_is_released_without_waiting(prose: str) -> None:
    for name in ("dsml", "minimax", "special-tokens", "deepseek+kimi", "minimax+special-tokens"):
        parser = FORMATS[name]()
        assert texts(parser.feed(prose)) == prose, name
        assert not parser.pending, name


STREAMED = [case for case in CASES if not str(case.values[0]).startswith("minimax-m3")]


@pytest.mark.parametrize(("group", "row"), STREAMED)
def test_row_with_streamed_arguments_gives_the_same_calls(group: str, row: str) -> None:
    text, expected_calls, kept, notices = ROWS[group][row]
    found, found_kept, announced = streamed_at_every_cut(FORMAT[group], text)
    if notices & {"truncated-call", "malformed-call"}:  # an announced call is completed as streamed
        return
    assert [(c[1], c[2]) for c in found] == expected_calls
    assert found_kept == kept
    assert set(announced) <= {name for name, _ in expected_calls}


def test_parameters_stream_as_they_close() -> None:
    text = dsml(invoke("f", ("a", "1", None), ("b", "x y", "true")))
    out = feed_pieces(FORMATS["dsml"](stream_arguments=True), [text[: text.index("</｜DSML｜invoke>")]])
    assert [p.text for p in out if isinstance(p, ArgumentsDelta)] == ['{"a": 1', ', "b": "x y"']
