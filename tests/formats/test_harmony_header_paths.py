"""Harmony's headers read without their step decide nothing of their own: `maybe_prose` in two
patterns against the step by step reading it replaced (`prose_reference`); `_keeps_header`,
which lets header words and markers be absorbed, against `maybe_prose` on the whole header;
and the stripped-harmony wrapper, which becomes its tokens' parser once the answer begins.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.catalogue.channels import CHANNELS, HARMONY, HarmonyParser
from sse_rewrite.formats.catalogue.routing_wrapped import GptOssAndTokens
from sse_rewrite.formats.machines.channel_calls import State
from sse_rewrite.formats.machines.recipients import MAX_HEADER
from sse_rewrite.stream.events import Markup, Reasoning, Text

maybe_prose = HARMONY.maybe_prose


def prose_reference(header: str) -> bool:
    """`maybe_prose` as it was read before its patterns: characters once markers are blanked,
    then the word after the first `<|start|>` and `<|channel|>`, a prefix while it may go on."""
    if len(header) > MAX_HEADER or "\n" in header:
        return True
    rest = re.sub(r"<\|(?:start|channel|constrain)\|>", " ", header)
    if re.fullmatch(r"[\w \t.=:/@\-]*(?:<\|?[a-z]*\|?)?", rest) is None:
        return True
    for marker, words in (("<|start|>", ("assistant",)), ("<|channel|>", CHANNELS)):
        at = header.find(marker)
        if at == -1:
            continue
        found = re.match(r"[ \t]*(\w*)(.?)", header[at + len(marker) :])
        assert found is not None
        word, following = found.groups()
        if (word not in words) if following else not any(w.startswith(word) for w in words):
            return True
    return False


HEADER_BITS = ["<|start|>", "<|channel|>", "<|constrain|>", "<|message|>", "<|", "<|con", "|>", "<", " ",
               "\t", "\n", "assistant", "assist", "analysis", "analysisx", "comment", "commentary", "final",
               " to", "=functions.f", "é", "json", "x", "_", "ñ", ".", "-", ">", "{", "a" * 120]


WORDS = st.sampled_from(["", "a", "assist", "assistant", "assistantx", "analysis", "analysisx", "comm",
                         "final", "fin_", "ñ", "x"])
OPENER_AND_WORD = st.tuples(
    st.sampled_from(["<|start|>", "<|channel|>"]), st.sampled_from(["", " ", "\t "]), WORDS,
    st.sampled_from(["", " ", "<|channel|>", ".", "é", "\n", "<"]),
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(HEADER_BITS) | OPENER_AND_WORD, max_size=6).map("".join))
def test_maybe_prose_reads_headers_as_it_did_step_by_step(header: str) -> None:
    assert maybe_prose(header) == prose_reference(header)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(HEADER_BITS) | OPENER_AND_WORD, max_size=5).map("".join),
       st.sampled_from(HEADER_BITS) | WORDS | st.sampled_from([" to=functions.f", "=", "ary", "x" * 250]))
@example("commentary <|con", " ")  # a marker's start, then no marker
@example("commentary <|con", "strain")
@example("comm", "ent")  # the channel word goes on
@example("comm", "x")
@example("<|start|>assist", "ant")
@example("<|start|>assistant", "<|channel|>")  # a marker taken, the word after it still to come
@example("<|start|>assistant", "<|channel|>x")
@example("commentary to=functions.f", " <|constrain|>")
def test_a_header_kept_with_a_text_is_one_maybe_prose_does_not_call_prose(header: str, text: str) -> None:
    parser = HarmonyParser()
    parser.feed("<|channel|>" + header)
    if parser._state is not State.HEADER:  # (prose, or the header ended)
        return
    held = parser._scan.text(parser._scan.mark, parser._scan.end)
    kept, prose = parser._keeps_header(text), maybe_prose(held + text)
    if "<" in text:  # (taken only with whole markers a header holds, else the step reads it)
        assert not (kept and prose)
        assert not kept or "<" not in re.sub(r"<\|(?:start|channel|constrain)\|>", "", text)
    else:
        assert kept == (not prose)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(HEADER_BITS) | OPENER_AND_WORD, max_size=3).map("".join),
       st.lists(st.sampled_from(HEADER_BITS) | WORDS, max_size=6))
@example("", ["commentary", " to", "=functions.f", "<|start|>", "x"])
@example("<|start|>", ["assistant", "<|channel|>", "final", " ", "json"])
def test_settled_words_known_from_earlier_texts_keep_the_answer(header: str, texts: list[str]) -> None:
    parser = HarmonyParser()  # asked text after text, as absorbing them asks it (`_words_settled`)
    parser.feed("<|channel|>" + header)
    for text in texts:
        if parser._state is not State.HEADER:
            return
        fresh = HarmonyParser()  # asked once, about the header so far
        fresh.feed(parser._scan.text(parser._scan.mark, parser._scan.end))  # (from its opener)
        assert fresh._state is State.HEADER
        kept = parser._keeps_header(text)
        assert kept == fresh._keeps_header(text)
        if not kept:
            return
        parser._scan.append(text)


@pytest.mark.parametrize(("header", "marker", "word"), [
    ("<|start|>assistant", "<|channel|>", "commentary"),
    ("<|start|>assistant<|channel|>commentary to=functions.f", " <|constrain|>", "json"),
    ("<|channel|>commentary", " to=functions.f <|constrain|>", "json"),
])
def test_header_markers_are_taken_where_they_keep_the_header_one(header: str, marker: str, word: str) -> None:
    parser = HarmonyParser()
    assert parser.feed(header) == []
    assert parser.absorb([marker, word, "<|message|>"]) == 2  # (the end of the header is fed)


def test_the_gpt_oss_parser_becomes_the_tokens_parser_once_the_answer_begins() -> None:
    stripped = GptOssAndTokens()
    assert stripped.feed("analysisNeed it.") == [Markup("analysis"), Reasoning("Need it.")]
    assert type(stripped) is GptOssAndTokens  # (stripped reasoning: its own)
    assert stripped.feed("assistantfinalIt is <b>") == [Markup("assistantfinal"), Text("It is <b>")]
    assert type(stripped) is GptOssAndTokens.INNER  # no call goes through the wrapper now
    tokens = GptOssAndTokens()
    assert tokens.feed("<|channel|>final<|message|>Hi") == [Markup("<|channel|>final<|message|>"), Text("Hi")]
    assert type(tokens) is GptOssAndTokens.INNER and tokens.feed("<|return|>") == [Markup("<|return|>")]


def test_the_gpt_oss_parser_holds_nothing_once_flushed() -> None:
    for text in ("", "analysisNeed it.", "analysisA.commentary to=functions.f json{"):
        stripped = GptOssAndTokens()
        assert stripped.watching and not stripped.pending  # (every event is read; nothing held yet)
        stripped.feed(text)
        stripped.flush()
        assert not stripped.pending and stripped.undecided == 0
