"""Closers with nothing open: words unless they adjoin syntax (docs/behaviour.md, "Damage").

The rows of the damage table hold the cases; here, a property over random prose that holds
markers of every syntax, and the stream-level reading that the rule needs.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue import deepseek, kimi
from sse_rewrite.formats.machines._section_base import Token
from tests.chunking import calls, chunkings, rewrite_stream, token_stream
from tests.formats.damage_rows import PARSERS
from tests.oracles import openai_final

_TAGS = ("<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>",
         "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "<think>", "</think>",
         "TOOL:", "ARGUMENTS:")  # fmt: skip
_TOKENS = tuple(m.decode() for table in (kimi.MARKERS, deepseek.MARKERS) for m in table)
_OPENS_SECTION = {m.decode() for table in (kimi.MARKERS, deepseek.MARKERS) for m, t in table.items()
                  if t is Token.SECTION_BEGIN}  # fmt: skip
_CLOSES_SECTION = {m.decode() for table in (kimi.MARKERS, deepseek.MARKERS) for m, t in table.items()
                   if t is Token.SECTION_END}  # fmt: skip
_BEGINS_CALL = {m.decode() for table in (kimi.MARKERS, deepseek.MARKERS) for m, t in table.items()
                if t in (Token.CALL_BEGIN, Token.SECTION_BEGIN)}  # fmt: skip
_HEADER_ENDS = (Token.CALL_BEGIN, Token.CALL_END, Token.SECTION_END, Token.ARGUMENT_BEGIN)
_ENDS_HEADER = {m.decode() for table in (kimi.MARKERS, deepseek.MARKERS) for m, t in table.items()
                if t in _HEADER_ENDS}  # fmt: skip
MARKERS = _TAGS + _TOKENS
ALL_PARSERS = sorted({name for names in PARSERS.values() for name in names})

words = st.text(alphabet="abcxyz.,é日", min_size=1, max_size=6)


@st.composite
def prose(draw: st.DrawFn) -> str:
    """Sentences in which every run of markers has words on both sides, on its line: nothing
    opens a call (an opener is followed by two words), nothing stands alone on a line."""
    parts = [draw(words)]
    for _ in range(draw(st.integers(1, 5))):
        run = draw(st.lists(st.sampled_from(MARKERS), min_size=1, max_size=3))
        if any(a in _OPENS_SECTION and b in _CLOSES_SECTION for a, b in itertools.pairwise(run)) or any(
            (a in _BEGINS_CALL and b in _ENDS_HEADER) or (a, b) == ("<tool_call>", "</tool_call>")
            for a, b in itertools.combinations(run, 2)
        ):
            run = run[:1]  # (an empty section, a call or section whose header a marker ends, or a GLM call
            # whose name is what stands between its tags, `<tool_call>TOOL:</tool_call>`: syntax)
        gap = draw(st.sampled_from([" ", "", "\t"]))
        end = draw(st.sampled_from([" ", "\n", ". "]))
        parts.append(f"{gap}{''.join(run)} {draw(words)} {draw(words)}{end}")
        parts.append(draw(words))
    return "".join(parts)


@settings(max_examples=30, deadline=None)
@given(prose())
def test_prose_holding_any_marker_with_nothing_open_comes_out_byte_for_byte(text: str) -> None:
    for name in ALL_PARSERS:
        out = chunkings(FORMATS[name], text)
        assert not calls(out), name
        assert "".join(p.text for p in out if hasattr(p, "text")) == text, name


@settings(max_examples=10, deadline=None)
@given(prose(), st.sampled_from(["kimi", "deepseek", "hermes", "qwen3-coder", "glm", "auto"]))
def test_the_same_prose_streamed_token_by_token(text: str, fmt: str) -> None:
    tokens = [text[i : i + 2] for i in range(0, len(text), 2)]
    stream = token_stream(tokens, model="qwen/qwen3-coder")  # (`<think>` is no tool syntax: --think off)
    final = openai_final(rewrite_stream(stream, format=fmt, think="off")).choices[0]
    assert final.message.content == text
    assert not final.message.tool_calls
