"""`MovedEvents` (the byte template of a chunk whose content went whole to the reasoning field)
against encoding the chunk in full, and a harmony stream's analysis through the general path
against the full plan (no chunk made as moved)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.protocols.openai.moved_events import MovedEvents
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.choice_state import ChoiceState
from sse_rewrite.stream.chunks import with_choice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter

_TOKENS = st.sampled_from(["Let ", "me", "x", "é", '"', "\\", "\n", "gen-1", "assistant", "</", "null"])
_ENVELOPES = st.sampled_from([
    {"id": "gen-1", "object": "chat.completion.chunk", "model": "openai/gpt-oss-120b", "provider": "P"},
    {"id": "gen-2", "object": "chat.completion.chunk", "model": "openai/gpt-oss-120b", "provider": "P"},
    {"id": "gen-1", "model": "openai/gpt-oss-120b", "created": 1},
    {"id": "gen-1", "model": "openai/gpt-oss-120b", "created": 1.0},
])


def raw_event(envelope: dict[str, Any], token: str, index: int, role: bool, ascii_only: bool,
              usage: bool) -> tuple[bytes, dict[str, Any]]:  # fmt: skip
    """A content token's event (its JSON as orjson or Python's json writes it) and its chunk."""
    delta = {"role": "assistant", "content": token} if role else {"content": token}
    chunk = {**envelope, "choices": [{"index": index, "delta": delta, "finish_reason": None}]}
    if usage:
        chunk["usage"] = None
    data = json.dumps(chunk).encode() if ascii_only else orjson.dumps(chunk)
    return b"data: " + data + b"\n\n", orjson.loads(data)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_ENVELOPES, _TOKENS, st.sampled_from([0, 1]), st.booleans(), st.booleans(),
                          st.booleans(), st.sampled_from(["reasoning_content", "reasoning"])),
                min_size=1, max_size=30))
def test_a_moved_event_is_its_chunk_encoded(events: list[tuple[Any, ...]]) -> None:
    moved = MovedEvents()
    for envelope, token, index, role, ascii_only, usage, field in events:
        raw, chunk = raw_event(envelope, token, index, role, ascii_only, usage)
        choice = {"index": index, "delta": {field: token}, "finish_reason": None}
        expected = b"data: " + orjson.dumps(with_choice(chunk, choice)) + b"\n\n"
        assert moved.event(raw, chunk, index, field, token) == expected


def test_look_alikes_are_made_by_the_template() -> None:
    moved = MovedEvents()
    envelope = {"id": "gen-1", "model": "openai/gpt-oss-120b"}
    for token in ["Let ", "me l", "ook"]:
        raw, chunk = raw_event(envelope, token, 0, True, False, False)
        moved.event(raw, chunk, 0, "reasoning_content", token)
    raw, chunk = raw_event(envelope, "é", 0, True, False, False)
    chunk["id"] = "not read"  # (the template answers from the bytes alone)
    event = moved.event(raw, chunk, 0, "reasoning_content", "é")
    assert orjson.loads(event[6:])["id"] == "gen-1"


def stream(tokens: list[str], reasoning_first: bool) -> bytes:
    """A gpt-oss stream of content tokens; `reasoning_first`: its first chunk has a `reasoning`
    field (the stream's reasoning field becomes `reasoning`)."""
    def event(delta: dict[str, Any], finish: str | None = None) -> bytes:
        chunk = {"id": "gen-1", "model": "openai/gpt-oss-120b",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    first = event({"role": "assistant", "content": "", **({"reasoning": "r"} if reasoning_first else {})})
    body = [event({"role": "assistant", "content": token}) for token in tokens]
    return b"".join([first, *body, event({}, "stop"), b"data: [DONE]\n\n"])


def rewritten(data: bytes, **options: Any) -> list[object]:
    rewriter = StreamRewriter(RewriteOptions(plain_runs=False, token_runs=False, **options))
    return [*rewriter.feed(data), *rewriter.flush()]


@pytest.mark.parametrize("reasoning_first", [False, True])
@pytest.mark.parametrize("options", [{}, {"to": "anthropic"}, {"stream_arguments": True}])
def test_analysis_tokens_come_out_as_the_full_plan_sends_them(
    reasoning_first: bool, options: dict[str, Any]
) -> None:
    analysis = ["<|channel|>", "analysis", "<|message|>", *["Let ", "me l", "ook", "é", '"'] * 3, "<|end|>"]
    data = stream([*analysis, "<|start|>", "assistant", *analysis], reasoning_first)
    moved = rewritten(data, **options)
    with pytest.MonkeyPatch.context() as patch:  # the full plan: no chunk made as moved
        patch.setattr(ChoiceRewriter, "moved", lambda self, choice: None)
        feed_ahead = ChoiceState._feed_ahead
        patch.setattr(ChoiceState, "_feed_ahead", lambda self, parser, name, text, parts=None, moves=False:
                      feed_ahead(self, parser, name, text, parts))
        assert rewritten(data, **options) == moved
    if not options:
        field = "reasoning" if reasoning_first else "reasoning_content"
        texts = [orjson.loads(item[6:])["choices"][0]["delta"].get(field, "") for item in moved
                 if isinstance(item, bytes) and item.startswith(b"data: {")]
        assert "".join(texts).count("Let me look") == 6
