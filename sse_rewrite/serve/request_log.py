"""The per-request record behind `serve`'s one log line per request (pure).

The guard in `app.py` opens a `RequestRecord` for each request and makes it the current
`RECORD`; fronts fill in what they learn (model, counters from the rewriter's `Stats`, how
the request ended) and the guard formats it with `log_line` when the request is over,
however it ended.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field

from ..stats import Stats

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from aiohttp import web


@dataclass(slots=True)
class RequestRecord:
    """What one request did, for its log line."""

    number: int
    method: str
    path: str
    started: float
    model: str | None = None
    status: int | None = None
    events_in: int = 0
    events_out: int = 0
    calls: int = 0
    outcome: str = ""
    """Set when the request did not end normally: `client gone`, `upstream ended early`, …"""
    response: web.StreamResponse | None = None
    """The streamed response once its headers went out: nothing else may be answered then."""
    ended: bool = False
    """Set when the streamed response's end went out: a cancellation after it (the client
    closing the moment the stream ended, as curl does) is no failure."""
    syntax: str | None = None
    """The leaked syntax the rewriter read the stream as (`Stats.format`), for the metrics."""
    notices: list[str] = field(default_factory=list)
    """The codes of the notices logged for this request, for the metrics."""
    upstream_status: int | None = None
    """The upstream's HTTP status, once its answer's head is in."""
    upstream_wait: float | None = None
    """Seconds from sending the upstream request to its answer's head."""
    first_byte: float | None = None
    """When the client's answer began (the loop's clock): its status line went out."""

    def take_stats(self, stats: Stats) -> None:
        """Copy the rewriter's counters."""
        self.events_in, self.events_out, self.calls = stats.events_in, stats.events_out, stats.tool_calls
        self.syntax = stats.format


def log_line(record: RequestRecord, now: float) -> str:
    """`#3 POST /v1/chat/completions moonshotai/kimi-k2.5 200 events 57>12 calls 2 0.84s`."""
    parts = [f"#{record.number}", record.method, record.path, record.model or "-",
             str(record.status) if record.status is not None else "-"]
    if record.events_in or record.events_out:
        parts.append(f"events {record.events_in}>{record.events_out} calls {record.calls}")
    parts.append(f"{now - record.started:.2f}s")
    if record.outcome:
        parts.append(f"({record.outcome})")
    return " ".join(parts)


_CONTROLS: Final = {code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
                    for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


def printable(text: str) -> str:
    """`text` with control characters spelled as escapes: one line, nothing a terminal acts on."""
    return text.translate(_CONTROLS)


RECORD: ContextVar[RequestRecord] = ContextVar("sse_rewrite_serve_record")
"""The record of the request the current task is handling (set by the guard in `app.py`).

A context variable rather than a request key: the guard sets it in the task that then runs
the handler, and that works the same on every aiohttp >= 3.10.
"""
