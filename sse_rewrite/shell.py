"""The shell around the core: the read/feed/write loop and stderr diagnostics (no click).

rich is imported lazily, on the first diagnostic, to keep start-up fast.
"""

from __future__ import annotations

import os
import sys

from .stream.events import Notice
from .stream.rewrite import Output, Stats, StreamRewriter

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

READ_SIZE = 65536


class Diagnostics:
    """Writes notices and summaries to stderr through rich (colour only on a terminal)."""

    def __init__(self) -> None:
        self._console: Any = None

    def say(self, message: str, style: str = "yellow") -> None:
        """Print one line on stderr."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False, soft_wrap=True)
        self._console.print(message, style=style, markup=False)

    def notice(self, notice: Notice) -> None:
        """Print one notice as `sse-rewrite: CODE: message`."""
        self.say(f"sse-rewrite: {notice.code}: {notice.message}")


def pump(rewriter: StreamRewriter, source: IO[bytes], sink: IO[bytes], diag: Diagnostics,
         capture: IO[bytes] | None = None) -> None:
    """Feed `source` through `rewriter` into `sink`, flushing after every read."""
    read = getattr(source, "read1", source.read)
    while chunk := read(READ_SIZE):
        if capture is not None:
            capture.write(chunk)
            capture.flush()
        _emit(rewriter.feed(chunk), sink, diag)
    _emit(rewriter.flush(), sink, diag)


def _emit(out: list[Output], sink: IO[bytes], diag: Diagnostics) -> None:
    data = b"".join(item for item in out if isinstance(item, bytes))
    for item in out:
        if isinstance(item, Notice):
            diag.notice(item)
    if data:
        sink.write(data)
        sink.flush()


def format_stats(stats: Stats) -> str:
    """A one-line summary for `--stats`."""
    return (
        f"sse-rewrite: format {stats.format or 'none'} ({stats.format_reason}); "
        f"events in {stats.events_in}, out {stats.events_out} "
        f"({stats.passed_through} passed through unchanged); "
        f"tool calls {stats.tool_calls}; notices {stats.notices}"
    )


def quiet_broken_pipe() -> None:
    """After EPIPE on stdout (the reader went away, `| head`): keep the final flush quiet.

    Python docs, "Note on SIGPIPE": point stdout at devnull.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
