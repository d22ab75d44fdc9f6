"""The `sse-rewrite` console script: the start-up-critical invocations skip click.

Importing click costs about a third of Python's own start-up. Two invocations sit in
every pipeline's start-up path: `sse-rewrite --version` and a plain filter run,
`sse-rewrite [--stream-arguments] [FILE]` with no other option and no `SSE_REWRITE_*`
environment variable (streamed arguments are a live client's choice, as common in a
pipeline). They are recognized here and run without click, exactly as the `filter` command
would run them.
Everything else (options, subcommands, help, any error) goes to the click CLI in
`cli.py`, which stays the one definition of the interface.

Importing `typing` costs another 2-3 ms, so no module of the package imports it at run
time: each sets `TYPE_CHECKING = False` (type checkers take any `TYPE_CHECKING` as true)
and, under `if TYPE_CHECKING:`, imports or defines what only annotations use (type
aliases, TypeVars, the `ToolSyntax` Protocol); annotations stay strings (`from __future__
import annotations`). Beware a dataclass attribute annotated `ClassVar`: unless the module
binds `typing.ClassVar` at run time, dataclasses takes it for a field.
"""

from __future__ import annotations

import os
import sys

from . import __version__

# typing is imported for type checkers only: it costs start-up time (see above)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

_SUBCOMMANDS = ("filter", "replay", "diff", "serve")
_STREAM_ARGUMENTS = "--stream-arguments"


def main() -> None:
    """Console-script entry point."""
    args = sys.argv[1:]
    if args == ["--version"]:
        sys.stdout.write(f"sse-rewrite, version {__version__}\n")
        sys.exit(0)
    streams = _STREAM_ARGUMENTS in args
    source = _plain_filter_source([arg for arg in args if arg != _STREAM_ARGUMENTS] if streams else args)
    if source is None:
        from .cli import main as click_main

        click_main()
        return
    with source:
        _filter(source, streams)


def _plain_filter_source(args: list[str]) -> IO[bytes] | None:
    """The input of a plain filter run (`--stream-arguments` aside), or None when click must
    parse the arguments."""
    if any(name.startswith("SSE_REWRITE_") for name in os.environ):
        return None
    if not args:
        return sys.stdin.buffer
    path = args[0]
    if len(args) > 1 or path.startswith("-") or path in _SUBCOMMANDS or not os.path.isfile(path):
        return None
    try:
        return open(path, "rb")  # `main` closes it
    except OSError:
        return None  # click reports it


def _filter(source: IO[bytes], stream_arguments: bool) -> None:
    from .shell import Diagnostics, pump, quiet_broken_pipe
    from .stream.rewrite import RewriteOptions, StreamRewriter

    try:
        pump(StreamRewriter(RewriteOptions(stream_arguments=stream_arguments)), source, sys.stdout.buffer,
             Diagnostics())  # fmt: skip
    except BrokenPipeError:
        quiet_broken_pipe()
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(0)
