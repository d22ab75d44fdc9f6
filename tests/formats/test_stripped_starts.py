"""The stripped starts (`analysis…` under gpt-oss ids, `functions.NAME:N{` under Kimi ids) cut
anywhere: one character a chunk after an empty first chunk, the held tail bounded and released,
and prose made of their words' fragments kept byte for byte."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.rewrite_options import RewriteOptions
from sse_rewrite.stream.fast.plain_runs import PlainRuns
from sse_rewrite.stream.rewrite import StreamRewriter
from sse_rewrite.tool_schemas import ToolSchemas
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
from tests.oracles import openai_final

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


HELD_EVENTS = [
    pytest.param([" Now.fun", "ctions.read:0{}", " done"], ["read"], id="goes-on"),
    pytest.param([" Now.fu", "nc", "tions.read:0{}"], ["read"], id="goes-on-over-three-events"),
    pytest.param([" a f", "unctions.read:0{}"], ["read"], id="a-word-start-f"),
    pytest.param([" Now.fu", "nny, that", " done"], [], id="does-not-go-on"),
    pytest.param([" Now.fun", "", "ny"], [], id="an-empty-text-between"),
    pytest.param([" Now.functio", "\n"], [], id="an-escape-after"),
    pytest.param([" of", "unctions.read:0{}"], ["read"], id="a-word-goes-on-into-the-f"),
    pytest.param([" of", " it"], [], id="a-word-goes-on-into-the-f-then-prose"),
    pytest.param([" Now.fu"], [], id="the-stream-ends"),
]


@pytest.mark.parametrize(("tokens", "names"), HELD_EVENTS)
@pytest.mark.parametrize("reads", ["whole", "one-event-a-read"])
def test_an_idle_event_ending_in_a_start_is_held_until_the_next_shows_the_word(
    tokens: list[str], names: list[str], reads: str, accelerators: str
) -> None:
    """An event no needle sends, whose text ends in a start (`fun`), is held raw until the next
    event (`held_starts.py`): the word read when it goes on, else both byte for byte."""
    stream = token_stream(["Let me look.", *tokens], model=MODELS["kimi-stripped"])
    rewriter = StreamRewriter()
    pieces = [stream] if reads == "whole" else [event + b"\n\n" for event in stream.split(b"\n\n")[:-1]]
    body = b"".join(item for piece in pieces for item in rewriter.feed(piece) if isinstance(item, bytes))
    body += b"".join(item for item in rewriter.flush() if isinstance(item, bytes))
    if not names:
        assert body == stream
    text = "".join(["Let me look.", *tokens])
    kept = text[: text.index("functions")] + text[text.index("}") + 1 :] if names else text
    final = openai_final(body, chunk=7).choices[0]
    assert (final.message.content or "") == kept
    assert [call.function.name for call in final.message.tool_calls or []] == names


def test_a_harmony_start_cut_after_an_empty_first_chunk_is_read() -> None:
    """`ana` after an empty first chunk: the parser reads from the choice's first text
    (`routing_wrapped.GptOssAndTokens.reads_from_start`), so the start is read wherever it is cut."""
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
        ("one of", "f"),  # (a word goes on into this `f`: held too, see `KIMI_STRIPPED.held_from`)
    ],
)
def test_only_a_start_of_the_word_is_held_and_it_comes_out_unchanged(text: str, held: str) -> None:
    parser = FORMATS["kimi+deepseek"]()
    assert texts(parser.feed(text)) == text.removesuffix(held)
    assert parser.undecided == len(held)
    assert texts(parser.feed(" then")) == held + " then"
    assert not parser.pending


def test_a_lone_f_glued_to_a_word_is_held_so_that_every_cut_is_the_call() -> None:
    text = "I'll read the filefunctions.read:0{}"
    assert [c[1] for c in calls(feed_pieces(FORMATS["kimi+deepseek"](), [text]))] == ["read"]
    for cut in range(1, len(text)):
        out = feed_pieces(FORMATS["kimi+deepseek"](), [text[:cut], text[cut:]])
        assert (texts(out), [c[1] for c in calls(out)]) == ("I'll read the file", ["read"]), cut


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


ALIAS = "openai/gpt-4o"
DECLARED = ToolSchemas.read([{"type": "function", "function": {"name": name, "parameters": {}}}
                             for name in ("read", "write")])  # fmt: skip
ALIAS_FRAGMENTS = ["f", "fu", "nc", "tions", "functions", "function", ".", "read", "rea", "d", "write", "wr",
                   "ite", ":", "0", "{}", '{"a": 1}', " of", " the", "Read", "x", " ", "", "functions.read",
                   ":1{}", "=", "=f", " json", " <|constrain|>json", " to", "=functions.write", "c", "call",
                   "call:", "cal", "l:", "{a:1}", '(a="x")', "re"]  # fmt: skip
"""(Stripped Kimi's `functions.NAME:` and stripped harmony's `=functions.NAME`, which share their starts,
and stripped Gemma's `call:NAME{` and `call:NAME(`.)"""
_DECLARED_WORD = re.compile(r"functions\.(?:read|write):|=functions\.(?:read|write)|call:(?:read|write)[{(]")


def _through(stream: bytes, reads: list[int], **options: bool) -> bytes:
    """`stream` rewritten under `gpt-4o` with `read` and `write` declared, fed in reads of `reads` bytes."""
    rewriter, out, at = StreamRewriter(RewriteOptions(tools=DECLARED, **options)), [], 0
    for size in [*reads, len(stream)]:
        out += rewriter.feed(stream[at : at + size])
        at += size
    return b"".join(item for item in [*out, *rewriter.flush()] if isinstance(item, bytes))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALIAS_FRAGMENTS), max_size=20), st.lists(st.integers(1, 400), max_size=6))
