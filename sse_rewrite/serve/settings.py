"""What one `serve` process runs with, its command-line options, and the start-up rule.

`ServeSettings` is a frozen value; `SERVE_OPTIONS` are the click options of `serve`
besides the rewrite options (shared with `filter`, see `options.py`); `settings_from`
builds the value from a command's parameters and refuses a configuration that would open
a configured key to the network. No aiohttp here: `--help` and errors stay cheap.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import click

from ..protocols.anthropic.models import ModelChoice, parse_model_map
from ..protocols.responses.store import default_store_path
from ..protocols.responses.store_postgres import is_postgres_url
from ..stream.rewrite import RewriteOptions
from .limits import Limits
from .target import UpstreamBase

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8787


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """One server's configuration; the times are in seconds."""

    upstream: str
    """The upstream's OpenAI base URL (`https://openrouter.ai/api/v1`), without a trailing slash."""
    options: RewriteOptions = field(default_factory=RewriteOptions)
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    api_key: str | None = None
    """Sent upstream as `Authorization: Bearer …` instead of the client's own header."""
    access_token: str | None = None
    """Clients must present it (Bearer, `x-api-key` or `x-goog-api-key`); it never goes upstream."""
    capture_dir: Path | None = None
    connect_timeout: float = 10.0
    read_timeout: float = 300.0
    """The longest silence from the upstream: before its first byte (then a 504) or inside a body."""
    keepalive_interval: float = 15.0
    """A comment goes to a streaming client after this long without a byte."""
    drain_timeout: float = 30.0
    """On SIGTERM or Ctrl-C, open requests get this long to finish before they are cut."""
    models: ModelChoice = field(default_factory=ModelChoice)
    """The upstream model for each Anthropic, Responses or Gemini request (`--model`, `--model-map`)."""
    store: Path | str | None = None
    """Where stored Responses go (`--store`): an SQLite file, a `postgresql://` URL (a str), or None."""
    store_pool: int = 10
    """With a PostgreSQL store: its connections per process at most (`--store-pool`)."""
    metrics_public: bool = False
    """`GET /metrics` needs no access token from a loopback client (`--metrics-public`)."""
    shutdown_delay: float = 0.0
    """On SIGTERM, seconds `/readyz` answers 503 while requests are still served, before the drain."""
    allow_origins: tuple[str, ...] = ()
    """Web origins whose pages may use the proxy (`*`: any); every other `Origin` gets a 403."""
    allow_hosts: tuple[str, ...] = ()
    """Names `Host` may carry besides IP literals, `localhost` and the listening host."""
    header_timeout: float = 60.0
    """A client's request line and headers must arrive within this long (nginx's client_header_timeout)."""
    body_timeout: float = 60.0
    """The longest silence while a client sends its body (nginx's client_body_timeout)."""
    idle_timeout: float = 75.0
    """An idle keep-alive connection is closed after this long (nginx's keepalive_timeout)."""
    max_connections: int = 512
    """Open client connections at most; one more gets a 503 (nginx's worker_connections)."""
    limits: Limits = field(default_factory=Limits)
    """The memory caps (`limits.py`)."""


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the server to this machine (`localhost` or a loopback IP)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name may resolve to anything


def client_base_url(host: str, port: int) -> str:
    """The base URL clients use for a server on `host`:`port` (IPv6 addresses in brackets)."""
    return f"http://[{host}]:{port}/v1" if ":" in host else f"http://{host}:{port}/v1"


def exposure_error(settings: ServeSettings) -> str | None:
    """Why these settings would open the configured key to the network, or None."""
    if settings.api_key and not settings.access_token and not is_loopback(settings.host):
        return (
            f"--host {settings.host} is reachable from other machines and --api-key-env gives the "
            "proxy a key: set --access-token too (clients then present it), or bind 127.0.0.1"
        )
    return None


def check_secret(value: str, what: str) -> None:
    """Refuse a key or token that cannot be sent as it is in a header (a newline at its end, …)."""
    if value != value.strip() or not value.isprintable() or not value.isascii():
        raise click.BadParameter(f"{what} has spaces, a newline or other characters that cannot go in a "
                                 "header (a trailing newline from a file?): strip it", param_hint=what)


