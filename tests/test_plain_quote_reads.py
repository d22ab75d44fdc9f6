"""Plain runs read the quote state from a look-alike's token (`PlainRuns._quotes_read`): a
token with a backtick, tilde, bar or line end and no other needle no longer ends the run. The
output, the counts and what the quote state decides later (a marker quoted or not) against
the general path's."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from sse_rewrite.stream.fast.plain_runs import PlainRuns
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.rewrite_runs import ONE_CALL, general_path_contents

PROSE = ["Some ", "words", " here", ".", "\n", "More", " text", " |", " a", " |", "\n"] * 4


def stream(tokens: list[str]) -> bytes:
    """A Kimi stream in the OpenRouter envelope, a content token an event."""
    def event(delta: dict[str, Any], finish: str | None = None) -> bytes:
        chunk = {"id": "gen-1", "model": "moonshotai/kimi-k2.5", "provider": "P",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    body = [event({"role": "assistant", "content": token}) for token in tokens]
    return b"".join([*body, event({}, "stop"), b"data: [DONE]\n\n"])


def rewritten(data: bytes, on: bool) -> tuple[bytes, list[object], str, int]:
    """Bytes, notices, the stats and the unread count, accelerators `on` or off."""
    rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on))
    out = [*rewriter.feed(data), *rewriter.flush()]
    notices = [item for item in out if not isinstance(item, bytes)]
    sent = b"".join(item for item in out if isinstance(item, bytes))
    return sent, notices, repr(rewriter.stats), rewriter.unread.events


@pytest.mark.parametrize("tokens", [
    pytest.param([*PROSE, *ONE_CALL, *PROSE], id="call-outside-quotes"),
    pytest.param([*PROSE, "```", "\n", *PROSE, *ONE_CALL, "\n", "```", *PROSE], id="call-in-a-fence"),
    pytest.param([*PROSE, "`", *ONE_CALL, "`", *PROSE], id="call-in-a-span"),
    pytest.param([*PROSE, "~~~", "\n", "x", "\n", "~~~", "\n", *ONE_CALL], id="call-after-a-tilde-fence"),
    pytest.param([*PROSE[:5], "| ", *ONE_CALL, " |", "\n", *PROSE], id="call-in-a-table-row"),
    pytest.param([*PROSE, "\n", "\n", "```", "\n", "| a", "\n", "~", "x", "\n", *ONE_CALL, *PROSE],
                 id="line-starts-read-in-the-run"),
])
def test_quote_reads_in_plain_runs_are_the_general_paths(tokens: list[str]) -> None:
    data = stream(tokens)
    read: list[bool] = []
    quotes_read = PlainRuns._quotes_read

    def counted(self: PlainRuns, *args: Any) -> bool:
        read.append(quotes_read(self, *args))
        return read[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PlainRuns, "_quotes_read", counted)
        fast = rewritten(data, True)
    assert any(read)
    assert fast == rewritten(data, False)


def test_a_line_start_is_read_in_the_run() -> None:
    data = stream(PROSE * 8)
    with general_path_contents() as general:  # (the contents of the events the general path decoded)
        rewritten(data, True)
    assert general.count("More") <= 1 and general.count("Some ") <= 1  # (after each line end: exposed)
