"""Command line: the click commands (`filter`, `replay`, `diff`) over the sans-IO core.

All parsing of streams lives in the core (`rewrite.py`); the read/feed/write loop and
stderr diagnostics are in `shell.py`. `entry.main` is the console script: it runs the
two start-up-critical invocations without importing click and hands the rest to `main`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson
from click.core import ParameterSource

from . import __version__
from .options import OptionsError, rewrite_options, stream_rewrite_options, take_options
from .serve.settings import serve_options, settings_from
from .shell import Diagnostics, format_stats, pump, quiet_broken_pipe
from .stream.rewrite import StreamRewriter

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any


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
            quiet_broken_pipe()
            raise click.exceptions.Exit(0) from None


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sse-rewrite")
def cli() -> None:
    """Turn tool-call syntax leaked into streamed LLM text into OpenAI tool_calls.

    Reads raw SSE (or one chat.completion JSON body) from FILE or stdin and writes
    clean OpenAI-format SSE (or, with --to anthropic, Anthropic Messages events) to
    stdout, each event as soon as it is ready. Without a subcommand, `filter` runs:
    `sse-rewrite filter --help` lists its options.

    \b
    Examples:
      curl -N https://openrouter.ai/api/v1/chat/completions ... | sse-rewrite
      sse-rewrite sse_logs/kimi-one-token-per-chunk.sse
      sse-rewrite --format kimi --id-style openai capture.sse -o clean.sse
      curl -N ... | sse-rewrite --to anthropic
      sse-rewrite diff                  # every capture in sse_logs/ against its golden
    """


@cli.command("filter")
@click.argument("source", type=click.File("rb"), default="-")
@click.option("-o", "--output", type=click.File("wb"), default="-", help="Write here (default stdout).")
@rewrite_options
@click.option("--capture", type=click.File("wb", lazy=False),
              help="Also save the raw input bytes to this file as they arrive (a new fixture).")
@click.option("--stats", is_flag=True, help="Print a short summary on stderr at the end.")
def filter_command(source: IO[bytes], output: IO[bytes], capture: IO[bytes] | None, stats: bool,
                   **params: Any) -> None:
    """Rewrite one stream (FILE or stdin) to stdout.

    \b
    Examples:
      curl -N ... | sse-rewrite
      curl -N ... | sse-rewrite --capture sse_logs/new.sse
      sse-rewrite --stats sse_logs/kimi-one-token-per-chunk.sse > clean.sse
      curl -N ... | sse-rewrite --to anthropic
    """
    rewriter = StreamRewriter(take_options(params))
    diag = Diagnostics()
    pump(rewriter, source, output, diag, capture)
    if stats:
        diag.say(format_stats(rewriter.stats), style="cyan")


@cli.command("replay")
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--view", "mode", flag_value="view", help="Show the assembled result instead of the output.")
@click.option("--json", "mode", flag_value="json", help="The assembled result as JSON.")
@rewrite_options
def replay_command(captures: tuple[Path, ...], mode: str | None, **params: Any) -> None:
    """Replay captures through the filter, or show the assembled result.

    Each capture runs with the options in its NAME.sse.args sidecar; options given
    here (or in the environment) win.

    \b
    Examples:
      sse-rewrite replay sse_logs/kimi-one-token-per-chunk.sse | less
      sse-rewrite replay --view sse_logs/kimi-two-sections.sse
      sse-rewrite replay --json sse_logs/*.sse | jq '.[].choices'
    """
    from . import goldens, view  # only replay and diff need them: kept off the filter's start-up

    ctx = click.get_current_context()
    given = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    explicit = {k: v for k, v in params.items() if ctx.get_parameter_source(k) in given}
    stdout, diag, views = sys.stdout.buffer, Diagnostics(), []
    for capture in goldens.find_captures(captures):
        try:
            result = goldens.replay(capture, explicit)
        except (OSError, OptionsError) as error:
            raise click.BadParameter(str(error), param_hint="CAPTURES") from None
        if mode == "json":
            views.append(view.view_json(str(capture), result))
            continue
        if mode is None:  # the view lists the warnings itself
            for notice in result.notices:
                diag.notice(notice)
        if mode == "view" and stdout.isatty():
            _rich_view(view.view_lines(str(capture), result))
        else:
            stdout.write(view.view_text(str(capture), result).encode() if mode else result.output)
            stdout.flush()
    if mode == "json":
        stdout.write(orjson.dumps(views, option=orjson.OPT_INDENT_2) + b"\n")


def _rich_view(lines: list[tuple[str, str]]) -> None:
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    for text, style in lines:
        console.print(text, style=style or None, markup=False)


@cli.command("diff")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--update", is_flag=True, help="(Re)write the goldens instead of comparing.")
def diff_command(paths: tuple[Path, ...], update: bool) -> None:
    """Compare captures (default sse_logs/) with their goldens.

    Exit 0 when all match, 1 on a mismatch, 2 when a capture, sidecar or golden cannot be read.

    \b
    Examples:
      sse-rewrite diff
      sse-rewrite diff sse_logs/kimi-crlf.sse
      sse-rewrite diff --update
    """
    from . import goldens

    if not paths:
        default = Path("sse_logs")
        if not default.is_dir():
            raise click.UsageError("no PATH given and no sse_logs/ directory here")
        paths = (default,)
    captures = goldens.find_captures(paths)
    if not captures:
        raise click.UsageError(f"no captures (*.sse, *.json) in {', '.join(map(str, paths))}")
    outcomes = [goldens.check(capture, update=update) for capture in captures]
    stdout = sys.stdout.buffer
    stdout.write(goldens.report(outcomes).encode())
    stdout.flush()
    code = goldens.exit_code(outcomes)
    if code:
        raise click.exceptions.Exit(code)


@cli.command("serve")
@serve_options
@stream_rewrite_options
def serve_command(**params: Any) -> None:
    """Run a local OpenAI-compatible proxy that repairs leaked tool calls as they stream.

    Point an agent at http://HOST:PORT/v1: /v1/chat/completions is forwarded to
    URL/chat/completions and its answer rewritten; every other path is forwarded untouched.
    Anthropic clients (Claude Code) get /v1/messages at http://HOST:PORT, Responses API
    clients (Codex CLI, wire_api = "responses") /v1/responses, and Gemini API clients
    (Gemini CLI, GOOGLE_GEMINI_BASE_URL=http://HOST:PORT) /v1beta/models/M:streamGenerateContent,
    each translated.

    \b
    Examples:
      sse-rewrite serve --upstream https://openrouter.ai/api/v1
      OPENAI_BASE_URL=http://127.0.0.1:8787/v1 OPENAI_API_KEY=$OPENROUTER_API_KEY qwen
      sse-rewrite serve --upstream https://openrouter.ai/api/v1 --api-key-env OPENROUTER_API_KEY
      sse-rewrite serve --upstream http://gpu-box:8000/v1 --format kimi --capture captures/
      sse-rewrite serve --upstream https://openrouter.ai/api/v1 --model moonshotai/kimi-k2.5
      ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=$OPENROUTER_API_KEY claude
      codex exec "…"   # a model_providers entry with base_url http://127.0.0.1:8787/v1 (README)
    """
    from .protocols.responses.store import StoreUnavailable
    from .serve.app import run  # aiohttp is imported by serve only

    workers = params.pop("workers")
    settings = settings_from(params, take_options(params))
    try:
        run(settings, workers)
    except OSError as error:
        raise click.ClickException(f"cannot listen on {settings.host}:{settings.port}: {error}") from None
    except StoreUnavailable as error:
        raise click.ClickException(str(error)) from None


def main() -> None:
    """Run the click CLI on `sys.argv`; a closed stdout pipe ends it quietly."""
    try:
        code = cli.main(prog_name="sse-rewrite", standalone_mode=False)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
