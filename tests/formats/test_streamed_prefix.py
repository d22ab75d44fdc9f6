"""`--stream-arguments` extends, never contradicts: for every syntax, every cut and every value
shape, what was streamed is a prefix of the final arguments, and the final arguments are the
default mode's, byte for byte (docs/behaviour.md, "Streamed arguments").

The property is one table, `SYNTAXES`: a syntax is one row naming the parsers that read it,
how a call is written in it, and the markers that end a value written raw (a value holding
one is not the value the render meant, so the calls are then not counted).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.stream.events import ArgumentsDelta, CallStart, Notice, Piece, Text, ToolCall
from tests.chunking import calls, cut, feed_pieces, rejoin, split, texts
from tests.formats.damage_rows import DEEPSEEK, KIMI
from tests.formats.invoke_text import BAR, dsml, invoke, m2, m2_invoke

Pairs = list[tuple[str, str]]
"""A call's parameters as `(key, value)`; the value is raw text (JSON syntaxes write it as a string)."""


def json_arguments(pairs: Pairs, spacing: str) -> str:
    """The pairs as a JSON object, laid out by `spacing` (`""` compact, `"\\n"` indented, `" "` as json)."""
    body = dict(pairs)
    if spacing == "":
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    if spacing == "\n":
        return json.dumps(body, ensure_ascii=False, indent=1)
    return json.dumps(body, ensure_ascii=False)


def tokens(t: dict[str, str], header: str, pairs: Pairs, spacing: str) -> str:
    arguments = f"{spacing}{json_arguments(pairs, spacing)}{spacing}"
    return f"{t['sb']}{t['cb']}{header}{t['ab']}{arguments}{t['ce']}{t['se']}"


def kimi(name: str, pairs: Pairs, spacing: str) -> str:
    return tokens(KIMI, f"functions.{name}:0", pairs, spacing)


def deepseek(name: str, pairs: Pairs, spacing: str) -> str:
    return tokens(DEEPSEEK, name, pairs, spacing)


def hermes(name: str, pairs: Pairs, spacing: str) -> str:
    arguments = json_arguments(pairs, spacing)
    return f'<tool_call>\n{{"name": "{name}", "arguments": {arguments}}}{spacing}\n</tool_call>'


def qwen_params(pairs: Pairs, spacing: str) -> str:
    return "".join(f"<parameter={key}>{spacing}\n{value}\n</parameter>\n" for key, value in pairs)


def qwen(name: str, pairs: Pairs, spacing: str) -> str:
    return f"<tool_call>\n<function={name}>\n{qwen_params(pairs, spacing)}</function>\n</tool_call>"


def qwen_bare(name: str, pairs: Pairs, spacing: str) -> str:
    return f"<function={name}>\n{qwen_params(pairs, spacing)}</function>"


def glm(name: str, pairs: Pairs, spacing: str) -> str:
    body = "".join(f"<arg_key>{k}</arg_key>{spacing}\n<arg_value>{v}</arg_value>\n" for k, v in pairs)
    return f"<tool_call>{name}\n{body}</tool_call>"


def dsml_call(name: str, pairs: Pairs, spacing: str) -> str:
    return dsml(invoke(name, *((key, value, "true") for key, value in pairs)))


def minimax_call(name: str, pairs: Pairs, spacing: str) -> str:
    return m2(m2_invoke(name, **dict(pairs)))


def harmony_call(name: str, pairs: Pairs, spacing: str) -> str:
    arguments = json_arguments(pairs, spacing)
    head = f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
    return f"{head}<|message|>{arguments}<|call|>"


def mistral_call(name: str, pairs: Pairs, spacing: str) -> str:
    return f"[TOOL_CALLS]{name}[ARGS]{json_arguments(pairs, spacing)}"


@dataclass(frozen=True)
class Syntax:
    """One row of the property: the parsers reading a syntax, and how it writes a call."""

    parsers: tuple[str, ...]
    render: Callable[[str, Pairs, str], str]
    """`(name, pairs, spacing)` -> one call; `spacing` is free layout the syntax allows."""
    closers: tuple[str, ...] = ()
    """Markers that end a raw value early (none for values written as JSON strings)."""


