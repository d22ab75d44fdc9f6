"""Text or call: the rules of DESIGN.md §4 that issue #35 sharpened, one table of real leaks.

Each row names the real case it comes from, the parsers of the syntaxes it touches (every
one reads it at every cut: `harness.row_in_parsers`), and a model id under which it goes end
to end through the rewrite one character per event, with a normal finish, and through the
openai SDK (docs/behaviour.md, "Damage"):

- orphan closers by kind: a vocabulary token that ends the message or adjoins syntax is
  dropped, one inside a sentence stays; a tag closer ending the message stays;
- a call needs values: a parameter still open at the finish is text (a cut-off file write),
  only closers after complete values are restored;
- placeholders and elisions (`{...}`, `, ...}`, `<args>`) never make a call;
- spellings: DSML's bars and V4.1's space combined, a harmony recipient with a space, a
  Qwen3-Coder parameter left open that `</tool_call>` ends;
- quoted syntax: inside an inline code span, a fenced block of a prose message or a table row,
  it is text; a call after a line of prose, or after a closed span, is a call.

Quotes are followed by the stream core for the text that passes unread (`stream/quotes.py`):
every row goes through the rewrite one character an event, a quote's backtick cut from its
marker by an event boundary.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from sse_rewrite.formats.catalogue.dsml import BARS
from tests.chunking import rewrite_stream, token_stream, tokens
from tests.formats.damage_rows import DEEPSEEK as DS
from tests.formats.harness import Expectation, row_in_parsers, row_through_the_sdk

KIMI = ("kimi", "special-tokens", "glm+special-tokens", "kimi+deepseek", "qwen+special-tokens")
DEEPSEEK = ("deepseek", "special-tokens", "hermes+special-tokens", "deepseek+kimi")
TAGS = ("hermes", "qwen3-coder", "glm", "qwen+special-tokens")
QWEN = ("qwen3-coder", "qwen+special-tokens")
MISTRAL = ("mistral", "mistral+special-tokens", "special-tokens")
HARMONY = ("harmony", "gpt-oss+special-tokens", "special-tokens")
DSML = ("dsml", "special-tokens", "deepseek+kimi")
GEMMA = ("gemma", "gemma+special-tokens")

WRITE = "<tool_call>\n<function=write>\n<parameter=content>\nusing System;\n\nclass Program {\n    static"
CLOSED_PATH = "<tool_call>\n<function=write>\n<parameter=path>\na.cs\n</parameter>\n"
CALC = "<tool_call>\n<function=calc>\n<parameter=input_num>\n1024\n\n\n</tool_call>"
ELIDED = '[TOOL_CALLS]bash[ARGS]{"command":"glob **/server/**", ...}'
HARMONY_ELIDED = "<|channel|>commentary to=functions.web_search<|message|>{...}<|call|>"
HARMONY_SPACED = '<|channel|>commentary to=functions.Web Search <|constrain|>json<|message|>{"q":"x"}<|call|>'
KIMI_CALL = "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
MARK = f"{BARS[1]}DSML{BARS[1]} "  # doubled bars, and V4.1's space
GEMMA_ROW = (
    "| Syntax | Example |\n|---|---|\n"
    "| Gemma 4 | `<start_function_call>call:name{param:<escape>value<escape>}<end_function_call>` |\n"
)
HARMONY_QUOTED = 'Use `<|channel|>commentary to=functions.web_search<|message|>{"q": 1}<|call|>` to search.'
KIMI_SECTION = f"<|tool_calls_section_begin|>{KIMI_CALL}<|tool_calls_section_end|>"
KIMI_FENCED = f"Like this:\n```\n{KIMI_SECTION}\n```\nDone."
CLOSED_FENCE = "Before:\n```\nx | y\n```\n"
DSML_CALL = (
    f'<{MARK}calls>\n<{MARK}invoke name="get_weather">\n'
    f'<{MARK}parameter name="city" string="true">Hangzhou</{MARK}parameter>\n'
    f"</{MARK}invoke>\n</{MARK}calls>"
)


class Row(NamedTuple):
    """A real case: the parsers that read it, a model id that picks them, what it must give."""

    parsers: tuple[str, ...]
    model: str
    expected: Expectation


def case(parsers: tuple[str, ...], model: str, text: str, calls: list[tuple[str, str]], kept: str,
         notices: set[str], name: str) -> object:  # fmt: skip
    """One row as a pytest param named after its real case."""
    return pytest.param(Row(parsers, model, Expectation(text, calls, kept, notices)), id=name)


K2, V3, CODER = "moonshotai/kimi-k2.5", "deepseek/deepseek-chat", "qwen/qwen3-coder"
GEMMA4 = "google/gemma-4-31b-it"
ROWS = [
    # 1. orphan closers by kind
    case(KIMI, K2, "I will check that. <|tool_call_end|>", [], "I will check that. ", {"orphan-marker"},
         "stray-end-token-ends-the-message"),
    case(KIMI, K2, "I will check that. <|tool_call_end|> \n", [], "I will check that.  \n", {"orphan-marker"},
         "stray-end-token-then-spacing-ends-the-message"),
    case(KIMI, K2, "<|tool_calls_section_end|>", [], "", {"orphan-marker"}, "message-of-only-a-section-end"),
    case(KIMI, K2, "Done. <|tool_call_end|><|tool_calls_section_end|>", [], "Done. ", {"orphan-marker"},
         "two-stray-tokens-end-the-message"),
    case(KIMI, K2, f"{KIMI_CALL}\n<|tool_calls_section_end|><|tool_call_end|>", [("f", "{}")], "",
         {"orphan-marker"}, "stray-end-token-after-a-section"),
    case(KIMI, K2, "the <|tool_call_end|> token ends a call", [], "the <|tool_call_end|> token ends a call",
         set(), "end-token-inside-a-sentence-stays"),
    case(KIMI, K2, "It ends with <|tool_call_end|>\nthen more.", [],
         "It ends with <|tool_call_end|>\nthen more.", set(), "end-token-before-more-text-stays"),
    case(DEEPSEEK, V3, f"Checked. {DS['se']}", [], "Checked. ", {"orphan-marker"},
         "deepseek-stray-end-token-ends-the-message"),
    case(TAGS, CODER, "Close each call with </tool_call>", [], "Close each call with </tool_call>", set(),
         "tag-closer-ending-the-message-stays"),
    # 2. a call needs values
    case(QWEN, CODER, WRITE, [], WRITE, {"truncated-call"}, "cut-off-write"),
    case(QWEN, CODER, CLOSED_PATH, [("write", '{"path": "a.cs"}')], "", {"recovered-call"},
         "stop-sequence-took-only-closers"),
    # 3. placeholders and elisions
    case(MISTRAL, "mistralai/devstral-small", ELIDED, [], ELIDED, {"placeholder-arguments"},
         "mistral-elided-arguments"),
    case(HARMONY, "openai/gpt-oss-120b", HARMONY_ELIDED, [], HARMONY_ELIDED, {"placeholder-arguments"},
         "harmony-elided-arguments"),
    case(KIMI, K2, "So: " + KIMI_CALL.replace("{}", "<args>"), [], "So: " + KIMI_CALL.replace("{}", "<args>"),
         {"placeholder-arguments"}, "kimi-args-stand-in"),
    case(KIMI, K2, KIMI_CALL.replace("{}", '{"a": "x..."}'), [("f", '{"a": "x..."}')], "", set(),
         "an-elision-inside-a-string-is-a-value"),
    # 5. spellings
    case(DSML, "deepseek/deepseek-v4.1", DSML_CALL, [("get_weather", '{"city": "Hangzhou"}')], "", set(),
         "dsml-doubled-bars-and-a-space"),
    case(HARMONY, "openai/gpt-oss-120b", HARMONY_SPACED, [("Web Search", '{"q":"x"}')], "", set(),
         "harmony-recipient-with-a-space"),
    case(QWEN, CODER, CALC, [("calc", '{"input_num": 1024}')], "", {"implicit-close"},
         "qwen-open-parameter-ends-at-the-call-closer"),
    # 4. quoted syntax
    case(GEMMA, GEMMA4, GEMMA_ROW, [], GEMMA_ROW, set(), "gemma-call-quoted-in-a-table-cell"),
    case(HARMONY, "openai/gpt-oss-120b", HARMONY_QUOTED, [], HARMONY_QUOTED, set(), "harmony-in-inline-code"),
    case(KIMI, K2, KIMI_FENCED, [], KIMI_FENCED, set(), "kimi-in-a-fenced-block-of-prose"),
    case(KIMI, K2, KIMI_FENCED.replace("```", "~~~"), [], KIMI_FENCED.replace("```", "~~~"), set(),
         "kimi-in-a-tilde-fence-of-prose"),
    case(KIMI, K2, f"Step 2:\n| run | {KIMI_CALL} |\n", [], f"Step 2:\n| run | {KIMI_CALL} |\n", set(),
         "kimi-in-a-table-row"),
    case(KIMI, K2, f"```\n{KIMI_SECTION}\n```", [("f", "{}")], "```\n\n```", set(),
         "a-message-that-is-one-fenced-block-is-a-call"),
    case(KIMI, K2, f"Checking `a.py` now.\n{KIMI_SECTION}", [("f", "{}")], "Checking `a.py` now.\n", set(),
         "a-call-after-a-line-of-prose-is-a-call"),
    case(KIMI, K2, f"{CLOSED_FENCE}{KIMI_SECTION}", [("f", "{}")], CLOSED_FENCE, set(),
         "a-call-after-a-closed-fence-is-a-call"),
    case(QWEN, CODER, "See `x` here <tool_call>\n<function=f>\n</function>\n</tool_call>", [("f", "{}")],
         "See `x` here ", set(), "a-call-after-a-closed-code-span-is-a-call"),
]  # fmt: skip


@pytest.mark.parametrize("row", ROWS)
def test_row_in_every_parser_at_every_cut(row: Row) -> None:
    row_in_parsers(row.parsers, row.expected)


@pytest.mark.parametrize("row", ROWS)
def test_row_one_character_an_event_through_the_rewrite(row: Row) -> None:
    stream = token_stream(list(row.expected.text), model=row.model)  # (a normal finish: `stop`)
    row_through_the_sdk(rewrite_stream(stream, think="off"), row.expected)


RANDOM_CUTS = [[2], [3, 1], [5, 2, 7], [1, 4], [8, 3]]
"""Fixed random-looking cuts of a row's text: piece sizes used in turn (derandomized, as the
chunking suite's `by_sizes`)."""


def by_sizes(text: str, sizes: list[int]) -> list[str]:
    """`text` cut into pieces of `sizes` characters, the sizes used in turn."""
    out, at = [], 0
    while at < len(text):
        size = sizes[len(out) % len(sizes)]
        out.append(text[at : at + size])
        at += size
    return out


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("row", ROWS)
def test_row_by_tokens_and_at_random_cuts_through_the_rewrite(row: Row) -> None:
    """The CLI's core (`rewrite_stream`, as `sse-rewrite` runs it) one token an event and at
    random cuts, accelerators on and off: the same as one character an event."""
    for texts in (tokens(row.expected.text), *(by_sizes(row.expected.text, sizes) for sizes in RANDOM_CUTS)):
        stream = token_stream(texts, model=row.model)
        row_through_the_sdk(rewrite_stream(stream, think="off"), row.expected)
