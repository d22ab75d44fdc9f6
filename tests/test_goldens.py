"""Every capture in sse_logs/ against its golden (the `diff` code path), and the comparison logic."""

from __future__ import annotations

import functools
import itertools
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from sse_rewrite import goldens
from sse_rewrite.stream.assemble import assemble
from sse_rewrite.stream.rewrite import StreamRewriter
from tests.oracles import anthropic_final, openai_state

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"
CAPTURES = goldens.find_captures([SSE_LOGS])


@pytest.mark.every_path
@pytest.mark.parametrize("capture", CAPTURES, ids=[capture.name for capture in CAPTURES])
def test_capture_matches_its_golden(capture: Path) -> None:
    outcome = goldens.check(capture)
    assert outcome.status == "pass", f"{outcome.detail}\n{outcome.diff}"


def test_the_library_covers_the_required_shapes() -> None:
    names = {capture.name for capture in CAPTURES}
    assert len(names) >= 12
    assert {"kimi-one-token-per-chunk.sse", "kimi-completion-body.json"} <= names
    assert all(goldens.args_path(SSE_LOGS / name).exists() for name in ["kimi-format-none.sse"])


# Calls a client must see in each Kimi capture's golden: (name, id, arguments), in index order.
WEATHER = ("get_weather", "functions.get_weather:0", '{"city": "Tōkyō", "unit": "celsius"}')
EXPECTED_CALLS = {
    "kimi-one-token-per-chunk.sse": [WEATHER],
    "kimi-k2-thinking-reasoning.sse": [WEATHER],
    "openrouter-keepalive-usage.sse": [WEATHER],
    "kimi-split-mid-marker.sse": [
        ("read", "functions.read:0", '{"path": "a.txt"}'),
        ("read", "functions.read:1", '{"path": "b.txt"}'),
    ],
    "kimi-parallel-calls.sse": [
        ("list_dir", "functions.list_dir:0", '{"path": "."}'),
        ("read_file", "functions.read_file:1", '{"path": "src/main.py", "range": {"start": 1, "end": 40}}'),
        ("bash", "functions.bash:2", '{"cmd": "grep -n \\"TODO\\" -r src | head -n 5"}'),
    ],
    "kimi-two-sections.sse": [
        ("search", "functions.search:0", '{"q": "sse spec"}'),
        ("fetch", "functions.fetch:1", '{"url": "https://a.example/"}'),
        ("fetch", "functions.fetch:2", '{"url": "https://b.example/"}'),
    ],
    "kimi-reasoning-content-compat.sse": [
        ("get_forecast", "functions.get_forecast:0", '{"city": "Florence, Italy", "days": 3}')
    ],
    "kimi-crlf.sse": [("bash", "functions.bash:0", '{"cmd": "make"}')],
    "kimi-damaged-syntax.sse": [
        ("weather", "weather:0", '{"city": "Lima"}'),
        ("mcp__github__search-issues", "functions.mcp__github__search-issues:7", '{"q": "is:open"}'),
    ],
    "kimi-two-choices.sse": [WEATHER],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_CALLS))
def test_kimi_goldens_assemble_to_the_expected_calls_in_the_openai_sdk(name: str) -> None:
    golden = goldens.golden_path(SSE_LOGS / name).read_bytes()
    message = openai_state(golden).choices[0].message
    calls = [(c.function.name, c.id, c.function.arguments) for c in message.tool_calls or []]
    assert calls == EXPECTED_CALLS[name]
    assert openai_state(golden).choices[0].finish_reason == "tool_calls"
    # (the damaged capture mentions markers in its prose: those are words)
    words = ("`<|tool_calls_section_begin|>`", "stray <|tool_call_end|> marker")
    prose = functools.reduce(lambda text, word: text.replace(word, ""), words, message.content or "")
    assert "<|" not in prose
    ours = assemble(golden).choices[0]
    assert [(c.name, c.id, c.arguments) for c in ours.calls.values()] == calls
    assert ours.text.get("content", "") == (message.content or "")


