"""Property: events without tool syntax come out byte for byte, even when their text ends
in what may begin a marker (DESIGN.md section 3, "hold the event, not the bytes")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMAT_CHOICES, deepseek, kimi
from sse_rewrite.formats.tool_call_bodies import FUNCTION
from sse_rewrite.formats.tool_call_tag import CLOSE, OPEN
from tests.chunking import chunk_event, rewrite_stream

MARKERS = [
    *(m.decode() for m in (*kimi.MARKERS, *deepseek.MARKERS, OPEN, CLOSE)),
    FUNCTION, "<parameter=", "</function>", "<arg_key>", "TOOL:", "ARGUMENTS:", "<think>", "</think>",
]  # fmt: skip
MODELS = [
    "moonshotai/kimi-k2.5",
    "qwen/qwen3-coder",
    "z-ai/glm-4.6",
    "deepseek/deepseek-r1",
    "gpt-4o",
    "my-agent",
]
# Prose from letters, spacing and punctuation that no marker continues with: the prefix at
# the end of one event's text never becomes a marker with the next event's text.
_prose = st.text(alphabet="abc xyz.,\n", max_size=12)


@st.composite
def texts(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(MARKERS))
    return draw(_prose) + marker[: draw(st.integers(1, len(marker) - 1))]


@settings(max_examples=60, deadline=None)
@given(
    events=st.lists(
        st.tuples(st.sampled_from(["content", "reasoning", "reasoning_content"]), texts() | _prose),
        min_size=1,
        max_size=6,
    ),
    model=st.sampled_from(MODELS),
    fmt=st.sampled_from(FORMAT_CHOICES),
)
def test_events_without_syntax_pass_byte_for_byte(
    events: list[tuple[str, str]], model: str, fmt: str
) -> None:
    stream = b"".join(chunk_event({"role": "assistant", field: text}, model=model) for field, text in events)
    stream += chunk_event({}, "stop", model=model) + b"data: [DONE]\n\n"
    # (`--think` tags are syntax of their own when on: off, they are text like any other)
    assert rewrite_stream(stream, format=fmt, think="off") == stream
