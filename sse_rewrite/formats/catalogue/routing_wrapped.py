"""The `auto` formats that wrap the every-stream composition, imported once a stream needs one
(gpt-oss's reads the composition built: its start reads the stream's first texts itself, as
Functionary v3.2's does)."""

from __future__ import annotations

from ..machines._compose import ComposedParser
from ..machines._scanner import ANGLE_SNIFF
from ..machines.whole_answer import WholeAnswerParser
from .harmony_stripped import ANALYSIS
from .json_lists import XlamParser
from .lists import LLAMA_BARE_JSON, Lfm2Parser, LlamaParser, MistralParser
from .one_call import FunctionaryV32Parser
from .pythonic import GRANITE_LINES
from .routing import GraniteAndTokens, HermesAndTokens, MistralTokens, Tokens, XlamTokens

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class GptOssAndTokens(
    WholeAnswerParser, INNER=Tokens.composition(), BARE=(), REASONING=ANALYSIS, sniff=ANGLE_SNIFF
):
    """`auto` for gpt-oss ids: harmony with its tokens stripped (its reasoning first), then the
    special tokens. The stripped start needs no needle: it is read from the first text
    (`reads_from_start`), and a plain answer costs the first text's events alone."""


class LlamaAndTokens(WholeAnswerParser, INNER=Tokens, BARE=(LLAMA_BARE_JSON,)):
    """`auto` for Llama ids: also a bare JSON call as the whole answer."""


class Llama4AndTokens(LlamaParser, INNER=Tokens):
    """`auto` for Llama 4 ids: also a bare JSON call or pythonic list as the whole answer."""


class Lfm2AndTokens(Lfm2Parser, INNER=Tokens):
    """`auto` for LFM2 ids: also its pythonic list with its tokens stripped, as the whole answer."""


class MistralAndTokens(MistralParser, INNER=MistralTokens):
    """`auto` for Mistral ids: also calls whose tokens the server stripped (v11's `NAME{…}NAME{…}`,
    pre-v11's JSON array) as the whole answer, after the `[THINK]` reasoning if any (prose holds
    `word{`: only the answer's first word is held meanwhile)."""


class XlamAndTokens(XlamParser, INNER=XlamTokens):
    """`auto` for xLAM ids: also its bare JSON list (or call object) as the whole answer."""


class Granite4LinesAndTokens(
    WholeAnswerParser, INNER=HermesAndTokens, BARE=(GRANITE_LINES,), DECLARED_ONLY=True
):
    """`auto` for Granite 4.0 H-Small ids: Hermes JSON tags, and bare call lines as the whole answer."""


class Granite33AndTokens(Granite4LinesAndTokens, INNER=GraniteAndTokens):
    """`auto` for Granite 3.3 ids: 3.0's and 3.1's lists, and bare call lines as the whole answer
    (after the `<think>…</think><response>` split, which the stream's reasoning markers make)."""


class FunctionaryV32AndTokens(ComposedParser):
    """`auto` for Functionary v3.2 ids. Their prompt ends with `>>>`, so the answer starts at a
    header (`all\n` or `NAME\n`): the field starts inside `FunctionaryV32Parser`'s opener, and
    is read from its first text (`reads_from_start`)."""

    PARTS = (*Tokens.composition().PARTS, FunctionaryV32Parser)
    reads_from_start: ClassVar[bool] = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        opened = self._parts[-1]
        assert isinstance(opened, FunctionaryV32Parser)
        opened.open_at_start()
        self._active = opened
