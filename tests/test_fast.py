"""The accelerators (`sse_rewrite/stream/fast/`) change nothing but speed: switched off one at a time
through `RewriteOptions`, every output byte, notice and count stays the same."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite import goldens
from sse_rewrite.formats import FORMAT_CHOICES, FORMATS, ToolSyntax, select_format
from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.fast import Reader, plain_runs
from sse_rewrite.stream.fast.needles import NeedleIndex
from sse_rewrite.stream.fast.plain_template import PlainTemplate
from sse_rewrite.stream.rewrite import RewriteOptions, Stats, StreamRewriter
from sse_rewrite.stream.sse import EVENT_END
from tests.chunking import chunk_event

PIECES = [
    "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.bash:1", "functions", ".x:2",
    "<|tool_call_argument_begin|>", '{"a":', ' "x<|tool_call_end|>"', "}", "<|tool_call_end|>",
    "<|tool_calls_section_end|>", " ", "\n", "text", '"', "\\", "<", "é", "<tool_call>", "</tool_call>",
    '{"name": "f", "arguments": {}}', "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "f<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>", "TOOL: x\n", "ARGUMENTS: {}\n", "<function=f>", "<parameter=a>", "1",
    "</parameter>", "</function>", "", "<think>", "</think>",
]
SWITCHES = [
    pytest.param({}, id="all-on"),
    pytest.param({"plain_runs": False}, id="plain-runs-off"),
    pytest.param({"token_runs": False}, id="token-runs-off"),
    pytest.param({"plain_runs": False, "token_runs": False}, id="all-off"),
]


def event(field: str, token: str, spaced: bool) -> bytes:
    """A token event in `field` as providers send it: mirrors for reasoning, JSON spaced or not."""
    delta: dict[str, object] = {"role": "assistant", "content": ""}
    delta[field] = token
    if field != "content":
        detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
        delta["reasoning_details"] = [detail]
    if not spaced:
        return chunk_event(delta)
    chunk = {"id": "gen-1", "object": "chat.completion.chunk", "model": "moonshotai/kimi-k2.5",
             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def look_alike_with_raw_token(token: bytes) -> bytes:
    """A content event whose token's bytes (between its quotes) are `token`, valid JSON or not."""
    before, after = chunk_event({"role": "assistant", "content": "a"}).split(b'"a"')
    return before + b'"' + token + b'"' + after


def rewrite(parts: list[bytes], format_name: str, **switches: Any) -> tuple[bytes, list[Notice], Stats]:
    rewriter = StreamRewriter(RewriteOptions(format=format_name, max_section_bytes=200, **switches))
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    body = b"".join(item for item in out if isinstance(item, bytes))
    return body, [item for item in out if isinstance(item, Notice)], rewriter.stats


def cut(stream: bytes, reads: list[int]) -> list[bytes]:
    ends = list(itertools.accumulate(reads))
    return [stream[start:end] for start, end in zip([0, *ends], [*ends, len(stream)], strict=True)]


@settings(max_examples=60, deadline=None)
@given(
    tokens=st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=40),
    fields=st.lists(st.sampled_from(["content", "reasoning", "reasoning_content"]), min_size=1, max_size=3),
    spaced=st.booleans(),
    format_name=st.sampled_from(FORMAT_CHOICES),
    reads=st.lists(st.integers(1, 300), max_size=10) | st.none(),  # None: a read per event
    finish=st.sampled_from([None, "stop", "length"]),
    extra=st.sampled_from([
        b"", b"\n", b": keep-alive\n\n", b"\r\n", b"data: [DONE]\n\n", b"data: {}\n\n", b"data: {oops\n\n",
        b"data: {oops}\n\n", b"data: 42\n\n", chunk_event({"role": "assistant", "content": ""}),
        chunk_event({"role": "assistant", "content": "x"}, "stop"),
    ]) | st.binary(max_size=8).map(look_alike_with_raw_token),
    window=st.sampled_from([1, 7, 64, 8192]),
    options=st.sampled_from([{}, {"stream_arguments": True}, {"think": "on"}, {"think": "off"}]),
)
@pytest.mark.parametrize("switches", SWITCHES)
def test_each_accelerator_off_changes_no_byte_no_notice_and_no_count(
    switches: dict[str, bool], tokens: list[str], fields: list[str], spaced: bool, format_name: str,
    reads: list[int] | None, finish: str | None, extra: bytes, window: int, options: dict[str, Any],
) -> None:
    events = [event(fields[i % len(fields)], token, spaced) for i, token in enumerate(tokens)]
    events.insert(len(events) // 2, extra)
    events += [chunk_event({}, finish), b"data: [DONE]\n\n"]
    parts = events if reads is None else cut(b"".join(events), reads)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plain_runs, "_FIRST_WINDOW", window)  # small ones: runs across windows
        accelerated = rewrite(parts, format_name, **options)
    assert rewrite(parts, format_name, **switches, **options) == accelerated


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_plain_runs_stop_at_every_needle_the_format_and_the_choices_name(format_name: str) -> None:
    stream = chunk_event({"content": "x"}, model="acme/model")
    rewriter = StreamRewriter(RewriteOptions(format=format_name))
    rewriter.feed(stream)
    needles = set(rewriter.needles)
    assert set(FORMATS[format_name].sniff) <= needles  # the format's own bytes
    assert {b'"tool_calls"', b'"function_call"'} <= needles  # what choice.py acts on
    assert select_format("acme/model", "none")[0] is None


