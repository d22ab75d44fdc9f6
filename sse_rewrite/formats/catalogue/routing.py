"""What `auto` reads, as data: the parts of each composition, and the model ids each is for.

A part is named by its class (imported on first need, `_lazy.py`), the lead characters of its
markers, and its sniff bytes. `MARKERS_EVERYWHERE` are the parts whose markers prose cannot
contain: every `auto` format reads them, whatever the model id. `FAMILIES` says, in order of
precedence, which model ids pick which format and what it adds to those (docs/behaviour.md,
"Formats" and "Adding a syntax"). `DECLARED` are syntaxes prose can contain, read under any id
where the request's tools are known and the call names one of them (`declared`; "Types").
"""

from __future__ import annotations

from ..machines._lazy import LazyComposition, Part, Ref
from ..machines._scanner import ANGLE_SNIFF

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..syntax import ToolSyntax

_TOOL_CALLS_SNIFF: Final = (b"[T", b'["')  # (`lists.TOOL_CALLS_SNIFF`, `minimax.HASH_SNIFF`)
_FUNCTIONS_SNIFF: Final = (b"functions", b'"f"', b'function"')  # (`kimi_stripped.SNIFF`)
_NAMESPACE_SNIFF: Final = (b']"',)  # (`minimax.NAMESPACE_SNIFF`)
_CALL_SNIFF: Final = (b"call:", b'c"', b'ca"', b'cal"', b'call"')  # (`lists.CALL_SNIFF`)

SPECIAL_TOKENS: Final = Part("catalogue.special_tokens", "SpecialTokensParser", "<", ANGLE_SNIFF)
INVOKE_MARKERS: Final = Part("catalogue.invoke_markers", "InvokeMarkersParser", "<]",
                            (*ANGLE_SNIFF, *_NAMESPACE_SNIFF))
HARMONY: Final = Part("machines.harmony", "HarmonyParser", "<", ANGLE_SNIFF)
SEED: Final = Part("machines.seed", "SeedParser", "<", ANGLE_SNIFF)
XTML: Final = Part("machines.xtml", "XtmlParser", "<", ANGLE_SNIFF)
LIST_MARKERS: Final = Part("catalogue.lists", "ListMarkersParser", "<[", (*ANGLE_SNIFF, *_TOOL_CALLS_SNIFF))
MARKERS_EVERYWHERE: Final = (SPECIAL_TOKENS, INVOKE_MARKERS, HARMONY, SEED, XTML, LIST_MARKERS)
"""Syntaxes whose markers cannot occur in prose, read in every stream (docs/behaviour.md, "Formats")."""
_BUT_INVOKE: Final = (HARMONY, SEED, XTML, LIST_MARKERS)

STRIPPED_KIMI: Final = Part("machines.kimi_stripped", "StrippedKimiParser", "f", _FUNCTIONS_SNIFF)
SEP_XTML: Final = Part("machines.xtml_sep", "SepXtmlParser", "t", (b"tools",))  # (`xtml_sep.SNIFF`)
GEMMA_IDS: Final = Part("catalogue.lists", "GemmaIdsParser", "<c", (*ANGLE_SNIFF, *_CALL_SNIFF))
MISTRAL_IDS: Final = Part("catalogue.lists", "MistralIdsParser", "[", _TOOL_CALLS_SNIFF)
QWEN: Final = Part("catalogue.qwen_xml", "QwenParser", "<", ANGLE_SNIFF)
QWEN_XML: Final = Part("catalogue.qwen_xml", "QwenXmlParser", "<", ANGLE_SNIFF)
GLM: Final = Part("catalogue.glm", "GlmParser", "<", ANGLE_SNIFF)
HERMES: Final = Part("catalogue.hermes", "HermesParser", "<", ANGLE_SNIFF)
SEED_THINK: Final = Part("machines.seed", "SeedThinkParser", "<", ANGLE_SNIFF)
DEEPSEEK_INVOKE: Final = Part("catalogue.invoke_markers", "DeepSeekInvokeParser", "<]",
                             (*ANGLE_SNIFF, *_NAMESPACE_SNIFF))
