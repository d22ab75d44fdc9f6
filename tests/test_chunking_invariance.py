"""The same result for any chunking, over every syntax and every capture (docs/behaviour.md,
"Chunking").

Every entry of the catalogue (`formats/catalogue/index.py`: new syntaxes join by being listed
there) and every capture in `sse_logs/` goes through the whole rewrite whole, one character per
event, one token per event (`chunking.tokens`: special tokens and tags whole, words,
punctuation) and at random cuts, with the accelerators on and off (`accelerators`) and with
and without `--stream-arguments`; a client assembles the same text per field, the same calls
(ids, names, arguments) and the same finish reason each time. A capture is re-cut by re-cutting
the text of its events in their own envelopes (`chunking.recut_stream`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sse_rewrite import goldens
from sse_rewrite.formats.catalogue.index import ENTRIES, Entry
from sse_rewrite.rewrite_options import RewriteOptions
from tests.chunking import chunk_event, recut_stream, settled, token_stream, tokens
from tests.fuzzing import pieces, rewrite

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

SSE_LOGS = Path(__file__).resolve().parent.parent / "sse_logs"
CAPTURES = [c for c in goldens.find_captures([SSE_LOGS]) if c.suffix == ".sse"]

CUTS: dict[str, Callable[[str], Iterable[str]]] = {"character": list, "token": tokens}
"""The deterministic re-cuts of a text, besides whole."""
SIZES = st.lists(st.integers(1, 9), min_size=1, max_size=6)
"""Random cuts of a text: the sizes of its pieces, in turn (`by_sizes`)."""
READS = st.lists(st.integers(0, 1 << 16), max_size=6)
"""Random cuts of the stream's bytes into reads (`fuzzing.pieces`)."""
STREAMED = [pytest.param(False, id="calls-whole"), pytest.param(True, id="stream-arguments")]
FIELDS = ["content", "reasoning_content"]
RANDOM = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
"""Bounded and derandomized: the same examples on every run, so that CI stays within budget and steady."""


def by_sizes(sizes: list[int]) -> Callable[[str], list[str]]:
    """A cut of a text into pieces of `sizes` characters, the sizes used in turn."""

    def cut(text: str) -> list[str]:
        out, at, turn = [], 0, 0
        while at < len(text):
            size = sizes[turn % len(sizes)]
            out.append(text[at : at + size])
            at, turn = at + size, turn + 1
        return out

    return cut


def entry_run(
    entry: Entry, field: str, streamed: bool, texts: Iterable[str], reads: list[int] | None = None
) -> object:
    """The settled result of `entry`'s leak sent as `texts` in `field`, under its first id (or its
    `--format` when no id writes it), the stream read in pieces at `reads` (None: whole)."""
    model = entry.ids[0] if entry.ids else "some-model"
    options = {"stream_arguments": streamed, **({} if entry.ids else {"format": entry.format})}
    body, _ = rewrite(token_stream(list(texts), field, model=model), reads or [], **options)
    return settled(body)


ENTRY_CASES = [pytest.param(entry, id=entry.name) for entry in ENTRIES]


@pytest.mark.parametrize("streamed", STREAMED)
@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("entry", ENTRY_CASES)
def test_every_syntax_any_cut(entry: Entry, field: str, streamed: bool) -> None:
    whole = entry_run(entry, field, streamed, [entry.example])
    assert whole[0][1] == [(whole[0][1][i][0], *call) for i, call in enumerate(entry.calls)]
    for name, cut in CUTS.items():
        assert entry_run(entry, field, streamed, cut(entry.example)) == whole, name


@RANDOM
@given(
    entry=st.sampled_from(ENTRIES),
    field=st.sampled_from(FIELDS), streamed=st.booleans(),
    sizes=SIZES, reads=READS,
)  # fmt: skip
def test_every_syntax_random_cuts(
    entry: Entry, field: str, streamed: bool, sizes: list[int], reads: list[int]
) -> None:
    whole = entry_run(entry, field, streamed, [entry.example])
    assert entry_run(entry, field, streamed, by_sizes(sizes)(entry.example), reads) == whole


