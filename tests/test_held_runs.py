"""The token runs rewrite a look-alike the open call declines while its choice holds text
undecided (`TokenRuns._rewritten`): stripped Kimi's `functions` and `.NAME`, K3's `tools` and
`<|sep|>`, held whole and then decided, without the event's decode. The same bytes and notices
as the general path alone, at every cut of the reads."""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.fuzzing import pieces

KIMI, K3 = "moonshotai/kimi-k2.5", "moonshotai/kimi-k3"
PROSE = ["Let ", "me l", "ook", " at", " the", " tests", ".\n"]
ARGS = ['{"co', 'mman', 'd":"', "ls", " -la", '"', ',"n"', ":1", "}"]


def k3_call(name: str, index: str) -> list[str]:
    """One K3 XTML call of one argument, a special token or a value token an event."""
    return ["<|open|>", "call", " tool", '="', name, '"', " index", '="', index, '"', "<|sep|>", "<|open|>",
            "argument", " key", '="', "cmd", '"', " type", '="', "string", '"', "<|sep|>", "ls", " -la",
            "<|close|>", "argument", "<|sep|>", "<|close|>", "call", "<|sep|>"]


STREAMS = {  # model, texts
    "stripped-kimi": (KIMI, [*PROSE, "functions", ".bash", ":1", *ARGS, "functions", ".read_file", ":2",
                             *ARGS, *PROSE]),
    "stripped-kimi-then-prose": (KIMI, [*PROSE, "functions", ".bash", ":1", *ARGS, "functions", ".bash",
                                        " is", " done", *PROSE, "functions", ".", "py", *PROSE]),
    "stripped-kimi-cut-name": (KIMI, [*PROSE, "functions", ".ba", "sh", ":1", *ARGS, "func", "tions",
                                      ".read", "_file", ":2", *ARGS]),
    "kimi-k3": (K3, [*PROSE, "<|open|>", "tools", "<|sep|>", *k3_call("bash", "1"), *k3_call("read", "2"),
                     "<|close|>", "tools", "<|sep|>", *PROSE, "<|open|>", "tools", " and", *PROSE]),
}


def stream(model: str, texts: list[str]) -> bytes:
    """`texts` in `content` under `model`, one an event, then a finish."""
    def event(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        chunk = {"id": "gen-1", "model": model, "choices": [{"index": 0, "delta": delta,
                                                             "finish_reason": finish_reason}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    body = [event({"role": "assistant", "content": text}) for text in texts]
    head = event({"role": "assistant", "content": ""})
    return b"".join([head, *body, event({}, "stop"), b"data: [DONE]\n\n"])


def rewritten(data: bytes, reads: list[int], on: bool) -> tuple[bytes, list[object]]:
    """The bytes written and the notices, `data` cut into `reads` (`fuzzing.pieces`)."""
    rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on))
    out = [item for piece in pieces(data, reads) for item in rewriter.feed(piece)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if not isinstance(o, bytes)]


@pytest.mark.parametrize("name", list(STREAMS))
def test_held_look_alikes_taken_by_the_runs_come_out_as_the_general_path_makes_them(name: str) -> None:
    data = stream(*STREAMS[name])
    live = list(accumulate(len(event) + 2 for event in data.split(b"\n\n")[:-1]))  # (a read an event)
    assert rewritten(data, [], True) == rewritten(data, [], False) == rewritten(data, live, True)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(STREAMS)), st.lists(st.integers(0, 1 << 16), max_size=8))
def test_random_cuts_of_the_reads_give_the_general_paths_bytes(name: str, reads: list[int]) -> None:
    data = stream(*STREAMS[name])
    assert rewritten(data, reads, True) == rewritten(data, [], False)


def test_a_later_calls_held_header_is_not_decoded_by_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside the first call's run (its template learned), the second call's `functions` and
    `.read_file` are held and decided by the runs: the general path decodes neither."""
    decoded: list[bytes] = []
    decode = StreamRewriter.decode

    def spy(self: StreamRewriter, data: bytes) -> list[object]:
        decoded.append(data)
        return decode(self, data)  # type: ignore[return-value]

    monkeypatch.setattr(StreamRewriter, "decode", spy)
    data = stream(*STREAMS["stripped-kimi"])
    rewritten(data, [], True)
    read = b"".join(decoded)
    assert read.count(b'"functions"') == 1  # (the first, after prose: held from the idle stream)
    assert b'".read_file"' not in read


@pytest.mark.parametrize("on", [True, False])
def test_a_text_fed_ahead_and_held_whole_skips_the_plan(monkeypatch: pytest.MonkeyPatch, on: bool) -> None:
    """`functions`, fed ahead and all of it held undecided after prose or a call, is held whole
    without the plan (`ChoiceState.held_whole`), on either path; `.bash`, which decides it, is planned."""
    planned: list[object] = []
    full = ChoiceRewriter._rewrite

    def spy(self: ChoiceRewriter, choice: dict[str, Any], *args: Any, **kwargs: Any) -> object:
        planned.append(choice["delta"].get("content"))
        return full(self, choice, *args, **kwargs)

    monkeypatch.setattr(ChoiceRewriter, "_rewrite", spy)
    rewritten(stream(*STREAMS["stripped-kimi"]), [], on)
    assert "functions" not in planned
    assert ".read_file" in planned
