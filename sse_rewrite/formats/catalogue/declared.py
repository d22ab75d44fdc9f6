"""The request's tools as evidence: what `auto` adds to a composition where they are known.

`DECLARED` are syntaxes prose can contain, read under any model id where the request's tools
are known and the call names one of them (docs/behaviour.md, "Types"); `declared` builds that
variant of a composition (`routing.FAMILIES`), unless it reads such tags of its own already.
"""

from __future__ import annotations

from ..machines._lazy import LazyComposition
from .routing import (
    DOTS3_INVOKE,
    FUNCTIONARY,
    GLM,
    GRANITE_20B,
    GRANITE_31,
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
    QWEN_XML,
    TOOL_CALLS_LIST,
    XLAM_MARKERS,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

DECLARED: Final = (QWEN,)
"""Syntaxes prose can contain, read under any model id where the request's tools are known: a
call of theirs must name a declared tool, or it stays text (`PROSE`; docs/behaviour.md, "Types")."""
_TAGGED: Final = (QWEN, QWEN_XML, MIMO_XML, GLM, HERMES, MINIMAX_INVOKE, MINIMAX_M1, LONGCAT, IQUEST, HY3,
                  HY3_OPENSOURCE, HY4, K2_HORIZON, GRANITE_31, TOOL_CALLS_LIST, NEMOTRON, XLAM_MARKERS, OLMO,
                  DOTS3_INVOKE, MIMO_INVOKE, MINICPM5_INVOKE, GRANITE_20B, FUNCTIONARY)
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
