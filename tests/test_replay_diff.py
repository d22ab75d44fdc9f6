"""replay, diff and --capture: the bundled captures, their goldens and sidecars."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from sse_rewrite import goldens
from tests.chunking import chunk_event, read_until, token_stream
from tests.cli_runs import CALL, child_command, invoke

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"


SMALL_LIBRARY = ["kimi-crlf.sse", "kimi-one-token-per-chunk.sse", "kimi-completion-body.json",
                 "anthropic-kimi-stream-arguments.sse"]
"""Captures of both kinds, one with an options sidecar, for the tests of what `diff` does with a
library (every capture of the whole library meets its golden in tests/test_goldens.py and in the
test below)."""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A copy of the whole fixture library (captures, goldens, sidecars)."""
    target = tmp_path / "sse_logs"
    shutil.copytree(SSE_LOGS, target, ignore=shutil.ignore_patterns("*.py", "*.md", "__pycache__"))
    return target


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """A copy of a small library: `SMALL_LIBRARY`'s captures with their goldens and sidecars."""
    target = tmp_path / "sse_logs"
    target.mkdir()
    for name in SMALL_LIBRARY:
        for path in SSE_LOGS.glob(f"{name}*"):
            shutil.copy(path, target / path.name)
    return target


def test_diff_passes_on_the_bundled_captures(library: Path) -> None:
    result = invoke(["diff", str(library)])
    assert result.exit_code == 0, result.output
    assert "PASS      kimi-one-token-per-chunk.sse" in result.stdout
    assert all(line.startswith("PASS") for line in result.stdout.split("\n\n")[0].splitlines())