def test_the_tool_syntax_interface_exists_at_run_time() -> None:
    assert all(hasattr(parser, name) for parser in FORMATS.values() for name in dir(ToolSyntax)
               if not name.startswith("_"))


@given(
    data=st.binary(max_size=300)
    | st.lists(st.sampled_from([b"<", b"ab", b"\n", b"[DONE]", b"x"])).map(b"".join),
    steps=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 80)), max_size=12),
)
def test_the_needle_index_answers_as_a_fresh_search_would(data: bytes, steps: list[tuple[int, int]]) -> None:
    needles = (b"<", b"[DONE]", b"\n\n\n", b"ab")
    index = NeedleIndex(data, needles)
    pos = 0
    for forward, width in steps:
        pos = min(len(data), pos + forward)
        end = min(len(data), pos + width)
        found = [at for needle in needles if (at := data.find(needle, pos, end)) != -1]
        assert index.first(pos, end) == min(found, default=end)


def test_a_call_in_mirrored_reasoning_comes_out_once_with_or_without_token_runs() -> None:
    call = ["<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.f:0",
            "<|tool_call_argument_begin|>", *'{"path": "a/long/path/to/read.txt"}', "<|tool_call_end|>"]
    stream = b"".join(event("reasoning", token, False) for token in call) + b"data: [DONE]\n\n"
    fast = StreamRewriter()
    body = b"".join(o for o in fast.feed(stream) + fast.flush() if isinstance(o, bytes))
    assert fast.stats.events_in == len(call) + 1
    assert rewrite([stream], "auto", token_runs=False)[0] == body
    decoded = [orjson.loads(line[6:]) for line in body.split(b"\n\n") if line.startswith(b"data: {")]
    [tool_call] = [c for d in decoded for c in d["choices"][0]["delta"].get("tool_calls", [])]
    assert tool_call["function"]["arguments"] == '{"path": "a/long/path/to/read.txt"}'


class _Asked:
    """An accelerator that takes nothing and records where it was asked."""

    def __init__(self) -> None:
        self.at: list[int] = []

    def take(self, data: bytes, pos: int, stop: int) -> None:
        self.at.append(pos)


@pytest.mark.parametrize("head", [b"", b": OPENROUTER PROCESSING\n\n", b"data: {oops\n\n"])
def test_the_accelerators_are_asked_in_the_first_read_once_a_chunk_told_the_format(head: bytes) -> None:
    first = chunk_event({"role": "assistant", "content": "a"})
    stream = head + first + b"".join(chunk_event({"content": token}) for token in ["b", "c", "d"])
    asked = _Asked()
    rewriter = StreamRewriter(RewriteOptions(plain_runs=False, token_runs=False))
    out = Reader(rewriter, [asked]).feed(stream)
    # not before the first chunk (nothing is known then), and well before the read's end
    assert asked.at and len(head) + len(first) <= asked.at[0] < len(stream) - len(first)
    assert out == StreamRewriter(RewriteOptions(plain_runs=False, token_runs=False)).feed(stream)


KIMI_NEEDLES = (b"<", b"\\u003", b']"', b"[T", b'["', b"functions", b'"f"', b'function"', b'"tool_calls"')
HARMONY_NEEDLES = (b"<", b"\\u003", b'"content":"a"', b'"stop"')


