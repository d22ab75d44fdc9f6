"""The stripped starts (`analysis…` under gpt-oss ids, `functions.NAME:N{` under Kimi ids) cut
anywhere: one character a chunk after an empty first chunk, the held tail bounded and released,
and prose made of their words' fragments kept byte for byte."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import (
    calls,
    chunk_event,
    feed_in_pieces,
    feed_pieces,
    reasoning,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.channel_rows import MODELS, ROWS
from tests.formats.harness import cases, expectation, row_through_the_sdk

STRIPPED = cases({fmt: ROWS[fmt] for fmt in ("gpt-oss", "kimi-stripped")})


@pytest.mark.parametrize(("fmt", "row"), STRIPPED)
def test_row_one_character_a_chunk_after_an_empty_first_chunk(fmt: str, row: str) -> None:
    expected = expectation(ROWS[fmt][row])
    events = [chunk_event({"role": "assistant", "content": ""}, model=MODELS[fmt])]
    events += [chunk_event({"content": char}, model=MODELS[fmt]) for char in expected.text]
    events.append(chunk_event({}, "stop", model=MODELS[fmt]))
    row_through_the_sdk(rewrite_stream(b"".join(events) + b"data: [DONE]\n\n"), expected)


KIMI_CALLS = [pytest.param(row, id=row) for row, (_, found, *_) in ROWS["kimi-stripped"].items() if found]


@pytest.mark.parametrize("row", KIMI_CALLS)
def test_a_kimi_row_with_the_word_cut_as_a_tokenizer_may_cut_it(row: str) -> None:
    expected = expectation(ROWS["kimi-stripped"][row])
    tokens = [token for part in expected.text.split("functions") for token in (part, "function", "s")][:-2]
    stream = token_stream([token for token in tokens if token], model=MODELS["kimi-stripped"])
    row_through_the_sdk(rewrite_stream(stream), expected)


@pytest.mark.parametrize(
    "tokens",
    [
        pytest.param(["Let me look.", " Now.fun", "ctions.read:0{}", " done"], id="fun"),
        pytest.param(["Let me look.", " Now.f", "unctions.read:0{}", " done"], id="dot-f"),
        pytest.param(["Let me look.", " Now.", "f", "unctions.read:0{}", " done"], id="lone-f"),
        pytest.param(["Let me look.", " Now.functio", "ns.read:0{}", " done"], id="functio"),
    ],
)
def test_an_event_ending_in_a_start_of_the_word_is_read(tokens: list[str]) -> None:
    """A text field ending in `fu` ... `function`, or in an `f` after a sentence's end, has a
    needle (`kimi_stripped.SNIFF`): the call is read as it is in one event."""
    body = rewrite_stream(token_stream(tokens, model=MODELS["kimi-stripped"]))
    found = [("read", "{}")]
    row_through_the_sdk(body, expectation(("".join(tokens), found, "Let me look. Now. done", set())))


def test_an_f_glued_to_a_word_in_an_unread_event_is_text() -> None:
    """The one cut left out (`kimi_stripped.SNIFF`): an `f` that ends a word's event is not read."""
    tokens = ["Let me look.", " Now the f", "unctions.read:0{}"]  # (after a space: read)
    body = rewrite_stream(token_stream(tokens, model=MODELS["kimi-stripped"]))
    found = [("read", "{}")]
    row_through_the_sdk(body, expectation(("".join(tokens), found, "Let me look. Now the ", set())))
    tokens = ["Let me look.", " Now itself", "unctions.read:0{}"]
    body = rewrite_stream(token_stream(tokens, model=MODELS["kimi-stripped"]))
    row_through_the_sdk(body, expectation(("".join(tokens), [], "".join(tokens), set())))


_K3 = ('ools<|sep|>call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep|>ls argument'
       "<|sep|>call<|sep|>tools<|sep|>")


