"""Kimi K3's XTML, declared on the invoke machine (`machines/_invoke.py`; read in every stream).

    <|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|>
    <|open|>argument key="K" type="string"<|sep|>VALUE<|close|>argument<|sep|>
    <|close|>call<|sep|><|close|>tools<|sep|>

Its tags are the invoke family's with `<|open|>`/`<|close|>` before the word and `<|sep|>` for
`>`: `tools` a block, `call` an invoke naming its tool by `tool`, `argument` a parameter naming
its key by `key`. One spacing byte may stand inside a tag (vLLM's detokenizer puts spaces
between special tokens); attribute values escape `&` and `"`; `type="string"` values are raw
strings, other types JSON (raw text on failure), values without a type follow the schema or
the guess. `response` tags are markup; the think channel is reasoning; the end-of-message
`<|close|>message<|sep|>` is dropped where it adjoins syntax or ends the message, else words.
The rules and damage rows: docs/behaviour.md, "Kimi K3 XTML".
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._invoke_syntax import InvokeSyntax, Spelling
from ..machines._machine import MachineState

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_TOKENS: Final = Spelling("<|open|>", "<|close|>")
_SECTION: Final = Spelling("<|open|>", "<|close|>", distinctive=False)
"""(The section's own spelling: a lone `<|close|>tools<|sep|>` is the text's, not an orphan dropped.)"""
KIMI_K3: Final = InvokeSyntax(
    "kimi-k3", (_SECTION,), ("tools",), (_TOKENS,), words=("call", "argument"), angle_optional=False,
    tag_end="<|sep|>", inner_spacing=" ", names=("tool", "key"), typed_by="type", escaped=True,
    markup_words=("response",), orphan_words=("message",),
    think=("<|open|>think<|sep|>", "<|close|>think<|sep|>"), rescan_prose=True,
)  # fmt: skip
"""Kimi K3's XTML: its markers prose cannot contain, so it is read in every stream. (One space inside
a tag, as servers space special tokens: each spacing byte allowed there multiplies the spellings
every stream's scan holds.)"""


_BARE: Final = Spelling("", "", distinctive=False)
KIMI_K3_SEP: Final = KIMI_K3.but(name="kimi-k3-sep", blocks=(_BARE,), tags=(_BARE, _SECTION), think=None,
                                 spaced_tags=True, prose_blocks=True, rescan_prose=False, markup_words=(),
                                 orphan_words=())  # fmt: skip
"""K3 whose `<|open|>`/`<|close|>` the server dropped, `<|sep|>` left (either token may survive here and
there): `tools<|sep|>call tool="bash" index="1"<|sep|>argument key="command" type="string"<|sep|>ls
argument<|sep|>call<|sep|>tools<|sep|>`. A tag opens with its word and spacing (`call `) where the same
word closes (`call<|sep|>`); one space before a bare closer is the server's gap, not the value; a
section of no call was prose (`prose_blocks`: `Use tools<|sep|>` at the end stays text)."""
KIMI_K3_CALL: Final = KIMI_K3_SEP.but(name="kimi-k3-sep-call", opened_by="<|sep|>")
"""The same read from its distinctive `<|sep|>call ` in every stream: the word before (`tools`) stays text."""


class KimiK3Parser(InvokeParser, SYNTAXES=(KIMI_K3, KIMI_K3_CALL)):
    """Streaming parser for Kimi K3 XTML tool calls (`--format kimi-k3`)."""

    REASONING_AT_ONCE: ClassVar[MachineState | None] = InvokeParser.THINK_STATE
    """(A text without `<` ends no reasoning: the think channel takes it whole, as before the move.)"""


class SepXtmlParser(InvokeParser, SYNTAXES=(KIMI_K3_SEP,), HELD_FROM={b"tools<|sep|>": 5}, sniff=(b"tools",),
                    PROSE=True):
    """K3 calls whose open and close tokens were dropped (a part of the Kimi `auto` format; why only
    Kimi ids: docs/behaviour.md, "Kimi K3 with `<|open|>`/`<|close|>` dropped"). The section's `tools`
    is a word: a text ending in it (or `tools<`, `tools<|`…) is held wherever it stands, a shorter start
    (`t` … `tool`) only where no word goes on into it (`.to`, not `into`); an event is read while
    nothing is held when it holds the word whole (`sniff`)."""
