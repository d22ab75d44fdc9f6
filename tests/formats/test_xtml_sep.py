"""Kimi K3 XTML with `<|open|>`/`<|close|>` dropped and `<|sep|>` left (`xtml_sep`): rows whole and at
every cut in `kimi+deepseek` (a cut inside the opener's word keeps it as text), through the openai SDK
with `tools` one token, read from `<|sep|>call ` in the other formats (`tools` kept as text), and prose
holding the fragments kept byte for byte."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import calls, codes, feed_in_pieces, feed_pieces, rewrite_stream, texts, token_stream
from tests.formats.harmony_rows import Row
from tests.formats.harness import expectation, fields, row_through_the_sdk, three_characters
from tests.oracles import openai_final

_CALL = 'call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep|>ls argument<|sep|>'
_PARTIAL = 'call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep'
ROWS: dict[str, Row] = {
    "all-dropped-but-sep": (
        f"Sure.tools<|sep|>{_CALL}call<|sep|>tools<|sep|>done", [("bash", '{"command": "ls"}')],
        "Sure.done", "", set(),
    ),
    "mix-with-close-tokens": (
        'tools<|sep|><|open|>call tool="a" index="1"<|sep|>argument key="n" type="integer"<|sep|>3'
        '<|close|>argument<|sep|><|close|>call<|sep|>call tool="b" index="2"<|sep|>call<|sep|>'
        "<|close|>tools<|sep|>",
        [("a", '{"n": 3}'), ("b", "{}")], "", "", set(),
    ),
    "value-glued-to-its-close": (
        'tools<|sep|>call tool="w" index="1"<|sep|>argument key="p" type="string"<|sep|>a bargument<|sep|>'
        "call<|sep|>tools<|sep|>",
        [("w", '{"p": "a b"}')], "", "", set(),
    ),
    "a-value-holding-the-tag-words": (  # (a tag's word and spacing open it only between tags)
        'tools<|sep|>call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep|>echo call'
        " tools now argument<|sep|>call<|sep|>tools<|sep|>",
        [("bash", '{"command": "echo call tools now"}')], "", "", set(),
    ),
    "open-token-on-the-section-only": (  # (`<|open|>` is `xtml`'s, which reads no call after it: text)
        f"A<|open|>tools<|sep|>{_CALL}call<|sep|>tools<|sep|>B", [("bash", '{"command": "ls"}')],
        "A<|open|>B", "", set(),
    ),
    "lost-section-close": (
        f"tools<|sep|>{_CALL}call<|sep|> ok", [("bash", '{"command": "ls"}')], " ok", "", set(),
    ),
    "recovered-at-the-end": (
        f"tools<|sep|>{_CALL}", [("bash", '{"command": "ls"}')], "", "", {"recovered-call"},
    ),
    "prose-after-the-opener-is-text": ("Use tools<|sep|> wisely", [], "Use tools<|sep|> wisely", "", set()),
    "an-opener-alone-at-the-end-is-text": ("Use tools<|sep|>", [], "Use tools<|sep|>", "", set()),
    "cut-inside-a-marker-is-text": (
        f"tools<|sep|>{_PARTIAL}", [], f"tools<|sep|>{_PARTIAL}", "", {"truncated-call"},
    ),
    "unclosed-value-is-text": (
        f"tools<|sep|>{_CALL[:-12]}", [], f"tools<|sep|>{_CALL[:-12]}", "", {"truncated-call"},
    ),
    "message-closer-without-its-token-is-text": (  # (reading it would hold every text ending in
        # `message`: docs/behaviour.md, "Kimi K3 with `<|open|>`/`<|close|>` dropped")
        f"tools<|sep|>{_CALL}call<|sep|>tools<|sep|>Done.message<|sep|>", [("bash", '{"command": "ls"}')],
        "Done.message<|sep|>", "", set(),
    ),
}  # fmt: skip


def _result(pieces: list[str]) -> tuple[list[tuple[str, str]], str]:
    out = feed_pieces(FORMATS["kimi+deepseek"](), pieces)
    return [(c[1], c[2]) for c in calls(out)], texts(out)


@pytest.mark.parametrize("row", ROWS)
def test_row_whole_and_at_every_cut(row: str) -> None:
    expected = expectation(ROWS[row])
    text, words = expected.text, {i for start in _starts(expected.text) for i in range(start + 1, start + 5)}
    assert _result([text]) == (expected.calls, expected.kept)
    assert expected.notices <= codes(feed_pieces(FORMATS["kimi+deepseek"](), [text]))
    for point in range(1, len(text)):
        found_calls, kept = _result([text[:point], text[point:]])
        if point in words:  # (the opener's word cut, `to` | `ols<|sep|>`: unread, every byte kept)
            assert (found_calls, kept) in ((expected.calls, expected.kept), ([], text)), point
        else:
            assert (found_calls, kept) == (expected.calls, expected.kept), point


def _starts(text: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith("tools<|sep|>", i)]


@pytest.mark.parametrize("row", ROWS)
def test_row_through_the_sdk(row: str) -> None:
    expected = expectation(ROWS[row])
    parts = expected.text.split("tools")
    tokens = [t for i, part in enumerate(parts) for t in (["tools"] if i else []) + three_characters(part)]
    body = rewrite_stream(token_stream(tokens, "content", model="moonshotai/kimi-k3"), format="auto")
    row_through_the_sdk(body, expected)


@pytest.mark.parametrize("size", [1, 3, 1000])
@pytest.mark.parametrize("fmt", ["kimi-k3", "special-tokens", "qwen+special-tokens"])
def test_read_from_its_sep_outside_kimi_ids(fmt: str, size: int) -> None:
    """Outside Kimi ids (where `tools` is not held) the call is read from its distinctive `<|sep|>call `:
    the word `tools` before it stays text, the section's closer is markup (docs/behaviour.md)."""
    out = feed_in_pieces(FORMATS[fmt], ROWS["all-dropped-but-sep"][0], size)
    assert [(c[1], c[2]) for c in calls(out)] == [("bash", '{"command": "ls"}')]
    assert texts(out) == "Sure.toolsdone"