@pytest.mark.parametrize(("needles", "field", "tokens"), [
    pytest.param(KIMI_NEEDLES, "content", ["Let ", "me ", "f", "look"], id="needle-is-the-literal"),
    pytest.param(KIMI_NEEDLES, "content", ["Let ", "me ", "list[", "x"], id="needle-takes-closing-quote"),
    pytest.param(KIMI_NEEDLES, "content", ["Let ", "me ", "a<b", "x"], id="a-needle-inside"),
    pytest.param(KIMI_NEEDLES, "content", ["Let ", 'say "hi"', "\\", "function", "x]"], id="escapes"),
    pytest.param(KIMI_NEEDLES, "content", ["Let ", "me ", "ff", "x"], id="no-needle"),
    pytest.param(KIMI_NEEDLES, "reasoning", ["Let ", "me ", "f", "x"], id="mirrored-slots"),
    pytest.param(KIMI_NEEDLES, "reasoning", ["Let ", "me ", "x[", "x"], id="mirrored-slots-closing-quote"),
    pytest.param(HARMONY_NEEDLES, "content", ["Let ", "me ", "a", "x"], id="a-needle-takes-the-key-before"),
    pytest.param(HARMONY_NEEDLES, "content", ["Let ", "me ", "stop", "x"], id="a-needle-takes-both-quotes"),
    pytest.param(HARMONY_NEEDLES, "reasoning", ["Let ", "me ", "a", "x"], id="key-before-in-mirrored-slots"),
])  # fmt: skip
def test_a_plain_template_finds_a_needle_where_a_search_of_the_events_does(
    needles: tuple[bytes, ...], field: str, tokens: list[str]
) -> None:
    events = [event(field, token, spaced) for spaced in (False, True) for token in tokens]
    for spaced in (0, len(tokens)):  # each envelope, from its first two events
        lines = [line[:-2] for line in events[spaced : spaced + len(tokens)]]
        template = PlainTemplate.learn(lines[0], lines[1], needles)
        assert template is not None
        data = b"".join(events[spaced : spaced + len(tokens)])
        literals, whole = template.template.literals(data, 0, len(data))
        assert whole and len(literals) == len(tokens)
        holding = [i for i, line in enumerate(lines) if any(needle in line[6:] for needle in needles)]
        assert template.clear(literals) == min(holding, default=len(tokens))
        assert template.span(literals) == len(data)


def test_a_learned_plain_template_is_kept_for_its_parts_and_needles_alone() -> None:
    lines = [event("content", token, False)[:-2] for token in ("Let ", "me ", "a")]
    kimi = PlainTemplate.learn(lines[0], lines[1], KIMI_NEEDLES)
    assert kimi is not None and PlainTemplate.learn(lines[1], lines[2], KIMI_NEEDLES) is kimi
    harmony = PlainTemplate.learn(lines[0], lines[1], HARMONY_NEEDLES)
    assert harmony is not None and harmony is not kimi
    data = b"".join(line + EVENT_END for line in lines)
    literals, _ = kimi.template.literals(data, 0, len(data))
    # `"content":"a"` is a needle of the harmony set alone
    assert (kimi.clear(literals), harmony.clear(literals)) == (3, 2)


@pytest.mark.parametrize(("a", "b"), [
    pytest.param(chunk_event({"content": "a"}), chunk_event({"content": "a"}), id="alike-no-slot"),
    pytest.param(chunk_event({"content": "a"}), chunk_event({"content": "b"}, "stop"), id="differ-twice"),
    pytest.param(chunk_event({"content": "a"}, model="x<y"), chunk_event({"content": "b"}, model="x<y"),
                 id="a-needle-around-the-slot"),
    pytest.param(b": keep-alive\n\n", chunk_event({"content": "b"}), id="a-comment"),
    pytest.param(chunk_event({"content": "a"}).replace(b"data: ", b"data:"), chunk_event({"content": "b"}),
                 id="no-space"),
])  # fmt: skip
def test_no_plain_template_where_the_bytes_around_the_slot_are_not_known_clear(a: bytes, b: bytes) -> None:
    assert PlainTemplate.learn(a[:-2], b[:-2], KIMI_NEEDLES) is None


