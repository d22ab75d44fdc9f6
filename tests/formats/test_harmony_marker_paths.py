"""Harmony's markers taken whole decide nothing of their own: each path is compared with the
same machine without it (the reference feeds every text through the steps and their searches).

- a header's opener alone, while nothing is held, absorbed by its part (`_absorb_opener`);
- `<|message|>` after a header, and an end marker after reasoning or a closed JSON body,
  fed without the steps' searches (`WHOLE_MARKERS`, `_feed_whole`);
- analysis text taken unfed (`absorb_reasoning`), in every parser that reads reasoning at once;
- streaming arguments, an opener and the text opening a call's JSON body taken by
  `absorb_argument(s)` (the body's text streamed as the JSON step streams it);
- a header's words read by their table (`catalogue.channels.HARMONY_WORDS`) in place of `_keeps_header`,
  and the kind it gives at `<|message|>` in place of `header_kind`: every path of the table
  is walked against both.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.channels import CHANNEL, HARMONY, HARMONY_WORDS, START, HarmonyParser
from sse_rewrite.formats.catalogue.special_tokens import SpecialTokensParser
from sse_rewrite.formats.machines._compose import ComposedParser
from sse_rewrite.stream.events import Markup, Reasoning
from tests.formats.test_channel_fast_paths import (
    HARMONY_PIECES,
    HARMONY_TURN,
    cut_texts,
    rewrite,
    token_stream,
)
from tests.formats.test_fast_paths import run
from tests.formats.test_streamed_fast_paths import fast, fed

NAME, NEXT, OPENED = HARMONY_WORDS.name, HARMONY_WORDS.next, HARMONY_WORDS.opened
kind_at, name_goes_on, header_kind = HARMONY_WORDS.kind_at, HARMONY_WORDS.name_goes_on, HARMONY.kind


class HarmonySteps(HarmonyParser):
    """The reference: no marker taken whole, no header word read by the table."""

    WHOLE_MARKERS = frozenset()

    def _absorb_opener(self, value: bytes, text: str) -> bool:
        return False

    def _next_word(self, text: str) -> int | None:
        return None


class Harmony(ComposedParser):
    """Harmony composed with the special tokens, as `auto` runs it."""

    PARTS = (SpecialTokensParser, HarmonyParser)


class HarmonyStepsComposed(ComposedParser):
    """Its reference."""

    PARTS = (SpecialTokensParser, HarmonySteps)


MARKER_PIECES = [*HARMONY_PIECES, "<|end|>", "<|return|>", "<|call|>", "<|message|>", "<|start|>",
                 "<|channel|>", ".read_file", "_x", "-", ".", " <|constrain|>", "<|constrain|>", "x" * 250,
                 " ", "\n"]

MARKER_TURN = (
    "<|channel|>analysis<|message|>a<|end|>b <|end|><|start|>assistant<|channel|>commentary"
    " to=functions.read_file <|constrain|>json<|message|>{}<|call|>c<|return|>" + HARMONY_TURN
)
"""Markers after reasoning and after calls, and the end markers that are words after them."""
MODEL_TOKENS = [t for t in re.split(r"(<\|[a-z]+\|>| to|=functions|\.\w+| <\|constrain\|>)", MARKER_TURN)
                if t]
"""The turn in texts as gpt-oss streams it: each marker and header word a text of its own."""


@st.composite
def model_texts(draw: st.DrawFn) -> list[str]:
    """The turn's model tokens, twice, some of them joined to the next one."""
    tokens = MODEL_TOKENS * 2
    joins = draw(st.sets(st.integers(0, len(tokens) - 2), max_size=8))
    out: list[str] = []
    for at, token in enumerate(tokens):
        out[-1:] = [out[-1] + token] if at - 1 in joins and out else [*out[-1:], token]
    return out


@settings(max_examples=250, deadline=None)
@given(cut_texts(MARKER_PIECES, MARKER_TURN) | model_texts(),
       st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([12, 60, 1 << 20]))
def test_markers_taken_whole_are_what_the_steps_give(texts: list[str], windows: list[int], cap: int) -> None:
    expected = run(HarmonyStepsComposed(cap), texts, [])
    assert run(Harmony(cap), texts, []) == expected
    assert run(Harmony(cap), texts, windows) == expected


@settings(max_examples=200, deadline=None)
@given(cut_texts([*MARKER_PIECES, ' {"a', "\n[", '{"b": "<|call|>"'], MARKER_TURN) | model_texts(),
       st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([12, 60, 1 << 20]))
def test_streamed_openers_and_bodies_are_what_the_steps_give(texts: list[str], windows: list[int],
                                                             cap: int) -> None:
    expected = fed(HarmonyStepsComposed(cap, stream_arguments=True), texts)
    assert fast(Harmony(cap, stream_arguments=True), texts, windows, True) == expected
    assert fast(Harmony(cap, stream_arguments=True), texts, [1], True) == expected  # (one text a time)


@pytest.mark.parametrize("body", [[' {"a', '": 1', "}"], ["\n[", "1,", " 2]"],
                                  ["\n", '{"a": "<|call|>', '"}']])
@pytest.mark.parametrize("window", [1, 2, 4])
def test_a_streamed_body_is_sent_without_the_spacing_before_it(body: list[str], window: int) -> None:
    texts = [*MODEL_TOKENS[7:17], *body, "<|call|>", "x"]  # (a call's header, then its body)
    expected = fed(HarmonyStepsComposed(stream_arguments=True), texts)
    assert fast(Harmony(stream_arguments=True), texts, [window] * len(texts), True) == expected


