"""`ChoiceRewriter.feed_ahead`: a look-alike event whose token an open call declines (a
marker) is fed by the token runs, and the general path decodes only the events that send
something; the output is the general path's, byte for byte."""

from __future__ import annotations

import orjson
import pytest

from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.chunking import chunk_event

CALL = [
    "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "functions.f:0", "<|tool_call_argument_begin|>",
    *'{"path": "a/long/path/to/b.txt"}', "<|tool_call_end|>", "<|tool_call_begin|>", "functions.g:1",
    "<|tool_call_argument_begin|>", *'{"n": 1}', "<|tool_call_end|>", "<|tool_calls_section_end|>",
]


def run(stream: bytes, **switches: bool) -> tuple[bytes, list[str], int]:
    """Output bytes, the tokens the general path decoded, and events in (the first event in a
    read of its own: it tells the format; the rest in one read)."""
    rewriter = StreamRewriter(RewriteOptions(**switches))
    decoded: list[str] = []
    general = rewriter.decode

    def decode(data: bytes) -> list[object]:
        decoded.extend(
            orjson.loads(line[6:])["choices"][0]["delta"].get("content", "")
            for line in data.split(b"\n\n") if line.startswith(b"data: {")
        )
        return general(data)  # type: ignore[return-value]

    rewriter.decode = decode  # type: ignore[method-assign]
    first = stream.index(b"\n\n") + 2
    out = rewriter.feed(stream[:first]) + rewriter.feed(stream[first:]) + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), decoded, rewriter.stats.events_in


@pytest.mark.parametrize("stream_arguments", [False, True])
def test_markers_inside_a_token_run_are_fed_ahead_and_the_output_is_the_general_paths(
    stream_arguments: bool,
) -> None:
    events = [chunk_event({"role": "assistant", "content": token}) for token in CALL]
    stream = b"".join(events) + chunk_event({}, "stop") + b"data: [DONE]\n\n"
    options = {"stream_arguments": stream_arguments}
    fast, decoded, events_in = run(stream, **options)
    general, _, general_in = run(stream, plain_runs=False, token_runs=False, **options)
    assert fast == general and events_in == general_in == len(CALL) + 2
    if not stream_arguments:  # the second call's begin and argument markers at least sent nothing
        assert decoded.count("<|tool_call_begin|>") <= 1
        assert decoded.count("<|tool_call_argument_begin|>") <= 1
    # each sends its call, in the run (`TokenRuns._called`, the general path's chunks); streamed, each
    # call's arguments were all sent: nothing is left
    assert decoded.count("<|tool_call_end|>") == 0
    calls = [c for line in fast.split(b"\n\n") if line.startswith(b"data: {")
             for c in orjson.loads(line[6:])["choices"][0]["delta"].get("tool_calls", [])]
    assert [c["function"]["name"] for c in calls if c["function"].get("name")] == ["f", "g"]
