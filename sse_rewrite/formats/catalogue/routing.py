"""What `auto` reads, as data: the parts of each composition, and the model ids each is for.

A part is named by its class (imported on first need, `_lazy.py`), the lead characters of its
markers, and its sniff bytes. `MARKERS_EVERYWHERE` are the parts whose markers prose cannot
contain: every `auto` format reads them, whatever the model id. `FAMILIES` says, in order of
precedence, which model ids pick which format and what it adds to those (docs/behaviour.md,
"Formats" and "Adding a syntax"). What the request's tools add to these is `declared.py`'s.
"""

from __future__ import annotations

from ..machines._lazy import LazyComposition, Part, Ref
from ..machines._scanner import ANGLE_SNIFF, word_sniff

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..syntax import ToolSyntax

_TOOL_CALLS_SNIFF: Final = (b"[T", b'["')  # (`lists.TOOL_CALLS_SNIFF`, `minimax.HASH_SNIFF`)
_NAMESPACE_SNIFF: Final = (b']"',)  # (`minimax.NAMESPACE_SNIFF`)
_ANGLED_NAMESPACE: Final = (*ANGLE_SNIFF, *_NAMESPACE_SNIFF)
_CALL_SNIFF: Final = (b"call:", b'c"', b'ca"', b'cal"', b'call"')  # (`lists.CALL_SNIFF`)

SPECIAL_TOKENS: Final = Part("catalogue.special_tokens", "SpecialTokensParser", "<", ANGLE_SNIFF)
INVOKE_MARKERS: Final = Part("catalogue.invoke_markers", "InvokeMarkersParser", "<]", _ANGLED_NAMESPACE)
HARMONY: Final = Part("catalogue.channels", "HarmonyParser", "<", ANGLE_SNIFF)
SEED: Final = Part("catalogue.seed", "SeedParser", "<", ANGLE_SNIFF)
XTML: Final = Part("catalogue.kimi_k3", "KimiK3Parser", "<", ANGLE_SNIFF)
LIST_MARKERS: Final = Part("catalogue.lists", "ListMarkersParser", "<[", (*ANGLE_SNIFF, *_TOOL_CALLS_SNIFF))
INTERNLM: Final = Part("catalogue.tags", "InternLmParser", "<", ANGLE_SNIFF)
MARKERS_EVERYWHERE: Final = (SPECIAL_TOKENS, INVOKE_MARKERS, HARMONY, SEED, XTML, LIST_MARKERS, INTERNLM)
"""Syntaxes whose markers cannot occur in prose, read in every stream (docs/behaviour.md, "Formats")."""
_BUT_INVOKE: Final = (HARMONY, SEED, XTML, LIST_MARKERS, INTERNLM)

STRIPPED_KIMI: Final = Part("catalogue.kimi_stripped", "StrippedKimiParser", "f", (b"functions",),
                            ((b"functions", 1),))
"""(`kimi_stripped.SNIFF`, `KIMI_STRIPPED`: its start is held from `f` anywhere, `stream/held_starts.py`)"""
SEP_XTML: Final = Part("catalogue.kimi_k3", "SepXtmlParser", "t", (b"tools",), ((b"tools", 5),))
"""(`kimi_k3.SepXtmlParser`'s sniff and `HELD_FROM`: a start of `tools` where no word goes on into it)"""
GEMMA_IDS: Final = Part("catalogue.lists", "GemmaIdsParser", "<c", (*ANGLE_SNIFF, *_CALL_SNIFF))
MISTRAL_IDS: Final = Part("catalogue.lists", "MistralIdsParser", "[", _TOOL_CALLS_SNIFF)
QWEN: Final = Part("catalogue.tool_call", "QwenParser", "<", ANGLE_SNIFF)
QWEN_XML: Final = Part("catalogue.tool_call", "QwenXmlParser", "<", ANGLE_SNIFF)
QWEN_OR_GLM: Final = Part("catalogue.tool_call", "QwenOrGlmParser", "<", ANGLE_SNIFF)
MIMO_XML: Final = Part("catalogue.tool_call", "MiMoXmlParser", "<", ANGLE_SNIFF)
GLM: Final = Part("catalogue.tool_call", "GlmParser", "<", ANGLE_SNIFF)
HERMES: Final = Part("catalogue.tool_call", "HermesParser", "<", ANGLE_SNIFF)
LONGCAT: Final = Part("catalogue.tags", "LongCatParser", "<", ANGLE_SNIFF)
IQUEST: Final = Part("catalogue.tags", "IQuestParser", "<", ANGLE_SNIFF)
HY3: Final = Part("catalogue.tags", "Hy3Parser", "<", ANGLE_SNIFF)
HY3_OPENSOURCE: Final = Part("catalogue.tags", "Hy3OpenSourceParser", "<", ANGLE_SNIFF)
HY4: Final = Part("catalogue.tags", "Hy4Parser", "<", ANGLE_SNIFF)
K2_HORIZON: Final = Part("catalogue.tags", "K2HorizonParser", "<", ANGLE_SNIFF)
SEED_THINK: Final = Part("catalogue.seed", "SeedThinkParser", "<", ANGLE_SNIFF)
DEEPSEEK_INVOKE: Final = Part("catalogue.invoke_markers", "DeepSeekInvokeParser", "<]", _ANGLED_NAMESPACE)
MINIMAX_INVOKE: Final = Part("catalogue.invoke_markers", "MiniMaxInvokeParser", "<][",
                             (*ANGLE_SNIFF, *_TOOL_CALLS_SNIFF, *_NAMESPACE_SNIFF))
