"""MiniMax M2.x and M3: invoke/parameter XML in a `<minimax:tool_call>` block, or behind `]<]minimax[>[`.

    M2:  <minimax:tool_call>
         <invoke name="bash">
         <parameter name="command">ls</parameter>
         </invoke>
         </minimax:tool_call>
    M3:  ]<]minimax[>[<tool_call>
         ]<]minimax[>[<invoke name="list_dir">]<]minimax[>[<dir>docs/]<]minimax[>[</dir>]<]minimax[>[</invoke>
         ]<]minimax[>[</tool_call>

Values are raw text stripped of surrounding whitespace, typed by the project's rule; an M3
value made of tags is an object. Under MiniMax ids a bare M2 `<invoke name=…>` is read too, and
M2 blocks whose tags lost their angles:

    minimax:tool_call>
    invoke name="bash">
    parameter name="command">ls -la/parameter>
    /invoke>
    /minimax:tool_call>
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._invoke_syntax import PLAIN, InvokeSyntax, Spelling, Values
from ..machines._scanner import ANGLE_SNIFF

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

NAMESPACE: Final = "]<]minimax[>["
"""MiniMax M3's namespace token, before every tag."""
_M3: Final = Spelling(f"{NAMESPACE}<", f"{NAMESPACE}</")

MINIMAX_M2: Final = InvokeSyntax("minimax", (Spelling("<minimax:", "</minimax:"),), ("tool_call",), (PLAIN,),
                                 strip_values=True)  # fmt: skip
"""`<minimax:tool_call>` blocks: read in every stream whatever the model id."""
MINIMAX_M2_BARE: Final = MINIMAX_M2.but(bare_plain=True, hash_calls=("[TOOL_CALL]", "[/TOOL_CALL]"))
"""With a bare `<invoke name=…>` and the `[TOOL_CALL]{tool => …}` wrapper M2.x leaks too (no
template defines it, prose may quote it: `hash_calls`): MiniMax ids and `--format minimax`."""
HASH_SNIFF: Final = (b"[T", b'["')
"""Sniff bytes for `[TOOL_CALL]` (as `lists.TOOL_CALLS_SNIFF` for `[TOOL_CALLS]`)."""
NAMESPACE_SNIFF: Final = (b']"',)
"""Sniff bytes for a text ending in `]`: M3's namespace token cut after its first character (its
`<` is `ANGLE_SNIFF`'s), which one character per event sends alone."""
MINIMAX_M3: Final = InvokeSyntax("minimax-m3", (_M3,), ("tool_call",), (_M3,), values=Values.NAMED_TAGS,
                                 strip_values=True)  # fmt: skip
"""`]<]minimax[>[`-led tags: read in every stream whatever the model id."""
MINIMAX_M3_IDS: Final = MINIMAX_M3.but(think=("<mm:think>", "</mm:think>"))
"""With M3's `<mm:think>` reasoning moved to the reasoning field: MiniMax ids and `--format minimax`."""
MINIMAX_M3_STRIPPED: Final = MINIMAX_M3.but(name="minimax-m3-stripped", blocks=(PLAIN,), tags=(PLAIN,),
                                            angle_optional=False)  # fmt: skip
"""M3 with its namespace token stripped (`<tool_call>`, `<invoke name=…>`, `<KEY>VALUE</KEY>`):
prose-like tags, read under MiniMax ids and `--format minimax` only, inside a `<tool_call>` block."""


class MiniMaxParser(
    InvokeParser,
    SYNTAXES=(MINIMAX_M2_BARE, MINIMAX_M3_IDS, MINIMAX_M3_STRIPPED),
    sniff=(*ANGLE_SNIFF, *HASH_SNIFF, *NAMESPACE_SNIFF),
):
    """MiniMax M2 (blocks and bare invokes) and M3 (`--format minimax`)."""


_UNANGLED: Final = Spelling("", "/", distinctive=False)
MINIMAX_M2_UNANGLED: Final = InvokeSyntax("minimax-unangled", (_UNANGLED,), ("minimax:tool_call",),
                                          (_UNANGLED, PLAIN, Spelling("", "", distinctive=False)),
                                          strip_values=True, angle_optional=False, spaced_tags=True,
                                          prose_blocks=True)  # fmt: skip
"""M2.x writing every tag without its `<` (closers `/invoke>`, or without `</`: `invoke>`), angled tags
mixed in: a block opens at `minimax:tool_call>`, words prose may write, so a block of no call was prose;
`invoke ` opens where `invoke>` closes (`spaced_tags`). MiniMax ids and `--format minimax` only."""
UNANGLED_SNIFF: Final = (b"minimax:", b'm"', b'mi"', b'min"', b'mini"', b'minima"', b'minimax"')
"""An event is read for the opener when it holds its first word whole, or its text ends in a start of
it (`m"`, its JSON string's end, covers `minim`): the opener cut across events reads as it does whole."""


class UnangledMiniMaxParser(
    InvokeParser, SYNTAXES=(MINIMAX_M2_UNANGLED,), HELD_FROM={b"minimax:tool_call>": 4}, sniff=UNANGLED_SNIFF
):
    """`minimax:tool_call>` blocks of invokes written without `<` and `</` (a part of MiniMax's `auto`);
    a text ending in a start of the opener glued to a word is held from `mini` on (`HELD_FROM`: `from`,
    `item` go on at once), after a non-word byte from `m` on."""
