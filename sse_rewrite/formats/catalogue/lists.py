"""The "marker, then a list" syntaxes, declared: Mistral, Llama 3 / 4, LFM2, Gemma 4, FunctionGemma,
and the `TOOL:` lines some agent prompts ask for.

    Mistral (pre-v11)  [TOOL_CALLS] [{"name": "add", "arguments": {"a": 1}}]
    Mistral (v11+)     [TOOL_CALLS]add[CALL_ID]a1b2c3d4e[ARGS]{"a": 1}   (`[CALL_ID]…` optional)
    Llama 3            <|python_tag|>{"name": "add", "parameters": {"a": 1}}; {…}
    Llama 4            <|python_start|>[add(a=1), now()]<|python_end|>
    LFM2 / LFM2.5      <|tool_call_start|>[add(a=1)]<|tool_call_end|>
    Gemma 4            <|tool_call>call:add{a:1,s:<|"|>text<|"|>}<tool_call|>
    FunctionGemma      <start_function_call>call:add{a:<escape>1<escape>}<end_function_call>
    TOOL: lines        TOOL: add⏎ARGUMENTS: {"a": 1}

Each is a `ListSyntax` read by the family machine (`_list_machine.py`). Their openers are
special tokens that prose does not contain, so `auto` reads them in every stream
(`ListMarkersParser`, with those of `json_lists.py`: Granite 3.0, Cohere, Apertus, and
`one_call.py`'s GigaChat 3/3.1 and Inkling). Mistral
v11 arguments are passed on as written, JSON or not (as vLLM does, so the model sees its own
failed call), with a notice; JSON calls take `arguments`, else `parameters`; pythonic and
Gemma values become JSON (`literals.py`).
To add the next syntax of this shape: a `ListSyntax` here, a capture, and a row in the
tables (docs/behaviour.md, "Marker-then-list syntaxes").
"""

from __future__ import annotations

import dataclasses
import functools
import re

from ..machines._brackets import Quotes
from ..machines._lazy import LazyComposition
from ..machines._list_machine import ListParser
from ..machines._list_reads import (
    bare_mistral_calls,
    escaped_calls,
    gemma_calls,
    json_calls,
    list_calls,
    mistral_calls,
    named_objects,
    no_calls,
)
from ..machines._list_syntax import ListSyntax
from ..machines._scanner import ANGLE_SNIFF
from ..machines.whole_answer import LeadingReasoning, WholeAnswerParser
from .json_lists import APERTUS, COHERE, GRANITE_30
from .one_call import GIGACHAT, INKLING_CALL, INKLING_MESSAGE, INKLING_TEXT, INKLING_THINK

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_VALUES: Final = {ord("{"): Quotes.JSON, ord("["): Quotes.PYTHON}
MISTRAL: Final = ListSyntax(
    "Mistral",
    (b"[TOOL_CALLS]",),
    {ord("{"): Quotes.JSON, ord("["): Quotes.JSON},
    mistral_calls,
    header=re.compile(r"(?P<name>[A-Za-z0-9_.\-]+)(?:\[CALL_ID\](?P<id>[A-Za-z0-9_\-]+))?(?:\[ARGS\])?"),
    header_bytes=re.compile(rb"[^A-Za-z0-9_.\-\[\]]"),
    streams=True,
)
MISTRAL_THINK: Final = ListSyntax("Mistral", (b"[THINK]",), {}, no_calls, closer=b"[/THINK]", reasoning=True)
"""Magistral's reasoning (Mistral ids and `--format mistral`: a tag quoted in prose would move the rest)."""
LLAMA_JSON: Final = ListSyntax("Llama", (b"<|python_tag|>",), _VALUES, list_calls, again=b";")
LLAMA_PYTHONIC: Final = ListSyntax(
    "Llama 4", (b"<|python_start|>",), _VALUES, list_calls, closer=b"<|python_end|>"
)
LFM2: Final = ListSyntax(
    "LFM2", (b"<|tool_call_start|>",), _VALUES, list_calls, closer=b"<|tool_call_end|>", echo=True
)
_GEMMA_HEADER: Final = re.compile(r"(?:call:)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)")
GEMMA: Final = ListSyntax(
    "Gemma 4",
    (b"<|tool_call>",),
    {ord("{"): Quotes.GEMMA, ord("("): Quotes.PYTHON},
    gemma_calls,
    header=_GEMMA_HEADER,
    header_bytes=re.compile(rb"[^A-Za-z0-9_.:\-]"),
    header_optional=False,
    closer=b"<tool_call|>",
    again=b"call:",
)
GEMMA_STRIPPED: Final = dataclasses.replace(GEMMA, openers=(b"call:",), closer=None, word_start=True)
"""Gemma 4 with its special tokens stripped by the server: `call:NAME{…}` glued to the text
(no closer: a `<tool_call|>` that survived is dropped as an orphan), at the field's start or
after a character that is not a letter, digit or `_` (`recall:x{…}` is prose)."""

