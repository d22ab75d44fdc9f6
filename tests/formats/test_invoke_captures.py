"""The invoke family's captures in `sse_logs/` (`make_invoke_captures.py`) give the expected calls and text
(openai SDK as oracle); their goldens are checked byte for byte by `tests/test_goldens.py`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.chunking import rewrite_stream
from tests.oracles import openai_final

SSE_LOGS = Path(__file__).parents[2] / "sse_logs"
FILTERS = {"lang": ["zh", "en"], "limit": 5}
WEATHER = [
    ("get_weather", {"location": "杭州", "days": 3}),
    ("search", {"query": 'west lake "boats"', "filters": FILTERS}),
]
EXPECTED = {
    "dsml-v32-parallel": ("I'll look up both.\n\n", WEATHER),
    "dsml-v4-think": ("", [("bash", {"command": "ls -la src/"})]),
    "dsml-inside-think": ("", [("bash", {"command": "ls"})]),
    "dsml-v41-relabelled": ("Reading it now.", [("read_file", {"path": "README.md"})]),
    "dsml-damaged": ("Two edits.\n Done.", [("edit", {"path": "a.py", "line": 12}), ("noop", {})]),
    "dsml-marker-less": ("Checking the time.\n", [("get_time", {"tz": "Asia/Shanghai"})]),
    "dsml-in-reasoning": ("ok", [("lookup", {"id": 42})]),
    "minimax-m2-think": (
        "\n\n",
        [("get_weather", {"city": "Paris", "days": 2}), ("get_weather", {"city": "Lyon"})],
    ),
    "minimax-m2-bare": ("\nRunning it.\n", [("bash", {"command": "git status"})]),
    "minimax-m3": ("Listing.\n", [("list_dir", {"dir": "docs/"})]),
    "minimax-hash-calls": (
        "Creating the folder, then the notes.\n\n",
        [
            ("file_toolkit", {"operation": "create_directory", "path": "notes"}),
            ("file_toolkit", {"operation": "write_file", "path": "notes/a.md",
                              "content": "# Notes\n\n- first"}),
        ],
    ),
    "minimax-m3-stripped": ("Listing.\n", [("list_dir", {"dir": "docs/", "depth": 1})]),
    "minimax-m2-unangled": ("\n\nListing them.\n", [("bash", {"command": "ls -la"})]),
    "minicpm5-byte-level": ("ReadingĠtheĠfile.Ċ", [("read_file", {"path": "my notes.md"})]),
}


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_capture_gives_the_expected_calls_and_text(stem: str) -> None:
    choice = openai_final(rewrite_stream((SSE_LOGS / f"{stem}.sse").read_bytes()), chunk=11).choices[0]
    content, expected = EXPECTED[stem]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == content
    assert [
        (c.function.name, json.loads(c.function.arguments)) for c in choice.message.tool_calls
    ] == expected


@pytest.mark.parametrize(
    ("stem", "reasoning"),
    [
        ("dsml-inside-think", "A listing first.\n"),
        ("minimax-m3-stripped", "The user wants the docs folder."),
        ("minimax-m2-unangled", "The user wants the files."),
    ],
)
def test_reasoning_in_the_capture_moves_to_the_reasoning_field(stem: str, reasoning: str) -> None:
    stream = (SSE_LOGS / f"{stem}.sse").read_bytes()
    message = openai_final(rewrite_stream(stream), chunk=11).choices[0].message
    assert message.model_extra["reasoning_content"] == reasoning
