"""Command line shell: argument parsing, the read/feed/write loop, stderr diagnostics.

All parsing lives in the sans-IO core (`rewrite.py`); this module only moves bytes.
rich is imported lazily, on the first diagnostic, to keep start-up fast.
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any

import click

from . import __version__
from .events import Notice
from .formats import DEFAULT_MAX_SECTION_BYTES, FORMAT_CHOICES
from .rewrite import Output, RewriteOptions, Stats, StreamRewriter

READ_SIZE = 65536


class DefaultGroup(click.Group):
    """A click group that runs `filter` unless the first argument names a subcommand."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Insert the default command in front of arguments that are not a subcommand."""
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help", "--version")):
            args = ["filter", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a reader that went away (`| head`) ends the run with exit 0.

        click itself turns EPIPE into exit 1, so it is caught here, before click sees it.
        """
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # Python docs, "Note on SIGPIPE": point stdout at devnull so the final flush is quiet.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None


class Diagnostics:
    """Writes notices and summaries to stderr through rich (colour only on a terminal)."""

    def __init__(self) -> None:
        self._console: Any = None

    def say(self, message: str, style: str = "yellow") -> None:
        """Print one line on stderr."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False, soft_wrap=True)
        self._console.print(message, style=style, markup=False)

    def notice(self, notice: Notice) -> None:
        """Print one notice as `sse-rewrite: CODE: message`."""
        self.say(f"sse-rewrite: {notice.code}: {notice.message}")


def pump(rewriter: StreamRewriter, source: IO[bytes], sink: IO[bytes], diag: Diagnostics,
         capture: IO[bytes] | None = None) -> None:
    """Feed `source` through `rewriter` into `sink`, flushing after every read."""
    read = getattr(source, "read1", source.read)
    while chunk := read(READ_SIZE):
        if capture is not None:
            capture.write(chunk)
            capture.flush()
        _emit(rewriter.feed(chunk), sink, diag)
    _emit(rewriter.flush(), sink, diag)


def _emit(out: list[Output], sink: IO[bytes], diag: Diagnostics) -> None:
    data = b"".join(item for item in out if isinstance(item, bytes))
    for item in out:
        if isinstance(item, Notice):
            diag.notice(item)
    if data:
        sink.write(data)
        sink.flush()


def format_stats(stats: Stats) -> str:
    """A one-line summary for `--stats`."""
    return (
        f"sse-rewrite: format {stats.format or 'none'} ({stats.format_reason}); "
        f"events in {stats.events_in}, out {stats.events_out} "
        f"({stats.passed_through} passed through unchanged); "
        f"tool calls {stats.tool_calls}; notices {stats.notices}"
    )


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sse-rewrite")
def cli() -> None:
    """Turn tool-call syntax leaked into streamed LLM text into OpenAI tool_calls.

    Reads raw SSE (or one chat.completion JSON body) from FILE or stdin and writes
    clean OpenAI-format SSE to stdout, each event as soon as it is ready. Without a
    subcommand, `filter` runs.

    \b
    Examples:
      curl -N https://openrouter.ai/api/v1/chat/completions ... | sse-rewrite
      sse-rewrite sse_logs/kimi-one-token-per-chunk.sse
      sse-rewrite --format kimi --id-style openai capture.sse -o clean.sse
    """


@cli.command("filter")
@click.argument("source", type=click.File("rb"), default="-")
@click.option("-o", "--output", type=click.File("wb"), default="-", help="Write here (default stdout).")
@click.option("--format", "format_name", type=click.Choice(FORMAT_CHOICES), default="auto",
              envvar="SSE_REWRITE_FORMAT", show_default=True, show_envvar=True,
              help="Leaked syntax to rewrite; auto picks from the stream's model.")
@click.option("--id-style", type=click.Choice(["native", "openai"]), default="native", show_default=True,
              help="native keeps the model's call ids; openai derives call_ ids from the stream id.")
@click.option("--max-section-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_SECTION_BYTES,
              show_default=True, help="An open tool section larger than this passes through as text.")
@click.option("--stats", is_flag=True, help="Print a short summary on stderr at the end.")
def filter_command(source: IO[bytes], output: IO[bytes], format_name: str, id_style: str,
                   max_section_bytes: int, stats: bool) -> None:
    """Rewrite one stream (FILE or stdin) to stdout.

    \b
    Examples:
      curl -N ... | sse-rewrite
      sse-rewrite --stats sse_logs/kimi-one-token-per-chunk.sse > clean.sse
    """
    options = RewriteOptions(format=format_name, id_style=id_style,  # type: ignore[arg-type]
                             max_section_bytes=max_section_bytes)
    rewriter = StreamRewriter(options)
    diag = Diagnostics()
    pump(rewriter, source, output, diag)
    if stats:
        diag.say(format_stats(rewriter.stats), style="cyan")


def main() -> None:
    """Console-script entry point: run the CLI; a closed stdout pipe ends it quietly."""
    try:
        code = cli.main(prog_name="sse-rewrite", standalone_mode=False)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
