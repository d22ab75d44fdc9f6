"""The command line run as a child process: what it imports, and a live pipe.

These tests run `python -m sse_rewrite` in a child, where the `accelerators` fixture's switch
does not reach: each runs once (tests/test_cli.py runs the commands in process on both paths).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chunking import chunk_event, read_until, token_stream
from tests.cli_runs import CALL, child_command


def _imports(args: list[str]) -> bytes:
    """What `python -X importtime -m sse_rewrite ARGS` imports, after checking it exits 0."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSE_REWRITE_")}
    command = [sys.executable, "-X", "importtime", "-m", "sse_rewrite", *args]
    result = subprocess.run(command, capture_output=True, env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stderr


@pytest.mark.parametrize(
    "args", [["--version"], [], ["{capture}"], ["--stream-arguments", "{capture}"]],
    ids=["version", "stdin", "file", "streamed-file"],
)  # fmt: skip
def test_version_and_plain_filter_runs_do_not_import_click_or_typing(args: list[str], tmp_path: Path) -> None:
    capture = tmp_path / "capture.sse"
    capture.write_bytes(token_stream([CALL]))
    imports = _imports([arg.format(capture=capture) for arg in args])
    assert b"| sse_rewrite.entry" in imports
    assert b" click" not in imports
    assert b" typing\n" not in imports  # annotations import it under TYPE_CHECKING only


def test_the_import_checks_can_fail() -> None:
    """`--stats` takes the click CLI: the absence checks above see what they look for when it is there."""
    imports = _imports(["--stats"])
    assert b" click" in imports and b" typing\n" in imports


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
