"""The fast paths for harmony's analysis text and the invoke family's tag words decide nothing
of their own: each is compared with the same machine or stream without it.

- a harmony analysis text without `<`, fed while nothing is held, handed back whole as
  `Reasoning` (`REASONING_AT_ONCE`; the reference has it unset, so its step scans the text);
- harmony's `absorb` of header words and markers (`_absorb_header`; `_keeps_header` itself:
  test_harmony_header_paths.py) and JSON bodies, and, streaming arguments,
  `absorb_argument(s)` of body text;
- the invoke machine's `absorb` of header words and of spacing before a body or between
  invokes (the reference is fed every text);
- a chunk whose content all goes to the reasoning field, made as that field's chunk
  (`StreamChoices.absorbed`, and `ChoiceRewriter.moved` for the token runs; the reference plans
  it in full), and such chunks sent by the token runs (each accelerator switched off alone).
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.channels import HarmonyParser
from sse_rewrite.formats.catalogue.special_tokens import SpecialTokensParser
from sse_rewrite.formats.machines._compose import ComposedParser
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.choice_state import ChoiceState
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.formats.invoke_text import BAR, dsml, invoke
from tests.formats.test_fast_paths import run
from tests.formats.test_streamed_fast_paths import fast, fed


class HarmonyScanningAll(HarmonyParser):
    """The reference: every analysis text goes through the reasoning step."""

    REASONING_AT_ONCE = None


class Harmony(ComposedParser):
    """Harmony composed with the special tokens, as `auto` runs it."""

    PARTS = (SpecialTokensParser, HarmonyParser)


class HarmonyScanningAllComposed(ComposedParser):
    """Its reference."""

    PARTS = (SpecialTokensParser, HarmonyScanningAll)


HARMONY_PIECES = [
    "<|channel|>", "analysis", "<|message|>", "Let ", "me l", "ook", "<|end|>", "<|start|>", "assistant",
    "commentary", " to", "=functions", ".bash", " <|constrain|>", "json", '{"a": ', '"<|call|>"', "}",
    "<|call|>", "final", "<|return|>", "<", "<|", "é", "\n", "x" * 40, "",
    "analysisé", "  ", "<|constrain", "|>", " json", "x y", "commentary ", "<|channel|>commentary",
]
HARMONY_TURN = (
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary"
    ' to=functions.weather <|constrain|>json<|message|>{"x": "a<b"}<|call|>'
    "<|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>"
)
DSML_TURN = "a " + dsml(invoke("bash", ("command", "ls -l", "true"), ("timeout", "120", "false")),
                        invoke("f", ("a", "1", None))) + " b"
DSML_PIECES = [
    f"<{BAR}tool_calls>", f"<{BAR}tool_calls", f"</{BAR}tool_calls>", f"<{BAR}invoke", f"</{BAR}invoke>",
    f"<{BAR}parameter", f"</{BAR}parameter>", " name", '="', "bash", '">', "\n", " ", "  \n", '"',
    " string", "true", "x y", ">", "<", "é", "x" * 40, "",
]


@st.composite
def cut_texts(draw: st.DrawFn, pieces: list[str], turn: str) -> list[str]:
    """Random pieces, or a whole turn cut at random points."""
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(pieces), max_size=30))
    whole = turn * draw(st.integers(1, 2))
    cuts = sorted(draw(st.sets(st.integers(1, len(whole) - 1), max_size=60)))
    return [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]


@settings(max_examples=150, deadline=None)
@given(cut_texts(HARMONY_PIECES, HARMONY_TURN))
def test_analysis_text_at_once_is_what_the_reasoning_step_gives(texts: list[str]) -> None:
    assert run(HarmonyParser(), texts, []) == run(HarmonyScanningAll(), texts, [])
    assert run(Harmony(), texts, []) == run(HarmonyScanningAllComposed(), texts, [])


@settings(max_examples=150, deadline=None)
@given(cut_texts(HARMONY_PIECES, HARMONY_TURN), st.lists(st.integers(1, 6), min_size=1, max_size=30),
       st.sampled_from([60, 1 << 20]))
def test_absorbed_harmony_texts_change_nothing(texts: list[str], windows: list[int], cap: int) -> None:
    assert run(Harmony(cap), texts, windows) == run(Harmony(cap), texts, [])


@settings(max_examples=200, deadline=None)
@given(cut_texts(DSML_PIECES, DSML_TURN), st.lists(st.integers(1, 6), min_size=1, max_size=30),
       st.sampled_from([60, 1 << 20]), st.sampled_from(["dsml", "deepseek+kimi", "minimax"]))
def test_absorbed_tag_words_and_spacing_change_nothing(
    texts: list[str], windows: list[int], cap: int, format_name: str
) -> None:
    parser = FORMATS[format_name]
    assert run(parser(cap), texts, windows) == run(parser(cap), texts, [])


@pytest.mark.parametrize("header", [
    ["<|start|>", "assistant", "<|channel|>", "commentary", " to", "=functions", ".f", " <|constrain|>",
     "json"],
    ["<|channel|>", "comment", "ary", " to", "=functions.f"],  # the channel word goes on
    ["<|channel|>", "analysis", "x"],  # `analysisx`: no channel
    ["<|channel|>", "  ", "analysis", "<|start|>", "assist", "ant"],
    ["<|start|>", "assistant", "<|channel|>commentary to=functions.f ", "<|constrain", "x y"],  # partial
    ["<|channel|>", "commentary", " to", "=functions.", "f" * 100, "f" * 100, "f" * 100],  # too long
    ["<|start|>", "assistant", "<|channel|>", "final", "<|mess", "age|>", "x"],  # the end, cut
    ["<|channel|>", "final", "<", "|message|>", "<|start|>", "x"],
])
def test_header_words_absorbed_are_what_feeding_them_gives(header: list[str]) -> None:
    texts = [*header, "<|message|>", "{}", "<|call|>", "after"]
    assert run(Harmony(), texts, [6] * 9) == run(Harmony(), texts, [])
    assert Harmony().absorb(header[1:]) == 0  # (nothing open: nothing taken)


@pytest.mark.parametrize("body", [
    ['{"a', '": "x', " y", '"', " }", " ", "\n"],
    ['{"a": "', "b}", " c", '"}  ', "x"],
    ['{"a": "', "<|call|>", '"}'],
    ['{"a": "', "<", "|call|>", "<|start|>"],
    ["[1, ", "2] ", "]"],
    [" ", "{", '"é": "', "é" * 30, '"', "}"],
])
@pytest.mark.parametrize("windows", [[1], [2, 1], [6]])
def test_streamed_body_texts_absorbed_are_what_feeding_them_give(body: list[str], windows: list[int]) -> None:
    head = ["<|start|>", "assistant", "<|channel|>", "commentary to=functions.f", "<|message|>"]
    texts = [*head, *body, "<|call|>", "after"]
    for cap in (90, 1 << 20):
        got = fast(Harmony(cap, stream_arguments=True), texts, windows * 20, True)
        assert got == fed(Harmony(cap, stream_arguments=True), texts)


def test_header_words_and_spacing_are_absorbed() -> None:
    parser = FORMATS["dsml"]()
    assert parser.feed(f"<{BAR}tool_calls>") == []
    assert parser.absorb(["\n"]) == 1
    assert parser.feed(f"<{BAR}invoke") == []
    assert parser.absorb([" name", '="', "bash", '">']) == 3  # the `>` ends the header: fed
    assert parser.feed('">') == []
    assert parser.absorb(["\n", f"<{BAR}parameter"]) == 1  # the body's first markup settles it: fed
    parser = FORMATS["dsml"]()
    assert parser.feed(f"<{BAR}tool_calls>\n<{BAR}invoke") == []
    assert parser.absorb(["name"]) == 0  # a header that does not begin with spacing is no header
    texts = [f"<{BAR}tool_calls", "\n", ">", "x"]  # spacing taken after an opener lacking its `>`
    assert run(FORMATS["dsml"](), texts, [1]) == run(FORMATS["dsml"](), texts, [])


def token_stream(model: str, tokens: list[str]) -> bytes:
    """One token per content event, in the OpenRouter envelope, then a stop and `[DONE]`."""
    def event(token: str, finish: str | None = None) -> bytes:
        chunk = {"id": "gen-1", "object": "chat.completion.chunk", "model": model, "provider": "P",
                 "choices": [{"index": 0, "delta": {"role": "assistant", "content": token},
                              "finish_reason": finish}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    return b"".join([event(""), *map(event, tokens), event("", "stop"), b"data: [DONE]\n\n"])


def rewrite(data: bytes, reads: int, **options: Any) -> tuple[bytes, list[object], tuple[int, ...]]:
    """The bytes written (a run of events passed through may come as one item or several), the
    notices, and the counts."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    out = [item for i in range(0, len(data), reads) for item in rewriter.feed(data[i : i + reads])]
    out += rewriter.flush()
    stats = rewriter.stats
    written = b"".join(item for item in out if isinstance(item, bytes))
    notices = [item for item in out if not isinstance(item, bytes)]
    return written, notices, (stats.events_in, stats.events_out, stats.passed_through, stats.tool_calls)


