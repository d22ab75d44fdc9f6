"""TagSpelling: the markers of one tag-around-a-body syntax, and the tables its machine scans with.

`<tool_call>`/`</tool_call>` and GLM's `<arg_key>`/`<arg_value>` are one spelling
(`TOOL_CALL`); LongCat writes `<longcat_tool_call>` and `<longcat_arg_key>`, InternLM
`<|action_start|><|plugin|>` … `<|action_end|>`, Hy3 a `<tool_sep>` after the name, a
`<tool_calls>` block around its calls and a checkpoint suffix on its tags (`:opensource`).
A spelling is built once per parser class (`_tag_syntax.TagSyntaxParser`), with every
`MarkerTable` the machine (`tool_call_tag`) matches against.
"""

from __future__ import annotations

from ._scanner import MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

FUNCTION_OPEN: Final = b"<function="  # (`tool_call_bodies.FUNCTION`: a Qwen3-Coder body)
FUNCTION_END: Final = b"</function>"
"""Closes a Qwen3-Coder body (a bare call's end)."""
PARAMETER: Final = b"<parameter="
PARAMETER_END: Final = b"</parameter>"


class TagSpelling:
    """The markers of one syntax (see the module docstring), as text (`*_text`) and bytes."""

    __slots__ = ("block", "block_end", "body", "close", "closing", "json_keys", "key", "key_end",
                 "key_or_close", "kind", "kind_end", "opening", "opens", "sep", "value", "value_end",
                 "value_ends", "xml_or_empty")  # fmt: skip

    def __init__(
        self,
        opens: tuple[str, ...] = ("<tool_call>",),
        close: str = "</tool_call>",
        *,
        key: tuple[str, str] = ("<arg_key>", "</arg_key>"),
        value: tuple[str, str] = ("<arg_value>", "</arg_value>"),
        kind: tuple[str, str] = ("", ""),
        sep: str = "",
        block: tuple[str, str] = ("", ""),
        json_keys: tuple[str, ...] = ("arguments", "parameters"),
    ) -> None:
        self.opens = tuple(o.encode() for o in opens)  # each opens one call
        self.close = close.encode()
        self.key, self.key_end = key  # GLM bodies: a key's tags,
        self.value, self.value_end = value  # a value's,
        self.kind, self.kind_end = kind  # an optional type's between them (K2 Horizon)
        self.sep = sep  # what may end a GLM name (Hy3's `<tool_sep>`)
        self.block, self.block_end = (b.encode() for b in block)  # around the calls, if any
        self.json_keys = json_keys  # a JSON body's arguments, by the first key it has
        value_end = self.value_end.encode()
        # Outside a value: marker -> the closer of the value it opens (None: the body's end).
        values: dict[bytes, bytes | None] = {PARAMETER: PARAMETER_END, self.value.encode(): value_end}
        self.body = MarkerTable({**values, self.close: None, **dict.fromkeys(self.opens)})
        # Inside a value: marker -> what comes next (a new value's closer, or None: out of values).
        self.value_ends: dict[bytes, MarkerTable[bytes | None]] = {
            PARAMETER_END: MarkerTable({PARAMETER_END: None, PARAMETER: PARAMETER_END, FUNCTION_END: None}),
            value_end: MarkerTable({value_end: None, self.close: value_end}),  # (the close: `opening`)
        }
        # What may follow an opener: a Qwen `<function=` (or the close: an empty call, prose);
        # a GLM name's first key (its separator, a kind), or the close; after a body, its close.
        self.xml_or_empty = MarkerTable({FUNCTION_OPEN: True, self.close: False})
        ends = (self.key, self.sep)
        self.key_or_close = MarkerTable({**{e.encode(): True for e in ends if e}, self.close: True})
        self.closing = MarkerTable({self.close: True})
        # After a close met inside a key/value value: an opener says the value was left open.
        self.opening = MarkerTable(dict.fromkeys(self.opens, True))


TOOL_CALL: Final = TagSpelling()
"""`<tool_call>…</tool_call>`, GLM's `<arg_key>`/`<arg_value>` (Hermes, Qwen, GLM)."""
BARE_BODY: Final = MarkerTable({PARAMETER: PARAMETER_END, b"<arg_value>": b"</arg_value>",
                                FUNCTION_END: None, b"<tool_call>": None})  # fmt: skip
"""A bare `<function=NAME>` body's markers (Qwen3-Coder): it ends at `</function>`."""