@pytest.mark.parametrize("text", ["a<|sep|>b", "Use tools<|sep|>", "<|sep|>tools<|sep|>", "x<|sep|> call"])
def test_a_lone_sep_outside_kimi_ids_is_text(text: str) -> None:
    for size in range(1, len(text) + 1):
        out = feed_in_pieces(FORMATS["special-tokens"], text, size)
        assert (calls(out), texts(out)) == ([], text), size


def test_a_glued_opener_cut_in_its_word_reads_the_call_from_sep() -> None:
    """Under Kimi ids `tools` glued to a word (`intools`) is held only whole: a cut inside it lets its
    start go out, and the call is read from `<|sep|>call ` (before sep17 it stayed text), that part of
    the word kept."""
    text = f"Look intools<|sep|>{_CALL}call<|sep|>tools<|sep|>done"
    for point in range(1, len(text)):
        found_calls, kept = _result([text[:point], text[point:]])
        assert found_calls == [("bash", '{"command": "ls"}')], point
        assert kept == ("Look intoolsdone" if 8 <= point <= 11 else "Look indone"), point


_FRAGMENTS = ["tools", "too", "t", "<|sep|>", "call", ' tool="x"', "argument", "into", " ", "\n"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=14), st.integers(1, 4))
def test_prose_of_fragments_kept(words: list[str], size: int) -> None:
    text = "".join(words)
    if "<|sep|>call " in text:  # (a call may begin there: after `tools`, or, in every stream, at `<|sep|>`)
        return
    assert texts(feed_in_pieces(FORMATS["kimi+deepseek"], text, size)) == text


@pytest.mark.parametrize("field", ["content", "reasoning"])
def test_capture_one_token_a_chunk(field: str) -> None:
    """`sse_logs/stripped-kimi-k3-sep.sse`'s tokens in content and in reasoning: the call, the prose kept."""
    data = (Path(__file__).parents[2] / "sse_logs" / "stripped-kimi-k3-sep.sse").read_bytes()
    chunks = [orjson.loads(line[6:]) for line in data.split(b"\n") if line.startswith(b"data: {")]
    deltas = [choice["delta"] for chunk in chunks for choice in chunk["choices"]]
    tokens = [delta["content"] for delta in deltas if delta.get("content")]
    body = rewrite_stream(token_stream(tokens, field, model="moonshotai/kimi-k3"), format="auto")
    final = openai_final(body).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == [
        ("bash", '{"command": "ls -la"}')
    ]
    assert fields(body).get("content" if field == "content" else "reasoning", "") == "Sure."
