"""`FrontRewriter` (serve's translated fronts) changes nothing but speed: the runs of text-only chunks
that `TextRuns` takes from the raw bytes come out byte for byte as the general path's events, with
the same notices and counts, however the stream is read."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from sse_rewrite.protocols.text_runs import FrontRewriter
from sse_rewrite.stream.events import Notice, Output
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.chunking import chunk_event

FRONTS = [pytest.param(name, id=name) for name in ("anthropic", "responses", "gemini")]
READS = [
    pytest.param(16384, id="16KiB-reads"),
    pytest.param(300, id="300-byte-reads"),
    pytest.param(7, id="7-byte-reads"),
    pytest.param(None, id="a-read-an-event"),
]
CALL = ["<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.bash:0",
        "<|tool_call_argument_begin|>", '{"cmd": ', '"ls"}', "<|tool_call_end|>",
        "<|tool_calls_section_end|>"]
WORDS = [f" word{i}" for i in range(40)]


def text(token: str, field: str = "content", **kw: object) -> bytes:
    """A token event as OpenRouter sends it: role on every delta; reasoning mirrored in its details."""
    delta: dict[str, object] = {"role": "assistant", "content": ""}
    delta[field] = token
    if field == "reasoning":
        detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
        delta["reasoning_details"] = [detail]
    return chunk_event(delta, **kw)  # type: ignore[arg-type]


def raw_token(token: bytes) -> bytes:
    """A content event whose literal's bytes, between its quotes, are `token` (valid JSON or not)."""
    before, after = text("a").split(b'"a"')
    return before + b'"' + token + b'"' + after


END = [chunk_event({}, "stop"), b'data: {"id":"gen-1","choices":[],"usage":{"prompt_tokens":3,'
       b'"completion_tokens":9,"total_tokens":12}}\n\n', b"data: [DONE]\n\n"]
STREAMS = [
    pytest.param([text(w) for w in WORDS], id="prose"),
    pytest.param([text(w, "reasoning") for w in WORDS] + [text(w) for w in WORDS],
                 id="mirrored-reasoning-then-text"),
    pytest.param([text(w, "reasoning_content") for w in WORDS[:9]] + [text(w) for w in WORDS[:9]],
                 id="reasoning-content"),
    pytest.param([text(w) for w in [*WORDS[:9], *CALL, *WORDS[9:20]]], id="a-leaked-call-between-runs"),
    pytest.param([text(w) for w in ["Say", ' "hi"', "\\n", "é日🙂", "\u2028", "\x01", " ", "\n\n", "x"] * 3],
                 id="escapes-and-whitespace"),
    pytest.param([text(w) for w in ["a", "b", "", "c", "assistant", "assistant", "Chutes", "d", "e"]],
                 id="empty-and-envelope-words"),
    pytest.param([*[text(w) for w in WORDS[:5]], raw_token(b"\xff\xfe"), raw_token(b"\\u00e9"),
                  raw_token(b"\\ud800"), raw_token(b"\\q"), *[text(w) for w in WORDS[5:12]]],
                 id="bad-utf8-and-escapes-as-sent"),
    pytest.param([*[text(w) for w in WORDS[:6]], text("x", choice=1), *[text(w) for w in WORDS[6:12]]],
                 id="a-second-choice"),
    pytest.param([*[text(w) for w in WORDS[:6]], text("x", model="other/model"),
                  *[text(w) for w in WORDS[6:12]]],
                 id="an-envelope-change"),
    pytest.param([*[text(w) for w in WORDS[:6]], b": keep-alive\n\n", b"data: {oops}\n\n", b"\r\n",
                  *[text(w) for w in WORDS[6:12]]], id="comments-and-bad-events"),
    pytest.param([*[text(w) for w in WORDS[:6]], text("<"), text("think"), *[text(w) for w in WORDS[6:12]]],
                 id="a-needle-alone"),
    pytest.param([*[text(w) for w in WORDS[:6]], b'data: {"error":{"message":"boom","code":502}}\n\n',
                  *[text(w) for w in WORDS[6:12]]], id="an-error-mid-stream"),
    pytest.param([text(w) for w in [*WORDS[:6], " Now.fu", "nctions.read:0{}", " a f", "or", *WORDS[6:9],
                                    " a fun", "ctions.read:1{}", *WORDS[9:12]]],
                 id="stripped-kimi-cut-mid-word"),
]  # fmt: skip


