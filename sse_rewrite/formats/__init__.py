"""Streaming parsers for leaked tool-call syntaxes, one module per syntax.

Every parser implements `ToolSyntax`: feed it the text of one field as it streams in,
get back `Text` (keep in the field), `ToolCall` (complete call), `Markup` (syntax that
was consumed), `Reasoning` (a reasoning channel's text) and `Notice` pieces; `flush()` at
the end of the field's stream. The registry `FORMATS` maps each `--format` name to a
parser class, importing its module on first look-up; `select_format` picks one for a stream
from its `model` id (the families of `_auto.FAMILIES`): under `auto`, the model's own syntax
composed (`ComposedParser`) with the markers no prose holds (`_auto.MARKERS_EVERYWHERE`), its
parts imported once a text holds one of their markers' leads (`_lazy.py`). `ToolSyntax` (in
`syntax.py`) is loaded on first use, so that importing the parsers does not import `typing`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .catalogue.declared import DECLARED_ADDS, DECLARED_ANSWERS, DECLARED_SUFFIX, declared
from .catalogue.routing import FAMILIES, Tokens
from .machines._lazy import LazyComposition, Ref
from .machines._scanner import DEFAULT_MAX_SECTION_BYTES

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


class _Registry(Mapping[str, "type[ToolSyntax]"]):
    """Format name -> parser class; a module is imported when its class is first looked up."""

    def __init__(self, entries: dict[str, type[ToolSyntax] | Ref]) -> None:
        self._entries = entries

    def __getitem__(self, name: str) -> type[ToolSyntax]:
        entry = self._entries[name]
        return entry.load() if isinstance(entry, Ref) else entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


_AUTO: Final[dict[str, type[ToolSyntax] | Ref]] = {
    SPECIAL_TOKENS: Tokens,
    NATIVE_TOOL_CALLS: Tokens,
    **{family.format: family.parser for family in FAMILIES},
}
"""What `auto` picks: a model's own syntax plus the special tokens, in one pass (`_auto.py`)."""
_DECLARED: Final = {
    name + DECLARED_SUFFIX: declared(parser)
    for name, parser in _AUTO.items()
    if isinstance(parser, type) and issubclass(parser, LazyComposition)
}
"""The same where the request's tools are known (`declared.declared`): the whole-answer gate, and the
tag syntaxes prose can contain where a composition reads none of its own."""

_NAMED: Final[dict[str, type[ToolSyntax] | Ref]] = {
    "kimi": Ref("catalogue.kimi", "KimiParser"),
    "hermes": Ref("catalogue.tool_call", "HermesParser"),
    "qwen3-coder": Ref("catalogue.tool_call", "QwenXmlParser"),
    "deepseek": Ref("catalogue.deepseek", "DeepSeekParser"),
    "glm": Ref("catalogue.tool_call", "GlmParser"),
    "dsml": Ref("catalogue.dsml", "DsmlParser"),
    "minimax": Ref("catalogue.minimax_format", "MiniMaxFormat"),
    "harmony": Ref("catalogue.channels", "HarmonyParser"),
    "seed": Ref("catalogue.seed", "SeedThinkParser"),
    "kimi-k3": Ref("catalogue.kimi_k3", "KimiK3Parser"),
    "mistral": Ref("catalogue.lists", "MistralParser"),
    "llama": Ref("catalogue.lists", "LlamaParser"),
    "gemma": Ref("catalogue.lists", "GemmaParser"),
    "lfm2": Ref("catalogue.lists", "Lfm2Parser"),
    "longcat": Ref("catalogue.tags", "LongCatParser"),
    "internlm": Ref("catalogue.tags", "InternLmParser"),
    "iquest": Ref("catalogue.tags", "IQuestParser"),
    "hy3": Ref("catalogue.tags", "Hy3Parser"),
    "hy4": Ref("catalogue.tags", "Hy4Parser"),
    "k2-horizon": Ref("catalogue.tags", "K2HorizonParser"),
    "functiongemma": Ref("catalogue.lists", "FunctionGemmaParser"),
    "granite": Ref("catalogue.json_lists", "GraniteParser"),
    "tool-calls-list": Ref("catalogue.json_lists", "ToolCallsListParser"),
    "nemotron": Ref("catalogue.json_lists", "NemotronParser"),
    "cohere": Ref("catalogue.json_lists", "CohereParser"),
    "functools": Ref("catalogue.json_lists", "FunctoolsParser"),
    "apertus": Ref("catalogue.json_lists", "ApertusParser"),
    "xlam": Ref("catalogue.json_lists", "XlamParser"),
    "olmo": Ref("catalogue.pythonic", "OlmoParser"),
    "text": Ref("catalogue.lists", "PlainTextParser"),
}
"""The formats `--format` names one by one (a syntax, or a model's), in `--help`'s order."""

