"""The parsers' fast paths decide nothing of their own: the pieces, `pending` and
`undecided` after every text are those of the same machine without the fast path.

- `absorb` inside a `<tool_call>` JSON body, and of spacing around it
  (`ScanningParser.absorb`; the reference has `JSON_BODY` and `SPACING` unset, so it
  absorbs nothing) and inside a special-token call
  (`SectionBase.absorb`; the reference is fed every text);
- `feed` handing back a text without `<` at once while nothing is held (the reference has
  that switched off, so its text step scans the text).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.kimi import KimiParser
from sse_rewrite.formats.catalogue.special_tokens import SpecialTokensParser
from sse_rewrite.formats.catalogue.tool_call import HermesParser, QwenParser
from sse_rewrite.formats.machines._compose import ComposedParser
from sse_rewrite.formats.syntax import ToolSyntax
from sse_rewrite.stream.events import Piece, ToolCall
from tests.formats.damage_rows import DEEPSEEK, KIMI


class FeedOnly(HermesParser):
    """The reference: the same machine, never absorbing."""

    JSON_BODY = None
    SPACING = frozenset()


class QwenFeedOnly(QwenParser):
    """The same for Qwen's parser (JSON and XML bodies)."""

    JSON_BODY = None
    SPACING = frozenset()


class Composed(ComposedParser):
    """What `auto` runs for Hermes and Qwen ids (a JSON-body part and the special tokens)."""

    PARTS = (QwenParser, SpecialTokensParser)


class ComposedFeedOnly(ComposedParser):
    """Its reference."""

    PARTS = (QwenFeedOnly, SpecialTokensParser)


PIECES = [
    "<tool_call>", "</tool_call>", "\n", " ", '{"name": "f", ', '"arguments": ', '{"a": "x}"}', "}", "{", "[",
    "]", '"', "\\", '\\"', "é", "text", "<", '{"na', 'me": "g", "arguments": {}}', "x" * 40,
    "<|tool_calls_section_begin|>", '\n{"a": 1} x', "{x",
]


ARGUMENTS = '{"a": "x}\\\\\\"]", "b": [1, {"c": "]"}], "é": "' + "y" * 30 + '"}'
CALL = '<tool_call>\n{"name": "f", "arguments": ' + ARGUMENTS + '}\n</tool_call>'


@st.composite
def texts(draw: st.DrawFn) -> list[str]:
    """Random pieces, or calls with prose around them cut at random points."""
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(PIECES), max_size=30))
    calls = CALL * draw(st.integers(1, 2))
    whole = draw(st.sampled_from(["", "text "])) + calls + draw(st.sampled_from(["", "}"]))
    cuts = sorted(draw(st.sets(st.integers(1, len(whole) - 1), max_size=40)))
    return [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]


def run(parser: ToolSyntax, texts: list[str], windows: list[int]) -> list[tuple[list[Piece], bool, int]]:
    """Each text's pieces, `pending` and `undecided` after it. Runs of texts (sizes from
    `windows`) are offered to `absorb` first, as the token-run accelerator does."""
    out: list[tuple[list[Piece], bool, int]] = []
    pos, sizes = 0, iter(windows)
    while pos < len(texts):
        taken = parser.absorb(texts[pos : pos + next(sizes, 1)]) if windows else 0
        out += [([], parser.pending, parser.undecided)] * taken
        pos += taken
        if pos < len(texts):
            out.append((parser.feed(texts[pos]), parser.pending, parser.undecided))
            pos += 1
    return [*out, (parser.flush(), False, 0)]


@settings(max_examples=300, deadline=None)
@given(texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([60, 1 << 20]))
def test_absorbed_texts_change_nothing(texts: list[str], windows: list[int], cap: int) -> None:
    assert run(HermesParser(cap), texts, windows) == run(FeedOnly(cap), texts, [])


@settings(max_examples=150, deadline=None)
@given(texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30))
def test_absorbed_texts_change_nothing_in_a_composed_parser(texts: list[str], windows: list[int]) -> None:
    assert run(Composed(), texts, windows) == run(ComposedFeedOnly(), texts, [])


