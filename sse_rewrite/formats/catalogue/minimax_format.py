"""`--format minimax`: every MiniMax syntax a MiniMax model may write, on their machines."""

from __future__ import annotations

from ..machines._compose import ComposedParser
from .lists import MiniMaxM1Parser
from .minimax import MiniMaxParser, UnangledMiniMaxParser


class MiniMaxFormat(ComposedParser, PARTS=(MiniMaxParser, MiniMaxM1Parser, UnangledMiniMaxParser)):
    """MiniMax's tags (`minimax.MiniMaxParser`), M1's `<tool_calls>`, and M2 blocks without their angles."""
