"""The damage table (docs/behaviour.md, "Damage") for the marker-then-list syntaxes.

As `test_damage.py` does for the others: each row runs through its format's parser and
the `auto` compositions that contain it, whole, at the sizes of `chunkings` and cut in two
at every point, and end to end through the rewriter and the openai SDK.
"""

from __future__ import annotations

import pytest

from sse_rewrite.events import Reasoning
from sse_rewrite.formats import FORMATS
from tests.chunking import (
    calls,
    chunk_event,
    codes,
    every_cut,
    feed_pieces,
    rejoin,
    rewrite_stream,
    texts,
    token_stream,
)
from tests.formats.list_rows import FORMAT, GQ, PARSERS, REASONING, ROWS, gemma, lfm2, mistral, python_tag
from tests.oracles import openai_final
from tests.rewrite_runs import chunks

CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_in_the_parser_at_every_cut(fmt: str, row: str) -> None:
    text, expected_calls, kept, notices = ROWS[fmt][row]
    for name in PARSERS[fmt]:
        out = every_cut(FORMATS[name], text)
        assert [(c[1], c[2]) for c in calls(out)] == expected_calls, name
        assert texts(out) == kept, name
        assert "".join(p.text for p in out if isinstance(p, Reasoning)) == REASONING.get((fmt, row), ""), name
        assert notices <= codes(out), name


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_row_end_to_end_through_the_openai_sdk(fmt: str, row: str) -> None:
    text, expected_calls, kept, _ = ROWS[fmt][row]
    tokens = [text[i : i + 3] for i in range(0, len(text), 3)]
    body = rewrite_stream(token_stream(tokens), format=FORMAT.get(fmt, fmt))
    final = openai_final(body, chunk=7).choices[0]
    assert (final.message.content or "") == kept
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls or []] == expected_calls
    assert final.finish_reason == ("tool_calls" if expected_calls else "stop")
    deltas = [choice["delta"] for chunk in chunks(body) for choice in chunk["choices"]]
    assert "".join(d.get("reasoning_content") or "" for d in deltas) == REASONING.get((fmt, row), "")


PROSE_AT_ONCE = {
    "mistral": "The [TOOL_CALLS] token, then",
    "llama": "The <|python_tag|> token is",
    "lfm2": "The <|tool_call_start|> token is",
    "gemma": "The <|tool_call> token is",
}


@pytest.mark.parametrize("fmt", list(PROSE_AT_ONCE))
def test_prose_after_an_opener_is_released_without_waiting(fmt: str) -> None:
    for name in PARSERS[fmt]:
        parser = FORMATS[name]()
        assert texts(parser.feed(PROSE_AT_ONCE[fmt])) == PROSE_AT_ONCE[fmt], name
        assert not parser.pending, name


CAP_OPENERS = {
    "mistral": '[TOOL_CALLS]a[ARGS]{"d": "',
    "llama": '<|python_tag|>{"name": "a", "parameters": {"d": "',
    "lfm2": '<|tool_call_start|>[a(d="',
    "gemma": f"<|tool_call>call:a{{d:{GQ}",
}
LATER_CALL = {
    "mistral": mistral("b", "{}"),
    "llama": python_tag("b", "{}"),
    "lfm2": lfm2("b", ""),
    "gemma": gemma("b", ""),
}


@pytest.mark.parametrize("fmt", list(CAP_OPENERS))
def test_a_call_over_the_cap_is_released_and_scanning_resumes(fmt: str) -> None:
    held = CAP_OPENERS[fmt] + "x" * 200
    for name in PARSERS[fmt]:
        out = feed_pieces(FORMATS[name](100), [held, " then\n", LATER_CALL[fmt]])
        assert texts(out) == held + " then\n", name
        assert [c[1] for c in calls(out)] == ["b"], name
        assert "section-cap" in codes(out), name
        assert rejoin(out) == held + " then\n" + LATER_CALL[fmt]
    stream = token_stream([held[i : i + 3] for i in range(0, len(held), 3)] + [" then\n", LATER_CALL[fmt]])
    final = openai_final(rewrite_stream(stream, format=fmt, max_section_bytes=100)).choices[0]
    assert final.message.content == held + " then\n"
    assert [c.function.name for c in final.message.tool_calls] == ["b"]


@pytest.mark.parametrize("fmt", list(LATER_CALL))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(fmt: str) -> None:
    plain = chunk_event({"content": "plain @@ text\n"}).replace(b"@@", b"\xff")
    rewritten = chunk_event({"content": LATER_CALL[fmt] + "\n@@ after"}).replace(b"@@", b"\xfe")
    body = rewrite_stream(plain + rewritten + b"data: [DONE]\n\n", format=fmt)
    assert body.startswith(plain)  # passed through byte for byte
    assert "\ufffd after".encode() in body  # replaced inside the rewritten text
    final = openai_final(body.removeprefix(plain)).choices[0]  # the SDK rejects the invalid bytes
    assert [c.function.name for c in final.message.tool_calls] == ["b"]
