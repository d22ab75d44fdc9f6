"""The damage table (docs/behaviour.md, "Damage") for the marker-then-list syntaxes.

As `test_damage.py` does for the others: each row runs through its format's parser and
the `auto` compositions that contain it, whole, at the sizes of `chunkings` and cut in two
at every point, and end to end through the rewriter and the openai SDK.
"""

from __future__ import annotations

import pytest

from tests.formats.harness import (
    cases,
    expectation,
    invalid_utf8_replaced_only_where_rewritten,
    over_the_cap_released,
    prose_released_at_once,
    row_in_parsers,
    three_characters,
    tokens_through_the_sdk,
)
from tests.formats.list_rows import FORMAT, GQ, PARSERS, REASONING, ROWS, gemma, lfm2, mistral, python_tag

CASES = cases(ROWS)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parser_at_every_cut(fmt: str, row: str) -> None:
    row_in_parsers(PARSERS[fmt], expectation(ROWS[fmt][row], REASONING.get((fmt, row), "")))


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row], REASONING.get((fmt, row), ""))
    tokens_through_the_sdk(three_characters(expected.text), expected, format=FORMAT.get(fmt, fmt))


PROSE_AT_ONCE = {
    "mistral": "The [TOOL_CALLS] token, then",
    "llama": "The <|python_tag|> token is",
    "lfm2": "The <|tool_call_start|> token is",
    "gemma": "The <|tool_call> token is",
}


@pytest.mark.parametrize("fmt", list(PROSE_AT_ONCE))
def test_prose_after_an_opener_is_released_without_waiting(fmt: str) -> None:
    prose_released_at_once(PARSERS[fmt], PROSE_AT_ONCE[fmt])


CAP_OPENERS = {
    "mistral": '[TOOL_CALLS]a[ARGS]{"d": "',
    "llama": '<|python_tag|>{"name": "a", "parameters": {"d": "',
    "lfm2": '<|tool_call_start|>[a(d="',
    "gemma": f"<|tool_call>call:a{{d:{GQ}",
}
LATER_CALL = {
    "mistral": mistral("b", "{}"),
    "llama": python_tag("b", "{}"),
    "lfm2": lfm2("b", ""),
    "gemma": gemma("b", ""),
}


@pytest.mark.parametrize("fmt", list(CAP_OPENERS))
def test_a_call_over_the_cap_is_released_and_scanning_resumes(fmt: str) -> None:
    over_the_cap_released(fmt, PARSERS[fmt], CAP_OPENERS[fmt], LATER_CALL[fmt])


@pytest.mark.parametrize("fmt", list(LATER_CALL))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(fmt: str) -> None:
    invalid_utf8_replaced_only_where_rewritten(fmt, LATER_CALL[fmt])