SWITCHES = [{"plain_runs": False}, {"token_runs": False}, {"plain_runs": False, "token_runs": False}]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("openai/gpt-oss-120b", HARMONY_TURN), ("deepseek/deepseek-chat", DSML_TURN),
                        ("some/model", HARMONY_TURN)]),
       st.sets(st.integers(1, 400), max_size=80), st.sampled_from([1 << 16, 1000, 97]),
       st.sampled_from([{}, {"stream_arguments": True}, {"to": "anthropic"}, {"think": "on"}]))
def test_channel_streams_come_out_the_same_with_every_fast_path_off(
    model_turn: tuple[str, str], cuts: set[int], reads: int, options: dict[str, Any]
) -> None:
    model, turn = model_turn
    whole = turn * 3
    ends = sorted(c for c in cuts if c < len(whole))
    tokens = [whole[a:b] for a, b in zip([0, *ends], [*ends, len(whole)], strict=True)]
    data = token_stream(model, tokens)
    expected = rewrite(data, reads, **options)
    for switches in SWITCHES:
        assert rewrite(data, reads, **switches, **options) == expected
    with pytest.MonkeyPatch.context() as patch:  # the full plan: no chunk made as moved
        patch.setattr(ChoiceRewriter, "moved", lambda self, choice: None)
        feed_ahead = ChoiceState._feed_ahead
        patch.setattr(ChoiceState, "_feed_ahead", lambda self, parser, name, text, parts=None, moves=False:
                      feed_ahead(self, parser, name, text, parts))
        assert rewrite(data, reads, plain_runs=False, token_runs=False, **options) == expected
        assert rewrite(data, reads, **options) == expected