def glued_cut(text: str) -> list[str] | None:
    """`text` cut two characters into its first marker, then just after the next `<` (a start
    `--think` holds while the completed marker opens syntax before it), then ended by `x` that
    makes the open syntax text again; None without such a `<`."""
    first = min((text.find(lead) for lead in "<[{|" if lead in text), default=-1)
    after = text.find("<", first + 2) if first >= 0 else -1
    return None if after < 0 else [text[: first + 2], text[first + 2 : after + 1], "x"]


GLUED_CASES = [pytest.param(entry, id=entry.name) for entry in ENTRIES if glued_cut(entry.example)]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("entry", GLUED_CASES)
def test_every_syntax_glued_cut(entry: Entry, field: str) -> None:
    """A marker cut in two, then a text ending in the start of another: each character once
    (the cut's characters were read as syntax, then sent again with the released text)."""
    texts = glued_cut(entry.example)
    assert texts is not None
    assert entry_run(entry, field, False, texts) == entry_run(entry, field, False, ["".join(texts)])


def capture_run(
    capture: Path, streamed: bool, cut: Callable[[str], Iterable[str]] | None, reads: list[int]
) -> object:
    """The settled result of `capture` with its own options (and `streamed`), its texts re-cut by
    `cut` (None: as captured), read in pieces at `reads`."""
    options = dataclasses.replace(goldens.load_options(capture), stream_arguments=streamed)
    data = capture.read_bytes()
    if cut is not None:
        data = recut_stream(data, cut)
    rewriter_options = {f.name: getattr(options, f.name) for f in dataclasses.fields(RewriteOptions)}
    body, _ = rewrite(data, reads, **rewriter_options)
    return settled(body)


RECUTS: dict[str, tuple[Callable[[str], Iterable[str]], bool]] = {
    "whole": (lambda text: [text], False), "token": (tokens, False), "token-streamed": (tokens, True),
    "character": (list, False),
}
"""A capture's re-cuts (one character per event with streamed arguments: the entries' test has it,
and its cost on every capture would double this module's)."""
CAPTURE_CASES = [pytest.param(c, *RECUTS[name], id=f"{c.stem}-{name}") for c in CAPTURES for name in RECUTS]


_AS_CAPTURED: dict[tuple[Path, bool, str], object] = {}
"""`capture_run` of each capture as captured, by accelerator mode: the reference every re-cut meets."""


@pytest.mark.parametrize(("capture", "cut", "streamed"), CAPTURE_CASES)
def test_every_capture_any_cut(
    capture: Path, cut: Callable[[str], Iterable[str]], streamed: bool, accelerators: str
) -> None:
    key = (capture, streamed, accelerators)
    if key not in _AS_CAPTURED:
        _AS_CAPTURED[key] = capture_run(capture, streamed, None, [])
    assert capture_run(capture, streamed, cut, []) == _AS_CAPTURED[key]


@settings(RANDOM, max_examples=12)
@given(
    capture=st.sampled_from(CAPTURES), streamed=st.booleans(),
    sizes=SIZES, reads=READS,
)  # fmt: skip
def test_every_capture_random_cuts(capture: Path, streamed: bool, sizes: list[int], reads: list[int]) -> None:
    assert capture_run(capture, streamed, by_sizes(sizes), reads) == capture_run(capture, streamed, None, [])


REPORTS = [
    pytest.param("moonshotai/kimi-k2.5", 'functions.read:0{"path": "/etc/hosts"}', id="kimi-stripped-alone"),
    pytest.param("moonshotai/kimi-k2.5", 'Let me read it.functions.read:0{"path": "/etc/hosts"}',
                 id="kimi-stripped-after-text"),
    pytest.param("minimax/minimax-m3", ENTRIES[[e.name for e in ENTRIES].index("MiniMax M3")].example,
                 id="minimax-m3-opener"),
    pytest.param("minimax/minimax-m3", 'Done.]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="f">'
                 "]<]minimax[>[<a>1]<]minimax[>[</a>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
                 id="minimax-m3-after-a-bracket"),
    pytest.param("minimax/minimax-m2.1", 'Listing.\nminimax:tool_call>\ninvoke name="f">\n'
                 'parameter name="a">1/parameter>\n/invoke>\n/minimax:tool_call>', id="minimax-m2-unangled"),
    pytest.param("nousresearch/hermes-4-70b", 'Sure.<|tool_call_end|>\n<tool_call>\n{"name": "f", '
                 '"arguments": {"a": 1}}\n</tool_call>\nDone.', id="hermes-after-a-stray-token"),
    pytest.param("nousresearch/hermes-4-70b", '<|im_end|><tool_call>{"name": "f", "arguments": {}}'
                 "</tool_call>", id="hermes-after-a-stray-end-token"),
]
"""The reports of issue #35 item 4, each a leak under the id it came with."""


