"""ThinkSplitter: `<think>` reasoning in content, split out of the answer at any cut."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sse_rewrite.stream.events import Markup, Text
from sse_rewrite.stream.think import CLOSE, OPEN, ThinkSplitter, Thought, think_mode

from .chunking import cut
from .formats.invoke_text import BAR

Out = list[Text | Thought | Markup]


def run(pieces: list[str], starts_inside: bool = False) -> Out:
    """Feed each piece, flush; merge neighbours of one kind (the chunking-free form)."""
    splitter = ThinkSplitter(starts_inside)
    raw: Out = []
    for piece in pieces:
        raw += splitter.feed(piece)
    raw += splitter.flush()
    out: Out = []
    for item in raw:
        if out and type(out[-1]) is type(item):
            out[-1] = type(item)(span(out[-1]) + span(item))
        else:
            out.append(item)
    return out


def span(item: Text | Thought | Markup) -> str:
    return item.raw if isinstance(item, Markup) else item.text


def rejoined(out: Out) -> str:
    return "".join(map(span, out))


def every_cut(text: str, starts_inside: bool = False) -> Out:
    """The result whole, one character at a time and cut at every single offset: all equal."""
    whole = run([text], starts_inside)
    assert run(list(text), starts_inside) == whole
    for point in range(1, len(text)):
        assert run(cut(text, [point]), starts_inside) == whole
    assert rejoined(whole) == text
    return whole


@pytest.mark.parametrize(
    ("text", "starts_inside", "expected"),
    [
        pytest.param("<think>plan</think>answer", False,
                     [Markup(OPEN), Thought("plan"), Markup(CLOSE), Text("answer")], id="tags"),
        pytest.param("plan</think>\n\nanswer", True,
                     [Thought("plan"), Markup(CLOSE), Text("\n\nanswer")], id="r1-starts-inside"),
        pytest.param("no tags at all", False, [Text("no tags at all")], id="plain"),
        pytest.param("a</think>b", False, [Text("a</think>b")], id="close-outside-is-text"),
        pytest.param("<think>x<think>y</think>z", False,
                     [Markup(OPEN), Thought("x<think>y"), Markup(CLOSE), Text("z")],
                     id="open-inside-is-text"),
        pytest.param("<think>a</think>b<think>c</think>d", False,
                     [Markup(OPEN), Thought("a"), Markup(CLOSE), Text("b"), Markup(OPEN), Thought("c"),
                      Markup(CLOSE), Text("d")], id="interleaved"),
        pytest.param("<think>never closed", False, [Markup(OPEN), Thought("never closed")], id="unclosed"),
        pytest.param("ends in <thi", False, [Text("ends in <thi")], id="partial-open-at-end"),
        pytest.param("<think>ends in </thin", False, [Markup(OPEN), Thought("ends in </thin")],
                     id="partial-close-at-end"),
        pytest.param("<think>Let me add 2 and 2.</think>4.", True,
                     [Markup(OPEN), Thought("Let me add 2 and 2."), Markup(CLOSE), Text("4.")],
                     id="r1-opener-in-the-output-too"),
        pytest.param(" <think>x</think>y", True, [Thought(" <think>x"), Markup(CLOSE), Text("y")],
                     id="r1-opener-after-text-is-text"),
        pytest.param("</think>\n\n4.", False, [Text("</think>\n\n4.")], id="closer-first-elsewhere"),
        pytest.param(f"<think>a<{BAR}tool_calls>b</think>", False,
                     [Markup(OPEN), Thought("a"), Text(f"<{BAR}tool_calls>b</think>")],
                     id="dsml-block-ends-it"),
        pytest.param("a< | DSML | calls", True, [Thought("a"), Text("< | DSML | calls")],
                     id="dsml-ascii-bars"),
        pytest.param(f"<think>DSML <{BAR}invoke</think>", False,
                     [Markup(OPEN), Thought(f"DSML <{BAR}invoke"), Markup(CLOSE)], id="dsml-words-stay"),
        pytest.param(f"<{BAR}tool_calls>", False, [Text(f"<{BAR}tool_calls>")], id="dsml-block-outside"),
        pytest.param("a << <t <think>é😀</think>", False,
                     [Text("a << <t "), Markup(OPEN), Thought("é😀"), Markup(CLOSE)],
                     id="lookalikes-unicode"),
    ],
)
def test_examples(text: str, starts_inside: bool, expected: Out) -> None:
    assert every_cut(text, starts_inside) == expected


def test_held_prefix_is_released_by_the_next_text() -> None:
    splitter = ThinkSplitter()
    assert splitter.feed("x <th") == [Text("x ")]
    assert splitter.pending
    assert splitter.feed("e end") == [Text("<the end")]
    assert not splitter.pending


def test_provider_reasoning_before_content_keeps_the_answer_in_content() -> None:
    splitter = ThinkSplitter(starts_inside=True)
    splitter.provider_reasons()
    assert splitter.feed("the answer") == [Text("the answer")]


def test_provider_reasoning_after_content_started_changes_nothing() -> None:
    splitter = ThinkSplitter(starts_inside=True)
    assert splitter.feed("plan") == [Thought("plan")]
    splitter.provider_reasons()
    assert splitter.feed(" more</think>x") == [Thought(" more"), Markup(CLOSE), Text("x")]


@pytest.mark.parametrize(
    ("model", "requested", "split", "inside"),
    [
        pytest.param("deepseek/deepseek-r1-0528", "auto", True, True, id="r1"),
        pytest.param("Qwen/QwQ-32B", "auto", True, True, id="qwq"),
        pytest.param("qwen/qwen3-235b-a22b", "auto", True, False, id="qwen3"),
        pytest.param("z-ai/glm-4.6", "auto", True, False, id="glm"),
        pytest.param("moonshotai/kimi-k2-thinking", "auto", True, False, id="kimi-thinking"),
        pytest.param("moonshotai/kimi-k2.5", "auto", False, False, id="kimi-not-thinking"),
        pytest.param("gpt-4o", "auto", False, False, id="other"),
        pytest.param("gpt-4o", "on", True, False, id="forced-on"),
        pytest.param("deepseek-r1", "off", False, False, id="forced-off"),
    ],
)
def test_think_mode(model: str, requested: str, split: bool, inside: bool) -> None:
    assert reads_think(model, requested) == (split, inside)


def reads_think(model: str, requested: str) -> tuple[bool, bool]:
    """Whether a stream of `model` reads `<think>`, and whether it starts inside."""
    markers, _ = think_mode(model, requested)  # type: ignore[arg-type]
    if markers is None:
        return False, False
    return OPEN in markers.outside(), markers.prompt is not None


@given(
    st.lists(st.sampled_from(["<think>", "</think>", "<", "</", "<th", "think>", "a", "é", " ", "\n",
                              f"<{BAR}tool_calls>", f"<{BAR[:2]}", BAR[0], "DSML", "calls", "| DSML |"]),
             max_size=20).map("".join),
    st.lists(st.integers(0, 200), max_size=6),
    st.booleans(),
)
def test_any_cut_equals_whole_and_is_lossless(text: str, points: list[int], starts_inside: bool) -> None:
    whole = run([text], starts_inside)
    assert run(cut(text, [min(p, len(text)) for p in points]), starts_inside) == whole
    assert rejoined(whole) == text


@pytest.mark.parametrize(("text", "moves"), [
    pytest.param("<invoke", True, id="marker"),
    pytest.param("</parameter>", True, id="closing-marker"),
    pytest.param('a <b> "c"', True, id="tag-inside"),
    pytest.param("</thinking>", True, id="longer-tag"),
    pytest.param("<", False, id="lead-at-end"),
    pytest.param("</thi", False, id="closer-start"),
    pytest.param("a</think>b", False, id="closer"),
    pytest.param("<think>", True, id="opener-inside"),
    pytest.param(f"<{BAR}tool_calls>", False, id="dsml-block-opener"),
    pytest.param("x< | DSML | calls", False, id="spaced-dsml-block-opener"),
    pytest.param(f"<{BAR[:2]}", False, id="dsml-block-opener-start"),
    pytest.param("a DSML b <", False, id="dsml-word-then-lead"),
    pytest.param("x" * 70 + "</parameter>", True, id="long-marker-not-remembered"),
    pytest.param("x" * 70 + "</thi", False, id="long-closer-start-not-remembered"),
])
def test_a_searched_text_moves_as_feed_moves_it(text: str, moves: bool) -> None:
    def inside() -> ThinkSplitter:
        splitter = ThinkSplitter(starts_inside=True)
        assert splitter.feed("a") == [Thought("a")]  # (past the content's start, nothing held)
        return splitter

    fed = inside()
    whole = fed.feed(text) == [Thought(text)] and not fed.held and fed.inside
    assert inside().moves_searched(text) is whole is moves
    assert inside().moves_searched(text) is moves  # (asked again: a short text's answer is remembered)
