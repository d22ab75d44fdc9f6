"""Fixtures shared by the test modules."""

from __future__ import annotations

import atexit
import dataclasses
import os
import ssl
import tempfile
import zlib
from collections.abc import Iterator

import pytest

from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter

# The child processes tests start (the CLI, serve and its workers, the example upstream) import
# the package anew each time: with PYTHONDONTWRITEBYTECODE set they would compile it every time.
# They cache bytecode as an installed package does (as bench/measure.py's children do).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _one_certificate_bundle() -> None:
    """Point `SSL_CERT_FILE` at a bundle of one certificate, taken from the system's.

    Every official SDK client a test makes (openai, anthropic, google-genai, and their httpx2)
    builds an SSL context and loads the CA bundle into it: 50-70 ms a client, about 10 % of the
    suite, for loopback servers every test speaks plain HTTP to. Both honour `SSL_CERT_FILE`, so
    their contexts still build, from one certificate (`SSL_CERT_DIR` unset: a directory is read
    too); nothing in the tests uses TLS."""
    system = os.environ.get("SSL_CERT_FILE") or ssl.get_default_verify_paths().openssl_cafile
    try:
        with open(system, encoding="ascii", errors="replace") as bundle:
            text = bundle.read()
    except OSError:
        return
    end = text.find("-----END CERTIFICATE-----")
    if end < 0:
        return
    handle, path = tempfile.mkstemp(prefix="sse-rewrite-tests-", suffix=".pem")
    with os.fdopen(handle, "w", encoding="ascii") as one:
        one.write(text[: end + len("-----END CERTIFICATE-----")] + "\n")
    atexit.register(os.unlink, path)
    os.environ["SSL_CERT_FILE"] = path
    os.environ.pop("SSL_CERT_DIR", None)


_one_certificate_bundle()


@pytest.fixture(params=["accelerated", "general-path"])
def accelerators(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test twice: as written, and with every accelerator (`sse_rewrite/stream/fast/`) off.

    Stream test modules use it with `pytestmark = pytest.mark.usefixtures("accelerators")`.
    The general path runs on every case of a small table and on a fixed sample of a large
    one (`pytest_collection_modifyitems`); `SSE_REWRITE_TEST_EVERY_PATH=1` runs every case.
    Off, every `StreamRewriter` the test makes (directly, through the CLI, `replay` or a
    golden) gets its options with `plain_runs` and `token_runs` false: the same public
    switches a user has.
    """
    if request.param == "general-path":
        original = StreamRewriter.__init__

        def without_accelerators(self: StreamRewriter, options: RewriteOptions | None = None) -> None:
            options = dataclasses.replace(options or RewriteOptions(), plain_runs=False, token_runs=False)
            original(self, options)

        monkeypatch.setattr(StreamRewriter, "__init__", without_accelerators)
    yield request.param


GENERAL_PATH_SAMPLE = 24
"""A table of more than this many cases runs the general path on one case in this many."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the marks the suite uses."""
    config.addinivalue_line("markers", "every_path: run the general path on every case of this table")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the general path (accelerators off) on a fixed sample of each large table.

    Every case runs accelerated. The general path runs on every case of a table of up to
    `GENERAL_PATH_SAMPLE` cases or marked `every_path` (the goldens: every capture on both
    paths), and otherwise on the cases a hash of their id picks, the same on every run, at
    least one a table. The differential suites of tests/test_fast.py hold the two paths
    equal on generated streams. `SSE_REWRITE_TEST_EVERY_PATH=1` runs every case.
    """
    if os.environ.get("SSE_REWRITE_TEST_EVERY_PATH"):
        return
    tables: dict[str, list[pytest.Item]] = {}
    for item in items:
        spec = getattr(item, "callspec", None)
        if (
            spec is not None
            and spec.params.get("accelerators") == "general-path"
            and item.get_closest_marker("every_path") is None
        ):
            tables.setdefault(item.nodeid.split("[")[0], []).append(item)
    dropped: set[int] = set()
    for cases in tables.values():
        if len(cases) <= GENERAL_PATH_SAMPLE:
            continue
        picked = {id(item) for item in cases if zlib.crc32(item.nodeid.encode()) % GENERAL_PATH_SAMPLE == 0}
        dropped.update(id(item) for item in cases if id(item) not in (picked or {id(cases[0])}))
    if dropped:
        config.hook.pytest_deselected(items=[item for item in items if id(item) in dropped])
        items[:] = [item for item in items if id(item) not in dropped]
