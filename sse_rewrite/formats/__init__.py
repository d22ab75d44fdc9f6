"""Streaming parsers for leaked tool-call syntaxes, one module per syntax.

Every parser implements `ToolSyntax`: feed it the text of one field as it streams in,
get back `Text` (keep in the field), `ToolCall` (complete call), `Markup` (syntax that
was consumed), `Reasoning` (a reasoning channel's text) and `Notice` pieces; `flush()` at
the end of the field's stream. The registry `FORMATS` maps each `--format` name to a
parser factory; `select_format` picks one for a stream from its `model` id: under `auto`,
the model's own syntax composed (`ComposedParser`) with the markers no prose holds (Kimi's
and DeepSeek's special tokens, harmony, Seed-OSS and Kimi K3: `_DISTINCTIVE`). `ToolSyntax`
(in `syntax.py`) is loaded on first use, so that importing the parsers does not import `typing`.
"""

from __future__ import annotations

from ._compose import ComposedParser
from ._scanner import DEFAULT_MAX_SECTION_BYTES
from .deepseek import DeepSeekParser
from .dsml import DsmlParser
from .glm import GlmParser
from .harmony import HarmonyParser
from .harmony_stripped import GptOssParser
from .hermes import HermesParser
from .invoke_markers import DeepSeekInvokeParser, InvokeMarkersParser, MiniMaxInvokeParser
from .kimi import KimiParser
from .kimi_stripped import StrippedKimiComposed, StrippedKimiParser
from .lists import (
    LLAMA_BARE_JSON,
    LLAMA_BARE_PYTHONIC,
    GemmaIdsParser,
    GemmaParser,
    Lfm2Parser,
    ListMarkersParser,
    LlamaParser,
    MistralIdsParser,
    MistralParser,
)
from .minimax import MiniMaxParser
from .plain_text import PlainTextParser
from .qwen_xml import QwenParser, QwenXmlParser
from .seed import SeedParser, SeedThinkParser
from .special_tokens import SpecialTokensParser
from .whole_answer import WholeAnswerParser
from .xtml import XtmlParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from .syntax import ToolSyntax

__all__ = [
    "DEFAULT_MAX_SECTION_BYTES",
    "FORMATS",
    "FORMAT_CHOICES",
    "NATIVE_TOOL_CALLS",
    "ToolSyntax",
    "select_format",
]

SPECIAL_TOKENS: Final = "special-tokens"
"""Name of the format of unknown models: Kimi and DeepSeek special tokens only."""
NATIVE_TOOL_CALLS: Final = "native+special-tokens"
"""The same for models whose APIs send native `tool_calls`: a legacy `function_call` of
theirs is the client's own (deprecated) API, so it is left as it is."""


def __getattr__(name: str) -> object:
    """`ToolSyntax` exists at run time, imported on first use (it costs `typing`'s start-up)."""
    if name == "ToolSyntax":
        from .syntax import ToolSyntax

        return ToolSyntax
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Syntaxes whose markers cannot occur in prose, read in every stream (docs/behaviour.md, "Formats").
_DISTINCTIVE: Final = (SpecialTokensParser, InvokeMarkersParser, HarmonyParser, SeedParser, XtmlParser,
                        ListMarkersParser)
# The same but DSML and MiniMax, for ids whose own invoke parser reads those markers too.
_DISTINCTIVE_BUT_INVOKE: Final = tuple(part for part in _DISTINCTIVE if part is not InvokeMarkersParser)


class _Tokens(ComposedParser):
    """`auto` for other ids: the special tokens and the other distinctive markers."""

    PARTS = _DISTINCTIVE


class _KimiAndTokens(StrippedKimiComposed):
    """`auto` for Kimi ids: also Kimi calls whose tokens the server stripped (`functions.NAME:N{…}`)."""

    PARTS = (*_DISTINCTIVE, StrippedKimiParser)


class _QwenAndTokens(ComposedParser):
    """`auto` for Qwen ids: Hermes JSON and Qwen3-Coder XML, and the special tokens."""

    PARTS = (QwenParser, *_DISTINCTIVE)


