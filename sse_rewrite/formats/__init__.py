"""Streaming parsers for leaked tool-call syntaxes, one module per syntax.

Every parser implements `ToolSyntax`: feed it the text of one field as it streams in,
get back `Text` (keep in the field), `ToolCall` (complete call), `Markup` (syntax that
was consumed) and `Notice` pieces; `flush()` at the end of the field's stream. The
registry `FORMATS` maps each `--format` name to a parser factory; `select_format`
picks one for a stream from its `model` id. `ToolSyntax` (in `syntax.py`) is loaded on
first use, so that importing the parsers does not import `typing`.
"""

from __future__ import annotations

from ._scanner import DEFAULT_MAX_SECTION_BYTES
from .deepseek import DeepSeekParser
from .kimi import KimiParser
from .plain_text import PlainTextParser
from .special_tokens import SpecialTokensParser
from .tool_call_tag import ToolCallTagParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from .syntax import ToolSyntax

__all__ = ["DEFAULT_MAX_SECTION_BYTES", "FORMATS", "FORMAT_CHOICES", "ToolSyntax", "select_format"]

SPECIAL_TOKENS: Final = "special-tokens"
"""Name of the fallback format: Kimi and DeepSeek special tokens only."""


def __getattr__(name: str) -> object:
    """`ToolSyntax` exists at run time, imported on first use (it costs `typing`'s start-up)."""
    if name == "ToolSyntax":
        from .syntax import ToolSyntax

        return ToolSyntax
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FORMATS: Final[dict[str, type[ToolSyntax]]] = {
    "kimi": KimiParser,
    # Hermes JSON, Qwen3-Coder XML and GLM bodies share the `<tool_call>` tag and one parser.
    "hermes": ToolCallTagParser,
    "qwen3-coder": ToolCallTagParser,
    "glm": ToolCallTagParser,
    "deepseek": DeepSeekParser,
    "text": PlainTextParser,
    SPECIAL_TOKENS: SpecialTokensParser,
}
"""Parser factory by format name (`auto` and `none` are resolved by `select_format`)."""

FORMAT_CHOICES: Final = ("auto", "kimi", "hermes", "qwen3-coder", "deepseek", "glm", "text", "none")
"""The `--format` values; the special-token fallback is what `auto` picks for unknown models."""

# Family by substrings of the lowered model id, in order of precedence (first match wins).
_MODEL_FAMILIES: Final = (
    ("kimi", ("kimi", "moonshot")),
    ("qwen3-coder", ("qwen", "qwq")),
    ("deepseek", ("deepseek",)),
    ("glm", ("glm", "z-ai", "zhipu")),
    ("hermes", ("hermes", "nous")),
)
# Vendors and model-name prefixes whose APIs return native `tool_calls`: left untouched.
_NATIVE_VENDORS: Final = ("openai", "anthropic", "google")
_NATIVE_MODELS: Final = ("gpt-", "chatgpt", "o1", "o3", "o4", "claude", "gemini")


def select_format(model: str | None, requested: str) -> tuple[str | None, str]:
    """Resolve `requested` (a `--format` value) for a stream of `model`.

    Returns the format name (None for no rewriting) and a short human reason.
    """
    if requested == "none":
        return None, "--format none"
    if requested != "auto":
        return requested, f"--format {requested}"
    if model:
        lowered = model.lower()
        for name, needles in _MODEL_FAMILIES:
            needle = next((n for n in needles if n in lowered), None)
            if needle:
                return name, f"model {model!r} contains {needle!r}"
        vendor, _, base = lowered.rpartition("/")
        if vendor.split("/")[0] in _NATIVE_VENDORS or base.startswith(_NATIVE_MODELS):
            return None, f"model {model!r} sends native tool_calls"
    # Kimi's and DeepSeek's special tokens cannot occur in ordinary prose, so they are
    # safe to rewrite for any model; `<tool_call>` tags or `TOOL:` lines might be prose.
    return SPECIAL_TOKENS, "unknown model: only Kimi and DeepSeek special tokens are recognized"
