"""How the CLI tests run sse-rewrite: in process through click, or as a child process."""

from __future__ import annotations

import sys

from click.testing import CliRunner, Result

from sse_rewrite.cli import cli

CALL = "<|tool_call_begin|>functions.bash:1<|tool_call_argument_begin|>{}<|tool_call_end|>"


def invoke(args: list[str], stdin: bytes = b"", env: dict[str, str] | None = None) -> Result:
    """Run the click CLI in process with `stdin` as its input."""
    return CliRunner().invoke(cli, args, input=stdin, env=env)


def child_command() -> list[str]:
    """The command line that runs sse-rewrite in a child process."""
    return [sys.executable, "-m", "sse_rewrite"]