FORMATS: Final[Mapping[str, type[ToolSyntax]]] = _Registry({**_NAMED, **_AUTO, **_DECLARED})
"""Parser class by format name, its module imported on first look-up: the names with a `+` are what
`auto` picks (`auto` and `none` are resolved by `select_format`)."""

FORMAT_CHOICES: Final = ("auto", *_NAMED, "none")
"""The `--format` values."""

_TOKENS_EVERYWHERE: Final = (
    "Kimi and DeepSeek special tokens: recognized in every stream, as are DSML, MiniMax, harmony, "
    "Seed and Kimi K3 markers, GCML's, Mistral's [TOOL_CALLS] and Llama's, LFM2's, Gemma 4's, "
    "FunctionGemma's, Granite 3.0's, Cohere's, Apertus's, Step-3's, Solar Open's and PLaMo 3's tool-call "
    "tokens, InternLM's <|action_start|>"
)
# Vendors and model-name prefixes whose APIs return native `tool_calls`: no tag syntax.
_NATIVE_VENDORS: Final = ("openai", "anthropic", "google")
_NATIVE_MODELS: Final = ("gpt-", "chatgpt", "o1", "o3", "o4", "claude", "gemini")


def select_format(model: str | None, requested: str, tools: bool = False) -> tuple[str | None, str]:
    """Resolve `requested` (a `--format` value) for a stream of `model`, the request's tools
    known or not (`tools`).

    Returns the format name (None for no rewriting) and why each of its parsers is on.
    `auto` always includes Kimi's and DeepSeek's special tokens: they cannot occur in
    ordinary prose, and gateways relabel Kimi backends (`gpt-4o`, `claude-sonnet-4`,
    `my-agent`). Tag syntaxes (`<tool_call>`, which prose may mention) need the model id, or
    the request's tools: then a call of theirs that names one of them is read under any id.
    """
    name, why = _select(model, requested)
    if tools and requested == "auto" and (variant := _DECLARED.get(f"{name}{DECLARED_SUFFIX}")):
        adds = DECLARED_ANSWERS if variant.args[0] in _AUTO.values() else DECLARED_ADDS  # (its own tags)
        return f"{name}{DECLARED_SUFFIX}", f"{why}; {adds} (the request's tools are known)"
    return name, why


def _select(model: str | None, requested: str) -> tuple[str | None, str]:
    if requested == "none":
        return None, "--format none"
    if requested != "auto":
        return requested, f"--format {requested}"
    lowered = (model or "").lower()
    for family in FAMILIES:
        needle = next((n for n in family.ids if n in lowered), None)
        if needle:
            return family.format, f"{family.adds}: model {model!r} contains {needle!r}; {_TOKENS_EVERYWHERE}"
    vendor, _, base = lowered.rpartition("/")
    if model and (vendor.split("/")[0] in _NATIVE_VENDORS or base.startswith(_NATIVE_MODELS)):
        why = f"model {model!r} sends native tool_calls, so no tag syntax or legacy function_call"
        return NATIVE_TOOL_CALLS, f"{_TOKENS_EVERYWHERE} ({why})"
    why = f"model {model!r} names no known family" if model else "no model id"
    return SPECIAL_TOKENS, f"{_TOKENS_EVERYWHERE} ({why}, so no tag syntax)"
