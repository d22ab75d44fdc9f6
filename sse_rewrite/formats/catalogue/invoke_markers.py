"""The invoke/parameter syntaxes whose markers prose cannot contain, read in every stream.

DSML's `｜DSML｜`-marked tags, GCML's `｜GCML｜`, `<minimax:tool_call>` and `]<]minimax[>[` are composed into
every `auto` format, as Kimi's and DeepSeek's special tokens are; the plain `<invoke name=…>`
grammar, which prose and code quote, only where a model id picks it (`DeepSeekInvokeParser`,
`MiniMaxInvokeParser`).
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._scanner import ANGLE_SNIFF
from .dsml import DSML, DSML_ANY_MARKER
from .invoke_more import GCML
from .minimax import (
    HASH_SNIFF,
    MINIMAX_M2,
    MINIMAX_M2_BARE,
    MINIMAX_M3,
    MINIMAX_M3_IDS,
    MINIMAX_M3_STRIPPED,
    NAMESPACE_SNIFF,
)


class InvokeMarkersParser(
    InvokeParser, SYNTAXES=(DSML, GCML, MINIMAX_M2, MINIMAX_M3), sniff=(*ANGLE_SNIFF, *NAMESPACE_SNIFF)
):
    """DSML, GCML, MiniMax M2 blocks and M3, by their distinctive markers only."""


class DeepSeekInvokeParser(
    InvokeParser,
    SYNTAXES=(DSML_ANY_MARKER, GCML, MINIMAX_M2, MINIMAX_M3),
    sniff=(*ANGLE_SNIFF, *NAMESPACE_SNIFF),
):
    """For DeepSeek ids: DSML with or without its marker (a bare `<invoke>` too), GCML's and MiniMax's
    markers."""


class MiniMaxInvokeParser(
    InvokeParser,
    SYNTAXES=(MINIMAX_M2_BARE, MINIMAX_M3_IDS, MINIMAX_M3_STRIPPED, DSML, GCML),
    sniff=(*ANGLE_SNIFF, *HASH_SNIFF, *NAMESPACE_SNIFF),
):
    """For MiniMax ids: MiniMax M2 (a bare `<invoke>` and the `[TOOL_CALL]` wrapper too) and M3 (its
    `<mm:think>`, and its tags with the namespace token stripped), and DSML and GCML by their markers."""
