"""A chunk whose one text, fed ahead, made only calls goes out as the calls' chunks without the
plan (`StreamChoices.fed_calls`, `ChoiceRewriter.fed_calls`): compared with the full plan
(`_rewrite`, `_rebuild`, `_assemble`) on every capture and on token streams of each family."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.choices import StreamChoices
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.stream.sse import data_value
from tests.chunking import token_stream
from tests.formats.invoke_text import dsml, invoke
from tests.formats.test_channel_fast_paths import rewrite
from tests.formats.test_harmony_marker_paths import MARKER_TURN, MODEL_TOKENS

SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"
CAPTURES = sorted(SSE_LOGS.glob("*.sse"))
OPTIONS: list[dict[str, Any]] = [{}, {"to": "anthropic"}, {"plain_runs": False, "token_runs": False},
                                 {"id_style": "native"}]


def planned_in_full(data: bytes, reads: int, **options: Any) -> Any:
    """`rewrite` with every call chunk planned by the general path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceRewriter, "fed_calls", lambda self, choice: None)
        return rewrite(data, reads, **options)


@pytest.mark.parametrize("capture", CAPTURES, ids=[capture.name for capture in CAPTURES])
def test_captures_come_out_as_the_full_plan_makes_them(capture: Path) -> None:
    data = capture.read_bytes()
    for options in OPTIONS:
        assert rewrite(data, 1 << 16, **options) == planned_in_full(data, 1 << 16, **options)


KIMI_TURN = ["I will look. ", "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.read:0",
             "<|tool_call_argument_begin|>", '{"path": ', '"a"}', "<|tool_call_end|>", "<|tool_call_begin|>",
             "functions.read:1", "<|tool_call_argument_begin|>", "{}", "<|tool_call_end|>",
             "<|tool_calls_section_end|>", " Done."]
HERMES_TURN = ["Sure. ", "<tool_call>", '{"name": "f", ', '"arguments": {}}', "</tool_call>", "\n",
               "<tool_call>", '{"name": "g", "arguments": {"a": 1}}', "</tool_call>"]
DSML_BLOCK = dsml(invoke("bash", ("command", "ls", "true")), invoke("f", ("a", "1", None)))
DSML_TOKENS = ["a ", *DSML_BLOCK.split("\n"), " b"]
TURNS = [("openai/gpt-oss-120b", MODEL_TOKENS), ("moonshotai/kimi-k2", KIMI_TURN),
         ("nousresearch/hermes-4-70b", HERMES_TURN), ("deepseek/deepseek-chat", DSML_TOKENS),
         ("some/model", [MARKER_TURN])]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TURNS), st.sets(st.integers(0, 60), max_size=6), st.sampled_from([1 << 16, 97]),
       st.sampled_from(["content", "reasoning", "reasoning_content"]), st.sampled_from(OPTIONS))
def test_token_streams_come_out_as_the_full_plan_makes_them(
    turn: tuple[str, list[str]], joins: set[int], reads: int, field: str, options: dict[str, Any]
) -> None:
    model, tokens = turn
    texts: list[str] = []
    for at, token in enumerate(tokens * 2):  # (some tokens joined to the next one)
        texts[-1:] = [texts[-1] + token] if at - 1 in joins and texts else [*texts[-1:], token]
    data = token_stream(texts, field, model=model)
    assert rewrite(data, reads, **options) == planned_in_full(data, reads, **options)


def test_a_harmony_call_chunk_is_made_without_the_plan() -> None:
    taken: list[object] = []
    fed_calls = ChoiceRewriter.fed_calls
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceRewriter, "fed_calls", lambda self, choice: taken.append(
            calls := fed_calls(self, choice)) or calls)
        rewrite(token_stream(MODEL_TOKENS, model="openai/gpt-oss-120b"), 1 << 16, token_runs=False)
    assert sum(bool(calls) for calls in taken) == 2  # (the turn's two `<|call|>` events; [] is a text)


@pytest.mark.parametrize("live", [False, True])  # (a read of many events, or one event a read)
def test_the_token_runs_take_a_calls_end_and_the_text_after_it(live: bool) -> None:
    """A call's last token and the text after it, both fed ahead inside a run of look-alikes, go out
    as the calls' chunks and the event unchanged without the general path's decode (`TokenRuns._called`)."""
    decoded: list[bytes] = []
    on_event = StreamRewriter._on_event
    data = token_stream([*HERMES_TURN, " Done", " now."], model="nousresearch/hermes-4-70b")

    def rewritten(**options: Any) -> list[object]:
        rewriter = StreamRewriter(RewriteOptions(**options))
        reads = [e + b"\n\n" for e in data.split(b"\n\n")[:-1]] if live else [data]
        return [item for read in reads for item in rewriter.feed(read)] + rewriter.flush()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamRewriter, "_on_event", lambda self, raw, *rest: decoded.append(raw)
                      or on_event(self, raw, *rest))
        out = rewritten()
    assert not [raw for raw in decoded if b"</tool_call>" in raw or b" Done" in raw]
    assert b"".join(out) == b"".join(rewritten(token_runs=False)) and b'"content":" Done"' in b"".join(out)