def test_plain_runs_read_look_alikes_by_their_literals_and_still_stop_at_each_needle() -> None:
    tokens = ["Let ", "me ", "look ", *["at it "] * 40, "f", "then ", *["more "] * 40, "list[", *["end "] * 3]
    stream = b"".join(event("content", token, False) for token in tokens) + b"data: [DONE]\n\n"
    with pytest.MonkeyPatch.context() as patch:
        learned: list[PlainTemplate | None] = []
        decoded: list[bytes] = []
        learn, decode = PlainTemplate.learn, StreamRewriter.decode
        patch.setattr(PlainTemplate, "learn", lambda *args: learned.append(learn(*args)) or learned[-1])
        patch.setattr(StreamRewriter, "decode", lambda self, data: decoded.append(data) or decode(self, data))
        accelerated = rewrite([stream], "auto")
    assert learned and learned[0] is not None  # the look-alikes were read by their literals
    assert rewrite([stream], "auto", plain_runs=False) == accelerated
    # decoded: the first event (the format), the one holding a needle, those after `list[` while its
    # `[` is held, [DONE]; of 90 events (a lone `f` is a held start, `held_starts.py`, and the next
    # look-alike cannot go on with it: it passes in the run)
    assert [b"".join(decoded).count(token) for token in (b'"f"', b'"list["', b"[DONE]")] == [0, 1, 1]
    assert b"".join(decoded).count(EVENT_END) <= 8


SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"
LIVE_CAPTURES = [c for c in goldens.find_captures([SSE_LOGS]) if c.suffix == ".sse"]


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("capture", LIVE_CAPTURES, ids=lambda capture: capture.stem)
def test_a_capture_one_event_a_read_is_the_same_with_token_runs_off(capture: Path, streamed: bool) -> None:
    """A live stream's reads (one event each) meet `TokenRuns.take_one`: it changes nothing."""
    options = dataclasses.replace(goldens.load_options(capture), stream_arguments=streamed)
    events = re.split(rb"(?<=\n\n)|(?<=\r\n\r\n)", capture.read_bytes())

    def run(**switch: bool) -> tuple[bytes, list[Notice], Stats]:
        rewriter = StreamRewriter(dataclasses.replace(options, **switch))
        out = [item for event in events for item in rewriter.feed(event)] + rewriter.flush()
        body = b"".join(item for item in out if isinstance(item, bytes))
        return body, [item for item in out if isinstance(item, Notice)], rewriter.stats

    assert run(token_runs=False) == run()


