"""The `auto` formats that wrap the every-stream composition, imported once a stream needs one
(gpt-oss's reads the composition built: its start reads the stream's first texts itself)."""

from __future__ import annotations

from ..machines.harmony_stripped import GptOssParser
from ..machines.whole_answer import WholeAnswerParser
from .json_lists import XLAM_BARE
from .lists import (
    LFM2_BARE,
    LLAMA_BARE_JSON,
    LLAMA_BARE_PYTHONIC,
    MISTRAL_BARE_JSON,
    MISTRAL_REASONING,
    MISTRAL_STRIPPED,
)
from .routing import MistralTokens, Tokens, XlamTokens


class GptOssAndTokens(GptOssParser):
    """`auto` for gpt-oss ids: harmony with its tokens stripped, then the special tokens."""

    TOKENS = Tokens.composition()


class LlamaAndTokens(WholeAnswerParser):
    """`auto` for Llama ids: also a bare JSON call as the whole answer."""

    INNER = Tokens
    BARE = (LLAMA_BARE_JSON,)


class Llama4AndTokens(WholeAnswerParser):
    """`auto` for Llama 4 ids: also a bare JSON call or pythonic list as the whole answer."""

    INNER = Tokens
    BARE = (LLAMA_BARE_JSON, LLAMA_BARE_PYTHONIC)


class Lfm2AndTokens(WholeAnswerParser):
    """`auto` for LFM2 ids: also its pythonic list with its tokens stripped, as the whole answer."""

    INNER = Tokens
    BARE = (LFM2_BARE,)


class MistralAndTokens(WholeAnswerParser):
    """`auto` for Mistral ids: also calls whose tokens the server stripped (v11's `NAME{…}NAME{…}`,
    pre-v11's JSON array) as the whole answer, after the `[THINK]` reasoning if any (prose holds
    `word{`: only the answer's first word is held meanwhile)."""

    INNER = MistralTokens
    BARE = (MISTRAL_STRIPPED, MISTRAL_BARE_JSON)
    REASONING = MISTRAL_REASONING


class XlamAndTokens(WholeAnswerParser):
    """`auto` for xLAM ids: also its bare JSON list (or call object) as the whole answer."""

    INNER = XlamTokens
    BARE = (XLAM_BARE,)