def model_run(model: str, texts: list[str], field: str, streamed: bool) -> object:
    """The settled result of `texts` sent one an event in `field` under `model`."""
    body, _ = rewrite(token_stream(texts, field, model=model), [], stream_arguments=streamed)
    return settled(body)


@pytest.mark.parametrize("streamed", STREAMED)
@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(("model", "text"), REPORTS)
def test_reported_leaks_any_cut(model: str, text: str, field: str, streamed: bool) -> None:
    whole = model_run(model, [text], field, streamed)
    assert whole[0][1], "a call"
    for cut in (list, tokens, by_sizes([2]), by_sizes([3, 1]), by_sizes([5, 2, 7])):
        assert model_run(model, list(cut(text)), field, streamed) == whole, cut


THINK_IN_A_CALL = [
    pytest.param("qwen/qwen3-coder", "<tool_call>", id="qwen3-coder"),
    pytest.param("z-ai/glm-4.6", "<tool_call>", id="glm"),
    pytest.param("deepseek/deepseek-v3.2", "<\uff5cDSML\uff5ctool_calls>", id="dsml"),
    pytest.param("meituan-longcat/LongCat-Flash-Thinking-2601", "<longcat_tool_call>", id="longcat"),
    pytest.param("tencent/Hunyuan-A13B-Instruct", "<tool_calls>", id="hunyuan"),
]
"""A call opener under an id whose `<think>` is a tag, for `test_a_think_tag_inside_an_open_call`."""


@pytest.mark.parametrize(("model", "opener"), THINK_IN_A_CALL)
def test_a_think_tag_inside_an_open_call(model: str, opener: str) -> None:
    """A reasoning tag inside an open call section is the call's text (docs/behaviour.md, "Think
    tags"): the call is cut off, so all of it is text, in content, at every cut (a fresh parser
    reading ahead starts from the content parser's undecided `<to`: `_reader_ahead`)."""
    text = f"Checking.\n{opener}\n<think>y"
    cut_in_opener = [
        [f"Checking.\n{opener[:2]}", f"{opener[2:]}\n<", "think>y"],
        [f"Checking.\n{opener[:2]}", f"{opener[2:]}\n<think>y"],
        [f"Checking.\n{opener[:3]}", f"{opener[3:]}\n<think>y"],
    ]
    sized = [by_sizes(sizes)(text) for sizes in ([2], [3, 1], [5, 2, 7])]
    cuts = [[text], list(text), tokens(text), *cut_in_opener, [f"Checking.\n{opener}\n<think>", "y"], *sized]
    for texts in cuts:
        body, _ = rewrite(token_stream(texts, model=model), [])
        assert settled(body) == {0: ({"content": text}, [], "stop")}, texts