@example(["call:", "rea", '(a="x")'], [])  # (two held, the next escaping a quote: all three pass raw)
@example(["tions", "call:", "rea", '(a="x")'], [])
def test_stripped_words_under_an_alias_settle_held_starts_as_the_general_path_reads_them(
    parts: list[str], reads: list[int]
) -> None:
    """Under any id where the tools are known, stripped Kimi is read where `functions.NAME:` holds a
    declared NAME, stripped harmony's call where `=functions.NAME` does, stripped Gemma's where
    `call:NAME{` or `call:NAME(` does (`held_starts.py`): events
    whose texts run together end in a start of one stay held until one shows the word, then pass
    byte for byte or take the general path. The same bytes with the accelerators on and off, the
    same text and calls as the whole text in one event, and where no declared word stands in the
    text, every event byte for byte."""
    stream = token_stream(["Let me look.", *parts, " Done."], model=ALIAS)
    body = _through(stream, reads)
    assert body == _through(stream, reads, plain_runs=False, token_runs=False)
    whole = _through(token_stream(["Let me look." + "".join(parts) + " Done."], model=ALIAS), [])
    final, expected = openai_final(body, chunk=7).choices[0], openai_final(whole, chunk=7).choices[0]
    assert final.message.content == expected.message.content
    assert final.message.tool_calls == expected.message.tool_calls
    if not _DECLARED_WORD.search("".join(parts)):
        assert body == stream


ALIAS_HELD = [
    pytest.param([" functions", ".", "wr", "ite", " is"], [], id="a-declared-name-then-prose"),
    pytest.param([" fu", "nc", "tions", " of"], [], id="the-word-then-prose"),
    pytest.param([" functions", ".", "read", ":", "0", "{}"], ["read"], id="a-declared-call-over-six-events"),
    pytest.param([" the file", "functions.re", "ad:0{}"], ["read"], id="glued"),
    pytest.param([" functions", ".rm", ":0{}"], [], id="an-undeclared-name"),
    pytest.param([" functions", ".Read", ":0{}"], [], id="a-declared-name-in-another-case"),
    pytest.param([" of", "f", "functions", ".write:", "0{}"], ["write"], id="starts-before-the-call"),
    pytest.param([" func", 'tions.write:0{"a": 1}'], ["write"], id="a-start-of-two-words-then-the-second"),
    pytest.param([" to", "=func", 'tions.write json{"a": 1}'], ["write"], id="harmony-across-events"),
    pytest.param([" to", "=", "functions", ".rm", " json{}"], [], id="harmony-an-undeclared-name"),
    pytest.param([" c", "all", ":re", "ad{a:1}"], ["read"], id="gemma-across-events"),
    pytest.param([" re", "call:", "write", '(a="x")'], ["write"], id="gemma-glued-keywords"),
    pytest.param([" call", ":", "rm", "{a:1}"], [], id="gemma-an-undeclared-name"),
    pytest.param([" call", ": it", " a day"], [], id="gemma-the-word-then-prose"),
]


@pytest.mark.parametrize(("tokens", "names"), ALIAS_HELD)
@pytest.mark.parametrize("reads", ["whole", "one-event-a-read"])
def test_stripped_kimi_under_an_alias_is_held_over_events_while_a_declared_word_may_go_on(
    tokens: list[str], names: list[str], reads: str
) -> None:
    stream = token_stream(["Let me look.", *tokens, " Done."], model=ALIAS)
    sizes = [] if reads == "whole" else [len(event) + 2 for event in stream.split(b"\n\n")[:-1]]
    body = _through(stream, sizes)
    if not names:
        assert body == stream
    final = openai_final(body, chunk=7).choices[0]
    assert [call.function.name for call in final.message.tool_calls or []] == names


@pytest.mark.parametrize("last", [" done.", ' functions.read:0{"a": 1}'], ids=["prose", "then-a-call"])
def test_a_run_of_look_alikes_reads_on_past_a_start_at_its_windows_end(
    monkeypatch: pytest.MonkeyPatch, last: str
) -> None:
    """Prose where every other token ends in a start of a declared word (` of`: Kimi's `functions.NAME:`
    is held from its `f`) passes as one run of look-alikes: a window that ends in such a start is read
    on by the next window, from the start's look-alike, rather than handed to the general path (which
    then began a new run after it, every 31 events). The same bytes as with the accelerators off, and
    a call after the prose is still read."""
    runs = []
    look_alikes = PlainRuns._look_alikes
    monkeypatch.setattr(PlainRuns, "_look_alikes",
                        lambda self, *args: runs.append(1) or look_alikes(self, *args))  # fmt: skip
    stream = token_stream(["Let me look.", *[" word", " of"] * 200, last], model=ALIAS)
    body = _through(stream, [])
    assert len(runs) <= 2
    assert body == _through(stream, [], plain_runs=False, token_runs=False)
    final = openai_final(body, chunk=7).choices[0]
    called = "{" in last
    assert [call.function.name for call in final.message.tool_calls or []] == (["read"] if called else [])
    if not called:
        assert body == stream
