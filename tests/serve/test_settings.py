"""`serve` settings: the start-up rules, checked before anything listens."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.serve.settings import ServeSettings, client_base_url, exposure_error, is_loopback


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.0.1", True), ("::1", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("example.org", False),
])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(("host", "key", "token", "refused"), [
    ("127.0.0.1", "k", None, False),
    ("0.0.0.0", None, None, False),  # no key of its own: each client brings theirs
    ("0.0.0.0", "k", None, True),
    ("0.0.0.0", "k", "t", False),
])
def test_a_configured_key_is_never_open_to_the_network(host: str, key: str | None, token: str | None,
                                                        refused: bool) -> None:
    settings = ServeSettings(upstream="http://u/v1", host=host, api_key=key, access_token=token)
    assert (exposure_error(settings) is not None) is refused


def test_serve_refuses_to_start_with_an_open_key() -> None:
    result = CliRunner(env={"MY_KEY": "secret"}).invoke(
        cli, ["serve", "--upstream", "http://127.0.0.1:9/v1", "--host", "0.0.0.0", "--api-key-env", "MY_KEY"])
    assert result.exit_code == 2
    assert "--access-token" in result.stderr and "secret" not in result.output + result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--upstream", "http://127.0.0.1:9/v1", "--api-key-env", "NO_SUCH_VARIABLE_X"], "NO_SUCH_VARIABLE_X"),
    (["--upstream", "openrouter.ai/api/v1"], "http://"),
    (["--upstream", "http://u/v1", "--to", "anthropic"], "--to"),
])
def test_serve_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 2 and message in result.stderr


def test_serve_help_lists_its_options_and_the_filter_options() -> None:
    text = CliRunner().invoke(cli, ["serve", "--help"]).stdout
    for option in ("--upstream", "--host", "--port", "--api-key-env", "--access-token", "--capture",
                   "--format", "--id-style", "--max-section-bytes", "--keepalive-interval"):
        assert option in text


def test_client_base_urls_bracket_ipv6() -> None:
    assert client_base_url("127.0.0.1", 8787) == "http://127.0.0.1:8787/v1"
    assert client_base_url("::1", 8787) == "http://[::1]:8787/v1"


@pytest.mark.parametrize("key", ["sk-secret\n", " sk-secret", "sk-se\tcret", "sk-s\u00e9cret"])
def test_a_key_that_cannot_go_in_a_header_refuses_to_start(key: str) -> None:
    result = CliRunner(env={"MY_KEY": key}).invoke(
        cli, ["serve", "--upstream", "http://127.0.0.1:9/v1", "--api-key-env", "MY_KEY"])
    assert result.exit_code == 2 and "--api-key-env" in result.stderr
    assert "secret" not in result.output + result.stderr


def test_an_access_token_with_a_trailing_newline_refuses_to_start() -> None:
    result = CliRunner(env={"SSE_REWRITE_ACCESS_TOKEN": "tok\n"}).invoke(
        cli, ["serve", "--upstream", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2 and "--access-token" in result.stderr
