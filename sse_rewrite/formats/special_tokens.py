"""The fallback for unknown models: only Kimi's and DeepSeek's special tokens.

Those tokens cannot occur in ordinary prose, so `auto` recognizes them in every
stream whatever its model id (gateways answer with aliases such as `gpt-4o` for a Kimi
backend), while `<tool_call>` tags or `TOOL:` lines might be the answer's own words.
"""

from __future__ import annotations

from . import deepseek, kimi
from ._scanner import MarkerTable
from ._section_base import Token
from ._sections import SectionParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_DEEPSEEK_MARKERS: Final = frozenset(deepseek.MARKERS)


class SpecialTokensParser(SectionParser):
    """Kimi and DeepSeek tokens in one parser; each call is read by its own opener's rules."""

    MARKERS: ClassVar[MarkerTable[Token]] = MarkerTable({**kimi.MARKERS, **deepseek.MARKERS})

    def _call_parts(self, header: str, arguments: str) -> tuple[str | None, str, str]:
        if self._opener in _DEEPSEEK_MARKERS:  # the call-begin or argument marker
            return deepseek.deepseek_call_parts(header, arguments)
        return kimi.kimi_call_parts(header, arguments)

    def _announceable(self, header: str) -> bool:
        # A DeepSeek V3 call's name leads its fenced argument text: such a call comes out whole.
        return self._opener not in _DEEPSEEK_MARKERS or header != "function"
