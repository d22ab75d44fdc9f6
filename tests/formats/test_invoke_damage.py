"""The invoke/parameter family's damage rows and spellings (`dsml_rows`, `minimax_rows`), in every
parser that reads them.

Each row runs through each parser of its group whole, at the sizes of `chunkings` and cut
in two at every point, then end to end with `--format` (3-character tokens, the openai SDK
assembling the result); the cap and invalid UTF-8 rows of docs/behaviour.md run per syntax.
"""

from __future__ import annotations

import re

import pytest

from sse_rewrite.formats import FORMATS
from sse_rewrite.stream.events import ArgumentsDelta
from tests.chunking import calls, feed_pieces, texts
from tests.formats.dsml_rows import DSML_PLAIN_ROWS, DSML_ROWS
from tests.formats.harness import (
    cases,
    expectation,
    invalid_utf8_replaced_only_where_rewritten,
    over_the_cap_released,
    prose_released_at_once,
    row_in_parsers,
    tokens_through_the_sdk,
)
from tests.formats.invoke_text import BAR, NS, dsml, invoke, m2, m2_invoke, m3
from tests.formats.minimax_rows import M2_BARE_ROWS, M2_ROWS, M2_UNANGLED_ROWS, M3_ROWS, M3_STRIPPED_ROWS
from tests.formats.streamed import streamed_at_every_cut

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
    "minimax-unangled": M2_UNANGLED_ROWS,
}
PARSERS = {
    "dsml": ("dsml", *EVERY_STREAM),
    "dsml-plain": ("dsml", "deepseek+kimi"),
    "minimax-m2": ("minimax", *EVERY_STREAM),
    "minimax-bare": ("minimax", "minimax+special-tokens"),
    "minimax-m3": ("minimax", *EVERY_STREAM),
    "minimax-m3-stripped": ("minimax", "minimax+special-tokens"),
    "minimax-unangled": ("minimax", "minimax+special-tokens"),
}
FORMAT = {
    "dsml": "dsml",
    "dsml-plain": "dsml",
    "minimax-m2": "minimax",
    "minimax-bare": "minimax",
    "minimax-m3": "minimax",
    "minimax-m3-stripped": "minimax",
    "minimax-unangled": "minimax",
}


WHOLE = re.compile(f"({re.escape(NS)}|(?<![</])minimax:tool_call>)")
"""M3's namespace token, and M2's block opener without its `<` (read where an event holds `minimax:`)."""


def tokens(text: str) -> list[str]:
    """3-character tokens, but M3's namespace token and M2's block opener without its `<` whole,
    as models write them (a `]` alone in an event without `<` is not read, nor a `minimax:` cut
    across events: docs/behaviour.md, "Invoke/parameter XML")."""
    parts = WHOLE.split(text)
    return [p if WHOLE.fullmatch(p) else p[i : i + 3] for p in parts for i in range(0, len(p), 3)
            if not WHOLE.fullmatch(p) or not i]  # fmt: skip


CASES = cases(ROWS)


@pytest.mark.parametrize(("group", "row"), CASES)
def test_row_in_every_parser_at_every_cut(group: str, row: str) -> None:
    row_in_parsers(PARSERS[group], expectation(ROWS[group][row]))


@pytest.mark.parametrize(("group", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(group: str, row: str) -> None:
    expected = expectation(ROWS[group][row])
    tokens_through_the_sdk(tokens(expected.text), expected, format=FORMAT[group])


@pytest.mark.parametrize("group", ["dsml-plain", "minimax-bare", "minimax-m3-stripped", "minimax-unangled"])
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
    names = (FORMAT_OF[syntax], "special-tokens")
    over_the_cap_released(FORMAT_OF[syntax], names, CAP_OPENERS[syntax], LATER_CALL[syntax])


@pytest.mark.parametrize("syntax", list(CAP_OPENERS))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(syntax: str) -> None:
    invalid_utf8_replaced_only_where_rewritten(FORMAT_OF[syntax], LATER_CALL[syntax])


PROSE_AT_ONCE = [
    f"The <{BAR}tool_calls> tag is",
    "Use <minimax:tool_call> tags like",
    f"The {NS}<tool_call> token is",
]


@pytest.mark.parametrize("prose", PROSE_AT_ONCE)
def test_prose_after_an_opener_is_released_without_waiting(prose: str) -> None:
    names = ("dsml", "minimax", "special-tokens", "deepseek+kimi", "minimax+special-tokens")
    prose_released_at_once(names, prose)


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