def test_diff_defaults_to_sse_logs_here(logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(logs.parent)
    assert invoke(["diff"]).exit_code == 0


def test_diff_fails_on_an_altered_golden_and_update_rewrites_it(logs: Path) -> None:
    golden = logs / "kimi-crlf.sse.golden"
    good = golden.read_bytes()
    golden.write_bytes(good.replace(b'"finish_reason":"tool_calls"', b'"finish_reason":"stop"'))
    result = invoke(["diff", str(logs)])
    assert result.exit_code == 1
    assert "FAIL      kimi-crlf.sse" in result.stdout
    assert "finish_reason stop → tool_calls" in result.stdout
    assert '-data: {"id":"gen-1763900007-kimiCrlf"' in result.stdout
    assert "+++ kimi-crlf.sse.golden (now)" in result.stdout
    updated = invoke(["diff", "--update", str(logs / "kimi-crlf.sse")])
    assert updated.exit_code == 0
    assert updated.stdout.startswith("UPDATED   kimi-crlf.sse  finish_reason stop → tool_calls\n")
    assert golden.read_bytes() == good
    assert invoke(["diff", str(golden)]).exit_code == 0


def test_diff_reports_a_capture_without_golden(logs: Path) -> None:
    (logs / "new.sse").write_bytes(token_stream([CALL]))
    result = invoke(["diff", str(logs)])
    assert result.exit_code == 2
    assert "MISSING   new.sse" in result.stdout
    assert "sse-rewrite diff --update" in result.stdout
    created = invoke(["diff", "--update", str(logs)])
    assert "CREATED   new.sse" in created.stdout
    assert created.stdout.count("same") == len(SMALL_LIBRARY)
    assert invoke(["diff", str(logs)]).exit_code == 0


def test_diff_usage_errors_exit_2(tmp_path: Path) -> None:
    assert invoke(["diff", str(tmp_path / "absent")]).exit_code == 2
    empty = invoke(["diff", str(tmp_path)])
    assert empty.exit_code == 2 and "no captures" in empty.stderr
    (tmp_path / "x.sse").write_bytes(b"")
    (tmp_path / "x.sse.args").write_text("--bogus")
    result = invoke(["diff", str(tmp_path)])
    assert result.exit_code == 2
    assert "ERROR     x.sse" in result.stdout and "No such option '--bogus'" in result.stdout


@pytest.mark.parametrize("capture", goldens.find_captures([SSE_LOGS]), ids=lambda path: path.name)
def test_replay_writes_what_the_filter_writes(capture: Path) -> None:
    args_file = capture.with_name(capture.name + ".args")
    args = shlex.split(args_file.read_text(), comments=True) if args_file.exists() else []
    replayed = invoke(["replay", str(capture)])
    assert replayed.exit_code == 0
    filtered = invoke([*args, str(capture)])
    assert (replayed.stdout_bytes, replayed.stderr) == (filtered.stdout_bytes, filtered.stderr)


def test_replay_options_override_the_sidecar() -> None:
    capture = str(SSE_LOGS / "kimi-format-none.sse")
    assert invoke(["replay", capture]).stdout_bytes == (SSE_LOGS / "kimi-format-none.sse").read_bytes()
    assert b'"tool_calls"' in invoke(["replay", "--format", "kimi", capture]).stdout_bytes


def test_replay_view_shows_text_calls_and_counts() -> None:
    result = invoke(["replay", "--view", str(SSE_LOGS / "kimi-two-sections.sse")])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "choice 0  finish_reason: tool_calls" in lines
    assert "    | Now two fetches." in lines
    assert "  tool call 1: fetch  id functions.fetch:1" in lines
    assert '      "url": "https://a.example/"' in lines
    assert lines[-1] == "events in 79, out 27 (23 unchanged); calls 3; warnings 0"
    assert "\x1b[" not in result.stdout  # plain text when not a terminal
    assert result.stderr == ""


def test_replay_view_lists_warnings_and_errors() -> None:
    result = invoke(["replay", "--view", str(SSE_LOGS / "openrouter-error-mid-stream.sse")])
    assert "warning: truncated-call: stream ended in a call header: passed through as text" in result.stdout
    assert 'error: {"code": 502, "message": "Provider returned error"' in result.stdout
    assert result.stdout.splitlines()[-1].endswith("warnings 1; no [DONE]")


def test_replay_json_gives_the_assembled_result() -> None:
    captures = [str(SSE_LOGS / name) for name in ["kimi-completion-body.json", "kimi-id-style-openai.sse"]]
    result = invoke(["replay", "--json", *captures])
    assert result.exit_code == 0
    body, stream = orjson.loads(result.stdout_bytes)
    assert body["choices"][0]["text"] == {"reasoning": "Two files to read.", "content": "Reading them now."}
    assert [c["arguments"] for c in body["choices"][0]["tool_calls"]] == [
        '{"path": "README.md"}', '{"path": "setup.cfg"}'
    ]
    assert stream["options"]["id_style"] == "openai"
    assert [c["name"] for c in stream["choices"][0]["tool_calls"]] == ["get_weather", "get_time"]
    assert all(c["id"].startswith("call_") for c in stream["choices"][0]["tool_calls"])
    assert stream["stats"]["tool_calls"] == 2 and stream["done"] is True


def test_capture_saves_the_input_byte_for_byte(tmp_path: Path) -> None:
    stream = (SSE_LOGS / "kimi-truncated-in-section.sse").read_bytes()
    target = tmp_path / "new.sse"
    result = invoke(["--capture", str(target)], stream)
    assert result.exit_code == 0
    assert target.read_bytes() == stream
    assert result.stdout_bytes == (SSE_LOGS / "kimi-truncated-in-section.sse.golden").read_bytes()


def test_capture_file_is_opened_before_any_input(tmp_path: Path) -> None:
    target = tmp_path / "live.sse"
    child = subprocess.Popen([*child_command(), "--capture", str(target)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        event = chunk_event({"content": "Hello"})
        child.stdin.write(event)
        child.stdin.flush()
        read_until(child.stdout.fileno(), event)
        assert target.read_bytes() == event  # flushed per read, while the stream is still open
    finally:
        child.stdin.close()
        child.wait(timeout=20)
        child.stdout.close()


def test_replay_with_a_bad_sidecar_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "x.sse").write_bytes(b"")
    (tmp_path / "x.sse.args").write_text("--bogus")
    result = invoke(["replay", str(tmp_path / "x.sse")])
    assert result.exit_code == 2
    assert "x.sse.args: No such option '--bogus'" in result.stderr
