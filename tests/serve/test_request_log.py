"""The one log line per request."""

from __future__ import annotations

from sse_rewrite.serve.request_log import RequestRecord, log_line
from sse_rewrite.stream.rewrite import Stats


def test_a_streamed_request_logs_model_status_counters_and_duration() -> None:
    record = RequestRecord(3, "POST", "/v1/chat/completions", started=10.0, model="moonshotai/kimi-k2.5",
                           status=200)
    record.take_stats(Stats(events_in=57, events_out=12, tool_calls=2))
    assert log_line(record, 10.84) == (
        "#3 POST /v1/chat/completions moonshotai/kimi-k2.5 200 events 57>12 calls 2 0.84s")


def test_a_request_that_ended_badly_says_how() -> None:
    record = RequestRecord(4, "GET", "/v1/models", started=1.0, outcome="client gone")
    assert log_line(record, 1.5) == "#4 GET /v1/models - - 0.50s (client gone)"