DOTS3_INVOKE: Final = Part("catalogue.invoke_more", "Dots3InvokeParser", "<]", ANGLE_SNIFF)
MIMO_INVOKE: Final = Part("catalogue.invoke_more", "MiMoInvokeParser", "<]", ANGLE_SNIFF)
MINICPM5_INVOKE: Final = Part("catalogue.invoke_more", "MiniCpm5InvokeParser", "<]", ANGLE_SNIFF)
_TO_SNIFF: Final = (b"to=", b'to"', b't"')  # (`channels.SNIFF`)
MUSE_SPARK: Final = Part("catalogue.channels", "MuseSparkParser", "< t", (*ANGLE_SNIFF, *_TO_SNIFF))
MUSE_GLIMMER: Final = Part("catalogue.channels", "MuseGlimmerParser", "< t", (*ANGLE_SNIFF, *_TO_SNIFF))
BEAM: Final = Part("catalogue.channels", "BeamParser", "<", ANGLE_SNIFF)
_BUT_HARMONY: Final = (SPECIAL_TOKENS, INVOKE_MARKERS, SEED, XTML, LIST_MARKERS)
MINIMAX_M1: Final = Part("catalogue.lists", "MiniMaxM1Parser", "<", ANGLE_SNIFF)
MINIMAX_UNANGLED: Final = Part("catalogue.minimax", "UnangledMiniMaxParser", "m",
                              (b"minimax:", b'm"', b'mi"', b'min"', b'mini"', b'minima"', b'minimax"'))
"""(`minimax.UNANGLED_SNIFF`)"""
GRANITE_31: Final = Part("catalogue.json_lists", "Granite31Parser", "<", ANGLE_SNIFF)
GRANITE_31_LIST: Final = Part("catalogue.json_lists", "Granite31ListParser", "<", ANGLE_SNIFF)
TOOL_CALLS_LIST: Final = Part("catalogue.json_lists", "ToolCallsListParser", "<", ANGLE_SNIFF)
NEMOTRON: Final = Part("catalogue.json_lists", "NemotronParser", "<", ANGLE_SNIFF)
COMMAND_R_PLUS: Final = Part("catalogue.json_lists", "CommandRPlusParser", "A", word_sniff(b"Action:"))
FUNCTOOLS: Final = Part("catalogue.json_lists", "FunctoolsParser", "f", word_sniff(b"functools"))
XLAM_MARKERS: Final = Part("catalogue.json_lists", "XlamMarkersParser", "<`",
                           (*ANGLE_SNIFF, *word_sniff(b"```json")))
OLMO: Final = Part("catalogue.pythonic", "OlmoParser", "<", ANGLE_SNIFF)
LONGCAT_NEXT: Final = Part("catalogue.json_lists", "LongCatNextParser", "<", ANGLE_SNIFF)
GRANITE_20B: Final = Part("catalogue.one_call", "Granite20bParser", "<", ANGLE_SNIFF)
FUNCTIONARY: Final = Part("catalogue.one_call", "FunctionaryParser", "<", ANGLE_SNIFF)
FUNCTIONGEMMA_IDS: Final = Part("catalogue.lists", "FunctionGemmaIdsParser", "c", _CALL_SNIFF)


