"""Stats: what one stream's rewrite counted, for `--stats`, `replay --view` and serve's log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Stats:
    """Counters for `--stats` and `replay --view`."""

    events_in: int = 0
    events_out: int = 0
    passed_through: int = 0
    tool_calls: int = 0
    notices: int = 0
    format: str | None = None
    format_reason: str = "no chunk seen"
