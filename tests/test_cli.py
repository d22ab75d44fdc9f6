"""The command line: exit codes, exact stdout bytes, notices on stderr, live pipe behaviour."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from tests.chunking import chunk_event, token_stream

CALL = "<|tool_call_begin|>functions.bash:1<|tool_call_argument_begin|>{}<|tool_call_end|>"


def invoke(args: list[str], stdin: bytes = b"", env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, args, input=stdin, env=env)


def test_filter_is_the_default_command_and_reads_stdin() -> None:
    stream = token_stream(["plain text"])
    result = invoke([], stream)
    assert result.exit_code == 0
    assert result.stdout_bytes == stream


def test_filter_reads_a_file_and_writes_output(tmp_path: Path) -> None:
    source, target = tmp_path / "in.sse", tmp_path / "out.sse"
    source.write_bytes(token_stream([CALL]))
    result = invoke([str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert b'"tool_calls"' in target.read_bytes()
    assert invoke(["filter", str(source)]).stdout_bytes == target.read_bytes()


def test_notices_go_to_stderr_one_line_each_and_exit_zero() -> None:
    result = invoke([], b"data: {broken\n\n" + token_stream(["<|tool_call_end|>x"]))
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"data: {broken\n\n")
    lines = result.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["invalid-json", "orphan-marker"]
    assert "Traceback" not in result.stderr


def test_stats_summary() -> None:
    result = invoke(["--stats"], token_stream([CALL]))
    assert "format kimi" in result.stderr
    assert "tool calls 1" in result.stderr


def test_format_from_environment_variable() -> None:
    stream = token_stream([CALL])
    assert invoke([], stream, env={"SSE_REWRITE_FORMAT": "none"}).stdout_bytes == stream


def test_id_style_openai() -> None:
    result = invoke(["--id-style", "openai"], token_stream([CALL]))
    assert b'"id":"call_' in result.stdout_bytes


@pytest.mark.parametrize(
    "args",
    [["--format", "nope"], ["--max-section-bytes", "0"], ["/no/such/file.sse"], ["--bogus"]],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


def test_version_and_help() -> None:
    assert invoke(["--version"]).stdout.startswith("sse-rewrite, version ")
    help_text = invoke(["--help"]).stdout
    assert "curl -N" in help_text
    assert "--max-section-bytes" in invoke(["filter", "--help"]).stdout


def _command() -> list[str]:
    return [sys.executable, "-m", "sse_rewrite"]


def _read_available(fd: int, want: bytes) -> bytes:
    """Read from `fd` until `want` has arrived; fail if the child goes quiet for 20 s (a hang)."""
    got = b""
    while want not in got:
        ready, _, _ = select.select([fd], [], [], 20)
        assert ready, f"no output from the filter; got so far {got!r}"
        data = os.read(fd, 65536)
        assert data, f"filter closed stdout; got {got!r}"
        got += data
    return got


def test_each_event_is_answered_before_the_next_is_written() -> None:
    child = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        for token in ["Hello", " world"]:
            event = chunk_event({"content": token})
            child.stdin.write(event)
            child.stdin.flush()
            assert _read_available(child.stdout.fileno(), event).endswith(event)
        child.stdin.write(chunk_event({"content": CALL}))
        child.stdin.flush()
        assert b'"tool_calls"' in _read_available(child.stdout.fileno(), b'"tool_calls"')
    finally:
        child.stdin.close()
        child.wait(timeout=20)
        child.stdout.close()
    assert child.returncode == 0


def test_closed_stdout_pipe_exits_quietly() -> None:
    """A reader that goes away (`| head`) ends the filter with exit 0 and no traceback."""
    child = subprocess.Popen(
        _command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdout is not None and child.stdin is not None and child.stderr is not None
    first = chunk_event({"content": "x"})
    child.stdin.write(first)
    child.stdin.flush()
    _read_available(child.stdout.fileno(), first)
    child.stdout.close()
    try:
        for _ in range(5000):
            child.stdin.write(chunk_event({"content": "x" * 100}))
        child.stdin.close()
    except BrokenPipeError:
        pass
    finally:
        with contextlib.suppress(BrokenPipeError):
            child.stdin.close()
    err = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=30) == 0
    assert b"Traceback" not in err
