"""`--to anthropic` with native parallel calls whose argument deltas interleave: every argument kept."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.anthropic_streams import events, to_anthropic
from tests.chunking import field_stream, split
from tests.oracles import anthropic_final

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


def native_call(index: int, arguments: str, name: str | None = None) -> dict[str, object]:
    """One `tool_calls` entry: with `name`, the call's header (id, type, name) as its first delta."""
    if name is None:
        return {"index": index, "function": {"arguments": arguments}}
    return {"index": index, "id": f"call_{index}", "type": "function",
            "function": {"name": name, "arguments": arguments}}


def tool_inputs(body: bytes) -> list[tuple[str, Any]]:
    """(name, input) of every tool_use block in the message the SDK assembles."""
    return [(b.name, b.input) for b in anthropic_final(body).content if b.type == "tool_use"]


@pytest.mark.parametrize(
    "calls",
    [
        pytest.param([native_call(0, "", "f"), native_call(1, "", "g"), native_call(0, '{"a": 1}'),
                      native_call(1, '{"b": 2}')], id="headers-first"),
        pytest.param([native_call(0, '{"a"', "f"), native_call(1, '{"b": 2', "g"), native_call(0, ": 1}"),
                      native_call(1, "}")], id="interleaved"),
        pytest.param([native_call(0, "{", "f"), native_call(1, "{}", "g"), native_call(0, '"a": 1}')],
                     id="first-call-ends-after-the-second"),
    ],
)
def test_parallel_calls_whose_arguments_interleave_keep_every_argument(
    calls: list[dict[str, object]],
) -> None:
    body, notices = to_anthropic(field_stream([{"tool_calls": [call]} for call in calls], "tool_calls"))
    assert tool_inputs(body) == [("f", {"a": 1}), ("g", {"b": 2} if len(calls) == 4 else {})]
    assert notices == []


def test_a_call_whose_arguments_are_whole_closes_when_the_next_starts() -> None:
    calls = [native_call(0, '{"a": 1}', "f"), native_call(1, '{"b"', "g")]
    stream = field_stream([{"tool_calls": [call]} for call in calls], None)
    body, _ = to_anthropic(stream)
    names = [(name, p.get("index")) for name, p in events(body)]
    # the first block closed and the second opened as its call arrived, not at the end
    assert names[1:5] == [("content_block_start", 0), ("content_block_delta", 0),
                          ("content_block_stop", 0), ("content_block_start", 1)]


def test_arguments_after_text_closed_the_call_are_dropped_with_a_notice() -> None:
    deltas = [{"tool_calls": [native_call(0, "{", "f")]}, {"content": "Done."},
              {"tool_calls": [native_call(0, "}")]}]
    body, notices = to_anthropic(field_stream(deltas, "tool_calls"))
    assert [n.code for n in notices] == ["late-tool-arguments"]
    assert [name for name, _ in events(body)].count("content_block_start") == 2


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_interleaving_of_parallel_calls_gives_every_input(data: st.DataObject) -> None:
    inputs = data.draw(st.lists(st.dictionaries(st.sampled_from("xyz"), st.integers(-999, 999), max_size=2),
                                min_size=1, max_size=3))
    pieces = [list(split(orjson.dumps(value).decode(), data.draw(st.integers(1, 6)))) for value in inputs]
    # any order of the pieces that keeps each call's own order; calls may start in any order
    order = data.draw(st.permutations([i for i, call in enumerate(pieces) for _ in range(len(call))]))
    started: set[int] = set()
    deltas: list[dict[str, object]] = []
    for index in order:
        piece = pieces[index].pop(0)
        name = None if index in started else f"f{index}"
        started.add(index)
        deltas.append({"tool_calls": [native_call(index, piece, name)]})
    body, notices = to_anthropic(field_stream(deltas, "tool_calls"))
    first_seen = sorted(range(len(inputs)), key=order.index)
    assert tool_inputs(body) == [(f"f{i}", inputs[i]) for i in first_seen]
    assert notices == []
