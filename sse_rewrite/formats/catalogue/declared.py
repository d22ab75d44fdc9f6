"""The request's tools as evidence: what `auto` adds to a composition where they are known.

`DECLARED` are syntaxes prose can contain, read under any model id where the request's tools
are known and the call names one of them (docs/behaviour.md, "Types"); `declared` builds that
variant of a composition (`routing.FAMILIES`): one that reads such tags of its own already gets only
the whole-answer gate.
"""

from __future__ import annotations

from ..machines._lazy import LazyComposition, Part, Ref
from .routing import (
    DEEPSEEK_INVOKE,
    DOTS3_INVOKE,
    FUNCTIONARY,
    FUNCTIONGEMMA_IDS,
    GEMMA_IDS,
    GLM,
    GRANITE_20B,
    GRANITE_31,
    GRANITE_31_LIST,
    HERMES,
    HY3,
    HY3_OPENSOURCE,
    HY4,
    IQUEST,
    K2_HORIZON,
    LONGCAT,
    MIMO_INVOKE,
    MIMO_XML,
    MINICPM5_INVOKE,
    MINIMAX_INVOKE,
    MINIMAX_M1,
    NEMOTRON,
    OLMO,
    QWEN,
    QWEN_OR_GLM,
    QWEN_XML,
    STRIPPED_KIMI,
    TOOL_CALLS_LIST,
    XLAM_MARKERS,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

DECLARED: Final = (GRANITE_31_LIST, QWEN_OR_GLM, TOOL_CALLS_LIST, MINIMAX_M1, HY3, NEMOTRON, OLMO, LONGCAT,
                   IQUEST, K2_HORIZON, HY3_OPENSOURCE, HY4, GRANITE_20B)
"""Syntaxes prose can contain, read under any model id where the request's tools are known: a
call of theirs must name a declared tool, or it stays text (`PROSE`; docs/behaviour.md, "Types").
Each has a tag of its own, or shares it with a body that tells them apart, the list part first, which
hands any other body on (`<tool_call>`: Granite 3.1's `[…]`, then Hermes', Qwen3-Coder's and GLM's;
`<tool_calls>`: Jamba's `[…]`, then MiniMax M1's JSON lines, then Hunyuan 3's block of `<tool_call>`s)."""
_TAGGED: Final = (*DECLARED, QWEN, QWEN_XML, MIMO_XML, GLM, HERMES, MINIMAX_INVOKE, GRANITE_31, XLAM_MARKERS,
                  DOTS3_INVOKE, MIMO_INVOKE, MINICPM5_INVOKE, FUNCTIONARY)
"""Parts that read a `<tool_call>`-like tag of their own (the `DECLARED` ones too): a composition holding
one keeps it, and gets the whole-answer gate alone."""
_KIMI: Final = Part("catalogue.kimi_stripped", "DeclaredKimiParser", "f", (), ((b"functions.%s:", 1),))
"""Stripped Kimi K2: read where `functions.NAME:` names a declared tool (`stream/held_starts.py`)."""
_HARMONY: Final = Part("catalogue.harmony_stripped", "DeclaredHarmonyParser", "=", (),
                       ((b"=functions.%s", 1),))
"""Stripped harmony's call: read where `=functions.NAME` names a declared tool (the same way)."""
_GEMMA: Final = Part("catalogue.lists", "DeclaredGemmaParser", "c", (), ((b"call:%s{", 1), (b"call:%s(", 1)))
"""Stripped Gemma 4's call: read where `call:NAME{` or `call:NAME(` names a declared tool (the same way)."""
_CLASHES: Final = {DEEPSEEK_INVOKE: (TOOL_CALLS_LIST, MINIMAX_M1, HY3, HY3_OPENSOURCE, HY4, OLMO),
                   STRIPPED_KIMI: (_KIMI,), GEMMA_IDS: (_GEMMA,), FUNCTIONGEMMA_IDS: (_GEMMA,)}
"""Parts whose markers begin with an added part (DeepSeek's unprefixed `<tool_calls`, `<function_calls`; Kimi
ids' `functions.`, Gemma ids' `call:`): a composition holding one drops them (no marker may begin another)."""
DECLARED_SUFFIX: Final = "+declared-tools"
DECLARED_ANSWERS: Final = ("bare calls as the whole answer (Llama's, Mistral's, [...] lists: its first "
                           "call), whose call names a declared tool")
"""What the gate adds (`lists.DeclaredAnswer`): a composition that reads tags of its own gets that alone."""
DECLARED_ADDS: Final = ("tool-call tags prose can contain (Hermes JSON, Qwen3-Coder XML, GLM, <tool_call>[…],"
                        " <tool_calls> holding a […] list, MiniMax M1's lines or Hunyuan 3's block, "
                        "<TOOLCALL>, <function_calls>, <function_call>, LongCat's, IQuest's, K2 Horizon's, "
                        f"Hunyuan's), stripped Kimi's functions.NAME:N{{…}}, and {DECLARED_ANSWERS}")


def declared(composition: type[LazyComposition]) -> Ref:
    """What `auto` reads when the request's tools are known: `composition` plus the `DECLARED` parts,
    or where it reads tags of its own (`_TAGGED`: its ids read them already) `composition` alone,
    behind the whole-answer gate (`lists.gated`)."""
    if any(part in composition.PARTS for part in _TAGGED):
        return Ref("catalogue.lists", "gated", composition)
    left_out = {clash for part in composition.PARTS for clash in _CLASHES.get(part, ())}
    adds = tuple(part for part in (*DECLARED, _KIMI, _HARMONY, _GEMMA) if part not in left_out)
    attributes = {"PARTS": (*composition.PARTS, *adds), "BASE": Ref("machines._compose", "WordLedComposed"),
                  "READS_ALL": composition.READS_ALL, "__module__": __name__,
                  "__doc__": f"`{composition.__name__}`, and {DECLARED_ADDS}."}  # fmt: skip
    variant = type(composition.__name__ + "AndDeclared", (LazyComposition,), attributes)
    return Ref("catalogue.lists", "gated", variant)
