"""`--capture DIR` behind /v1/messages: `diff` reproduces the Anthropic answer the client got."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.protocols.anthropic.models import ModelChoice
from tests.serve.servers import Servers, captured, eventually

BASH = {"name": "bash", "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}}
REQUEST = {"model": "claude-x", "max_tokens": 64, "tools": [BASH],
           "messages": [{"role": "user", "content": "$ echo captured"}]}


@pytest.mark.parametrize(("stream", "suffix"), [(True, ".sse"), (False, ".json")])
def test_an_anthropic_capture_round_trips_through_diff(servers: Servers, tmp_path: Path, stream: bool,
                                                       suffix: str) -> None:
    base_url, log = servers.serve(capture_dir=tmp_path, models=ModelChoice(model="moonshotai/kimi-k2.5"))
    client_got = httpx2.post(f"{base_url}/messages", json={**REQUEST, "stream": stream}, timeout=10,
                             headers={"x-api-key": "k"}).content
    assert eventually(lambda: len(log) == 1)  # the request is over: the capture is closed
    capture = captured(tmp_path, suffix)
    assert b"<|tool_call_begin|>" in capture.read_bytes()
    assert "--to anthropic" in capture.with_name(capture.name + ".args").read_text()
    runner = CliRunner()
    assert runner.invoke(cli, ["diff", "--update", str(capture)]).exit_code == 0
    assert capture.with_name(capture.name + ".golden").read_bytes() == client_got
    assert b"toolu_functions-2Ebash-3A0" in client_got
