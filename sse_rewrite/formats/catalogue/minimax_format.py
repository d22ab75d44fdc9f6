"""`--format minimax`: every MiniMax syntax a MiniMax model may write, on their machines."""

from __future__ import annotations

from ..machines._compose import ComposedParser
from ..machines._machine import ScanningParser
from .lists import MiniMaxM1Parser
from .minimax import MiniMaxParser, UnangledMiniMaxParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class MiniMaxFormat(ComposedParser):
    """MiniMax's tags (`minimax.MiniMaxParser`), M1's `<tool_calls>`, and M2 blocks without their angles."""

    PARTS: ClassVar[tuple[type[ScanningParser], ...]] = (
        MiniMaxParser, MiniMaxM1Parser, UnangledMiniMaxParser
    )