def _content_stream(texts: list[str], encode: Callable[[Any], bytes] = orjson.dumps) -> bytes:
    """gpt-oss leaked one text an event: `texts` as its content, then `[DONE]`."""
    chunks = [{"id": "gen-1", "object": "chat.completion.chunk", "model": "openai/gpt-oss-120b",
               "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
              for text in texts]  # fmt: skip
    return b"".join(b"data: " + encode(chunk) + b"\n\n" for chunk in chunks) + b"data: [DONE]\n\n"


def _harmony_stream(words: list[str], encode: Callable[[Any], bytes] = orjson.dumps) -> bytes:
    """gpt-oss harmony leaked one text an event: `words` as its analysis, then a final answer."""
    texts = ["<|channel|>", "analysis", "<|message|>", *words, "<|end|>", "<|start|>", "assistant",
             "<|channel|>", "final", "<|message|>", "Done.", "<|return|>"]  # fmt: skip
    return _content_stream(texts, encode)


def _runs_and_calls(
    monkeypatch: pytest.MonkeyPatch, owner: type, name: str, data: bytes
) -> tuple[bytes, int]:
    """`data` rewritten with the token runs, asserted the same without them, and how often
    `owner.name` was called while the runs were on."""
    calls, method = 0, getattr(owner, name)

    def counted(self: Any, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        return method(self, *args)

    monkeypatch.setattr(owner, name, counted)
    outputs = []
    for token_runs in (False, True):
        calls = 0
        rewriter = StreamRewriter(RewriteOptions(token_runs=token_runs))
        outputs.append(b"".join(rewriter.feed(data) + rewriter.flush()))
    assert outputs[0] == outputs[1]
    return outputs[1], calls


def test_harmony_analysis_tokens_move_to_reasoning_in_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of gpt-oss analysis tokens goes to the reasoning field as one run (`moved_on`), the
    stream's reasoning markers read beside it (every `auto` stream reads them), not a token at a time;
    the bytes are the general path's."""
    from sse_rewrite.stream.choices import StreamChoices

    words = [f"w{n} " for n in range(60)]
    output, asked = _runs_and_calls(monkeypatch, StreamChoices, "moved", _harmony_stream(words))
    assert b'"reasoning":"w59 "' in output or b'"reasoning_content":"w59 "' in output
    assert asked <= len(words) // 4


@pytest.mark.parametrize("spaced", [False, True])
def test_harmony_analysis_moved_on_is_written_by_bytes(monkeypatch: pytest.MonkeyPatch, spaced: bool) -> None:
    """The analysis tokens `moved_on` takes go out as the byte template of the first one's moved event
    makes them (`thought_parts`), not one chunk encoded each: the bytes are the general path's, for
    texts with quotes, backslashes, line breaks and characters outside ASCII, in compact or spaced JSON."""
    from sse_rewrite.protocols.openai.output import OpenAIOutput

    words = [f"w{n}{tail} " for n in range(40) for tail in ("", '"', "\\", "é", "\n")]
    data = _harmony_stream(words, (lambda chunk: json.dumps(chunk).encode()) if spaced else orjson.dumps)
    output, encoded = _runs_and_calls(monkeypatch, OpenAIOutput, "chunk", data)
    assert b'"w39\\u00e9 "' in output or "w39é ".encode() in output
    assert encoded <= len(words) // 8


def test_stripped_harmony_analysis_tokens_move_on_unfed(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpt-oss's stripped analysis (`analysis` glued to the reasoning, its markers word-led): a token in
    which no marker can start, nor end begun, moves on to the reasoning field without its reader being
    fed it (`absorb_plain`, one search); one ending in a marker's start is fed; the bytes are the general
    path's."""
    from sse_rewrite.formats.catalogue.harmony_stripped import StrippedAnalysisParser

    words = ["analysis", "User", " asks", *(f" w{n}" if n % 20 else " idea" for n in range(80)), ".",
             "assistantfinal", "Done."]  # fmt: skip
    output, fed = _runs_and_calls(monkeypatch, StrippedAnalysisParser, "feed", _content_stream(words))
    assert b'"reasoning":" w79"' in output or b'"reasoning_content":" w79"' in output
    assert fed <= len(words) // 4


STRIPPED_HARMONY_TURN = [
    "analysis", "Let ", "me l", "ook ", "at t", "he r", "epos", "itor", "y la", "yout", ".", "assistant",
    "commentary", " to", "=functions", ".bash", " json", '{"co', "mman", 'd":"',
    *(f" x{n}" for n in range(30)), '"}', "assistant", "commentary", " to", "=functions", ".read_file",
    " json", '{"pa', 'th":', '"a"', "}",
]  # fmt: skip


def test_stripped_harmony_call_bodies_are_absorbed_not_fed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stripped harmony's call after analysis tokens moved on (`moved_on`): the opener's first word, fed,
    ends the moved run, and the call's body is absorbed (`take_run`), not fed a token at a time inside
    the moved run: the runs feed its reader no more than the general path does, and the bytes are its."""
    from sse_rewrite.formats.catalogue.harmony_stripped import StrippedAnalysisParser

    data, method = _content_stream(STRIPPED_HARMONY_TURN * 4), StrippedAnalysisParser.feed
    fed, outputs = [0, 0], []

    def counted(self: StrippedAnalysisParser, text: str) -> Any:
        fed[len(outputs)] += 1
        return method(self, text)

    monkeypatch.setattr(StrippedAnalysisParser, "feed", counted)
    for on in (False, True):
        rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on))
        outputs.append(b"".join(rewriter.feed(data) + rewriter.flush()))
    assert outputs[0] == outputs[1]
    assert outputs[1].count(b'"tool_calls"') == 8
    assert fed[1] <= fed[0]


def test_stripped_harmony_call_header_words_a_held_start_goes_on_with_are_absorbed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Stripped harmony's call header after `assistant` (a start of its opener, held): its words that leave
    the held text only a start (`commentary`, ` to`, `=functions`) are absorbed in the runs
    (`whole_answer._absorb_held`), not fed to the reader; the word that completes the opener is fed, and
    the bytes are the general path's."""
    from sse_rewrite.formats.catalogue.harmony_stripped import StrippedAnalysisParser

    data, method, fed = _content_stream(STRIPPED_HARMONY_TURN * 4), StrippedAnalysisParser.feed, []

    def counted(self: StrippedAnalysisParser, text: str) -> Any:
        fed.append(text)
        return method(self, text)

    monkeypatch.setattr(StrippedAnalysisParser, "feed", counted)
    outputs = []
    for on in (False, True):
        fed.clear()
        rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on))
        outputs.append(b"".join(rewriter.feed(data) + rewriter.flush()))
    assert outputs[0] == outputs[1]
    assert outputs[1].count(b'"tool_calls"') == 8
    assert {"commentary", " to", "=functions"}.isdisjoint(fed) and ".bash" in fed


def test_stripped_harmony_analysis_ending_in_a_marker_start_stays_in_the_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A stripped analysis token ending in a start of a marker (`y la`: `assistant…`) sends the text before
    it, and the next (`yout`) sends it with the start (`ayout`), in the runs (`moved_on`, `reasoning_text`),
    neither through the general path; the bytes are its."""
    data, read, on_event = _content_stream(STRIPPED_HARMONY_TURN * 4), [], StreamRewriter._on_event

    def counted(self: StreamRewriter, raw: bytes, value: bytes | None, *args: Any) -> Any:
        chunk = orjson.loads(value) if value and value[:1] == b"{" else {"choices": [{"delta": {}}]}
        read.append(chunk["choices"][0]["delta"].get("content"))
        return on_event(self, raw, value, *args)

    outputs = []
    for on in (False, True):
        if on:  # (the events the general path reads with the runs on)
            monkeypatch.setattr(StreamRewriter, "_on_event", counted)
        rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on))
        outputs.append(b"".join(rewriter.feed(data) + rewriter.flush()))
    assert outputs[0] == outputs[1]
    assert b'"reasoning_content":"y l"' in outputs[1] and b'"reasoning_content":"ayout"' in outputs[1]
    assert "y la" not in read and "yout" not in read


K3_TURN = [
    "Let me look.", "<|open|>", "tools", "<|sep|>", "<|open|>", "call", " tool", '="', "bash", '"', "<|sep|>",
    "<|open|>", "argument", " key", '="', "command", '"', " type", '="', "string", '"', "<|sep|>", "ls",
    " -la", "<|close|>", "argument", "<|sep|>", "<|close|>", "call", "<|sep|>", "<|close|>", "tools",
    "<|sep|>",
]  # fmt: skip
STRIPPED_KIMI_TURN = [
    "Let me look.", "functions", ".bash", ":", "1", '{"co', "mmand", '": "ls"}', "functions", ".read",
    "_file", ":2", '{"path": "a"}', "Done.",
]  # fmt: skip


@pytest.mark.parametrize(("model", "turn"), [
    pytest.param("moonshotai/kimi-k3", K3_TURN, id="kimi-k3"),
    pytest.param("moonshotai/kimi-k2", STRIPPED_KIMI_TURN, id="stripped-kimi"),
    pytest.param("openai/gpt-oss-120b", STRIPPED_HARMONY_TURN, id="stripped-harmony"),
])  # fmt: skip
@pytest.mark.parametrize("switches", SWITCHES[1:])
def test_k3_and_stripped_kimi_turns_in_runs_are_the_general_paths(
    model: str, turn: list[str], switches: dict[str, bool]
) -> None:
    """Turns whose markers' parts the open call absorbs (K3's cut tags, stripped Kimi's header): the same
    bytes, notices and counts with each accelerator off, the turn repeated so that runs read look-alikes."""
    delta = [{"role": "assistant", "content": text} for text in turn * 4]
    chunks = [{"id": "gen-1", "object": "chat.completion.chunk", "model": model,
               "choices": [{"index": 0, "delta": one, "finish_reason": None}]} for one in delta]  # fmt: skip
    data = b"".join(b"data: " + orjson.dumps(chunk) + b"\n\n" for chunk in chunks) + b"data: [DONE]\n\n"
    runs = [StreamRewriter(RewriteOptions(**options)) for options in ({}, switches)]
    outputs = [b"".join(item for item in r.feed(data) + r.flush() if isinstance(item, bytes)) for r in runs]
    assert outputs[0] == outputs[1]
    assert runs[0].stats == runs[1].stats
    assert outputs[0].count(b'"tool_calls"') >= 4


@given(st.binary(max_size=12), st.binary(max_size=6), st.binary(max_size=6), st.integers(-1, 20))
def test_common_prefix_guess_is_only_a_hint(shared: bytes, a: bytes, b: bytes, guess: int) -> None:
    """`_common_prefix` tries a guess first (the last learned pair's): right or wrong, the same answer."""
    from sse_rewrite.stream.fast.plain_template import _common_prefix

    x, y = shared + a, shared + b
    expected = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
    assert _common_prefix(x, y, guess) == _common_prefix(x, y) == expected
