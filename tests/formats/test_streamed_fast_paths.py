"""The parsers' fast paths inside a call decide nothing of their own, for every syntax of
`SYNTAXES`, streaming arguments or not: after every text, the pieces, `pending` and
`undecided` are those of the same parser fed every text.

- `absorb` (runs of texts, as the token-run accelerator offers them), inside a body of any
  syntax: `<tool_call>` XML and GLM values included;
- `absorb_arguments` and `absorb_argument` (with `--stream-arguments`: runs of texts, or one,
  that only stream more of the announced call) give as each text's argument text what `feed`
  hands back for it as one `ArgumentsDelta`.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.machines._streamed_call import settled_texts
from sse_rewrite.formats.syntax import ToolSyntax
from sse_rewrite.stream.events import ArgumentsDelta, Piece
from tests.formats.test_streamed_prefix import SYNTAXES, keys, values

Step = tuple[list[Piece], bool, int]


def fast(parser: ToolSyntax, texts: list[str], windows: list[int], streams: bool) -> list[Step]:
    """Each text's pieces, `pending` and `undecided` after it: runs offered to `absorb`, then
    (streaming) runs to `absorb_arguments`, then one text to `feed`."""
    out: list[Step] = []
    pos, sizes = 0, iter(windows)
    while pos < len(texts):
        taken = parser.absorb(texts[pos : pos + next(sizes, 1)])
        out += [([], parser.pending, parser.undecided)] * taken
        pos += taken
        if pos == len(texts):
            break
        window = next(sizes, 1)
        if not streams:
            streamed = []
        elif window == 1:  # (the one-text path)
            one = parser.absorb_argument(texts[pos])
            streamed = [] if one is None else [one]
        else:
            streamed = parser.absorb_arguments(texts[pos : pos + window])
        for text in streamed:  # (`pending` and `undecided` cannot change inside a call's arguments)
            out.append(([ArgumentsDelta(text)] if text else [], parser.pending, parser.undecided))
        pos += len(streamed)
        if not streamed and pos < len(texts):
            out.append((parser.feed(texts[pos]), parser.pending, parser.undecided))
            pos += 1
    return [*out, (parser.flush(), False, 0)]


def fed(parser: ToolSyntax, texts: list[str]) -> list[Step]:
    """The reference: every text fed."""
    return [*((parser.feed(t), parser.pending, parser.undecided) for t in texts), (parser.flush(), False, 0)]


@settings(max_examples=150, deadline=None)
@given(
    syntax=st.sampled_from(sorted(SYNTAXES)),
    calls_pairs=st.lists(st.lists(st.tuples(keys, values), min_size=1, max_size=3), min_size=1, max_size=2),
    spacing=st.sampled_from(["", " ", "\n"]),
    streams=st.booleans(),
    cap=st.sampled_from([80, 1 << 20]),
    data=st.data(),
)
def test_fast_paths_inside_a_call_change_nothing(
    syntax: str, calls_pairs: list[list[tuple[str, str]]], spacing: str, streams: bool, cap: int,
    data: st.DataObject,
) -> None:  # fmt: skip
    row = SYNTAXES[syntax]
    rendered = (row.render(f"f{i}", list(dict(p).items()), spacing) for i, p in enumerate(calls_pairs))
    text = "Go.\n" + "\n".join(rendered)
    cuts = sorted(data.draw(st.sets(st.integers(1, len(text) - 1), max_size=60), label="cuts"))
    texts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    windows = data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=30), label="windows")
    for name in row.parsers:
        got = fast(FORMATS[name](cap, stream_arguments=streams), texts, windows, streams)
        assert got == fed(FORMATS[name](cap, stream_arguments=streams), texts), name


@pytest.mark.parametrize("size", range(1, 8))
@pytest.mark.parametrize("window", [1, 3])
def test_a_json_body_head_is_announced_where_feeding_announces_it(size: int, window: int) -> None:
    """Hermes JSON bodies, streaming: the texts before the head shows are taken unfed, and
    the one that shows it is fed, in every cut of tokens of one size."""
    row = SYNTAXES["hermes"]
    text = "Go.\n" + row.render("write", [("path", "a.py"), ("content", '{"x": [1]}\n')], "\n")
    texts = [text[i : i + size] for i in range(0, len(text), size)]
    for name in row.parsers:
        got = fast(FORMATS[name](stream_arguments=True), texts, [window] * len(texts), True)
        assert got == fed(FORMATS[name](stream_arguments=True), texts), name


@pytest.mark.parametrize("size", range(1, 6))
@pytest.mark.parametrize("window", [4, 64])
def test_a_list_value_run_stops_before_a_trailing_backslash(size: int, window: int) -> None:
    """Mistral values, streaming: a run of texts is taken up to one ending in a backslash
    (whose escape may not be whole), also when a text holds a backslash before a NUL (what the
    run's one search for a trailing backslash looks for), in every cut of one size."""
    row = SYNTAXES["mistral"]
    text = 'Go.\n[TOOL_CALLS]run[ARGS]{"cmd": "a\\\\\x00b \\"q\\" \\\\n", "n": "\x00\\\\"}'
    texts = [text[i : i + size] for i in range(0, len(text), size)]
    for name in row.parsers:
        got = fast(FORMATS[name](stream_arguments=True), texts, [window] * len(texts), True)
        assert got == fed(FORMATS[name](stream_arguments=True), texts), name



# JSON bodies whose arguments value closes before the body does: members after it (with
# brackets and escapes in their strings), an array value, words or a partial close after the
# body, and bodies never streamed (arguments as a string, or a head not first, shown too late).
JSON_BODY_RESTS = [
    '{"name": "w", "arguments": {"p": "a]}.py", "n": [1, {"k": "}"}]}, "id": "c]\\"}"}\n</tool_call>',
    '{"name": "w", "arguments": [1, "]"] , "x": {"y": []}}  \n </tool_call> ok',
    '{"name": "w", "arguments": {"a": 1}}  words</tool_call>',
    '{"name": "w", "arguments": {"a": 1}} <x',
    '{"name": "w", "arguments": {"a": 1}}\n</tool_c',
    '{"name": "w", "arguments": "{\\"a\\": 1}", "x": "}"}\n</tool_call>',
    '{"arguments": {"a": "' + "x" * 300 + '}"}, "name": "w", "b": 2}\n</tool_call>',
]


@pytest.mark.parametrize("body", JSON_BODY_RESTS)
@pytest.mark.parametrize("size", range(1, 7))
@pytest.mark.parametrize("window", [1, 2, 64])
@pytest.mark.parametrize("cap", [90, 1 << 20])
def test_the_rest_of_a_json_body_is_taken_where_feeding_reads_it(
    body: str, size: int, window: int, cap: int
) -> None:  # fmt: skip
    """Hermes JSON bodies, streaming: the text that closes the arguments value streams up to
    its bracket (nothing if it closes the body too), and the body's rest is read as feeding
    reads it (the cap included), in every cut of one size."""
    text = "Go. <tool_call>\n" + body + " Done."
    texts = [text[i : i + size] for i in range(0, len(text), size)]
    for name in SYNTAXES["hermes"].parsers:
        got = fast(FORMATS[name](cap, stream_arguments=True), texts, [window] * len(texts), True)
        assert got == fed(FORMATS[name](cap, stream_arguments=True), texts), name


# JSON body heads: spaced, not ASCII, escaped, longer than the lookahead (a name, or spacing
# before the value), `parameters` with an array, and a head not first.
_JSON_HEADS = [
    '{ "name" :\t"w" ,\n "arguments" :  \n {"a": 1}}',
    '{"name": "wé", "arguments": {"a": "é"}}',
    '{"name": "a\\"b", "arguments": {"a": 1}}',
    '{"name": "' + "n" * 300 + '", "arguments": {"a": 1}}',
    '{"name": "w", "arguments":' + " " * 300 + '{"a": 1}}',
    '{"name": "w", "parameters": [1, 2]}',
    '{"name": "w", "id": "' + "i" * 300 + '", "arguments": {"a": 1}}',
    *('{"name": "w",' + " " * spaces + '"arguments": {"a": 1}}' for spaces in (276, 278)),  # (by 300 or not)
]


@pytest.mark.parametrize("body", _JSON_HEADS)
@pytest.mark.parametrize("size", [1, 2, 3, 5])
@pytest.mark.parametrize("window", [1, 4, 400])
@pytest.mark.parametrize("cap", [160, 1 << 20])
def test_a_json_body_head_run_takes_what_each_text_in_turn_takes(
    body: str, size: int, window: int, cap: int
) -> None:  # fmt: skip
    """Hermes JSON bodies, streaming: the texts before the head shows, taken in runs (in one
    match when they are ASCII) as each would be in turn (the cap included), in every cut of
    one size."""
    text = "Go. <tool_call>" + body + "\n</tool_call>"
    texts = [text[i : i + size] for i in range(0, len(text), size)]
    for name in SYNTAXES["hermes"].parsers:
        got = fast(FORMATS[name](cap, stream_arguments=True), texts, [window] * len(texts), True)
        assert got == fed(FORMATS[name](cap, stream_arguments=True), texts), name


@pytest.mark.parametrize(
    ("opening", "rest"),
    [('{"name": "w", "arguments": {"a"', ": 1"), ('{"name": "w", "arguments":', ' {"a": 1'),
     ('{"name"' + " " * 300, ': "w", "arguments": {"a": 1'), ('{"na', 'me": "w", "arguments": {"a": 1')],
)  # fmt: skip
@pytest.mark.parametrize("window", [1, 3, 64])
@pytest.mark.parametrize("streams", [False, True])
def test_a_text_opening_a_json_body_after_spacing_is_taken_where_feeding_decides_nothing(
    opening: str, rest: str, window: int, streams: bool
) -> None:  # fmt: skip
    """Hermes, after `<tool_call>` and spacing: the text that opens the JSON body is taken
    unless feeding it would decide something (streaming: show the head, or pass its lookahead)."""
    texts = ["Go. ", "<tool_call>", "\n", " ", opening, rest, "}}", "\n", "</tool_call>", " ok"]
    for name in SYNTAXES["hermes"].parsers:
        got = fast(FORMATS[name](stream_arguments=streams), texts, [window] * len(texts), streams)
        assert got == fed(FORMATS[name](stream_arguments=streams), texts), name


_MARKER = re.compile("(<[|\uff5c][^|\uff5c]*[|\uff5c]>)")  # (Kimi's and DeepSeek's tokens)


@pytest.mark.parametrize("syntax", ["kimi", "deepseek"])
@pytest.mark.parametrize("size", range(1, 6))
@pytest.mark.parametrize("window", [2, 3, 64])
def test_a_section_run_holds_the_spacing_at_a_text_end(syntax: str, size: int, window: int) -> None:
    """Kimi and DeepSeek arguments, streaming, in runs of texts (markers whole, the rest in
    every cut of one size): spacing at a text's end is held back (the trim may drop it), as
    feeding every text holds it."""
    row = SYNTAXES[syntax]
    text = "Go.\n" + row.render("run", [("cmd", "a b\u3000 c"), ("n", "")], " \n ")
    texts = []
    for part in _MARKER.split(text):
        whole = _MARKER.fullmatch(part) is not None
        texts += [part] if whole else [part[i : i + size] for i in range(0, len(part), size)]
    for name in row.parsers:
        got = fast(FORMATS[name](stream_arguments=True), texts, [window] * len(texts), True)
        assert got == fed(FORMATS[name](stream_arguments=True), texts), name


def _settled_one_by_one(texts: list[str], held: int, limit: int, stops: re.Pattern[str]) -> list[str]:
    """The reference for `settled_texts`: each text in turn, stopped by a stop or the cap."""
    taken = []
    for text in texts:
        held += 4 * len(text)
        if held > limit or stops.search(text):
            break
        taken.append(text)
    return taken


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text("ab}]<é", max_size=4), max_size=8), held=st.integers(0, 40),
       limit=st.integers(0, 60), stops=st.sampled_from([re.compile(r"[}\]]"), re.compile(r"[<}\]]")]))
def test_settled_texts_take_what_each_text_in_turn_takes(
    texts: list[str], held: int, limit: int, stops: re.Pattern[str]
) -> None:  # fmt: skip
    assert settled_texts(texts, held, limit, stops) == _settled_one_by_one(texts, held, limit, stops)