FUNCTIONGEMMA: Final = dataclasses.replace(
    GEMMA, name="FunctionGemma", openers=(b"<start_function_call>",), values={ord("{"): Quotes.ESCAPE},
    read=escaped_calls, closer=b"<end_function_call>", typed=escaped_calls,
)  # fmt: skip
"""Gemma 4's grammar with `<escape>` for its quote token and three special tokens of its own;
each value is raw text, typed (`<escape>42<escape>` is 42, as vLLM's `json.loads` makes it)."""
FUNCTIONGEMMA_STRIPPED: Final = dataclasses.replace(GEMMA_STRIPPED, name="FunctionGemma")
"""FunctionGemma with its special tokens stripped (`<escape>` too): Gemma 4's stripped form."""

GEMMA_THOUGHT: Final = ListSyntax(
    "Gemma 4", (b"<|channel>thought",), {}, no_calls, closer=b"<channel|>", reasoning=True, opener_line=True
)
"""Gemma 4's reasoning channel (Gemma ids and `--format gemma`), from the line after `thought` to
`<channel|>`."""

CALL_SNIFF: Final = (b"call:", b'c"', b'ca"', b'cal"', b'call"')
"""Sniff bytes for Gemma's stripped `call:`: the raw JSON holds it whole, or a text field ends
with its start (`c`, `ca`...) before the closing quote."""
GEMMA_SNIFF: Final = (*ANGLE_SNIFF, *CALL_SNIFF)
"""Sniff bytes for Gemma's grammar: its special tokens (`<`) and the stripped `call:`."""
TOOL_CALLS_SNIFF: Final = (b"[T", b'["')
"""Sniff bytes for `[TOOL_CALLS]`: the raw JSON holds `[T` (the token or its start) or, for a
lone `[` ending a text field, `["`. Ordinary chunks hold neither (`"choices":[{`)."""


MINIMAX_M1: Final = ListSyntax(
    "MiniMax M1", (b"<tool_calls>",), {ord("{"): Quotes.JSON}, json_calls, closer=b"</tool_calls>",
    repeats=True,
)
"""MiniMax M1's `<tool_calls>` block of JSON call objects, one a line, which M2 models write with
M1's chat template (prose may say `<tool_calls>`: MiniMax ids, `--format minimax` and `declared`)."""


SPECIAL_TOKENS: Final = (
    MISTRAL, LLAMA_JSON, LLAMA_PYTHONIC, LFM2, GEMMA, FUNCTIONGEMMA, GRANITE_30, COHERE, APERTUS,
    GIGACHAT, INKLING_MESSAGE, INKLING_CALL, INKLING_THINK, *INKLING_TEXT,
)  # fmt: skip


class ListMarkersParser(ListParser, SYNTAXES=SPECIAL_TOKENS, sniff=(*ANGLE_SNIFF, *TOOL_CALLS_SNIFF)):
    """The openers of this family that are special tokens: read in every stream under `auto`."""


class MistralTokensParser(ListParser, SYNTAXES=(MISTRAL, MISTRAL_THINK), sniff=TOOL_CALLS_SNIFF):
    """Mistral's tokens: `[TOOL_CALLS]` in both generations, and `[THINK]` reasoning."""


class MistralIdsParser(ListParser, SYNTAXES=(MISTRAL_THINK,), sniff=TOOL_CALLS_SNIFF):
    """What Mistral ids add to the tokens read in every stream: `[THINK]` reasoning (its sniff bytes:
    `[T` holds `[THINK]`, whole or cut)."""


