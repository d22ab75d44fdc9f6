"""The tags of the invoke/parameter family as marker tables, per syntax (`_invoke.InvokeParser`)."""

from __future__ import annotations

import enum

from ._scanner import MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._invoke_syntax import InvokeSyntax


class Tag(enum.Enum):
    """What a marker found by the machine is."""

    BLOCK = "block opener"
    INVOKE = "invoke opener"
    CLOSE = "invoke closer"
    END = "block closer"
    PARAMETER = "parameter closer"
    THINK = "reasoning opener"
    HASH = "hash call wrapper opener"
    FENCED = "fenced call opener"
    MARKUP = "markup"
    ORPHAN = "closer dropped where it adjoins syntax"


def _table(pairs: list[tuple[list[str], Tag]]) -> MarkerTable[Tag]:
    """A table of every spelling of each kind of tag (the first kind to name a spelling keeps it)."""
    table: dict[bytes, Tag] = {}
    for spellings, tag in pairs:
        for spelling in spellings:
            table.setdefault(spelling.encode(), tag)
    return MarkerTable(table)


class Inside:
    """What a syntax's markers are inside its blocks (built once per parser class)."""

    __slots__ = ("between", "body", "hash_end", "lead", "streamed_body", "think_end", "value_closers",
                 "value_openers")  # fmt: skip

    def __init__(self, syntax: InvokeSyntax) -> None:
        invoke, closers = (syntax.invoke_openers(), Tag.INVOKE), (syntax.block_closers(), Tag.END)
        ends = (syntax.invoke_closers(), Tag.CLOSE)
        self.between = _table([invoke, closers])  # after spacing in a block
        self.body = _table([ends, invoke, closers])  # what ends an invoke body
        self.streamed_body = _table([ends, invoke, closers, (syntax.parameter_closers(), Tag.PARAMETER)])
        # (what `absorb` looks for: the tags' one first byte; "", in every text, if they begin with several)
        self.lead = self.streamed_body.leads.decode() if len(self.streamed_body.leads) == 1 else ""
        think_ends = {end.encode(): Tag.THINK for end in syntax.think_markers()[1]}
        if think_ends:  # (an `orphan_words` closer there is markup where it ends the message: `_step_think`)
            think_ends.update((end.encode(), Tag.ORPHAN) for end in syntax.orphan_closers())
        self.think_end = MarkerTable(think_ends) if think_ends else None
        hash_ends = [syntax.hash_calls[1]] if syntax.hash_calls else []
        if syntax.json_blocks:  # (a JSON call in a block ends at the block's closer)
            hash_ends = syntax.block_closers()
        self.hash_end = MarkerTable({end.encode(): Tag.HASH for end in hash_ends}) if hash_ends else None
        self.value_openers = tuple(s.encode() for s in syntax.parameter_openers())
        self.value_closers = tuple(s.encode() for s in syntax.parameter_closers())

    def value_open(self, view: bytearray, start: int, end: int) -> bool:
        """Whether the body `view[start:end]` ends inside a parameter value (its closer not seen)."""
        if not self.value_openers:
            return False
        last = end
        while last > start and view[last - 1] in b" \t\r\n":
            last -= 1
        tail = bytes(view[max(start, last - 64) : last])
        if tail.endswith(self.value_closers):  # (the usual case: the last value is closed)
            return False
        opened = max((view.rfind(opener, start, end) for opener in self.value_openers), default=-1)
        return opened > max((view.rfind(closer, start, end) for closer in self.value_closers), default=-1)


def openers(
    syntaxes: tuple[InvokeSyntax, ...], held_from: dict[bytes, int] | None = None
) -> MarkerTable[tuple[InvokeSyntax, Tag]]:
    """What opens something outside any block, and whose it is (an earlier syntax wins a tie):
    block openers, invokes that open a call alone, block closers prose cannot contain (orphans),
    reasoning openers, hash-call wrappers, fenced-call openers, markup tags and closers dropped
    only where they adjoin syntax (`held_from`: as `MarkerTable`'s)."""
    table: dict[bytes, tuple[InvokeSyntax, Tag]] = {}
    for syntax in syntaxes:
        closers = [s.close + w + ">" for s in syntax.blocks if s.distinctive for w in syntax.block_words]
        thinks = syntax.think_markers()[0]
        hashes = [syntax.hash_calls[0]] if syntax.hash_calls else []
        fenced = [(s.open + w + ">", s.close + w + ">") for s in syntax.blocks if s.distinctive
                  for w in syntax.fenced_words]  # fmt: skip
        closers += [closer for _, closer in fenced]  # (a fenced call needs no closer: one is dropped)
        outside = ((syntax.block_openers(), Tag.BLOCK), (syntax.invoke_openers(bare=True), Tag.INVOKE),
                   (closers, Tag.END), (thinks, Tag.THINK), (hashes, Tag.HASH),
                   ([opener for opener, _ in fenced], Tag.FENCED), (syntax.markup(), Tag.MARKUP),
                   (syntax.orphan_closers(), Tag.ORPHAN))  # fmt: skip
        for markers, tag in outside:
            for marker in markers:
                table.setdefault(marker.encode(), (syntax, tag))
    return MarkerTable(table, held_from)
