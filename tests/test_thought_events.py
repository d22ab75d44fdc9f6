"""Content moved to the reasoning field inside a think block the prompt opened (`--think`): the
short way (`ChoiceThoughts.thought`, `thoughts`, and the token runs' byte template,
`fast/thought_events.py`) against the full plan (`ContentThinking.split`, then the rewrite)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.choice_state import ChoiceState as ChoiceCore
from sse_rewrite.stream.choice_thoughts import ChoiceThoughts as ChoiceState
from sse_rewrite.stream.content_thinking import ContentThinking
from sse_rewrite.stream.fast import token_runs
from sse_rewrite.stream.fast.thought_events import thought_events
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.stream.think import think_mode
from tests.rewrite_runs import general_path_contents

_THOUGHT = ["Let ", "me l", "ook", " é", '"', "\\", "\n", "`x`", "|", "~~~", " ok", "[", "]"]


def stream(model: str, tokens: list[str], finish: str, reasoning_first: bool = False,
           role_every: bool = True) -> bytes:  # fmt: skip
    """A stream of content tokens under `model`, one an event, then `finish`."""
    def event(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        chunk = {"id": "gen-1", "model": model, "provider": "P",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    first = event({"role": "assistant", "content": "", **({"reasoning": "r"} if reasoning_first else {})})
    body = [event({"role": "assistant", "content": t} if role_every else {"content": t}) for t in tokens]
    return b"".join([first, *body, event({}, finish), b"data: [DONE]\n\n"])


def rewritten(data: bytes, read: int, on: bool, **options: Any) -> tuple[bytes, list[object]]:
    """The bytes written and the notices, `data` fed in reads of `read` bytes (`on`: accelerators)."""
    rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on, **options))
    out = [item for i in range(0, len(data), read) for item in rewriter.feed(data[i : i + read])]
    out += rewriter.flush()
    notices = [item for item in out if not isinstance(item, bytes)]
    return b"".join(item for item in out if isinstance(item, bytes)), notices


_HELD = ["Let ", "et m", "e lo", " mini", "max", ":x", "m", "e", "|", " m", "inimax:", "tool_call ", "ok"]
"""Thoughts whose ends MiniMax's parser holds (its unangled `minimax:tool_call>`): the events go
out without them, the next ones with them (the short way, `ChoiceThoughts.thought`, takes both)."""
GLM = "z-ai/glm-4.7"
MINIMAX = "minimax/minimax-m2.1"
CALL = ["<tool_call>", "bash", "\n", "<arg_key>", "cmd", "</arg_key>", "<arg_value>", "ls", "</arg_value>",
        "</tool_call>"]

CASES = [
    pytest.param(GLM, [*_THOUGHT * 3, "</think>", "\n\n", "Done."], "stop", {}, id="closed"),
    pytest.param(GLM, [*_THOUGHT * 3, "</thi", "nk>", "ok", *_THOUGHT], "stop", {}, id="closer-cut"),
    pytest.param(GLM, _THOUGHT * 3, "stop", {}, id="stranded-answer"),
    pytest.param(GLM, _THOUGHT * 3, "length", {}, id="cut-at-length"),
    pytest.param(GLM, [*_THOUGHT, *CALL, *_THOUGHT, "</think>", *CALL], "stop", {}, id="call-in-reasoning"),
    pytest.param(GLM, [*_THOUGHT, "<", "b>", *_THOUGHT, "</think>"], "stop", {}, id="lead-in-reasoning"),
    pytest.param(GLM, _THOUGHT * 3, "stop", {"reasoning_first": True}, id="provider-reasons"),
    pytest.param(GLM, [*_THOUGHT * 3, "</think>", "x"], "stop", {"role_every": False}, id="role-once"),
    pytest.param(MINIMAX, [*_THOUGHT * 3, "</think>", "<minimax:tool_call>", "\n", "<invoke", " name",
                           '="', "ls", '">', "</invoke>", "\n", "</minimax:tool_call>"], "stop", {},
                 id="minimax"),
    pytest.param("deepseek/deepseek-r1-0528", [*_THOUGHT * 3, "</think>", "x"], "stop", {}, id="r1"),
    pytest.param(MINIMAX, [*_HELD, *_THOUGHT, *_HELD, "</think>", "x"], "stop", {}, id="held-word-start"),
    pytest.param(GLM, ["word "] * 40, "stop", {"max_section_bytes": 64}, id="stranded-past-the-cap"),
    pytest.param(GLM, [*_THOUGHT * 3, "</think>", "x"], "stop", {"format": "none"}, id="format-none"),
]
_SHAPE = ("reasoning_first", "role_every")  # (the rest of a case's dict are rewrite options)


@pytest.mark.parametrize("options", [
    pytest.param({}, id="openai"), pytest.param({"to": "anthropic"}, id="anthropic"),
    pytest.param({"stream_arguments": True}, id="streamed"),
])
@pytest.mark.parametrize(("model", "tokens", "finish", "shape"), CASES)
def test_moved_thoughts_come_out_as_the_full_plan_sends_them(
    model: str, tokens: list[str], finish: str, shape: dict[str, Any], options: dict[str, Any]
) -> None:
    options = {**options, **{key: value for key, value in shape.items() if key not in _SHAPE}}
    data = stream(model, tokens, finish, **{key: value for key, value in shape.items() if key in _SHAPE})
    taken: list[int] = []  # texts the short way moved
    runs: list[int] = []  # of them, texts moved a run at once (`ChoiceThoughts._thought_run`)
    thought, thoughts, thought_run = ChoiceState.thought, ChoiceState.thoughts, ChoiceState._thought_run

    def counted_thought(self: ChoiceState, choice: dict[str, Any]) -> dict[str, Any] | None:
        moved = thought(self, choice)
        taken.append(moved is not None)
        return moved

    def counted_thoughts(self: ChoiceState, texts: list[str]) -> list[str]:
        moved = thoughts(self, texts)
        taken.append(len(moved))
        return moved

    def counted_run(self: ChoiceState, texts: list[str], start: int) -> int:
        runs.append(thought_run(self, texts, start))
        return runs[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceState, "thought", counted_thought)
        patch.setattr(ChoiceState, "thoughts", counted_thoughts)
        patch.setattr(ChoiceState, "_thought_run", counted_run)
        short = {(read, on): rewritten(data, read, on, **options)
                 for read in (len(data), 97) for on in (True, False)}
    if shape.get("reasoning_first"):  # (the provider's reasoning field: the content is the answer)
        assert sum(taken) == 0
    else:
        assert sum(taken) >= len(tokens) // 3
        assert max(runs) > 1  # (runs of texts were moved at once)
    with pytest.MonkeyPatch.context() as patch:  # one text at a time: the same bytes
        patch.setattr(ChoiceState, "_thought_run", lambda self, texts, start: 0)
        for (read, on), out in short.items():
            assert rewritten(data, read, on, **options) == out, (read, on)
    with pytest.MonkeyPatch.context() as patch:  # the full plan: nothing moved the short way
        patch.setattr(ChoiceState, "thought", lambda self, choice: None)
        patch.setattr(ChoiceState, "thoughts", lambda self, texts: [])
        for (read, on), out in short.items():
            assert rewritten(data, read, on, **options) == out, (read, on)


MINIMAX_CALL = ["<minimax:tool_call>", "\n", "<invoke", " name", '="', "bash", '">', "\n", "<parameter",
                " name", '="', "cmd", '">', "ls", " -la", " src", "/", " && ", "echo", " ok", "</parameter>",
                "\n", "</invoke>", "\n", "</minimax:tool_call>"]
UNCLOSED = [  # the answer moved on the prompt's word alone, calls in it (a closer late or never); texts
    # the short way must take at least
    pytest.param(MINIMAX, [*_THOUGHT, *MINIMAX_CALL, *_THOUGHT, *MINIMAX_CALL], "stop", 8,
                 id="minimax-no-block"),
    pytest.param(MINIMAX, [*MINIMAX_CALL, *MINIMAX_CALL[:15]], "length", 8, id="minimax-cut"),
    pytest.param(GLM, [*_THOUGHT, *CALL, *_THOUGHT, *CALL, "</think>", "x"], "stop", 8,
                 id="glm-calls-then-closer"),
    pytest.param(MINIMAX, [*_THOUGHT, *MINIMAX_CALL, "<b>", "<", "</thi", "nk>", "\n", *MINIMAX_CALL], "stop",
                 8, id="minimax-calls-then-closer-cut"),
    pytest.param(MINIMAX, [*MINIMAX_CALL[:8], "</thi", "nk>", *MINIMAX_CALL[8:]], "stop", 4,
                 id="closer-in-a-call"),
    pytest.param("deepseek/deepseek-r1-0528", [*_THOUGHT, "<", "|DSML|", "function_calls>", "x"], "stop", 0,
                 id="r1-dsml-block-opener-cut"),
]


@pytest.mark.parametrize("options", [
    pytest.param({}, id="openai"), pytest.param({"to": "anthropic"}, id="anthropic"),
    pytest.param({"stream_arguments": True}, id="streamed"),
])
@pytest.mark.parametrize(("model", "tokens", "finish", "least"), UNCLOSED)
def test_moved_tokens_an_open_call_takes_leave_nothing_as_the_full_plan_finds(
    model: str, tokens: list[str], finish: str, least: int, options: dict[str, Any]
) -> None:
    data = stream(model, tokens, finish)
    absorb_moved = ChoiceCore._absorb_moved
    taken: list[int] = []  # texts moved into an open call the short way (`ChoiceCore._absorb_moved`)
    fed: list[bool] = []  # marker texts moved and fed ahead (`ChoiceCore._feeds_moved`)
    feeds_moved = ChoiceCore._feeds_moved

    def counted(self: ChoiceCore, texts: list[str], start: int = 0) -> int:
        taken.append(absorb_moved(self, texts, start))
        return taken[-1]

    def counted_feeds(self: ChoiceCore, text: str) -> bool:
        fed.append(feeds_moved(self, text))
        return fed[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceCore, "_absorb_moved", counted)
        patch.setattr(ChoiceCore, "_feeds_moved", counted_feeds)
        short = {(read, on): rewritten(data, read, on, **options)
                 for read in (len(data), 97) for on in (True, False)}
    if not options.get("stream_arguments"):
        assert sum(taken) + sum(fed) >= least
    with pytest.MonkeyPatch.context() as patch:  # the full plan: every such token split and rewritten
        patch.setattr(ChoiceCore, "_absorb_moved", lambda self, texts, start=0: 0)
        patch.setattr(ChoiceCore, "_markup_moved", lambda self, text: False)  # (no marker fed ahead)
        patch.setattr(ChoiceRewriter, "fed_calls", lambda self, choice: None)  # (nor calls sent so)
        for (read, on), out in short.items():
            assert rewritten(data, read, on, **options) == out, (read, on)


def test_the_token_runs_send_moved_thoughts_by_their_template() -> None:
    data = stream(GLM, [*_THOUGHT * 20, "</think>", "x"], "stop")
    made: list[int] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(token_runs, "thought_events", lambda parts, texts: made.append(len(texts)) or
                      thought_events(parts, texts))
        sent = rewritten(data, len(data), True)[0].split(b"\n\n")
    assert sum(made) > len(_THOUGHT) * 10  # (a token with a marker's lead goes the general way)
    deltas = [orjson.loads(item[6:])["choices"][0]["delta"] for item in sent if item.startswith(b"data: {")]
    moved = [delta for delta in deltas if delta.get("reasoning_content")]
    assert all(delta.get("content", "") == "" for delta in moved)
    assert "".join(d["reasoning_content"] for d in moved) == "".join(_THOUGHT * 20)


@contextlib.contextmanager
def fully_planned(field: str) -> Iterator[list[object]]:
    """While open, the `field` text of each choice the full plan rewrote (`ChoiceRewriter._rewrite`)."""
    general: list[object] = []
    full = ChoiceRewriter._rewrite

    def counted(self: ChoiceRewriter, choice: dict[str, Any], *args: Any, **kwargs: Any) -> object:
        general.append(choice["delta"].get(field))
        return full(self, choice, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceRewriter, "_rewrite", counted)
        yield general


@pytest.mark.parametrize("on", [True, False])
def test_the_contents_first_text_after_the_closer_is_absorbed_as_any_other(on: bool) -> None:
    # (a field's first text makes its parser in `ChoiceState.absorb`, as `_rewrite` would; what is
    # sent is the full plan's: the goldens, test_fast)
    data = stream(GLM, [*_THOUGHT, "</think>", *CALL, "Done."], "stop")
    with fully_planned("content") as general:
        rewritten(data, len(data), on)
    assert "<tool_call>" not in general


def test_the_token_runs_take_the_markup_a_moved_call_takes() -> None:
    # (what they send is the full plan's: test_moved_tokens_an_open_call_takes_leave_nothing_as_...)
    data = stream(MINIMAX, [*_THOUGHT, *MINIMAX_CALL, *_THOUGHT, *MINIMAX_CALL], "stop")
    with general_path_contents() as general:  # (the contents of the events the general path decoded)
        rewritten(data, len(data), True)
    assert general.count("</invoke>") == 0  # (each sends its call in the run: `TokenRuns._called`)
    assert not {"<invoke", '">', "<parameter", "</parameter>", "</minimax:tool_call>"} & set(general)


def test_the_token_runs_take_a_thought_whose_end_its_parser_holds() -> None:
    # (what they send is the full plan's: test_moved_thoughts_come_out_as_the_full_plan_sends_them)
    data = stream(MINIMAX, [*_THOUGHT, *_HELD] * 3, "stop")
    with general_path_contents() as general, fully_planned("reasoning_content") as planned:  # (moved)
        rewritten(data, len(data), True)
    assert not {"et m", "e lo", " mini", ":x", " m"} & set(general)  # (held, released: in the run)
    # (all of it held: its event goes out as the full plan sends it, rewritten in the run, undecoded,
    # `TokenRuns._rewritten`)
    assert "inimax:" not in general
    assert "inimax:" in planned


def reasoned(model: str, field: str, reasoning: list[str], answer: list[str], empty: bool = True) -> bytes:
    """A stream whose provider sends the reasoning in `field` (`empty`: beside an empty content),
    then the answer in `content`, under `model`."""
    def event(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        chunk = {"id": "gen-1", "model": model, "choices": [choice]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    body = [event({"role": "assistant", field: t, **({"content": ""} if empty else {})}) for t in reasoning]
    body += [event({"role": "assistant", "content": t}) for t in answer]
    return b"".join([*body, event({}, "stop"), b"data: [DONE]\n\n"])


REASONED = [
    pytest.param(GLM, "reasoning_content", _THOUGHT * 3, ["Done", "."], True, id="reasoning_content"),
    pytest.param(GLM, "reasoning", _THOUGHT * 3, ["Done", "."], True, id="reasoning"),
    pytest.param(GLM, "reasoning_content", _THOUGHT * 3, ["Done."], False, id="no-content-key"),
    pytest.param(GLM, "reasoning_content", _THOUGHT, ["</think>", "\n\nDone."], True, id="closer-first"),
    pytest.param(GLM, "reasoning_content", [*_THOUGHT, *CALL], ["Done."], True, id="call-in-reasoning"),
    pytest.param(GLM, "reasoning_content", [*_THOUGHT * 2, *CALL, *_THOUGHT * 2], ["</th", "ink>x"], True,
                 id="call-then-closer-cut"),
    pytest.param(GLM, "reasoning", [f"w{i} " for i in range(60)], ["</think>"], True, id="long-run"),
    pytest.param(MINIMAX, "reasoning_content", _THOUGHT * 2, ["x"], True, id="minimax"),
]


@pytest.mark.parametrize("options", [
    pytest.param({}, id="openai"), pytest.param({"to": "anthropic"}, id="anthropic"),
    pytest.param({"stream_arguments": True}, id="streamed"),
])
@pytest.mark.parametrize(("model", "field", "reasoning", "answer", "empty"), REASONED)
def test_a_providers_reasoning_event_skips_the_split_as_the_split_would_leave_it(
    model: str, field: str, reasoning: list[str], answer: list[str], empty: bool, options: dict[str, Any]
) -> None:
    data = reasoned(model, field, reasoning, answer, empty)
    quiet, passes, quiet_stream = ContentThinking.quiet, ContentThinking.passes, StreamRewriter.quiet
    skipped: list[bool] = []  # events the split would have read (busy), skipped
    idle: list[bool] = []  # events of a stream awaiting a closer at the content's start, found quiet

    def counted(self: ContentThinking, choice: dict[str, Any]) -> bool:
        busy = self.tags.busy
        result = quiet(self, choice)
        skipped.append(busy and result)
        return result

    def counted_stream(self: StreamRewriter, chunk: dict[str, Any], noting: bool = True) -> bool:
        idle.append(quiet_stream(self, chunk, noting))
        return idle[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ContentThinking, "quiet", counted)
        patch.setattr(StreamRewriter, "quiet", counted_stream)
        short = {(read, on): rewritten(data, read, on, **options)
                 for read in (len(data), 97) for on in (True, False)}
    assert sum(skipped) + sum(idle) >= len(reasoning) // 2
    if not options:
        assert sum(idle) >= len(reasoning) // 4  # (the general path's idle events, and the runs' templates)
    with pytest.MonkeyPatch.context() as patch:  # the reference: a busy splitter reads every event
        patch.setattr(ContentThinking, "quiet", lambda self, chunk: not self.tags.busy and quiet(self, chunk))
        patch.setattr(ContentThinking, "passes", lambda self, name, text: not self.tags.busy and
                      passes(self, name, text))
        patch.setattr(ChoiceRewriter, "awaits", property(lambda self: False))
        for (read, on), out in short.items():
            assert rewritten(data, read, on, **options) == out, (read, on)


def test_the_token_runs_send_a_providers_reasoning_text_after_a_call_while_the_split_awaits() -> None:
    # (what they send is the full plan's: test_a_providers_reasoning_event_skips_the_split_as_...)
    data = reasoned(GLM, "reasoning_content", [*_THOUGHT, *CALL, "After", " it", *_THOUGHT] * 2, ["Done."])
    general: list[object] = []  # the reasoning texts of the events the general path decoded
    on_event = StreamRewriter._on_event

    def counted(self: StreamRewriter, raw: bytes, value: bytes | None, read: bool = False) -> object:
        if value is not None and value.startswith(b"{"):
            general.append(orjson.loads(value)["choices"][0]["delta"].get("reasoning_content"))
        return on_event(self, raw, value, read)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StreamRewriter, "_on_event", counted)
        rewritten(data, len(data), True)
    assert "After" not in general  # (fed ahead, back as it was: `ChoiceRewriter._fed_text`)


def test_a_thought_whose_end_its_parser_holds_goes_the_short_way() -> None:
    # (what it sends is the full plan's: test_moved_thoughts_come_out_as_the_full_plan_sends_them)
    data = stream(MINIMAX, [*_THOUGHT, *_HELD], "stop")
    with fully_planned("reasoning_content") as general:
        events = [event + b"\n\n" for event in data.split(b"\n\n") if event]
        rewriter = StreamRewriter(RewriteOptions())
        for event in events:  # (one event a read: a live stream)
            rewriter.feed(event)
    assert "et m" not in general and "e lo" not in general  # (held, then released: the short way)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "Let ", "me", "", "<", "x<y", "é m", "\n", "ok" * 9, "\x00", "\x00<"]),
                max_size=80), st.integers(0, 80), st.sampled_from(["", "m", "[]m"]))
def test_moving_texts_are_those_a_search_of_each_finds(texts: list[str], start: int, leads: str) -> None:
    markers, _ = think_mode(GLM, "auto", True)
    assert markers is not None
    think = ContentThinking(markers)
    think.tags.feed("Let ")  # (inside the block the prompt opened: `<` may begin the closer)
    end = start
    while end < len(texts) and texts[end] and not any(lead in texts[end] for lead in "<" + leads):
        end += 1
    assert think.moving(texts, start, leads) == max(0, end - start)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet='a",\\\n é\u2028{}\x85\xc2'), min_size=1, max_size=12))
def test_thought_events_are_each_texts_event_joined(texts: list[str]) -> None:
    parts = (b'data: {"choices":[{"delta":{"reasoning_content":', b'}}]}\n\n')
    assert thought_events(parts, texts) == [b"".join(orjson.dumps(text).join(parts) for text in texts)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "Let ", "me", "", "<", "é m", "\n", "mini", "max:", "tool_call>", "[x",
                                 "am", "\x00", "m\x00", "minimax:tool_call>"]), max_size=80),
       st.integers(0, 80))
def test_moving_texts_with_words_are_those_a_search_of_each_finds(texts: list[str], start: int) -> None:
    markers, _ = think_mode(MINIMAX, "auto", True)
    assert markers is not None
    think = ContentThinking(markers)
    think.tags.feed("Let ")
    leads, words = FORMATS["minimax+special-tokens"].composition()().plain_words  # type: ignore[attr-defined]
    end = start
    while end < len(texts) and texts[end] and not any(lead in texts[end] for lead in "<" + leads):
        if any(word in texts[end] for word in words[0]) or texts[end].endswith(words[1]):
            break
        end += 1
    moving = think.moving(texts, start, leads, words)
    assert moving == max(0, end - start) or (moving < end - start and "m\x00" in texts[start + moving])
