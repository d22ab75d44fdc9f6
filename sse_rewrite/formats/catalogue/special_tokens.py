"""The fallback for unknown models: Kimi's, DeepSeek's and the other section frames' special tokens.

Those tokens cannot occur in ordinary prose, so `auto` recognizes them in every
stream whatever its model id (gateways answer with aliases such as `gpt-4o` for a Kimi
backend), while `<tool_call>` tags or `TOOL:` lines might be the answer's own words.
"""

from __future__ import annotations

from ..machines._sections import SectionParser
from .deepseek import DEEPSEEK
from .frames import PLAMO3, SOLAR_OPEN, SOLAR_OPEN_2, STEP3
from .kimi import KIMI


class SpecialTokensParser(SectionParser, SYNTAXES=(KIMI, DEEPSEEK, STEP3, SOLAR_OPEN, SOLAR_OPEN_2, PLAMO3)):
    """Kimi, DeepSeek, Step-3, Solar Open (1 and 2) and PLaMo 3 tokens in one parser; each call is read by
    the syntax its opener (call-begin marker, else argument marker) belongs to."""