_DSML = "<\uff5cDSML\uff5c"
THINK_AFTER_A_CALL = [
    pytest.param("qwen/qwen3-coder", "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n"
                 "</function>\n</tool_call>\n<think>hm</think>Done.", "</tool_call>", id="qwen3-coder"),
    pytest.param("z-ai/glm-4.6", "Go.<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
                 "</tool_call><think>hm</think>Done.", "</tool_call>", id="glm"),
    pytest.param("z-ai/glm-4.6", "Go.<tool_call>f\n<arg_key>a</arg_key>\n<arg_value><think>x</arg_value>"
                 "\n</tool_call><think>hm</think>Done.", "<think>x", id="glm-a-tag-in-the-value-too"),
    pytest.param("deepseek/deepseek-v3.2", f'{_DSML}tool_calls>\n{_DSML}invoke name="f">\n</{_DSML[1:]}'
                 f"invoke>\n</{_DSML[1:]}tool_calls><think>hm</think>Done.", f"</{_DSML[1:]}tool_calls>",
                 id="dsml"),
    pytest.param("meituan-longcat/LongCat-Flash-Thinking-2601", "Go.<longcat_tool_call>f\n<longcat_arg_key>a"
                 "</longcat_arg_key>\n<longcat_arg_value>1</longcat_arg_value>\n</longcat_tool_call>"
                 "<longcat_think>hm</longcat_think>Done.", "</longcat_tool_call>", id="longcat"),
    pytest.param("meituan-longcat/LongCat-Flash-Thinking-2601", "Go.<longcat_tool_call>f\n<longcat_arg_key>a"
                 "</longcat_arg_key>\n<longcat_arg_value>1</longcat_arg_value>\n</longcat_tool_call>"
                 "<think>hm</think>Done.", "</longcat_tool_call>", id="longcat-think"),
]
"""A think tag after a call's closer, for `test_a_think_tag_after_a_call_closed_in_its_chunk`: the
text from `cut` on is one chunk (and from one character past it; and from it to the tag's end), and
the tag's start ends a chunk (`</tool_call><th` | `ink>`)."""


@pytest.mark.parametrize("streamed", STREAMED)
@pytest.mark.parametrize(("model", "text", "cut"), THINK_AFTER_A_CALL)
def test_a_think_tag_after_a_call_closed_in_its_chunk(
    model: str, text: str, cut: str, streamed: bool
) -> None:
    """The chunk that closes a call splits what follows the closer as it would be one character
    an event (docs/behaviour.md, "Think tags": a copy of the call's parser reads on,
    `ChoiceRewriter._reader_ahead`); a tag inside the call stays its data."""
    at = text.index(cut)
    whole = model_run(model, [text], "content", streamed)
    assert whole[0][1], "a call"
    found = re.search(r"<\w*think>hm", text)
    assert found is not None
    tag, end = found.start(), found.end() - 2
    starts = [[text[: tag + n], text[tag + n :]] for n in range(1, end - tag)]  # (the tag cut)
    starts += [[text[:at], text[at : tag + n], text[tag + n :]] for n in (1, 3)]
    for texts in (list(text), tokens(text), [text[:at], text[at:]], [text[: at + 1], text[at + 1 :]],
                  [*text[:at], text[at:end], *text[end:]], *starts):  # fmt: skip
        assert model_run(model, texts, "content", streamed) == whole, texts


KIMI_SECTION = (
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}"
    "<|tool_call_end|><|tool_calls_section_end|>"
)
QUOTED = [
    pytest.param(f"Like this:\n```\n{KIMI_SECTION}\n```\nDone.", True, "choice-1", id="fence-after-prose"),
    pytest.param(f"Step 2:\n| run | {KIMI_SECTION} |\n", True, "choice-1", id="table-row"),
    pytest.param(f"```\n{KIMI_SECTION}\n```", False, "choice-1", id="message-of-one-fence"),
    pytest.param(f"Like this:\n```\n{KIMI_SECTION}\n```\nDone.", True, "reasoning",
                 id="fence-after-prose-reasoning"),
    pytest.param(f"Step 2:\r| run | {KIMI_SECTION} |\r", True, "", id="table-row-after-a-lone-cr"),
    pytest.param(f"Like this:\r```\r{KIMI_SECTION}\r```\rDone.", True, "", id="fence-after-lone-crs"),
    pytest.param(f"Like this:\r\n```\r\n{KIMI_SECTION}\r\n```\r\nDone.", True, "", id="fence-after-crlfs"),
]
"""Syntax quoted as code (docs/behaviour.md, "Damage"), a Kimi section, with events of another
choice or field passing between its events (""), for `test_quoted_syntax_whatever_passes_between`."""