SYNTAXES: dict[str, Syntax] = {
    "kimi": Syntax(("kimi", "special-tokens", "glm+special-tokens"), kimi),
    "deepseek": Syntax(("deepseek", "special-tokens", "hermes+special-tokens"), deepseek),
    "hermes": Syntax(("hermes", "qwen+special-tokens"), hermes),
    "qwen3-coder": Syntax(("qwen3-coder", "qwen+special-tokens"), qwen,
                          ("</parameter>", "<parameter=", "</function>", "<tool_call>")),
    "qwen3-coder bare": Syntax(("qwen3-coder", "qwen+special-tokens"), qwen_bare,
                               ("</parameter>", "<parameter=", "</function>", "<tool_call>")),
    "glm": Syntax(("glm", "glm+special-tokens"), glm, ("</arg_value>", "<tool_call>")),
    "harmony": Syntax(("harmony",), harmony_call),
    "dsml": Syntax(("dsml",), dsml_call,  # (inside a marked block, unmarked tags count too)
                   (f"</{BAR}parameter>", f"</{BAR}invoke>", f"<{BAR}",
                    "</parameter>", "</invoke>", "<parameter", "<invoke")),
    "minimax": Syntax(("minimax",), minimax_call, ("</parameter>", "</invoke>", "<parameter", "<invoke")),
    "mistral": Syntax(("mistral", "mistral+special-tokens"), mistral_call),
}  # fmt: skip
"""Every syntax `--stream-arguments` streams (Kimi K3 sends its calls whole); a new
syntax is one more row."""

LOOKALIKES = [
    "", " ", "\n", "\n\n", " \n", "\t", "\r\n", "\\", '"', "\\n", "{", "}", "[1]", "1", "-0.5", "true",
    "null", '{"a": 1}', "é", "🙂", "\u2028", "<", ">", "</", "<|", "|>", "<parameter=", "</parameter",
    "</function>", "<arg_value>", "</arg_key>", "</tool_call>", "<tool_call", "<|tool_call_end|>",
    DEEPSEEK["ce"], "x",
]  # fmt: skip
"""Pieces values are made of: spacing at either end, empty values, JSON look-alikes, markers' look-alikes."""

values = st.lists(st.sampled_from(LOOKALIKES) | st.text(" \nab<>/é\\\"", max_size=3), max_size=5).map("".join)
keys = st.sampled_from(["path", "content", "a", "é_k", "n2"])


def streamed(name: str, pieces: list[str]) -> tuple[list[Piece], str]:
    """The pieces a streaming parser gives for `pieces`, checked in order; and the deltas'
    text of each call, joined, must begin its final arguments."""
    out = feed_pieces(FORMATS[name](stream_arguments=True), pieces)
    sent: str | None = None
    for piece in out:
        if isinstance(piece, CallStart):
            sent = ""
        elif isinstance(piece, ArgumentsDelta):
            assert sent is not None, "argument text outside an announced call"
            sent += piece.text
        elif isinstance(piece, ToolCall) and sent is not None:
            assert piece.arguments.startswith(sent), (piece.arguments, sent)
            sent = None
        elif isinstance(piece, Text):
            assert sent is None, "text inside an announced call"
    return out, "".join(pieces)


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    calls_pairs=st.lists(st.lists(st.tuples(keys, values), min_size=1, max_size=3), min_size=1, max_size=2),
    spacing=st.sampled_from(["", " ", "\n"]),
    data=st.data(),
)
def test_streamed_arguments_are_a_prefix_of_the_default_modes(
    syntax: str, calls_pairs: list[Pairs], spacing: str, data: st.DataObject
) -> None:
    row = SYNTAXES[syntax]
    calls_pairs = [list(dict(pairs).items()) for pairs in calls_pairs]  # (a key once a call)
    rendered = "\n".join(row.render(f"f{i}", pairs, spacing) for i, pairs in enumerate(calls_pairs))
    text = f"Let me look.\n{rendered} done"
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=6), label="cuts")
    for name in row.parsers:
        reference = feed_pieces(FORMATS[name](), [text])
        for pieces in ([text], cut(text, points), list(split(text, 1))):
            out, fed = streamed(name, pieces)
            assert rejoin(out) == fed
            notices = [p.message for p in out if isinstance(p, Notice)]
            assert not [m for m in notices if "kept as streamed" in m], (name, notices)
            if not [m for m in notices if "already streamed" in m]:
                assert (calls(out), texts(out)) == (calls(reference), texts(reference)), name
        clean = not any(c in v for c in row.closers for p in calls_pairs for _, v in p)
        if clean:
            assert len(calls(reference)) == len(calls_pairs), (name, reference)
