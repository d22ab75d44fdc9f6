"""ListSyntax: one syntax of the "marker, then a JSON or pythonic value" family, declared.

The declarations are in `lists.py`; the machine that reads them is `_list_machine.py`, and
`_list_reads.py` turns what a block wrote into calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...stream.events import Notice
from ._brackets import Quotes

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import ToolSchemas

Call = tuple[str | None, str, str]
"""`(id, name, arguments JSON text)`."""
Written = list[tuple["re.Match[str] | None", str]]
"""A block's calls as written: each header's match (None without one) and value text."""
MAX_HEADER: Final = 256
"""Bytes of header before the opener is taken for prose."""

@dataclass(frozen=True, eq=False)  # (a declaration is itself: hashed by identity)
class ListSyntax:
    """One syntax of the family, declared (see `lists.py` for the declarations)."""

    name: str
    openers: tuple[bytes, ...]
    values: dict[int, Quotes]
    """The bytes a value may start with, and how its strings are quoted."""
    read: Callable[[Written], tuple[list[Call], list[Notice]] | None]
    """The calls of a block (and notices), or None when it is not calls."""
    typed: Callable[[Written, ToolSchemas], tuple[list[Call], list[Notice]] | None] | None = None
    """`read` where the request's tools are known, for raw-text values: typed by the schema."""
    header: re.Pattern[str] | None = None
    """What may stand between the opener and the value (groups `name`, `id`)."""
    header_bytes: re.Pattern[bytes] | None = None
    """A byte that cannot be in a header: where the header ends."""
    header_optional: bool = True
    closer: bytes | None = None
    again: bytes | None = None
    """What starts another call of the block after a value (`;`, `call:`)."""
    again_line: bool = False
    """Whether, with `again`, a newline between two bare values joins them too (Llama 3's calls
    one a line)."""
    closer_optional: bool = False
    """Whether a block ends whole without its closer (GigaChat's `</s>`, which servers cut): no
    notice where the input ends after its calls."""
    orphan_closer: bool = True
    """Whether the closer with nothing open is a marker (`_orphans.py`); a fence (```) is words."""
    repeats: bool = False
    """Whether another call may follow a call directly, spacing between (MiniMax M1's lines,
    Olmo 3's `f(a=1)` lines: a value, or a header where the syntax has one)."""
    streams: bool = False
    """Whether the value is the arguments as written (streamed with `--stream-arguments`)."""
    echo: bool = False
    reasoning: bool = False
    """Whether the opener starts reasoning, up to its closer (`[THINK]`): no calls are read."""
    kept: bool = False
    """With `reasoning`: the block is the answer's text instead, its opener and closer markup
    (Inkling's `<|content_text|>` block)."""
    opener_line: bool = False
    """Whether a newline right after the opener is markup too (Gemma's `<|channel>thought` line)."""
    word_start: bool = False
    """Whether an opener that follows a letter, digit or `_` is prose (`recall:` is no `call:`)."""
    line_start: bool = False
    """Whether the opener counts only at the start of a line, its header on the opener's line
    (`TOOL:`: elsewhere, or after a call on the same line, it is prose)."""
    text_header: bytes = b""
    """A header right after the opener that addresses the answer's text (Functionary v3.2's
    `all\n`): markup with its opener, and the block ends there, the text after it kept."""
    held_from: int = 1
    """How long a start of the opener ending the input and glued to a word must be to be held
    (`MarkerTable.held_from`: `functions.` holds `fu` on, a lone `f` only after a non-word byte)."""
    header_start: re.Pattern[bytes] | None = None
    """What a header still arriving may look like: any other releases its opener at once."""
    value_start: bytes = b""
    """The bytes that may follow the value's opening bracket, spacing skipped (any, if empty):
    another makes the opener prose at once (stripped Kimi's `{` then `"` or `}`)."""
    hands_over: bool = False
    """Whether the opener ends what the machine reads: it is markup, and the text after it is
    `ListParser.handed_over`, its owner's to read (stripped harmony's `assistantfinal`)."""
    proven: bool = False
    """Only what is proven is a call: a block that is not calls, or is cut off at the end, is
    text where it stands, without a notice; its opener comes out and the scan goes on right
    after it (a syntax without tokens, which prose and code may write)."""
