"""The command line: exit codes, exact stdout bytes, notices on stderr, live pipe behaviour."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sse_rewrite import cli, entry
from tests.chunking import chunk_event, read_until, token_stream
from tests.cli_runs import CALL, child_command, invoke

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


def _run(
    command: list[str], stdin: bytes = b"", env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes]:
    result = subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=60, check=False)
    return result.returncode, result.stdout, result.stderr


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


@pytest.mark.parametrize(
    "args", [["--version"], [], ["{capture}"], ["--stream-arguments", "{capture}"]],
    ids=["version", "stdin", "file", "streamed-file"],
)  # fmt: skip
def test_version_and_plain_filter_runs_do_not_import_click_or_typing(args: list[str], tmp_path: Path) -> None:
    capture = tmp_path / "capture.sse"
    capture.write_bytes(token_stream([CALL]))
    args = [arg.format(capture=capture) for arg in args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSE_REWRITE_")}
    code, _, imports = _run([sys.executable, "-X", "importtime", "-m", "sse_rewrite", *args], env=env)
    assert code == 0
    assert b"| sse_rewrite.entry" in imports
    assert b" click" not in imports
    assert b" typing\n" not in imports  # annotations import it under TYPE_CHECKING only
    code, _, imports = _run([sys.executable, "-X", "importtime", "-m", "sse_rewrite", "--stats"], env=env)
    assert code == 0 and b" click" in imports and b" typing\n" in imports  # the checks above can fail


def test_each_event_is_answered_before_the_next_is_written() -> None:
    child = subprocess.Popen(child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        for token in ["Hello", " world"]:
            event = chunk_event({"content": token})
            child.stdin.write(event)
            child.stdin.flush()
            assert read_until(child.stdout.fileno(), event).endswith(event)
        child.stdin.write(chunk_event({"content": CALL}))
        child.stdin.flush()
        assert b'"tool_calls"' in read_until(child.stdout.fileno(), b'"tool_calls"')
    finally:
        child.stdin.close()
        child.wait(timeout=20)
        child.stdout.close()
    assert child.returncode == 0


def test_closed_stdout_pipe_exits_quietly() -> None:
    """A reader that goes away (`| head`) ends the filter with exit 0 and no traceback."""
    child = subprocess.Popen(
        child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdout is not None and child.stdin is not None and child.stderr is not None
    first = chunk_event({"content": "x"})
    child.stdin.write(first)
    child.stdin.flush()
    read_until(child.stdout.fileno(), first)
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