class _GlmAndTokens(ComposedParser):
    """`auto` for GLM ids: GLM bodies and the special tokens."""

    PARTS = (GlmParser, *_DISTINCTIVE)


class _HermesAndTokens(ComposedParser):
    """`auto` for Hermes ids: Hermes JSON and the special tokens."""

    PARTS = (HermesParser, *_DISTINCTIVE)


class _SeedAndTokens(ComposedParser):
    """`auto` for Seed-OSS ids: also `<seed:think>`, and Qwen3-Coder bodies without the wrapper
    (as vLLM reads them)."""

    PARTS = (SeedThinkParser, QwenXmlParser, *_DISTINCTIVE)


class _GptOss(GptOssParser):
    """`auto` for gpt-oss ids: harmony with its tokens stripped, then the special tokens."""

    TOKENS = _Tokens


class _DeepSeekAndTokens(ComposedParser):
    """`auto` for DeepSeek ids: the distinctive markers, and DSML with or without its marker."""

    PARTS = (SpecialTokensParser, DeepSeekInvokeParser, *_DISTINCTIVE_BUT_INVOKE[1:])


class _MiniMaxAndTokens(ComposedParser):
    """`auto` for MiniMax ids: M2 blocks and bare invokes, M3, and the distinctive markers."""

    PARTS = (MiniMaxInvokeParser, *_DISTINCTIVE_BUT_INVOKE)


class _GemmaAndTokens(ComposedParser):
    """`auto` for Gemma ids: also `call:NAME{…}` whose special tokens the server stripped, and
    `<|channel>thought…<channel|>` reasoning."""

    PARTS = (*_DISTINCTIVE, GemmaIdsParser)


class _MistralAndTokens(ComposedParser):
    """`auto` for Mistral ids: also `[THINK]…[/THINK]` reasoning."""

    PARTS = (*_DISTINCTIVE, MistralIdsParser)


class _LlamaAndTokens(WholeAnswerParser):
    """`auto` for Llama ids: also a bare JSON call as the whole answer."""

    INNER = _Tokens
    BARE = (LLAMA_BARE_JSON,)


class _Llama4AndTokens(WholeAnswerParser):
    """`auto` for Llama 4 ids: also a bare JSON call or pythonic list as the whole answer."""

    INNER = _Tokens
    BARE = (LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC)


FORMATS: Final[dict[str, type[ToolSyntax]]] = {
    "kimi": KimiParser,
    "hermes": HermesParser,
    "qwen3-coder": QwenXmlParser,
    "glm": GlmParser,
    "deepseek": DeepSeekParser,
    "dsml": DsmlParser,
    "minimax": MiniMaxParser,
    "text": PlainTextParser,
    "harmony": HarmonyParser,
    "seed": SeedThinkParser,
    "kimi-k3": XtmlParser,
    "mistral": MistralParser,
    "llama": LlamaParser,
    "gemma": GemmaParser,
    "lfm2": Lfm2Parser,
    # What `auto` picks: a model's own syntax plus the special tokens, in one pass.
    SPECIAL_TOKENS: _Tokens,
    NATIVE_TOOL_CALLS: _Tokens,
    "kimi+deepseek": _KimiAndTokens,
    "deepseek+kimi": _DeepSeekAndTokens,
    "minimax+special-tokens": _MiniMaxAndTokens,
    "gpt-oss+special-tokens": _GptOss,
    "seed+special-tokens": _SeedAndTokens,
    "mistral+special-tokens": _MistralAndTokens,
    "lfm2+special-tokens": _Tokens,
    "llama+special-tokens": _LlamaAndTokens,
    "llama4+special-tokens": _Llama4AndTokens,
    "gemma+special-tokens": _GemmaAndTokens,
    "qwen+special-tokens": _QwenAndTokens,
    "glm+special-tokens": _GlmAndTokens,
    "hermes+special-tokens": _HermesAndTokens,
}
"""Parser factory by format name (`auto` and `none` are resolved by `select_format`)."""