@pytest.mark.parametrize("cut", [pytest.param(c, id=n) for n, c in {"whole": lambda t: [t], **CUTS}.items()])
@pytest.mark.parametrize(("text", "quoted", "between"), QUOTED)
def test_quoted_syntax_whatever_passes_between(
    text: str, quoted: bool, between: str, cut: Callable[[str], Iterable[str]]
) -> None:
    """Quoted or not, the same at any cut, whatever other events pass unread between the
    text's (`Quotes.exposed`: none passes while a line start could be moved), and a lone CR ends
    a line as LF does (`quotes.NEEDLES`)."""
    model, events = "moonshotai/kimi-k2.5", []
    for piece in cut(text):
        events.append(chunk_event({"content": piece}, model=model))
        if between == "choice-1":
            events.append(chunk_event({"content": "Hi"}, choice=1, model=model))
        elif between == "reasoning":
            events.append(chunk_event({"reasoning_content": "Hm"}, model=model))
    events += [chunk_event({}, "stop", model=model), chunk_event({}, "stop", choice=1, model=model)]
    body, _ = rewrite(b"".join(events) + b"data: [DONE]\n\n", [])
    texts, calls, _ = settled(body)[0]
    assert (texts["content"], len(calls)) == ((text, 0) if quoted else (text.replace(KIMI_SECTION, ""), 1))


ALONE_ON_A_LINE = [
    pytest.param("moonshotai/kimi-k2.5", "Sure.\n<|tool_call_end|>\nMore text.", "content", id="kimi-token"),
    pytest.param("moonshotai/kimi-k2.5", "Sure.\n  <|tool_calls_section_end|>  \nMore.", "content",
                 id="kimi-token-spaced"),
    pytest.param("deepseek/deepseek-chat", "Ok.\n<\uff5ctool\u2581calls\u2581end\uff5c>\nMore.", "content",
                 id="deepseek-token"),
    pytest.param("qwen/qwen3-coder", "Ok.\n</tool_call>\nMore.", "content", id="tag-closer"),
    pytest.param("moonshotai/kimi-k2.5", "Sure.\r<|tool_call_end|>\rMore text.", "content",
                 id="kimi-token-lone-crs"),
    pytest.param("moonshotai/kimi-k3", "Sure.\n<|close|>message<|sep|>\nMore.", "content",
                 id="k3-message-closer"),
    pytest.param("moonshotai/kimi-k3", "Sure.\n<|close|> message <|sep|>\nMore.", "reasoning_content",
                 id="k3-message-closer-spaced-reasoning"),
    pytest.param("moonshotai/kimi-k3", "Sure, done. <|close|>message<|sep|>", "content",
                 id="k3-message-closer-ends-the-message"),
    pytest.param("moonshotai/kimi-k3", "Sure, done.<|close|>message<|sep|>\n", "reasoning_content",
                 id="k3-message-closer-ends-the-message-reasoning"),
]  # fmt: skip
"""An orphan closer alone on its line (the line end before it in an event its parser does not
read), or a token ending the message, for `test_an_orphan_closer_alone_on_its_line`."""


@pytest.mark.parametrize("cut", [pytest.param(c, id=n) for n, c in {"whole": lambda t: [t], **CUTS}.items()])
@pytest.mark.parametrize(("model", "text", "field"), ALONE_ON_A_LINE)
def test_an_orphan_closer_alone_on_its_line(
    model: str, text: str, field: str, cut: Callable[[str], Iterable[str]]
) -> None:
    """Dropped at any cut (docs/behaviour.md, "Damage"): its line start is the quote state's, which
    reads the line ends that pass the parser unread (`Quotes.line_start`)."""
    body, _ = rewrite(token_stream(list(cut(text)), field, model=model), [])
    closer = re.search(r"<[^\r\n]*>", text)
    assert closer is not None
    assert settled(body)[0][0] == {field: text.replace(closer[0], "")}


def test_recut_keeps_the_text() -> None:
    """The re-cut itself: the same text per field, in more events, envelopes kept."""
    capture = SSE_LOGS / "kimi-parallel-calls.sse"
    data = capture.read_bytes()
    recut = recut_stream(data, list)
    assert settled(recut) == settled(data)
    assert recut.count(b"\n\n") > data.count(b"\n\n")
    assert pieces(recut, []) == [recut]
