"""Rewrite options: one definition for `filter`, `replay` and capture sidecars."""

from __future__ import annotations

import dataclasses

import pytest

from sse_rewrite.cli import cli
from sse_rewrite.options import REWRITE_OPTIONS, OptionsError, parse_option_args
from sse_rewrite.stream.rewrite import RewriteOptions


def test_defaults_match_rewrite_options() -> None:
    assert parse_option_args("") == RewriteOptions()


def test_every_option_maps_onto_a_field_and_every_field_has_an_option() -> None:
    fields = {field.name for field in dataclasses.fields(RewriteOptions)}
    for command in ("filter", "replay"):
        names = {p.name for p in cli.commands[command].params}
        assert fields <= names
    assert len(REWRITE_OPTIONS) == len(fields)


def test_sidecar_text_with_comments_and_quotes() -> None:
    text = "# run like this\n--format 'kimi'\n--id-style openai  # derived ids\n--max-section-bytes 64\n"
    assert parse_option_args(text) == RewriteOptions("kimi", "openai", 64)


def test_environment_does_not_change_a_sidecar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSE_REWRITE_FORMAT", "none")
    assert parse_option_args("").format == "auto"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("--format nope", "x.args: Invalid value for '--format': 'nope' is not", id="choice"),
        pytest.param("--bogus", "x.args: No such option '--bogus'", id="unknown"),
        pytest.param("capture.sse", "x.args: Got unexpected extra argument (capture.sse)", id="argument"),
        pytest.param("--format 'kimi", "x.args: No closing quotation", id="quoting"),
        pytest.param("--max-section-bytes 0", "x.args: Invalid value for '--max-section-bytes'", id="range"),
        pytest.param("--help", "x.args: No such option '--help'", id="no-help"),
    ],
)
def test_mistakes_raise_options_error_naming_the_source(text: str, message: str) -> None:
    with pytest.raises(OptionsError) as error:
        parse_option_args(text, "x.args")
    assert str(error.value).startswith(message)