def _model_map(ctx: click.Context, param: click.Parameter,
               values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    try:
        return tuple(parse_model_map(value) for value in values)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


SERVE_OPTIONS: Final[tuple[Callable[[Any], Any], ...]] = (
    click.option("--upstream", required=True, metavar="URL",
                 help="The upstream's OpenAI base URL, e.g. https://openrouter.ai/api/v1."),
    click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on."),
    click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
                 help="Port to listen on (0: any free port, printed at start)."),
    click.option("--api-key-env", metavar="NAME",
                 help="Send the key in this environment variable upstream instead of the client's."),
    click.option("--access-token", envvar="SSE_REWRITE_ACCESS_TOKEN", show_envvar=True,
                 help="Clients must present this token (Authorization: Bearer, x-api-key or "
                      "x-goog-api-key)."),
    click.option("--capture", "capture_dir", type=click.Path(file_okay=False, path_type=Path),
                 help="Save each upstream answer raw in this directory, as a fixture for replay/diff."),
    click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
                 show_default=True, help="Seconds to connect to the upstream (then a 502)."),
    click.option("--read-timeout", type=click.FloatRange(min=0, min_open=True), default=300.0,
                 show_default=True,
                 help="Longest upstream silence in seconds: before its first byte a 504, later the end."),
    click.option("--keepalive-interval", type=click.FloatRange(min=0, min_open=True), default=15.0,
                 show_default=True, help="Seconds without a byte to a streaming client before a comment."),
    click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Processes serving the port (fork); the proxy keeps no state between requests."),
    click.option("--drain-timeout", type=click.FloatRange(min=0), default=30.0, show_default=True,
                 help="On SIGTERM, seconds open requests get to finish."),
    click.option("--header-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
                 show_default=True, help="Seconds a client has to send its request line and headers."),
    click.option("--body-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
                 show_default=True, help="Longest silence in seconds while a client sends its body."),
    click.option("--idle-timeout", type=click.FloatRange(min=0, min_open=True), default=75.0,
                 show_default=True, help="Seconds before an idle keep-alive connection is closed."),
    click.option("--max-connections", type=click.IntRange(min=1), default=512, show_default=True,
                 help="Open client connections at most (per worker); one more gets a 503."),
    click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
                 help="A web origin (https://app.example) whose pages may use the proxy, or *; repeatable."),
    click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
                 help="A name clients reach the proxy by (Host), besides addresses and localhost; "
                      "repeatable."),
    click.option("--model", metavar="NAME",
                 help="/v1/messages, /v1/responses, Gemini: send every request to this upstream model."),
    click.option("--model-map", multiple=True, metavar="PATTERN=NAME", callback=_model_map,
                 help="/v1/messages, /v1/responses, Gemini: requested models matching PATTERN "
                      "(shell-style: *, ?, [..]) go to NAME; repeatable, first match wins."),
    click.option("--store", metavar="PATH|URL|none", default=None, envvar="SSE_REWRITE_STORE",
                 show_envvar=True,
                 help="/v1/responses: where stored responses go (previous_response_id): an SQLite file, "
                      "or postgresql://… to share them between instances (pip install "
                      "'sse-rewrite[postgres]'); none keeps none. "
                      "Default: ~/.local/share/sse-rewrite/responses.sqlite3."),
    click.option("--store-pool", type=click.IntRange(min=1), default=10, show_default=True,
                 help="With a PostgreSQL store: its connections per process at most."),
    click.option("--metrics-public", is_flag=True,
                 help="GET /metrics needs no access token from a loopback client (a local scraper)."),
    click.option("--shutdown-delay", type=click.FloatRange(min=0), default=0.0, show_default=True,
                 help="On SIGTERM, seconds /readyz answers 503 while requests are still served, so a "
                      "load balancer stops sending new ones before the drain."),
)
"""The `serve` options besides the rewrite options."""


def serve_options(func: F) -> F:
    """Decorate a click command with every `serve` option."""
    for option in reversed(SERVE_OPTIONS):
        func = option(func)
    return func


def settings_from(params: dict[str, Any], options: RewriteOptions) -> ServeSettings:
    """Build the settings from the `serve` command's parameters; click errors on a bad mix."""
    key_env = params.pop("api_key_env")
    api_key = None
    if key_env is not None:
        api_key = os.environ.get(key_env)
        if not api_key:
            raise click.BadParameter(f"environment variable {key_env} is not set or empty",
                                     param_hint="--api-key-env")
        check_secret(api_key, "--api-key-env")
    if params.get("access_token"):
        check_secret(params["access_token"], "--access-token")
    upstream = params.pop("upstream").rstrip("/")
    try:
        UpstreamBase.parse(upstream)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--upstream") from None
    models = ModelChoice(params.pop("model"), params.pop("model_map"))
    store = params.pop("store")
    store_path: Path | str | None = None if store == "none" else default_store_path() if not store else \
        store if is_postgres_url(store) else Path(store)
    settings = ServeSettings(upstream=upstream, options=options, api_key=api_key, models=models,
                             store=store_path, **params)
    problem = exposure_error(settings)
    if problem:
        raise click.UsageError(problem)
    return settings
