"""What `auto` reads with the marker-then-list family (see `formats/__init__.py`).

`EveryStreamParser` is the every-stream set: Kimi's and DeepSeek's special tokens and this
family's special-token openers (`[TOOL_CALLS]`, `<|python_tag|>`, `<|python_start|>`,
`<|tool_call_start|>`, `<|tool_call>`), in one pass over one scanner. Model ids add what
prose may contain: Gemma's stripped `call:NAME{…}`, and Llama's bare calls as the whole answer.
"""

from __future__ import annotations

from ._compose import ComposedParser
from ._list_machine import ListParser
from .lists import CALL_SNIFF, GEMMA_STRIPPED, LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC, ListMarkersParser
from .special_tokens import SpecialTokensParser
from .whole_answer import WholeAnswerParser

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class EveryStreamParser(ComposedParser):
    """`auto` for any model: the special tokens of every syntax that has them."""

    PARTS = (SpecialTokensParser, ListMarkersParser)


class _GemmaStrippedParser(ListParser):
    """Gemma 4's `call:NAME{…}` with the special tokens stripped (model-gated: prose may say `call:`)."""

    SYNTAXES = (GEMMA_STRIPPED,)
    sniff: ClassVar[tuple[bytes, ...]] = CALL_SNIFF


class GemmaAndTokens(ComposedParser):
    """`auto` for Gemma ids: the special tokens, and `call:NAME{…}` without them."""

    PARTS = (SpecialTokensParser, ListMarkersParser, _GemmaStrippedParser)


class LlamaAndTokens(WholeAnswerParser):
    """`auto` for Llama ids: the special tokens, and a bare JSON call as the whole answer."""

    INNER = EveryStreamParser
    BARE = (LLAMA_BARE_JSON,)


class Llama4AndTokens(WholeAnswerParser):
    """`auto` for Llama 4 ids: as for Llama, and a bare pythonic list as the whole answer."""

    INNER = EveryStreamParser
    BARE = (LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC)