@pytest.mark.parametrize(
    ("tokens", "kept"),
    [
        pytest.param(["Sure.", "t", _K3], "Sure.", id="lone-t"),
        pytest.param(["Sure.", "to", _K3[1:]], "Sure.", id="lone-to"),
        pytest.param(["Sure.to", _K3[1:]], "Sure.", id="dot-to"),
        pytest.param(["Sure.\ntoo", _K3[2:]], "Sure.\n", id="line-too"),
        pytest.param(["Sure, the tool", _K3[3:]], "Sure, the ", id="tool-anywhere"),
        pytest.param(["Sure, go to", _K3[1:]], None, id="space-to-is-not-held"),
    ],
)
def test_a_k3_section_cut_inside_tools(tokens: list[str], kept: str | None) -> None:
    """`t`, `to`, `too` are held alone or after `.` or a line end, `tool` anywhere
    (`xtml_sep.HELD_AFTER`, `SNIFF`); after a space `to` is not (it ends too many texts)."""
    body = rewrite_stream(token_stream(tokens, model=MODELS["kimi-k3"]))
    found = [("bash", '{"command": "ls"}')] if kept is not None else []
    text = "".join(tokens)
    row_through_the_sdk(body, expectation((text, found, text if kept is None else kept, set())))


def test_a_harmony_start_cut_after_an_empty_first_chunk_is_read() -> None:
    """`ana` after an empty first chunk: the parser reads from the choice's first text
    (`harmony_stripped.GptOssParser.reads_from_start`), so the start is read wherever it is cut."""
    tokens = ["", "ana", "lysisUser says hi.", "assistantfinal", "Hello!"]
    body = rewrite_stream(token_stream(tokens, model=MODELS["gpt-oss"]))
    row_through_the_sdk(body, expectation(("".join(tokens), [], "Hello!", "User says hi.", set())))


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Let me look.functio", "functio"),
        ("the fun", "fun"),
        ("functions", "functions"),
        ("f", "f"),
        ("look.f", "f"),
        ('{"a": 1}f', "f"),
        ("one of", ""),  # (a word goes on into this `f`: not held, see `kimi_stripped.HELD_FROM`)
    ],
)
def test_only_a_start_of_the_word_is_held_and_it_comes_out_unchanged(text: str, held: str) -> None:
    parser = FORMATS["kimi+deepseek"]()
    assert texts(parser.feed(text)) == text.removesuffix(held)
    assert parser.undecided == len(held)
    assert texts(parser.feed(" then")) == held + " then"
    assert not parser.pending


def test_a_lone_f_glued_to_a_word_is_not_held_so_that_one_cut_is_text() -> None:
    text = "I'll read the filefunctions.read:0{}"
    assert [c[1] for c in calls(feed_pieces(FORMATS["kimi+deepseek"](), [text]))] == ["read"]
    cut = text.index("functions") + 1
    out = feed_pieces(FORMATS["kimi+deepseek"](), [text[:cut], text[cut:]])
    assert (texts(out), calls(out)) == (text, [])


KIMI_FRAGMENTS = ["f", "fun", "func", "tions", "functions", "functions.", ".", "py", "read", ":", "0", "{",
                  "}", '"', " ", "of", "x"]  # fmt: skip
_HEAD = re.compile(r"functions\.[\w.\-]+:\d+\{")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(KIMI_FRAGMENTS), max_size=24), st.integers(1, 5))
def test_prose_made_of_functions_fragments_is_kept_byte_for_byte(parts: list[str], size: int) -> None:
    text = "".join(parts)
    out = feed_in_pieces(FORMATS["kimi+deepseek"], text, size)
    assert rejoin(out) == text
    if not _HEAD.search(text):  # (with a header, a whole object after it may be a call)
        assert texts(out) == text
        assert not calls(out)


HARMONY_FRAGMENTS = ["a", "ana", "lysis", "analysis", "assistant", "assist", "final", "fin", "commentary",
                     " to=", "functions", ".", "f", "json", "{", "}", " ", "x"]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(HARMONY_FRAGMENTS), max_size=24), st.integers(1, 5))
def test_stripped_reasoning_of_marker_fragments_is_kept_byte_for_byte(parts: list[str], size: int) -> None:
    text = "analysisX" + "".join(parts)
    out = feed_in_pieces(FORMATS["gpt-oss+special-tokens"], text, size)
    assert rejoin(out) == text
    if "assistantfinal" not in text and "commentary to=functions." not in text:
        assert reasoning(out) == text.removeprefix("analysis")
        assert not calls(out) and not texts(out)
