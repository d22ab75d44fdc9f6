"""The command line: exit codes, exact stdout bytes, notices on stderr, live pipe behaviour."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sse_rewrite import cli, entry
from tests.chunking import token_stream
from tests.cli_runs import CALL, invoke

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


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
    result = invoke([], b"data: {broken\n\n" + token_stream(["\n<|tool_call_end|>\nx"]))
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


def _run_in_process(
    main: Callable[[], None], args: list[str], stdin: bytes
) -> tuple[int | str | None, bytes, bytes]:
    """Run a console-script `main` here as a child process would (argv, binary stdio, exit code)."""
    out, err = io.BytesIO(), io.BytesIO()
    streams = [io.TextIOWrapper(raw, write_through=True) for raw in (io.BytesIO(stdin), out, err)]
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    sys.argv, (sys.stdin, sys.stdout, sys.stderr) = ["sse-rewrite", *args], streams
    try:
        main()
        code: int | str | None = 0
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "args",
    [[], ["--version"], ["{capture}"], ["{broken}"], ["/no/such/file"], ["--format", "kimi"], ["-"],
     ["--stream-arguments"], ["--stream-arguments", "{capture}"], ["{capture}", "--stream-arguments"],
     ["--stream-arguments", "--version"], ["--stream-arguments", "--stats"]],
    ids=["stdin", "version", "file", "bad-input", "missing-file", "option", "dash", "streamed-stdin",
         "streamed-file", "file-streamed", "streamed-version", "streamed-option"],
)  # fmt: skip
def test_the_entry_point_runs_every_invocation_as_the_click_cli_does(args: list[str], tmp_path: Path) -> None:
    capture, broken = tmp_path / "capture.sse", tmp_path / "broken.sse"
    capture.write_bytes(token_stream([CALL]))
    broken.write_bytes(b"data: {broken\n\n" + token_stream(["\n<|tool_call_end|>\nx"]))
    args = [arg.format(capture=capture, broken=broken) for arg in args]
    stdin = token_stream(["from stdin", CALL])
    fast = _run_in_process(entry.main, args, stdin)
    assert fast == _run_in_process(cli.main, args, stdin)
    assert fast[0] == (2 if args in (["/no/such/file"], ["--stream-arguments", "--version"]) else 0)