def test_texts_are_absorbed_up_to_the_one_that_closes_the_body() -> None:
    parser = HermesParser()
    assert parser.feed("<tool_call>") == parser.feed('{"name": "f", "arguments": {"a": ') == []
    assert parser.absorb(['"x}', '"', "}", "} trailing"]) == 3  # brackets in a string are data
    assert parser.absorb(["} trailing"]) == 0
    [call] = parser.feed("}</tool_call>")
    assert call == ToolCall(None, "f", '{"a": "x}"}', call.raw)  # type: ignore[union-attr]


def test_the_start_of_a_json_body_is_absorbed_if_it_cannot_close_it() -> None:
    parser = HermesParser()
    assert parser.feed("<tool_call>") == []
    assert parser.absorb(['\n{"a": 1} x']) == parser.absorb(["{x"]) == 0  # a closed body, prose
    assert parser.absorb(['\n{"na', 'me": "f"']) == 2
    assert parser.pending and parser.feed("}</tool_call>")
    parser = HermesParser()
    assert parser.feed("<tool_call><") == []
    assert parser.absorb(['{"na']) == 0  # `<{` is prose


def test_a_body_closed_before_spacing_alone_is_absorbed_with_it() -> None:
    parser = HermesParser()
    assert parser.feed('<tool_call>\n{"name": "f"') == []
    assert parser.absorb(["}", "\n", " "]) == 3
    [call] = parser.feed("</tool_call>")
    assert call == ToolCall(None, "f", "{}", '<tool_call>\n{"name": "f"}\n </tool_call>')


def test_spacing_after_a_partial_marker_is_not_absorbed() -> None:
    parser = HermesParser()
    assert parser.feed("<tool_call>") == []
    assert parser.absorb(["\n", " "]) == 2
    assert parser.feed("<") == []
    assert parser.absorb(["\n"]) == 0  # `<\n` is no `<function=`: it decides the tag was prose
    parser = HermesParser()
    assert parser.feed('<tool_call>{"name": "f"}') == []
    assert parser.absorb(["\n"]) == 1
    assert parser.feed("</tool") == []
    assert parser.absorb(["\n"]) == 0  # `</tool\n` is no close: the call ends at its body


# -- special-token calls (`SectionBase.absorb`)

KIMI_CALL = f"{KIMI['sb']} {KIMI['cb']} functions.f:0 {KIMI['ab']}{ARGUMENTS}{KIMI['ce']}"
DEEPSEEK_CALL = f"{DEEPSEEK['sb']}{DEEPSEEK['cb']}f{DEEPSEEK['ab']}{ARGUMENTS}{DEEPSEEK['ce']}"
TOKEN_PIECES = [
    "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>", "<|tool_calls_section_end|>",
    "functions.f:1", " ", "\n", '{"a": "', "<|tool_call_end|>", '"}', "x" * 40, "<", "<|tool", "é", "a b",
]


@st.composite
def token_texts(draw: st.DrawFn) -> list[str]:
    """Random token pieces, or calls with prose around them cut at random points."""
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(TOKEN_PIECES), max_size=30))
    calls = draw(st.sampled_from([KIMI_CALL, DEEPSEEK_CALL])) * 2
    whole = draw(st.sampled_from(["", "text "])) + calls + " end"
    cuts = sorted(draw(st.sets(st.integers(1, len(whole) - 1), max_size=40)))
    return [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]


@settings(max_examples=200, deadline=None)
@given(token_texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([60, 1 << 20]))
def test_absorbed_tokens_change_nothing(texts: list[str], windows: list[int], cap: int) -> None:
    parser = FORMATS["special-tokens"]
    assert run(parser(cap), texts, windows) == run(parser(cap), texts, [])


# -- plain text handed back at once

class KimiScanningAll(KimiParser):
    """The reference: every text goes through the text step."""


class ComposedScanningAll(ComposedParser):
    """The same for a composed parser."""

    PARTS = (QwenParser, SpecialTokensParser)


KimiScanningAll._PLAIN_AT_ONCE = False  # (after the class is made: subclassing computes it)
ComposedScanningAll._PLAIN_AT_ONCE = False