ANALYSIS_PIECES = ["Let ", "me l", "ook", "é", "\n", "x" * 40, "", "<", "<|", "|>", "<|e", "nd|>", "<|end|>",
                   "<|start|>assistant", "<|channel|>analysis<|message|>", "<|call|>", " to"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ANALYSIS_PIECES), max_size=40), st.sampled_from([1 << 16, 97]),
       st.sampled_from([{}, {"stream_arguments": True}]))
def test_runs_of_analysis_tokens_come_out_as_the_general_path_sends_them(
    pieces: list[str], reads: int, options: dict[str, Any]
) -> None:
    tokens = ["<|channel|>", "analysis", "<|message|>", *pieces, "<|end|>", *HARMONY_PIECES[7:19]]
    data = token_stream("openai/gpt-oss-120b", tokens * 2)
    general = rewrite(data, reads, plain_runs=False, token_runs=False, **options)
    assert rewrite(data, reads, **options) == general


def test_token_runs_move_a_run_of_analysis_tokens_without_the_general_path() -> None:
    tokens = ["<|channel|>", "analysis", "<|message|>", *(["Let ", "me l", "ook"] * 60), "<|end|>"]
    data = token_stream("openai/gpt-oss-120b", tokens)
    with pytest.MonkeyPatch.context() as patch:
        decoded: list[bytes] = []
        general = StreamRewriter._on_event
        patch.setattr(StreamRewriter, "_on_event", lambda self, raw, value: decoded.append(raw) or general(
            self, raw, value))
        written, _, _ = rewrite(data, 2048)  # (a first read of one event resolves the format)
    assert len(decoded) < 40  # of 186 events: the first read's, and those a read cuts
    reasoning = "".join(orjson.loads(event[6:])["choices"][0]["delta"].get("reasoning_content", "")
                        for event in written.split(b"\n\n") if event.startswith(b"data: {"))
    assert reasoning == "Let me look" * 60


def test_markup_alone_is_fed_ahead_in_token_runs() -> None:
    analysis = ["<|channel|>", "analysis", "<|message|>", *(["Let ", "me l", "ook"] * 4), "<|end|>"]
    tokens = [*analysis, "<|start|>", "assistant", *analysis, "<|start|>", "assistant", *analysis]
    data = token_stream("openai/gpt-oss-120b", tokens)
    first = data.index(b"\n\n") + 2  # (in a read of its own: it tells the format)
    decoded: list[str] = []
    rewriter = StreamRewriter(RewriteOptions())
    general = rewriter.decode

    def decode(data: bytes) -> list[object]:
        decoded.extend(orjson.loads(line[6:])["choices"][0]["delta"]["content"]
                       for line in data.split(b"\n\n") if line.startswith(b"data: {"))
        return general(data)  # type: ignore[return-value]

    rewriter.decode = decode  # type: ignore[method-assign]
    out = rewriter.feed(data[:first]) + rewriter.feed(data[first:]) + rewriter.flush()
    written = b"".join(item for item in out if isinstance(item, bytes))
    assert written == rewrite(data, len(data), plain_runs=False, token_runs=False)[0]
    assert "<|end|>" not in decoded[:-2] and "<|message|>" not in decoded[1:]  # (after the first header)