FORMAT_CHOICES: Final = (
    "auto", "kimi", "hermes", "qwen3-coder", "deepseek", "glm", "dsml", "minimax", "harmony", "seed",
    "kimi-k3", "mistral", "llama", "gemma", "lfm2", "text", "none",
)  # fmt: skip
"""The `--format` values; the names with a `+` are what `auto` picks."""

_TOKENS_EVERYWHERE: Final = (
    "Kimi and DeepSeek special tokens: recognized in every stream, as are DSML, MiniMax, harmony, "
    "Seed and Kimi K3 markers, Mistral's [TOOL_CALLS] and Llama's, LFM2's and Gemma 4's tool-call tokens"
)
# Family by substrings of the lowered model id, in order of precedence (first match wins):
# (needles, format auto picks, what that format adds to the special tokens).
_MODEL_FAMILIES: Final = (
    (("kimi", "moonshot"), "kimi+deepseek", "Kimi calls with their tokens stripped"),
    (("qwen", "qwq"), "qwen+special-tokens", "Hermes JSON and Qwen3-Coder XML tool-call tags"),
    (("deepseek",), "deepseek+kimi", "DeepSeek tokens, DSML without its marker and bare <invoke> XML"),
    (("minimax",), "minimax+special-tokens", "MiniMax bare <invoke> XML"),
    (("glm", "z-ai", "zhipu"), "glm+special-tokens", "GLM tool-call tags"),
    (("hermes", "nous"), "hermes+special-tokens", "Hermes JSON tool-call tags"),
    (("gpt-oss",), "gpt-oss+special-tokens", "harmony with its tokens stripped"),
    (("seed-oss",), "seed+special-tokens", "Qwen3-Coder function bodies without <seed:tool_call>"),
    (("mistral", "devstral", "magistral", "ministral", "codestral"), "mistral+special-tokens",
     "Mistral's [THINK] reasoning (its [TOOL_CALLS] is read in every stream)"),
    (("llama-4", "llama4"), "llama4+special-tokens",
     "Llama's bare JSON calls and Llama 4's bare pythonic list as the whole answer"),
    (("llama",), "llama+special-tokens", "Llama's bare JSON calls as the whole answer"),
    (("gemma",), "gemma+special-tokens",
     "Gemma 4's call:NAME{...} with its special tokens stripped, and its thought channel"),
    (("lfm2", "lfm-2", "liquid"), "lfm2+special-tokens", "nothing (LFM2's tokens are read in every stream)"),
)
# Vendors and model-name prefixes whose APIs return native `tool_calls`: no tag syntax.
_NATIVE_VENDORS: Final = ("openai", "anthropic", "google")
_NATIVE_MODELS: Final = ("gpt-", "chatgpt", "o1", "o3", "o4", "claude", "gemini")


def select_format(model: str | None, requested: str) -> tuple[str | None, str]:
    """Resolve `requested` (a `--format` value) for a stream of `model`.

    Returns the format name (None for no rewriting) and why each of its parsers is on.
    `auto` always includes Kimi's and DeepSeek's special tokens: they cannot occur in
    ordinary prose, and gateways relabel Kimi backends (`gpt-4o`, `claude-sonnet-4`,
    `my-agent`). Tag syntaxes (`<tool_call>`, which prose may mention) need the model id.
    """
    if requested == "none":
        return None, "--format none"
    if requested != "auto":
        return requested, f"--format {requested}"
    lowered = (model or "").lower()
    for needles, name, adds in _MODEL_FAMILIES:
        needle = next((n for n in needles if n in lowered), None)
        if needle:
            return name, f"{adds}: model {model!r} contains {needle!r}; {_TOKENS_EVERYWHERE}"
    vendor, _, base = lowered.rpartition("/")
    if model and (vendor.split("/")[0] in _NATIVE_VENDORS or base.startswith(_NATIVE_MODELS)):
        why = f"model {model!r} sends native tool_calls, so no tag syntax or legacy function_call"
        return NATIVE_TOOL_CALLS, f"{_TOKENS_EVERYWHERE} ({why})"
    why = f"model {model!r} names no known family" if model else "no model id"
    return SPECIAL_TOKENS, f"{_TOKENS_EVERYWHERE} ({why}, so no tag syntax)"