@pytest.mark.parametrize("field", ["content", "reasoning", "reasoning_content"])
def test_the_token_runs_hand_fed_calls_the_chunk_a_look_alike_decodes_to(field: str) -> None:
    """`TokenRuns._called` builds a look-alike's chunk from the learned one and its token instead of
    decoding it: the same dict, keys in the same order, mirrors and all (`TokenTemplate.learn`)."""
    asked: list[tuple[bytes, bytes]] = []
    fed_calls = StreamChoices.fed_calls

    def recorded(self: StreamChoices, chunk: Any, choice: object, raw: bytes) -> Any:
        asked.append((orjson.dumps(chunk), orjson.dumps(orjson.loads(data_value(raw) or b"null"))))
        return fed_calls(self, chunk, choice, raw)

    data = token_stream([*KIMI_TURN, " more."] * 2, field, model="moonshotai/kimi-k2")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamChoices, "fed_calls", recorded)
        rewrite(data, 1 << 16)
    assert len(asked) > 3 and all(made == decoded for made, decoded in asked)


def rewritten_in_full(data: bytes, reads: int, **options: Any) -> Any:
    """`rewrite` with `StreamChoices.absorbed` declining every chunk: each goes through `rewrite`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamChoices, "absorbed", lambda self, chunk, parts=None: None)
        return rewrite(data, reads, plain_runs=False, token_runs=False, **options)


@pytest.mark.parametrize("capture", CAPTURES, ids=[capture.name for capture in CAPTURES])
def test_captures_come_out_as_the_full_rewrite_makes_them(capture: Path) -> None:
    """What `absorbed` takes (a choice's first opener among it: its parser made there) is what
    `rewrite` would have made of it."""
    data = capture.read_bytes()
    for options in [{}, {"to": "anthropic"}, {"think": "on"}, {"stream_arguments": True}]:
        assert rewrite(data, 1 << 16, **options) == rewritten_in_full(data, 1 << 16, **options)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TURNS), st.sets(st.integers(0, 60), max_size=6), st.sampled_from([1 << 16, 97]),
       st.sampled_from(["content", "reasoning", "reasoning_content"]),
       st.sampled_from([{}, {"to": "anthropic"}, {"think": "on"}, {"stream_arguments": True}]),
       st.sampled_from([[], [""], ["", "Plain words. "], ["", "`code` ", "\n"]]))  # ("": no parser made)
def test_token_streams_come_out_as_the_full_rewrite_makes_them(
    turn: tuple[str, list[str]], joins: set[int], reads: int, field: str, options: dict[str, Any],
    before: list[str],
) -> None:  # fmt: skip
    model, tokens = turn
    texts: list[str] = []
    for at, token in enumerate(before + tokens * 2):  # (some tokens joined to the next one)
        texts[-1:] = [texts[-1] + token] if at - 1 in joins and texts else [*texts[-1:], token]
    data = token_stream(texts, field, model=model)
    assert rewrite(data, reads, **options) == rewritten_in_full(data, reads, **options)


@pytest.mark.parametrize("live", [False, True])
def test_a_choices_first_opener_is_absorbed_its_parser_made_there(live: bool) -> None:
    """The stream's first `<tool_call>` lands in a parser not made yet (the prose before it passed
    unread): `absorbed` makes it, as `rewrite` would, and takes the opener (no full rewrite)."""
    rewritten: list[bytes] = []
    whole = StreamChoices.rewrite
    data = token_stream(["", "Sure. ", *HERMES_TURN, " Done."], model="nousresearch/hermes-4-70b")
    reads = [e + b"\n\n" for e in data.split(b"\n\n")[:-1]] if live else [data]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamChoices, "rewrite", lambda self, raw, chunk: rewritten.append(raw)
                      or whole(self, raw, chunk))
        rewriter = StreamRewriter(RewriteOptions())
        out = [item for read in reads for item in rewriter.feed(read)] + rewriter.flush()
    assert not [raw for raw in rewritten if b'"<tool_call>"' in raw]
    assert b"".join(item for item in out if isinstance(item, bytes)).count(b'"tool_calls"') >= 2