class Tokens(LazyComposition, PARTS=MARKERS_EVERYWHERE):
    """`auto` for other ids: the special tokens and the other distinctive markers."""


class HermesAndTokens(LazyComposition, PARTS=(HERMES, *MARKERS_EVERYWHERE)):
    """`auto` for Hermes ids: Hermes JSON and the special tokens."""


class MistralTokens(LazyComposition, PARTS=(*MARKERS_EVERYWHERE, MISTRAL_IDS)):
    """What `auto` for Mistral ids reads once the answer is not stripped calls
    (`routing_wrapped.MistralAndTokens`): also `[THINK]…[/THINK]` reasoning."""


class GraniteAndTokens(LazyComposition, PARTS=(*MARKERS_EVERYWHERE, GRANITE_31)):
    """`auto` for Granite 3.0/3.1 ids: also 3.1's `<tool_call>[…]` (3.0's token is read everywhere)."""


class XlamTokens(LazyComposition, PARTS=(*MARKERS_EVERYWHERE, XLAM_MARKERS)):
    """What `auto` for xLAM ids reads once the answer is not a bare list
    (`routing_wrapped.XlamAndTokens`): also `<tool_call>[…]</tool_call>` and a ```` ```json ```` fence."""


def composed(name: str, *parts: Part, reads_all: bool = False, base: Ref | None = None,
             ) -> type[LazyComposition]:  # fmt: skip
    """The `auto` composition of `parts` (an earlier part wins a shared marker), as a class named
    `name`; `base`: its `BASE` (`LazyComposition`); `reads_all` where a part's marker must not go
    on from a word (`call:`, `Action:`, `functools`), so every text's last character counts."""
    declared: dict[str, object] = {"PARTS": parts, "READS_ALL": reads_all}
    if base is not None:
        declared["BASE"] = base
    return type(name, (LazyComposition,), {"__module__": __name__}, **declared)


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
    # FORMATS-2.md §C and §F (`json_lists.py`, `pythonic.py`): ids holding another family's
    # substring (`llama`, `qwen`, `gemma`) come first.
    Family(("xlam",), "xlam+special-tokens", _wrapped("XlamAndTokens"),
           "xLAM's JSON list as the whole answer, ```json fenced or in <tool_call>...</tool_call>"),
    Family(("nano-9b-v2", "nano-12b-v2", "llama-3_3-nemotron", "llama-3.3-nemotron"),
           "nemotron+special-tokens", composed("NemotronAndTokens", *MARKERS_EVERYWHERE, NEMOTRON),
           "Nemotron's <TOOLCALL>[...]</TOOLCALL>"),
    Family(("phi-4-mini", "firefunction"), "functools+special-tokens",
           composed("FunctoolsAndTokens", *MARKERS_EVERYWHERE, FUNCTOOLS, reads_all=True), "functools[...]"),
    Family(("llama-3.2", "toolace"), "llama3.2+special-tokens", _wrapped("Llama4AndTokens"),
           "a bare pythonic list or JSON call as the whole answer"),
    Family(("functiongemma",), "functiongemma+special-tokens",
           composed("FunctionGemmaAndTokens", *MARKERS_EVERYWHERE, FUNCTIONGEMMA_IDS, reads_all=True),
           "FunctionGemma's call:NAME{...} with its special tokens stripped"),
    Family(("granite-4.0-h-small",), "granite-4-lines+special-tokens", _wrapped("Granite4LinesAndTokens"),
           "Hermes JSON tool-call tags, and bare NAME(k=v) call lines as the whole answer"),
    Family(("granite-3.3",), "granite-3.3+special-tokens", _wrapped("Granite33AndTokens"),
           "Granite 3.1's <tool_call>[...], and bare NAME(k=v) call lines as the whole answer"),
    Family(("granite-3.0", "granite-3.1", "granite-3.2"), "granite+special-tokens", GraniteAndTokens,
           "Granite 3.1's <tool_call>[...] (3.0's <|tool_call|> is read in every stream)"),
    Family(("jamba", "apriel", "hunyuan-a13b"), "tool-calls-list+special-tokens",
           composed("ToolCallsListAndTokens", *MARKERS_EVERYWHERE, TOOL_CALLS_LIST),
           "<tool_calls>[...]</tool_calls>"),
    Family(("command-r-plus",), "command-r-plus+special-tokens",
           composed("CommandRPlusAndTokens", *MARKERS_EVERYWHERE, COMMAND_R_PLUS, reads_all=True),
           "Action: and a ```json fenced list (Cohere's <|START_ACTION|> is read in every stream)"),
    Family(("olmo-3",), "olmo+special-tokens", composed("OlmoAndTokens", *MARKERS_EVERYWHERE, OLMO),
           "<function_calls> holding one call a line"),
    Family(("dots3",), "dots3+special-tokens",
           composed("Dots3AndTokens", SPECIAL_TOKENS, DOTS3_INVOKE, *_BUT_INVOKE),
           "dots3.note's <dots_function_call> blocks"),
    Family(("mimo-v2.5",), "mimo-v2.5+special-tokens",  # (before any `mimo-v2` row)
           composed("MiMoAndTokens", MIMO_XML, SPECIAL_TOKENS, MIMO_INVOKE, *_BUT_INVOKE),
           "Qwen3-Coder XML, and MiMo V2.5's <tml:function_calls> blocks"),
    Family(("minicpm5",), "minicpm5+special-tokens",
           composed("MiniCpm5AndTokens", SPECIAL_TOKENS, MINICPM5_INVOKE, *_BUT_INVOKE),
           "MiniCPM 5's <function name=...><param name=...> calls"),
    Family(("muse-spark",), "muse-spark+special-tokens",
           composed("MuseSparkAndTokens", MUSE_SPARK, *_BUT_HARMONY),
           "Muse Spark's to=RECIPIENT messages (self: reasoning, a tool: a call with an ATEM body)"),
    Family(("muse-glimmer",), "muse-glimmer+special-tokens",
           composed("MuseGlimmerAndTokens", MUSE_GLIMMER, *_BUT_HARMONY),
           "Muse Glimmer's to=RECIPIENT messages (self: reasoning, a tool: a call with an ATEM body)"),
    Family(("beam-1",), "beam+special-tokens", composed("BeamAndTokens", BEAM, *_BUT_HARMONY),
           "Beam's to=NAME calls with rfl:parameter bodies, and its analysis channel"),
    Family(("granite-20b-functioncalling",), "granite-20b+special-tokens",
           composed("Granite20bAndTokens", *MARKERS_EVERYWHERE, GRANITE_20B),
           "granite-20b-functioncalling's <function_call> {...}"),
    # (Qwen3-Coder XML's `<function=` is handed on by Functionary's part: the body decides)
    Family(("functionary-small-v3.1", "functionary-medium-v3.1"), "functionary+special-tokens",
           composed("FunctionaryAndTokens", *MARKERS_EVERYWHERE, FUNCTIONARY, QWEN_XML),
           "Functionary v3.1's <function=NAME>{...}</function>, and Qwen3-Coder XML"),
    Family(("functionary-small-v3.2", "functionary-medium-v3.2"), "functionary-v3.2+special-tokens",
           _wrapped("FunctionaryV32AndTokens"), "Functionary v3.2's >>>NAME line, then {...}; >>>all"),
    Family(("kimi", "moonshot"), "kimi+deepseek",
           composed("KimiAndTokens", *MARKERS_EVERYWHERE, STRIPPED_KIMI, SEP_XTML,
                    base=Ref("machines._compose", "WordLedComposed")),
           "Kimi calls with their tokens stripped, K3 XTML with only <|sep|> left (tools<|sep|>call ...)"),
    Family(("qwen", "qwq"), "qwen+special-tokens", composed("QwenAndTokens", QWEN, *MARKERS_EVERYWHERE),
           "Hermes JSON and Qwen3-Coder XML tool-call tags"),
    # (Step-3.5 and later before any `step3` row: Step-3 writes its own tokens)
    Family(("step-3.5", "step3p5", "step-3p5", "step-3.7", "step3p7", "step-5", "step5", "nanbeige",
            "nemotron-3"), "qwen3-coder+special-tokens",
           composed("QwenXmlAndTokens", QWEN_XML, *MARKERS_EVERYWHERE), "Qwen3-Coder XML tool-call tags"),
    Family(("mimo-v2",), "mimo-xml+special-tokens",
           composed("MiMoXmlAndTokens", MIMO_XML, *MARKERS_EVERYWHERE),
           "Qwen3-Coder XML tool-call tags, values as written (their whitespace kept)"),
    Family(("longcat-next",), "longcat-next+special-tokens",
           composed("LongCatNextAndTokens", LONGCAT, LONGCAT_NEXT, *MARKERS_EVERYWHERE),
           "LongCat's <longcat_tool_call> tags, and <function_calls>[{\"name\", \"parameters\"}]"),
    Family(("longcat",), "longcat+special-tokens",
           composed("LongCatAndTokens", LONGCAT, *MARKERS_EVERYWHERE),
           "LongCat's <longcat_tool_call> tags (a JSON or a key/value body)"),
    Family(("iquest",), "iquest+special-tokens", composed("IQuestAndTokens", IQUEST, *MARKERS_EVERYWHERE),
           "IQuest Q1's <iquest_tool_call> tags"),
    Family(("hy3", "hy4"), "hunyuan+special-tokens",
           composed("HunyuanAndTokens", HY3, HY3_OPENSOURCE, HY4, *MARKERS_EVERYWHERE),
           "Hy3 and Hy4 <tool_calls> blocks of key/value calls"),
    Family(("k2-horizon",), "k2-horizon+special-tokens",
           composed("K2HorizonAndTokens", K2_HORIZON, *MARKERS_EVERYWHERE),
           "K2 Horizon's <ifm|tool_calls> blocks"),
    Family(("deepseek",), "deepseek+kimi",
           composed("DeepSeekAndTokens", SPECIAL_TOKENS, DEEPSEEK_INVOKE, *_BUT_INVOKE),
           "DeepSeek tokens, DSML without its marker and bare <invoke> XML"),
    Family(("minimax",), "minimax+special-tokens",
           composed("MiniMaxAndTokens", MINIMAX_INVOKE, SPECIAL_TOKENS, *_BUT_INVOKE, MINIMAX_M1,
                    MINIMAX_UNANGLED, base=Ref("machines._compose", "WordLedComposed")),
           "MiniMax M2 tags without their angles (minimax:tool_call>invoke name=...>), "
           "M1's <tool_calls> JSON lines, "
           "MiniMax bare <invoke> XML, [TOOL_CALL] wrappers, M3 tags without their namespace "
           "token, <mm:think>"),
    Family(("glm", "z-ai", "zhipu", "ling-3", "bailing", "laguna", "poolside", "spark-2.5", "spark2.5"),
           "glm+special-tokens", composed("GlmAndTokens", GLM, *MARKERS_EVERYWHERE), "GLM tool-call tags"),
    Family(("hermes", "nous", "granite-4", "ernie-4.5", "reka-edge", "trinity", "kolibri", "bielik"),
           "hermes+special-tokens", HermesAndTokens, "Hermes JSON tool-call tags"),
    Family(("gpt-oss",), "gpt-oss+special-tokens", _wrapped("GptOssAndTokens"),
           "harmony with its tokens stripped"),
    Family(("seed-oss",), "seed+special-tokens",  # (as vLLM reads them)
           composed("SeedAndTokens", SEED_THINK, QWEN_XML, *MARKERS_EVERYWHERE),
           "Qwen3-Coder function bodies without <seed:tool_call>"),
    Family(("mistral", "devstral", "magistral", "ministral", "codestral"), "mistral+special-tokens",
           _wrapped("MistralAndTokens"),
           "Mistral's [THINK] reasoning, and its calls with their tokens stripped (v11's NAME{...}, "
           "pre-v11's JSON array, llama.cpp's {\"tool_calls\": [...]}) as the whole answer, after the "
           "reasoning if any (its [TOOL_CALLS] is read in every stream)"),
    Family(("llama-4", "llama4"), "llama4+special-tokens", _wrapped("Llama4AndTokens"),
           "Llama's bare JSON calls and Llama 4's bare pythonic list as the whole answer"),
    Family(("llama",), "llama+special-tokens", _wrapped("LlamaAndTokens"),
           "Llama's bare JSON calls as the whole answer"),
    Family(("gemma",), "gemma+special-tokens",
           composed("GemmaAndTokens", *MARKERS_EVERYWHERE, GEMMA_IDS, reads_all=True),
           "Gemma 4's call:NAME{...} with its special tokens stripped, and its thought channel"),
    Family(("lfm2", "lfm-2", "liquid"), "lfm2+special-tokens", _wrapped("Lfm2AndTokens"),
           "LFM2's pythonic list with its tokens stripped as the whole answer (its tokens are read in "
           "every stream)"),
)  # fmt: skip
"""By model id, in order of precedence (the first family whose id the model's contains wins)."""
