"""`--capture DIR`: what the upstream sent, saved so that `diff` reproduces what the client got."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.options import parse_option_args
from sse_rewrite.serve.capture import sidecar_text
from sse_rewrite.stream.rewrite import RewriteOptions
from tests.serve.servers import Servers, captured, eventually

CHAT = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ echo captured"}]}


@pytest.mark.parametrize(("stream", "suffix"), [(True, ".sse"), (False, ".json")])
def test_a_capture_round_trips_through_diff(servers: Servers, tmp_path: Path, stream: bool,
                                            suffix: str) -> None:
    options = RewriteOptions(format="kimi", id_style="openai")
    base_url, log = servers.serve(capture_dir=tmp_path / "captures", options=options)
    request = {**CHAT, "stream": stream}
    client_got = httpx2.post(f"{base_url}/chat/completions", json=request, timeout=10).content
    assert eventually(lambda: len(log) == 1)  # the request is over: the capture is closed
    capture = captured(tmp_path / "captures", suffix)
    assert b"<|tool_call_begin|>" in capture.read_bytes()
    runner = CliRunner()
    assert runner.invoke(cli, ["diff", "--update", str(capture)]).exit_code == 0
    assert runner.invoke(cli, ["diff", str(capture)]).exit_code == 0
    assert capture.with_name(capture.name + ".golden").read_bytes() == client_got
    assert b"call_" in client_got  # the sidecar carried --id-style openai


def test_the_sidecar_names_every_option() -> None:
    options = RewriteOptions(format="glm", id_style="openai", max_section_bytes=99, to="anthropic")
    assert parse_option_args(sidecar_text(options)) == options
    for streams, think in ((True, "off"), (False, "on")):
        options = RewriteOptions(stream_arguments=streams, think=think)
        assert parse_option_args(sidecar_text(options)) == options
