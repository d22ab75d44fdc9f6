"""What the app shares with its fronts: the app keys, the current request's record, the log."""

from __future__ import annotations

from aiohttp import web

from ..events import Notice
from ..shell import Diagnostics
from .request_log import RECORD, RequestRecord, log_line
from .upstream import Upstream


class ServerLog:
    """stderr for the server: one line per request, one per notice; rich on a terminal only."""

    def __init__(self, tag: str = "") -> None:
        self._diagnostics = Diagnostics()
        self._tag = tag  # in front of every line: the worker's process id, with several

    def say(self, message: str, style: str = "cyan") -> None:
        """One line about the server itself."""
        self._diagnostics.say(f"{self._tag}sse-rewrite serve: {message}", style=style)

    def notice(self, record: RequestRecord, notice: Notice) -> None:
        """One line for a notice about request `record`'s stream."""
        self._diagnostics.say(f"{self._tag}sse-rewrite: #{record.number} {notice.code}: {notice.message}")

    def request(self, record: RequestRecord, now: float) -> None:
        """The request's closing line: green when it succeeded, red otherwise."""
        ok = record.status is not None and record.status < 400 and not record.outcome
        self._diagnostics.say(self._tag + log_line(record, now), style="green" if ok else "red")


UPSTREAM: web.AppKey[Upstream] = web.AppKey("upstream", Upstream)
"""The app's one `Upstream` (its session opens at start-up)."""
LOG: web.AppKey[ServerLog] = web.AppKey("log", ServerLog)
"""The app's log."""
__all__ = ["LOG", "RECORD", "UPSTREAM", "ServerLog"]
