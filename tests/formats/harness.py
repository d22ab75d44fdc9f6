"""The damage harness every syntax's tests share (docs/behaviour.md, "Damage"): a row of a
`*_rows.py` table in parsers at every cut and end to end through the openai SDK, and the
checks each syntax must pass (the cap, invalid UTF-8, prose after an opener).

A row is `(text in, calls as (name, arguments), text kept, notice codes)` (`damage_types.Expected`)
or, for the syntaxes with a reasoning field, `(text in, calls, text kept, reasoning, notice
codes)` (`harmony_rows.Row`); `expectation` reads either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import orjson
import pytest

from sse_rewrite.formats import FORMATS, ToolSyntax
from tests.chunking import (
    calls,
    chunk_event,
    codes,
    every_cut,
    feed_pieces,
    reasoning,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.oracles import openai_final


class Expectation(NamedTuple):
    """What a row's text must give, in any parser and any cutting."""

    text: str
    calls: list[tuple[str, str]]
    kept: str
    notices: set[str]
    reasoning: str = ""


def expectation(row: tuple[Any, ...], reasoning: str = "") -> Expectation:
    """A row of any table as an `Expectation` (a 5-tuple holds the reasoning before the notices;
    a table of 4-tuples may give it beside the row, as `list_rows.REASONING` does)."""
    if len(row) == 5:
        text, expected_calls, kept, thought, notices = row
        return Expectation(text, expected_calls, kept, notices, thought)
    return Expectation(*row, reasoning)


def cases(rows: Mapping[str, Mapping[str, object]]) -> list[Any]:
    """One pytest param `(group, row)` for every row of `rows[group]`."""
    return [pytest.param(group, row, id=f"{group}-{row}") for group, table in rows.items() for row in table]


def three_characters(text: str) -> list[str]:
    """`text` as 3-character tokens."""
    return [text[i : i + 3] for i in range(0, len(text), 3)]


def row_at_every_cut(name: str, factory: Callable[[], ToolSyntax], row: Expectation) -> None:
    """The row's text through `factory`'s parsers whole, at the sizes of `chunkings` and cut in
    two at every point: the same pieces each time, nothing lost, and the row's result."""
    out = every_cut(factory, row.text)
    assert [(c[1], c[2]) for c in calls(out)] == row.calls, name
    assert texts(out) == row.kept, name
    assert reasoning(out) == row.reasoning, name
    assert row.notices <= codes(out), name


def row_in_parsers(names: Iterable[str], row: Expectation) -> None:
    """`row_at_every_cut` in each named parser of `FORMATS`."""
    for name in names:
        row_at_every_cut(name, FORMATS[name], row)


def fields(body: bytes) -> dict[str, str]:
    """Each delta text field of an output stream, joined."""
    joined: dict[str, str] = {}
    for line in body.split(b"\n"):
        if line.startswith(b"data: {"):
            for choice in orjson.loads(line[6:])["choices"]:
                for key, value in choice["delta"].items():
                    if isinstance(value, str) and key != "role":
                        joined[key] = joined.get(key, "") + value
    return joined


def row_through_the_sdk(body: bytes, row: Expectation, finished: bool = True) -> None:
    """An output stream, assembled by the openai SDK, holds the row's text, calls and reasoning
    (and, `finished`, the finish reason its calls give)."""
    final = openai_final(body, chunk=7).choices[0]
    assert (final.message.content or "") == row.kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == row.calls
    if finished:
        assert final.finish_reason == ("tool_calls" if row.calls else "stop")
    assert fields(body).get("reasoning_content", "") == row.reasoning


def tokens_through_the_sdk(tokens: list[str], row: Expectation, **options: Any) -> None:
    """The row's text as `tokens`, one a chunk, through the rewriter with `options`: `row_through_the_sdk`."""
    row_through_the_sdk(rewrite_stream(token_stream(tokens), **options), row)


def prose_released_at_once(names: Iterable[str], prose: str) -> None:
    """An opener followed by prose is text at once: nothing held after the feed."""
    for name in names:
        parser = FORMATS[name]()
        assert texts(parser.feed(prose)) == prose, name
        assert not parser.pending, name


def over_the_cap_released(fmt: str, names: Iterable[str], opener: str, later_call: str) -> None:
    """A call growing past the cap (100 bytes) comes out as text with a notice, and the scan
    resumes: `later_call` is still read, in each parser and end to end with `--format fmt`."""
    held = opener + "x" * 200
    for name in names:
        out = feed_pieces(FORMATS[name](100), [held, " then\n", later_call])
        assert texts(out) == held + " then\n", name
        assert [c[1] for c in calls(out)] == ["b"], name
        assert "section-cap" in codes(out), name
        assert rejoin(out) == held + " then\n" + later_call
    stream = token_stream([*three_characters(held), " then\n", later_call])
    final = openai_final(rewrite_stream(stream, format=fmt, max_section_bytes=100)).choices[0]
    assert final.message.content == held + " then\n"
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


def invalid_utf8_replaced_only_where_rewritten(fmt: str, call: str) -> None:
    """Invalid UTF-8 passes byte for byte in an untouched event and is replaced in a rewritten
    one (the event holding `call`, a call to `b`)."""
    plain = chunk_event({"content": "plain @@ text\n"}).replace(b"@@", b"\xff")
    rewritten = chunk_event({"content": call + "\n@@ after"}).replace(b"@@", b"\xfe")
    body = rewrite_stream(plain + rewritten + b"data: [DONE]\n\n", format=fmt)
    assert body.startswith(plain)  # passed through byte for byte
    assert "\ufffd after".encode() in body  # replaced inside the rewritten text
    final = openai_final(body.removeprefix(plain)).choices[0]  # the SDK rejects the invalid bytes
    assert [c.function.name for c in final.message.tool_calls] == ["b"]