def test_text_survives_in_order_in_the_two_sections_capture() -> None:
    golden = goldens.golden_path(SSE_LOGS / "kimi-two-sections.sse").read_bytes()
    assert openai_state(golden).choices[0].message.content == (
        "First I'll search.\n\nNow two fetches.\n\nI'll summarize once they return."
    )


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A copy of three captures with their goldens and sidecars."""
    for name in ["kimi-two-sections.sse", "kimi-format-none.sse", "kimi-completion-body.json"]:
        for path in SSE_LOGS.glob(name + "*"):
            shutil.copy(path, tmp_path / path.name)
    return tmp_path


def test_find_captures_sorts_a_directory_and_maps_side_files_to_their_capture(library: Path) -> None:
    found = goldens.find_captures([library])
    assert [p.name for p in found] == [
        "kimi-completion-body.json", "kimi-format-none.sse", "kimi-two-sections.sse"
    ]
    capture = library / "kimi-format-none.sse"
    assert goldens.find_captures(
        [goldens.golden_path(capture), goldens.args_path(capture), capture]
    ) == [capture]


def test_an_altered_golden_fails_with_a_diff_and_a_summary(library: Path) -> None:
    capture = library / "kimi-two-sections.sse"
    golden = goldens.golden_path(capture)
    golden.write_bytes(golden.read_bytes().replace(b'"content":" two"', b'"content":" 2"'))
    outcome = goldens.check(capture)
    assert outcome.status == "fail"
    assert outcome.detail == "content gained 2 chars"  # the output now has what the golden lost
    assert "-data:" in outcome.diff and "+data:" in outcome.diff


def test_update_rewrites_the_golden_and_says_what_changed(library: Path) -> None:
    capture = library / "kimi-two-sections.sse"
    golden = goldens.golden_path(capture)
    good = golden.read_bytes()
    golden.write_bytes(good.replace(b'"name":"search"', b'"name":"find"'))
    outcome = goldens.check(capture, update=True)
    assert (outcome.status, outcome.detail) == ("updated", "call 0 name find → search")
    assert golden.read_bytes() == good
    assert goldens.check(capture, update=True).status == "unchanged"
    golden.unlink()
    assert goldens.check(capture).status == "missing"
    assert goldens.check(capture, update=True).status == "created"


def test_a_bad_sidecar_is_an_error_naming_the_file(library: Path) -> None:
    capture = library / "kimi-format-none.sse"
    goldens.args_path(capture).write_text("--format nope\n")
    outcome = goldens.check(capture)
    assert outcome.status == "error"
    assert "kimi-format-none.sse.args" in outcome.detail and "'nope'" in outcome.detail


@pytest.mark.parametrize(
    ("old", "new", "summary"),
    [
        pytest.param(b'"finish_reason":"tool_calls"', b'"finish_reason":"stop"',
                     "finish_reason tool_calls → stop", id="finish-reason"),
        pytest.param(b"a.example", b"c.example", "call 1 arguments differ", id="arguments"),
        pytest.param(b"functions.fetch:2", b"fetch-2", "call 2 id functions.fetch:2 → fetch-2", id="call-id"),
        pytest.param(b"\n\ndata: [DONE]\n\n", b"\n\n", "[DONE] lost; events 24 → 23", id="done"),
    ],
)
def test_summaries_name_the_change(old: bytes, new: bytes, summary: str) -> None:
    golden = goldens.golden_path(SSE_LOGS / "kimi-two-sections.sse").read_bytes()
    assert old in golden
    assert goldens.compare(golden, golden.replace(old, new))[1] == summary


def test_same_assembled_result_is_said_so() -> None:
    golden = goldens.golden_path(SSE_LOGS / "kimi-two-sections.sse").read_bytes()
    diff, summary = goldens.compare(golden, golden.replace(b"\n\n", b"\r\n\r\n", 1))
    assert summary == "same assembled result; only the bytes differ"
    assert diff.startswith("--- golden (golden)\n+++ golden (now)\n")


def test_output_without_openai_choices_points_at_the_diff() -> None:
    before = b'event: message_start\ndata: {"type": "message_start"}\n\n'
    assert goldens.compare(before, before.replace(b"start", b"stop"))[1] == (
        "output differs; it holds no choices or content blocks to compare (see the diff)"
    )


def test_anthropic_output_is_compared_by_its_blocks() -> None:
    golden = goldens.golden_path(SSE_LOGS / "anthropic-kimi-reasoning-tool.sse").read_bytes()
    changed = golden.replace(b"ls -la", b"ls -l", 1).replace(b'"thinking":" user"', b'"thinking":" "', 1)
    assert goldens.compare(golden, changed)[1] == "thinking lost 4 chars; call 0 arguments differ"


def test_report_and_exit_codes(library: Path) -> None:
    capture = library / "kimi-format-none.sse"
    outcomes = [goldens.check(capture), goldens.Outcome(capture, "fail", "x", "diff text\n")]
    text = goldens.report(outcomes)
    assert text.splitlines()[:2] == ["PASS      kimi-format-none.sse", "FAIL      kimi-format-none.sse  x"]
    assert "diff text" in text and text.endswith("2 captures: 1 pass, 1 fail\n")
    assert goldens.exit_code(outcomes[:1]) == 0
    assert goldens.exit_code(outcomes) == 1
    assert goldens.exit_code([*outcomes, goldens.Outcome(capture, "missing")]) == 2


def _reads(data: bytes, sizes: Iterator[int]) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        size = next(sizes)
        yield data[start : start + size]
        start += size


@pytest.mark.parametrize("reads", ["1 to 16 bytes", "4096 bytes"])
@pytest.mark.parametrize("capture", CAPTURES, ids=[capture.name for capture in CAPTURES])
def test_goldens_do_not_depend_on_read_sizes(capture: Path, reads: str) -> None:
    """Reads of 1 to 16 bytes (seeded by the capture's name: a cut at every kind of place,
    one-byte reads among them) or of 4096 bytes give the golden's bytes."""
    data = capture.read_bytes()
    rewriter = StreamRewriter(goldens.load_options(capture))
    draw = random.Random(capture.name)
    small = (draw.randint(1, 16) for _ in itertools.count())
    sizes = small if reads.startswith("1 ") else itertools.repeat(4096)
    out = [item for read in _reads(data, sizes) for item in rewriter.feed(read)]
    out += rewriter.flush()
    output = b"".join(item for item in out if isinstance(item, bytes))
    assert output == goldens.golden_path(capture).read_bytes()


def test_the_streamed_arguments_goldens_assemble_to_whole_calls() -> None:
    golden = goldens.golden_path(SSE_LOGS / "anthropic-kimi-stream-arguments.sse").read_bytes()
    message = anthropic_final(golden)
    assert [block.type for block in message.content] == ["text", "tool_use", "text"]
    arguments = {"path": "notes.md", "content": "# Notes\n\n- one\n- two <|tool_call_end|> in a string\n"}
    assert message.content[1].input == arguments
    final = openai_state(goldens.golden_path(SSE_LOGS / "kimi-stream-arguments.sse").read_bytes())
    [call] = final.choices[0].message.tool_calls
    assert call.function.arguments == json.dumps(arguments)