def table_paths() -> list[tuple[bytes, list[str]]]:
    """Every path through the words' table from each opener, with names of one and two texts."""
    names = (".bash", ".shelljson")
    paths: list[tuple[bytes, list[str]]] = []
    todo = [(opener, [], place) for opener, place in OPENED.items()]
    while todo:
        opener, words, place = todo.pop()
        paths.append((opener, words))
        following = [text for (at, text) in NEXT if at == place]
        following += [n for n in names if name_goes_on(place, n)]
        following += [t for t in ("json", "_x") if place == NAME and t not in words]
        todo += [(opener, [*words, text], NEXT.get((place, text), NAME)) for text in following]
    return paths


@pytest.mark.parametrize(("opener", "words"), table_paths())
def test_every_path_of_the_header_table_is_what_the_checks_say(opener: bytes, words: list[str]) -> None:
    parser = HarmonyParser()
    assert parser.absorb([opener.decode()]) == 0  # (nothing open: a lone harmony parser takes no opener)
    parser.feed(opener.decode())
    for text in words:
        reference = HarmonySteps()
        reference.feed(parser._scan.text(parser._scan.mark, parser._scan.end))
        assert reference._keeps_header(text)  # (a text the table takes, the checks keep)
        assert parser.absorb([text]) == 1
        assert parser._scan.end - parser._scan.mark == parser._words_at  # (still in the table)
    header = parser._scan.text(parser._scan.mark, parser._scan.end)
    known = kind_at(parser._words, parser._header_name)
    assert known is None or known == header_kind(header)
    assert parser._header_kind() == header_kind(header)


def test_a_header_that_leaves_the_table_is_read_by_the_checks() -> None:
    parser = HarmonyParser()
    parser.feed("<|channel|>")
    assert parser.absorb(["commentary", " to", "=functions", ".f", "é"]) == 5  # (é: no name's in the table)
    assert parser._scan.end - parser._scan.mark != parser._words_at
    assert parser._header_kind() == header_kind("<|channel|>commentary to=functions.fé")
    assert parser.absorb(["json"]) == 1
    assert parser.feed("<|message|>") == []
    assert parser._name == "fé"  # (`json` glued on, and trimmed, after the table was left)


def test_openers_and_end_markers_are_taken_without_the_steps() -> None:
    parser = Harmony()
    assert parser.absorb(["<|channel|>", "analysis"]) == 2
    assert parser.feed("<|message|>") == [Markup("<|channel|>analysis<|message|>")]
    assert parser.feed("<|end|>") == [Markup("<|end|>")]
    assert not parser.pending
    assert parser.absorb(["<|start|>"]) == 1 and parser._active is not None
    assert parser._parts[1]._words == OPENED[START] and OPENED[CHANNEL] == 2


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(1, 400), max_size=80) | model_texts(), st.sampled_from([1 << 16, 97]),
       st.sampled_from([{}, {"stream_arguments": True}, {"to": "anthropic"}, {"think": "on"},
                        {"max_section_bytes": 40}]))
def test_harmony_streams_come_out_the_same_without_the_whole_marker_paths(
    cuts: set[int] | list[str], reads: int, options: dict[str, Any]
) -> None:
    whole = MARKER_TURN * 2
    ends = sorted(c for c in cuts if isinstance(c, int) and c < len(whole))
    tokens = cuts if isinstance(cuts, list) else [whole[a:b] for a, b in zip([0, *ends], [*ends, len(whole)],
                                                                              strict=True)]
    for model in ("openai/gpt-oss-120b", "some/model"):
        data = token_stream(model, tokens)
        got = rewrite(data, reads, plain_runs=False, token_runs=False, **options)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(HarmonyParser, "WHOLE_MARKERS", frozenset())
            patch.setattr(HarmonyParser, "_absorb_opener", HarmonySteps._absorb_opener)
            patch.setattr(HarmonyParser, "_next_word", HarmonySteps._next_word)
            patch.setattr(ComposedParser, "absorb_reasoning", lambda self, text: False)
            assert rewrite(data, reads, plain_runs=False, token_runs=False, **options) == got
        assert rewrite(data, reads, **options) == got


REASONING_PIECES = ["<|channel|>analysis<|message|>", "<|channel>thought", "<channel|>", "[THINK]",
                    "[/THINK]", "Let ", "me l", "ook", "<", "<|end|>", "é", "\n", "", "x y", "<|start|>",
                    "<|call|>"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["gpt-oss+special-tokens", "harmony", "gemma+special-tokens", "gemma",
                        "mistral+special-tokens", "special-tokens"]),
       st.lists(st.sampled_from(REASONING_PIECES), max_size=25))
def test_reasoning_absorbed_is_what_feeding_it_gives(format_name: str, texts: list[str]) -> None:
    taking, feeding = FORMATS[format_name](), FORMATS[format_name]()
    for text in texts:
        pieces = [Reasoning(text)] if taking.absorb_reasoning(text) else taking.feed(text)
        assert (pieces, taking.pending, taking.undecided) == (feeding.feed(text), feeding.pending,
                                                              feeding.undecided)
    assert taking.flush() == feeding.flush()


def test_analysis_text_is_taken_unfed() -> None:
    parser = FORMATS["gpt-oss+special-tokens"]()
    parser.feed("<|channel|>analysis<|message|>")
    assert parser.absorb_reasoning("Let me")
    assert not parser.absorb_reasoning("a <") and not parser.absorb_reasoning("")