MINIMAX_INVOKE: Final = Part("catalogue.invoke_markers", "MiniMaxInvokeParser", "<][",
                             (*ANGLE_SNIFF, *_TOOL_CALLS_SNIFF, *_NAMESPACE_SNIFF))
MINIMAX_M1: Final = Part("catalogue.lists", "MiniMaxM1Parser", "<", ANGLE_SNIFF)
MINIMAX_UNANGLED: Final = Part("machines.minimax_unangled", "UnangledMiniMaxParser", "m",
                              (b"minimax:", b'm"', b'mi"', b'min"', b'mini"', b'minima"', b'minimax"'))
"""(`minimax_unangled.SNIFF`)"""


class Tokens(LazyComposition):
    """`auto` for other ids: the special tokens and the other distinctive markers."""

    PARTS = MARKERS_EVERYWHERE


class KimiAndTokens(LazyComposition):
    """`auto` for Kimi ids: also Kimi calls whose tokens the server stripped (`functions.NAME:N{…}`),
    and K3 XTML whose open and close tokens were dropped (`tools<|sep|>call …`)."""

    PARTS = (*MARKERS_EVERYWHERE, STRIPPED_KIMI, SEP_XTML)
    BASE = Ref("machines.kimi_stripped", "StrippedKimiComposed")


class QwenAndTokens(LazyComposition):
    """`auto` for Qwen ids: Hermes JSON and Qwen3-Coder XML, and the special tokens."""

    PARTS = (QWEN, *MARKERS_EVERYWHERE)


class GlmAndTokens(LazyComposition):
    """`auto` for GLM ids: GLM bodies and the special tokens."""

    PARTS = (GLM, *MARKERS_EVERYWHERE)


class HermesAndTokens(LazyComposition):
    """`auto` for Hermes ids: Hermes JSON and the special tokens."""

    PARTS = (HERMES, *MARKERS_EVERYWHERE)


class SeedAndTokens(LazyComposition):
    """`auto` for Seed-OSS ids: also `<seed:think>`, and Qwen3-Coder bodies without the wrapper
    (as vLLM reads them)."""

    PARTS = (SEED_THINK, QWEN_XML, *MARKERS_EVERYWHERE)


class DeepSeekAndTokens(LazyComposition):
    """`auto` for DeepSeek ids: the distinctive markers, and DSML with or without its marker."""

    PARTS = (SPECIAL_TOKENS, DEEPSEEK_INVOKE, *_BUT_INVOKE)


class MiniMaxAndTokens(LazyComposition):
    """`auto` for MiniMax ids: M2 blocks and bare invokes, M3, M2 blocks whose tags lost their
    angles, M1's `<tool_calls>` block, and the distinctive markers."""

    PARTS = (MINIMAX_INVOKE, SPECIAL_TOKENS, *_BUT_INVOKE, MINIMAX_M1, MINIMAX_UNANGLED)


class GemmaAndTokens(LazyComposition):
    """`auto` for Gemma ids: also `call:NAME{…}` whose special tokens the server stripped, and
    `<|channel>thought…<channel|>` reasoning."""

    PARTS = (*MARKERS_EVERYWHERE, GEMMA_IDS)
    READS_ALL = True  # (`call:` must not go on from a word: every text's last character counts)


class MistralTokens(LazyComposition):
    """What `auto` for Mistral ids reads once the answer is not stripped calls
    (`_auto_wrapped.MistralAndTokens`): also `[THINK]…[/THINK]` reasoning."""

    PARTS = (*MARKERS_EVERYWHERE, MISTRAL_IDS)


DECLARED: Final = (QWEN,)
"""Syntaxes prose can contain, read under any model id where the request's tools are known: a
call of theirs must name a declared tool, or it stays text (`PROSE`; docs/behaviour.md, "Types")."""
_TAGGED: Final = (QWEN, QWEN_XML, GLM, HERMES, MINIMAX_INVOKE, MINIMAX_M1)
"""Parts that read a `<tool_call>`-like tag of their own: a composition holding one keeps it."""
DECLARED_SUFFIX: Final = "+declared-tools"
DECLARED_ADDS: Final = "Hermes JSON and Qwen3-Coder XML tool-call tags whose call names a declared tool"