class MiniMaxM1Parser(ListParser, SYNTAXES=(MINIMAX_M1,), sniff=ANGLE_SNIFF, PROSE=True):
    """MiniMax M1's `<tool_calls>` block (a part of MiniMax's `auto` and `--format minimax`; `declared`)."""


class Lfm2TokensParser(ListParser, SYNTAXES=(LFM2,), sniff=ANGLE_SNIFF):
    """LFM2's tokens: `<|tool_call_start|>[…]<|tool_call_end|>`."""


class LlamaTokensParser(ListParser, SYNTAXES=(LLAMA_JSON, LLAMA_PYTHONIC), sniff=ANGLE_SNIFF):
    """Llama's `<|python_tag|>` JSON and `<|python_start|>` pythonic lists."""


class GemmaParser(ListParser, SYNTAXES=(GEMMA, GEMMA_STRIPPED, GEMMA_THOUGHT), sniff=GEMMA_SNIFF):
    """`--format gemma`, and Gemma ids: `<|tool_call>call:…` and the stripped `call:NAME{…}`."""


class FunctionGemmaParser(ListParser, SYNTAXES=(FUNCTIONGEMMA, FUNCTIONGEMMA_STRIPPED), sniff=GEMMA_SNIFF):
    """`--format functiongemma`: its special tokens, and its calls with them stripped."""


class FunctionGemmaIdsParser(ListParser, SYNTAXES=(FUNCTIONGEMMA_STRIPPED,), sniff=CALL_SNIFF, PROSE=True):
    """What FunctionGemma ids add to the tokens read everywhere: the stripped `call:NAME{…}` (`PROSE`)."""


class GemmaIdsParser(ListParser, SYNTAXES=(GEMMA_STRIPPED, GEMMA_THOUGHT), sniff=GEMMA_SNIFF, PROSE=True):
    """What Gemma ids add to the tokens read in every stream (prose may say `call:`): the
    stripped `call:NAME{…}`, which must name a declared tool where the request's tools are known
    (`PROSE`: the tokens, read by `ListMarkersParser`, make calls whatever the name), and the
    `<|channel>thought` reasoning."""


class DeclaredGemmaParser(ListParser, PROSE=True, sniff=(), SYNTAXES=(dataclasses.replace(
    GEMMA_STRIPPED, word_start=False, proven=True, typed=gemma_calls),)):  # fmt: skip
    """Stripped Gemma's call under any id (`declared.py`): `call:NAME{…}` or `call:NAME(…)`, each NAME a
    tool as declared, whole and valid; glued to a word too (as stripped Kimi's: which needs no text read)."""


LLAMA_BARE_JSON: Final = ListSyntax(
    "Llama", (), {ord("{"): Quotes.JSON}, json_calls, again=b";", again_line=True
)
"""Llama 3's `{"name": …, "parameters": …}` with no marker (`; ` or a newline between calls)."""
LLAMA_BARE_PYTHONIC: Final = ListSyntax("Llama 4", (), {ord("["): Quotes.PYTHON}, list_calls)
"""Llama 4's `[f(a=1), g()]` with no marker."""
MISTRAL_STRIPPED: Final = ListSyntax(
    "Mistral", (), {ord("{"): Quotes.JSON}, named_objects,
    header=re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)"), header_bytes=re.compile(rb"[^A-Za-z0-9_.\-]"),
    header_optional=False, repeats=True,
)  # fmt: skip
"""Mistral v11 with its tokens stripped by a server: `NAME{…}`, calls back to back, each a
JSON object (text-generation-webui leaves this)."""
MISTRAL_BARE_JSON: Final = ListSyntax("Mistral", (), MISTRAL.values, bare_mistral_calls)
"""What is left of Mistral's calls without their tokens: pre-v11's JSON array of
`{"name", "arguments"}` objects (as the Mistral API's calls fall into content), or llama.cpp's
generic envelope `{"tool_calls": […]}` (a Devstral leak)."""
MISTRAL_THINK_END: Final = ListSyntax("Mistral", (b"[/THINK]",), {}, no_calls, hands_over=True)


