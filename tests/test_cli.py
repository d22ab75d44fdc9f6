"""The command line: exit codes, exact stdout bytes, notices on stderr, live pipe behaviour."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from sse_rewrite import goldens
from sse_rewrite.cli import cli
from tests.chunking import chunk_event, read_until, token_stream

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

CALL = "<|tool_call_begin|>functions.bash:1<|tool_call_argument_begin|>{}<|tool_call_end|>"


def invoke(args: list[str], stdin: bytes = b"", env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, args, input=stdin, env=env)


def test_filter_is_the_default_command_and_reads_stdin() -> None:
    stream = token_stream(["plain text"])
    result = invoke([], stream)
    assert result.exit_code == 0
    assert result.stdout_bytes == stream


def test_filter_reads_a_file_and_writes_output(tmp_path: Path) -> None:
    source, target = tmp_path / "in.sse", tmp_path / "out.sse"
    source.write_bytes(token_stream([CALL]))
    result = invoke([str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert b'"tool_calls"' in target.read_bytes()
    assert invoke(["filter", str(source)]).stdout_bytes == target.read_bytes()


def test_notices_go_to_stderr_one_line_each_and_exit_zero() -> None:
    result = invoke([], b"data: {broken\n\n" + token_stream(["<|tool_call_end|>x"]))
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"data: {broken\n\n")
    lines = result.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["invalid-json", "orphan-marker"]
    assert "Traceback" not in result.stderr


def test_stats_summary() -> None:
    result = invoke(["--stats"], token_stream([CALL]))
    assert "format kimi" in result.stderr
    assert "tool calls 1" in result.stderr


def test_format_from_environment_variable() -> None:
    stream = token_stream([CALL])
    assert invoke([], stream, env={"SSE_REWRITE_FORMAT": "none"}).stdout_bytes == stream


def test_id_style_openai() -> None:
    result = invoke(["--id-style", "openai"], token_stream([CALL]))
    assert b'"id":"call_' in result.stdout_bytes


@pytest.mark.parametrize(
    "args",
    [["--format", "nope"], ["--max-section-bytes", "0"], ["/no/such/file.sse"], ["--bogus"]],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


def test_version_and_help() -> None:
    assert invoke(["--version"]).stdout.startswith("sse-rewrite, version ")
    help_text = invoke(["--help"]).stdout
    assert "curl -N" in help_text
    assert "--max-section-bytes" in invoke(["filter", "--help"]).stdout


_CLICK_MAIN = "from sse_rewrite.cli import main; main()"


def _run(
    command: list[str], stdin: bytes = b"", env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes]:
    result = subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=60, check=False)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize(
    "args",
    [[], ["--version"], ["{capture}"], ["{broken}"], ["/no/such/file"], ["--format", "kimi"], ["-"]],
    ids=["stdin", "version", "file", "bad-input", "missing-file", "option", "dash"],
)
def test_the_entry_point_runs_every_invocation_as_the_click_cli_does(args: list[str], tmp_path: Path) -> None:
    capture, broken = tmp_path / "capture.sse", tmp_path / "broken.sse"
    capture.write_bytes(token_stream([CALL]))
    broken.write_bytes(b"data: {broken\n\n" + token_stream(["<|tool_call_end|>x"]))
    args = [arg.format(capture=capture, broken=broken) for arg in args]
    stdin = token_stream(["from stdin", CALL])
    fast = _run([*_command(), *args], stdin)
    assert fast == _run([sys.executable, "-c", _CLICK_MAIN, *args], stdin)
    assert fast[0] == (2 if args == ["/no/such/file"] else 0)


@pytest.mark.parametrize("args", [["--version"], [], ["{capture}"]], ids=["version", "stdin", "file"])
def test_version_and_plain_filter_runs_do_not_import_click_or_typing(args: list[str], tmp_path: Path) -> None:
    capture = tmp_path / "capture.sse"
    capture.write_bytes(token_stream([CALL]))
    args = [arg.format(capture=capture) for arg in args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSE_REWRITE_")}
    code, _, imports = _run([sys.executable, "-X", "importtime", "-m", "sse_rewrite", *args], env=env)
    assert code == 0
    assert b"| sse_rewrite.entry" in imports
    assert b" click" not in imports
    assert b" typing\n" not in imports  # annotations import it under TYPE_CHECKING only
    code, _, imports = _run([sys.executable, "-X", "importtime", "-m", "sse_rewrite", "--stats"], env=env)
    assert code == 0 and b" click" in imports and b" typing\n" in imports  # the checks above can fail


def _command() -> list[str]:
    return [sys.executable, "-m", "sse_rewrite"]


def test_each_event_is_answered_before_the_next_is_written() -> None:
    child = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
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
        _command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
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


# -- replay, diff, --capture

SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """A copy of the fixture library (captures, goldens, sidecars)."""
    target = tmp_path / "sse_logs"
    shutil.copytree(SSE_LOGS, target, ignore=shutil.ignore_patterns("*.py", "*.md", "__pycache__"))
    return target


def test_diff_passes_on_the_bundled_captures(logs: Path) -> None:
    result = invoke(["diff", str(logs)])
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
    assert created.stdout.count("same") == len(goldens.find_captures([SSE_LOGS]))
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
    assert replayed.stdout_bytes == invoke([*args, str(capture)]).stdout_bytes
    assert replayed.stderr == invoke([*args, str(capture)]).stderr


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
    child = subprocess.Popen([*_command(), "--capture", str(target)], stdin=subprocess.PIPE,
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
