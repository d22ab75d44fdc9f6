"""What the app shares with its fronts: the app keys, the current request's record, the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiohttp import web

from ..shell import Diagnostics
from ..stream.events import Notice
from .connections import Connections
from .request_log import RECORD, RequestRecord, log_line, printable
from .upstream import Upstream

CUT = "sse-rewrite serve is shutting down"
"""The message a request's task is cancelled with when shutdown cuts it (see `app.stop`)."""


class ServerLog:
    """stderr for the server: one line per request, one per notice; rich on a terminal only.

    Every line goes through `printable`, so nothing a client or the upstream sent (a path,
    a model name, an error message) can start a line of its own or drive the terminal. A
    line that cannot be written (stderr closed, a broken pipe) is dropped: the log is a side
    job and never fails a request.
    """

    def __init__(self, tag: str = "") -> None:
        self._diagnostics = Diagnostics()
        self._tag = tag  # in front of every line: the worker's process id, with several

    def say(self, message: str, style: str = "cyan") -> None:
        """One line about the server itself."""
        self._write(f"{self._tag}sse-rewrite serve: {message}", style)

    def notice(self, record: RequestRecord, notice: Notice) -> None:
        """One line for a notice about request `record`'s stream (its code kept for the metrics)."""
        record.notices.append(notice.code)
        self._write(f"{self._tag}sse-rewrite: #{record.number} {notice.code}: {notice.message}", "yellow")

    def request(self, record: RequestRecord, now: float) -> None:
        """The request's closing line: green when it succeeded, red otherwise."""
        ok = record.status is not None and record.status < 400 and not record.outcome
        self._write(self._tag + log_line(record, now), "green" if ok else "red")

    def _write(self, line: str, style: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # ValueError: a closed stderr
            self._diagnostics.say(printable(line), style=style)


class _OneLine(logging.Handler):
    """aiohttp's own log records as one server log line each: the message and the error, no traceback.

    Of the error only its kind and the first line of its message are kept: aiohttp quotes the
    offending bytes below it, and those may be a header that holds a token.
    """

    def __init__(self, log: ServerLog, source: str = "aiohttp") -> None:
        super().__init__(logging.WARNING)
        self._log, self._source = log, source

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text = str(getattr(error, "message", None) or error)
            first = next((line.strip() for line in text.splitlines() if line.strip()), "")
            message = f"{message}: {type(error).__name__}: {first[:200]}"
        self._log.say(f"{self._source}: {printable(message)}", style="red")


def aiohttp_logger(log: ServerLog) -> logging.Logger:
    """A logger for aiohttp's server that writes to `log` in one line per record, never a traceback."""
    logger = logging.getLogger(f"sse_rewrite.serve.aiohttp.{id(log)}")
    logger.propagate = False
    logger.handlers[:] = [_OneLine(log)]
    return logger


def adopt_logger(name: str, log: ServerLog) -> None:
    """Send library logger `name`'s warnings to `log`, one line each (psycopg's pool: reconnections)."""
    logger = logging.getLogger(name)
    logger.propagate = False
    logger.handlers[:] = [_OneLine(log, name)]


UPSTREAM: web.AppKey[Upstream] = web.AppKey("upstream", Upstream)
"""The app's one `Upstream` (its session opens at start-up)."""
LOG: web.AppKey[ServerLog] = web.AppKey("log", ServerLog)
"""The app's log."""
INFLIGHT: web.AppKey[set[asyncio.Task[object]]] = web.AppKey("inflight", set)
"""The tasks of the requests being handled (the guard adds and removes them; shutdown waits)."""
CONNECTIONS: web.AppKey[Connections] = web.AppKey("connections", Connections)
"""The client connections (`connections.py`), told by the guard when a request starts and ends."""
__all__ = ["CONNECTIONS", "CUT", "INFLIGHT", "LOG", "RECORD", "UPSTREAM", "ServerLog", "adopt_logger",
           "aiohttp_logger"]