class MistralThinkParser(ListParser, SYNTAXES=(MISTRAL_THINK_END,), sniff=()):
    """`MISTRAL_THINK`'s block before a whole answer, up to `[/THINK]` (the answer's, after it)."""


MISTRAL_REASONING: Final = LeadingReasoning("[THINK]", MistralThinkParser)
"""`MISTRAL_THINK`'s block: an answer of bare calls may follow the reasoning."""


class MistralParser(
    WholeAnswerParser,
    INNER=MistralTokensParser,
    BARE=(MISTRAL_STRIPPED, MISTRAL_BARE_JSON),
    REASONING=MISTRAL_REASONING,
):
    """`--format mistral`: Mistral's tokens, and its calls without them as the whole answer
    (after its `[THINK]` reasoning, if any)."""


LFM2_BARE: Final = ListSyntax("LFM2", (), {ord("["): Quotes.PYTHON}, list_calls)
"""LFM2's `[f(a="x")]` with its two tokens stripped (they are by default)."""


class Lfm2Parser(WholeAnswerParser, INNER=Lfm2TokensParser, BARE=(LFM2_BARE,)):
    """`--format lfm2`: LFM2's tokens, and its pythonic list without them as the whole answer."""


class LlamaParser(WholeAnswerParser, INNER=LlamaTokensParser, BARE=(LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC)):
    """`--format llama`: Llama's tokens, and its bare JSON or pythonic calls as the whole answer."""


class DeclaredAnswer(
    WholeAnswerParser, BARE=(LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC, MISTRAL_STRIPPED), sniff=(),
    HEADS=(((b"{", b'"name"', b":", b'"'), b'"'), ((b"[", b"{", b'"name"', b":", b'"'), b'"'), ((), b"{"),
           ((b"{", b'"tool_calls"', b":", b"[", b"{", b'"name"', b":", b'"'), b'"'), ((b"[",), b"(")),
):  # fmt: skip
    """What `auto` reads where the request's tools are known (`declared.declared`'s variants, each
    its own `INNER`, `gated`): also a whole answer of Llama's bare JSON calls (or llama.cpp's
    envelope), a bare list (`[{"name": …}]`, `[f(a=1)]`: Llama 3.2's, LFM2's) or Mistral's
    stripped `NAME{…}`, when its first call names a declared tool."""


@functools.cache
def gated(inner: type[LazyComposition]) -> type[DeclaredAnswer]:
    """`DeclaredAnswer` around `inner` (whose `held_words` it holds too: `stream/held_starts.py`)."""
    attributes = {"__module__": __name__, "held_words": inner.held_words}
    return type(inner.__name__ + "Gated", (DeclaredAnswer,), attributes, INNER=inner)


PLAIN_TEXT: Final = ListSyntax(
    "TOOL:", (b"TOOL:",), {ord("{"): Quotes.JSON}, mistral_calls,
    header=re.compile(r"[ \t]*(?P<name>[^\s<{]+)[ \t]*(?:\r\n?|\n)[ \t\r\n]*ARGUMENTS:[ \t\r\n]*"),
    header_bytes=re.compile(rb"[<{]"), header_optional=False, line_start=True,
    header_start=re.compile(rb"[ \t]*[^\s<{]*[ \t]*(?:(?:\r\n?|\n)[ \t\r\n]*(?:"
                            rb"ARGUMENTS:[ \t\r\n]*|A(?:R(?:G(?:U(?:M(?:E(?:N(?:T(?:S)?)?)?)?)?)?)?)?)?)?"),
)  # fmt: skip
"""A plain-text convention some agent prompts ask for, one call a pair of lines:
`TOOL: NAME` at the start of a line, then `ARGUMENTS:` and a JSON object, which may span lines.
Anything else after `TOOL:` is prose, released as soon as that is clear; the arguments are passed
on as written, with a notice where they are not JSON; no call id."""


class PlainTextParser(ListParser, SYNTAXES=(PLAIN_TEXT,), sniff=(b"",)):
    """`--format text` (opt in): `TOOL:` / `ARGUMENTS:` line pairs (every event is read: whether
    `TOOL:` starts a line depends on the text before it)."""