class Counting(FrontRewriter):
    """A `FrontRewriter` that counts the events its general path decodes."""

    decoded = 0

    def decode(self, data: bytes) -> list[Output]:
        self.decoded += data.count(b"\n\n")
        return super().decode(data)


def run(rewriter: StreamRewriter, reads: list[bytes]) -> tuple[bytes, list[Notice], object, int]:
    out = [item for read in reads for item in rewriter.feed(read)] + rewriter.flush()
    body = b"".join(item for item in out if isinstance(item, bytes))
    return body, [item for item in out if isinstance(item, Notice)], rewriter.stats, rewriter.unread.events


def cut(events: list[bytes], size: int | None) -> list[bytes]:
    data = b"".join(events)
    return events if size is None else [data[i : i + size] for i in range(0, len(data), size)]


@pytest.mark.parametrize("size", READS)
@pytest.mark.parametrize("events", STREAMS)
@pytest.mark.parametrize("front", FRONTS)
def test_the_runs_taken_are_the_general_paths_events(front: str, events: list[bytes],
                                                     size: int | None) -> None:  # fmt: skip
    reads = cut([*events, *END], size)
    general = run(StreamRewriter(RewriteOptions(to=front)), reads)
    assert run(FrontRewriter(RewriteOptions(to=front)), reads) == general


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize("size", [pytest.param(16384, id="16KiB-reads"), pytest.param(4096, id="4KiB-reads"),
                                  pytest.param(None, id="a-read-an-event")])
@pytest.mark.parametrize("front", FRONTS)
def test_the_serve_bench_stream_takes_its_prose_in_runs(front: str, size: int | None, field: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    from leaky_upstream import MODEL, answer, stream_events

    events = stream_events("gen-1", MODEL, answer({"model": MODEL, "messages": []}, 300), field)
    reads = cut(events, size)
    general = run(StreamRewriter(RewriteOptions(to=front)), reads)
    fast = Counting(RewriteOptions(to=front))
    assert run(fast, reads) == general
    assert fast.decoded < len(events) // 5  # most went by in runs
    calls = [orjson.loads(line[line.index(b"{"):]) for line in general[0].split(b"\n") if b"bash" in line]
    assert calls  # (the leaked call was repaired on either path)


@pytest.mark.parametrize("front", FRONTS)
def test_without_plain_runs_every_event_takes_the_general_path(front: str) -> None:
    events = [*[text(w) for w in WORDS], *END]
    fast = Counting(RewriteOptions(to=front, plain_runs=False))
    general = StreamRewriter(RewriteOptions(to=front, plain_runs=False))
    assert run(fast, [b"".join(events)]) == run(general, [b"".join(events)])
    assert fast.decoded == len(events)


@pytest.mark.parametrize("size", READS)
def test_the_openai_output_is_left_to_the_rewriter(size: int | None) -> None:
    reads = cut([*[text(w) for w in WORDS], *END], size)
    assert run(FrontRewriter(RewriteOptions()), reads) == run(StreamRewriter(RewriteOptions()), reads)


@pytest.mark.parametrize("front", FRONTS)
def test_a_live_stream_no_run_can_take_is_asked_ever_less_often(front: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Read an event at a time, a stream whose chunks each hold two texts (no run of one text takes
    them) stops being asked at every event: asks that take nothing back off as within a read
    (1, 1, 2, 4... events between them), across reads too. The output is the general path's."""
    from sse_rewrite.protocols import text_runs

    asks = 0
    take = text_runs.TextRuns.take

    def counted(self: text_runs.TextRuns, data: bytes, pos: int, stop: int) -> tuple[bytes, int] | None:
        nonlocal asks
        asks += 1
        return take(self, data, pos, stop)

    monkeypatch.setattr(text_runs.TextRuns, "take", counted)
    both = [chunk_event({"role": "assistant", "content": w, "reasoning": w}) for w in WORDS * 4]
    reads = [*both, *END]
    general = run(StreamRewriter(RewriteOptions(to=front)), reads)
    assert run(FrontRewriter(RewriteOptions(to=front)), reads) == general
    assert asks <= len(reads) // 5