def declared(composition: type[LazyComposition]) -> type[LazyComposition] | None:
    """`composition` plus the `DECLARED` parts (what `auto` reads when the request's tools are
    known), or None when it reads tags of its own (`_TAGGED`): their ids already read them."""
    if any(part in composition.PARTS for part in _TAGGED):
        return None
    attributes = {"PARTS": (*composition.PARTS, *DECLARED), "BASE": composition.BASE,
                  "READS_ALL": composition.READS_ALL, "__module__": __name__,
                  "__doc__": f"`{composition.__name__}`, and {DECLARED_ADDS}."}  # fmt: skip
    return type(composition.__name__ + "AndDeclared", (LazyComposition,), attributes)


def _wrapped(name: str) -> Ref:
    """A composition of `routing_wrapped`, imported once a stream needs it."""
    return Ref("catalogue.routing_wrapped", name)


class Family:
    """The model ids of one family (substrings of the lowered id), the format `auto` picks for
    them (`parser`: a class, or a `Ref` to one), and what that format adds to the markers read
    everywhere (for `--stats`)."""

    __slots__ = ("adds", "format", "ids", "parser")

    def __init__(self, ids: tuple[str, ...], format: str, parser: type[ToolSyntax] | Ref, adds: str) -> None:
        self.ids, self.format, self.parser, self.adds = ids, format, parser, adds


FAMILIES: Final = (
    Family(("kimi", "moonshot"), "kimi+deepseek", KimiAndTokens,
           "Kimi calls with their tokens stripped, K3 XTML with only <|sep|> left (tools<|sep|>call ...)"),
    Family(("qwen", "qwq"), "qwen+special-tokens", QwenAndTokens,
           "Hermes JSON and Qwen3-Coder XML tool-call tags"),
    Family(("deepseek",), "deepseek+kimi", DeepSeekAndTokens,
           "DeepSeek tokens, DSML without its marker and bare <invoke> XML"),
    Family(("minimax",), "minimax+special-tokens", MiniMaxAndTokens,
           "MiniMax M2 tags without their angles (minimax:tool_call>invoke name=...>), "
           "M1's <tool_calls> JSON lines, "
           "MiniMax bare <invoke> XML, [TOOL_CALL] wrappers, M3 tags without their namespace "
           "token, <mm:think>"),
    Family(("glm", "z-ai", "zhipu"), "glm+special-tokens", GlmAndTokens, "GLM tool-call tags"),
    Family(("hermes", "nous"), "hermes+special-tokens", HermesAndTokens, "Hermes JSON tool-call tags"),
    Family(("gpt-oss",), "gpt-oss+special-tokens", _wrapped( "GptOssAndTokens"),
           "harmony with its tokens stripped"),
    Family(("seed-oss",), "seed+special-tokens", SeedAndTokens,
           "Qwen3-Coder function bodies without <seed:tool_call>"),
    Family(("mistral", "devstral", "magistral", "ministral", "codestral"), "mistral+special-tokens",
           _wrapped( "MistralAndTokens"),
           "Mistral's [THINK] reasoning, and its calls with their tokens stripped (v11's NAME{...}, "
           "pre-v11's JSON array, llama.cpp's {\"tool_calls\": [...]}) as the whole answer, after the "
           "reasoning if any (its [TOOL_CALLS] is read in every stream)"),
    Family(("llama-4", "llama4"), "llama4+special-tokens", _wrapped( "Llama4AndTokens"),
           "Llama's bare JSON calls and Llama 4's bare pythonic list as the whole answer"),
    Family(("llama",), "llama+special-tokens", _wrapped( "LlamaAndTokens"),
           "Llama's bare JSON calls as the whole answer"),
    Family(("gemma",), "gemma+special-tokens", GemmaAndTokens,
           "Gemma 4's call:NAME{...} with its special tokens stripped, and its thought channel"),
    Family(("lfm2", "lfm-2", "liquid"), "lfm2+special-tokens", _wrapped( "Lfm2AndTokens"),
           "LFM2's pythonic list with its tokens stripped as the whole answer (its tokens are read in "
           "every stream)"),
)  # fmt: skip
"""By model id, in order of precedence (the first family whose id the model's contains wins)."""