@settings(max_examples=150, deadline=None)
@given(st.one_of(texts(), token_texts()))
def test_plain_text_at_once_is_what_the_text_step_gives(texts: list[str]) -> None:
    assert run(KimiParser(), texts, []) == run(KimiScanningAll(), texts, [])
    assert run(Composed(), texts, []) == run(ComposedScanningAll(), texts, [])


# -- a GLM call's bare name, absorbed after its opener (`ToolCallTagParser._absorb_name`)

GLM_CALL = "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n</tool_call>"
GLM_PIECES = [
    "<tool_call>", "bash", "read", "_file", "\n", " ", "\t", "x y", "{", '{"name": "f", "arguments": {}}',
    "{x", "<arg_key>", "k", "</arg_key>", "<arg_value>", "v", "</arg_value>", "</tool_call>", "<", "<arg",
    "é",
    "x" * 150, "y" * 100, "text ",
]


@st.composite
def glm_texts(draw: st.DrawFn) -> list[str]:
    """Random pieces around GLM's name, or GLM calls with prose around them cut at random points."""
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(GLM_PIECES), max_size=30))
    whole = draw(st.sampled_from(["", "text "])) + GLM_CALL * draw(st.integers(1, 2)) + " end"
    cuts = sorted(draw(st.sets(st.integers(1, len(whole) - 1), max_size=40)))
    return [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["glm", "glm+special-tokens", "hermes", "qwen+special-tokens", "longcat"]),
       glm_texts(), st.lists(st.integers(1, 6), min_size=1, max_size=30), st.sampled_from([60, 1 << 20]))
def test_a_bare_name_absorbed_changes_nothing(
    format_name: str, texts: list[str], windows: list[int], cap: int
) -> None:  # fmt: skip
    parser = FORMATS[format_name]
    assert run(parser(cap), texts, windows) == run(parser(cap), texts, [])


def test_a_glm_calls_name_is_absorbed_up_to_its_first_marker() -> None:
    parser = FORMATS["glm"]()
    assert parser.feed("<tool_call>") == []
    assert parser.absorb(["read", "_file", "\n", "<arg_key>"]) == 3
    assert parser.absorb(["x y"]) == 0  # (no name: the step hands it back as prose when fed)


def test_a_bare_name_is_absorbed_within_the_lookahead_alone() -> None:
    parser = FORMATS["glm"]
    cases = [
        ["<tool_call>", "x" * 50, "x" * 49, "\n" * 100, " " * 99, "\n", "<arg_key>", "k", "</arg_key>"],
        ["<tool_call>", " ", "x" * 90, "\t" * 209, "\n", "</tool_call>"],
        ["<tool_call>", "é" * 40, "\n" * 300],
    ]
    for texts in cases:
        assert run(parser(), texts, [9]) == run(parser(), texts, [])


# -- word-led compositions (`WordLedComposed`: MiniMax's unangled `minimax:tool_call>`, stripped
# Kimi's `functions.`) hand back a text with a word's lead but no start of the word at once

WORD_PIECES = [
    "m", "me ", "et m", "mini", "max:", "minimax:", "tool_call>", "minimax:tool_call>", "\n", "x m", "é",
    'invoke name="bash">', 'parameter name="command">ls', "/parameter>", "/invoke>", "/minimax:tool_call>",
    "<minimax:tool_call>", '<invoke name="f">', "</invoke>", "</minimax:tool_call>", "<", "[", "text ",
    "f", "of ", "functions.", "func", "tions.bash:0", '{"a": 1}', "tools", "<|sep|>", "a\nm",
]


def scanning_all(name: str) -> type[ComposedParser]:
    """`auto`'s composition `name` on the plain base, every text through its text step."""
    reference = type(f"{name}ScanningAll", (ComposedParser,), {"PARTS": FORMATS[name].composition().PARTS})
    reference._PLAIN_AT_ONCE = False
    return reference


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["minimax+special-tokens", "kimi+deepseek"]),
       st.lists(st.sampled_from(WORD_PIECES), max_size=30))
def test_a_word_led_composition_is_what_the_text_step_gives(name: str, texts: list[str]) -> None:
    reference = scanning_all(name)  # (first: `FORMATS[name]()` is then the built composition)
    assert run(FORMATS[name](), texts, []) == run(reference(), texts, [])
