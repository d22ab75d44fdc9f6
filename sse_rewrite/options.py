"""The rewrite options, defined once for the command line and for capture sidecars.

Each entry of `REWRITE_OPTIONS` is a click option whose parameter name is a field of
`RewriteOptions`. `filter` and `replay` take them through `rewrite_options`; a capture's
`NAME.sse.args` file (e.g. `--format kimi --id-style openai`) is parsed by
`parse_option_args` with the very same definitions. Adding an option means adding a field
to `RewriteOptions` and one entry here.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable
from pathlib import Path

import click
import orjson

from .formats import DEFAULT_MAX_SECTION_BYTES, FORMAT_CHOICES
from .protocols import PROTOCOLS
from .stream.rewrite import RewriteOptions
from .stream.think import THINK_CHOICES
from .tool_schemas import ToolSchemas

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

def _read_tools(ctx: click.Context, param: click.Parameter, path: Path | None) -> ToolSchemas | None:
    """`--tools FILE`: the file's tools, read once (a click callback)."""
    if path is None:
        return None
    try:
        return read_tools(path.read_bytes())
    except (OSError, ValueError) as error:
        raise click.BadParameter(f"{path}: {error}") from None


def read_tools(data: bytes) -> ToolSchemas:
    """Tools from JSON bytes (a request body or a `tools` array); ValueError when they are neither."""
    try:
        return ToolSchemas.read(orjson.loads(data))
    except orjson.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error})") from None


REWRITE_OPTIONS: Final[tuple[Callable[[Any], Any], ...]] = (
    click.option("--format", "format", type=click.Choice(FORMAT_CHOICES), default="auto",
                 envvar="SSE_REWRITE_FORMAT", show_default=True, show_envvar=True,
                 help=("Leaked syntax to rewrite; auto: every syntax whose markers prose cannot"
                       " contain, plus the model id's own (README, Formats).")),
    click.option("--id-style", "id_style", type=click.Choice(["native", "openai"]), default="native",
                 show_default=True,
                 help="native keeps the model's call ids; openai derives call_ ids from the stream id."),
    click.option("--max-section-bytes", "max_section_bytes", type=click.IntRange(min=1),
                 default=DEFAULT_MAX_SECTION_BYTES, show_default=True,
                 help="An open tool section larger than this passes through as text."),
    click.option("--to", "to", type=click.Choice(PROTOCOLS), default=PROTOCOLS[0],
                 show_default=True,
                 help="Output protocol: OpenAI chunks, Anthropic Messages events, or Responses API events."),
    click.option("--stream-arguments", "stream_arguments", is_flag=True, default=False,
                 help="Send a call's header as soon as its name is known, then its arguments as they "
                      "arrive (default: each call whole, once complete)."),
    click.option("--tools", "tools", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 callback=_read_tools, metavar="FILE",
                 help="The request's tools (a request body, or its tools array): raw parameter values "
                      "take the declared types, loose call names the declared ones."),
    click.option("--think", "think", type=click.Choice(THINK_CHOICES), default="auto", show_default=True,
                 help="Move <think>...</think> in content to the reasoning field: on, off, or auto "
                      "(for model ids of families that write such tags)."),
    click.option("--prompt-think/--no-prompt-think", "prompt_think", default=True, show_default=True,
                 help="Whether a thinking model's prompt opens its think block (R1, GLM-4.7+, "
                      "MiniMax M2...): --no-prompt-think when the request turned thinking off."),
    # Accelerators (sse_rewrite/stream/fast/): off, the output is the same, only slower. Hidden:
    # they are for the bench and for checking that claim, not for everyday use.
    click.option("--plain-runs/--no-plain-runs", "plain_runs", default=True, hidden=True,
                 help="Pass runs of events that need no work through in one slice."),
    click.option("--token-runs/--no-token-runs", "token_runs", default=True, hidden=True,
                 help="Read tokens inside an open call from the raw bytes."),
)
"""Click options that map one to one onto `RewriteOptions` fields."""

_FIELDS: Final = frozenset(field.name for field in dataclasses.fields(RewriteOptions))


class OptionsError(ValueError):
    """A sidecar's option text is not valid; the message says why."""


def rewrite_options(func: F) -> F:
    """Decorate a click command with every rewrite option."""
    for option in reversed(REWRITE_OPTIONS):
        func = option(func)
    return func


def stream_rewrite_options(func: F) -> F:
    """Decorate with every rewrite option but `--to` and `--tools`: for `serve`, where each front
    picks its protocol and each request brings its tools."""
    func = rewrite_options(func)
    func.__click_params__ = [  # type: ignore[attr-defined]
        param for param in func.__click_params__ if param.name not in ("to", "tools")  # type: ignore[attr-defined]
    ]
    return func


def take_options(params: dict[str, Any]) -> RewriteOptions:
    """Pop the rewrite options out of a command's keyword arguments."""
    return RewriteOptions(**{name: params.pop(name) for name in _FIELDS if name in params})


def _sidecar_command() -> click.Command:
    command = click.Command("args", params=[], add_help_option=False)
    for option in REWRITE_OPTIONS:
        option(command)
    for param in command.params:
        param.envvar = None  # a fixture must run the same in every environment
    return command


def parse_option_args(text: str, source: str = "args") -> RewriteOptions:
    """Parse option text such as `--format kimi --id-style openai` into `RewriteOptions`.

    `#` starts a comment; environment variables play no part. Raises `OptionsError`
    naming `source` on any mistake.
    """
    try:
        args = shlex.split(text, comments=True)
    except ValueError as error:
        raise OptionsError(f"{source}: {error}") from None
    command = _sidecar_command()
    try:
        ctx = command.make_context(source, args)
    except click.UsageError as error:
        raise OptionsError(f"{source}: {error.format_message()}") from None
    return take_options(dict(ctx.params))
