"""UndecidedText: which held events the characters a parser has not decided yet came from.

A parser holds back the end of a field's text while it may begin a marker (`<`,
`<|tool_ca`...). The event that text came from is held whole rather than sent without it
(docs/behaviour.md, "Hold the event, not the bytes"), so the rewriter must learn later
whether those characters were text or syntax. Parsers hand pieces back in input order,
and text, call and markup pieces together cover the input exactly, so each later piece
decides the oldest undecided characters: a `Text` piece as text, a call or markup piece
as syntax. Undecided characters left out of the parser's new undecided tail went into open
syntax (`<|s`, then `tart|>…<`): syntax too, which the piece that may release them later as
text carries. Characters of an event that was rebuilt anyway have no owner: decided as
text, they simply go out with the piece that carries them.

An owner is anything with an `undecided` count and a `decided` dict or None (`ChoiceResult`):
by field, the runs of its held characters as they were decided, in order, `(syntax, count)`
(a held answer can have text after its syntax: `f{…}\n`).
"""

from __future__ import annotations

from .events import Markup, Piece, Text, ToolCall
from .streamed_calls import CallPart

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Entry = list[Any]  # [owner or None, characters]


class UndecidedText:
    """Per field, the runs of undecided characters at the end of its parser's buffer, oldest first."""

    __slots__ = ("runs",)

    def __init__(self) -> None:
        self.runs: dict[str, list[Entry]] = {}
        """By field, its runs; empty when no character is undecided (read, never written, outside)."""

    def fields(self) -> list[str]:
        """The fields with undecided characters."""
        return list(self.runs)

    def decide(self, name: str, pieces: list[Piece], undecided: int,
               fresh: int = 0) -> tuple[list[Piece], Entry | None]:
        """Settle the field's runs with `pieces`, given that the last `undecided` characters of
        the field are now held as a possible marker start, and that `fresh` characters came with
        this feed (the event's text; 0 for text counted before, as `--think` hands back). Returns
        the pieces minus the text already in held events' bytes, and the run of new characters
        left undecided (owner None), if any. Older characters left out of those last ones went
        into open syntax (a marker they began was completed: `<|s` + `tart|>`).
        """
        runs = self.runs.get(name)
        if not runs:
            if not undecided:
                return pieces, None
            entry: Entry = [None, undecided]
            self.runs[name] = [entry]
            return pieces, entry
        kept: list[Piece] = []
        for piece in pieces:
            left: Piece | None = piece
            if runs and isinstance(piece, Text | ToolCall | Markup):  # (notices, call starts and
                left = _settle(runs, piece, name)  # argument parts cover no input: the call's raw does)
            if left is not None:
                kept.append(left)
        held = sum(entry[1] for entry in runs)
        old = min(held, undecided - min(undecided, fresh))  # the runs' characters still undecided
        if old < held:  # the older ones went into open syntax
            _decide(runs, held - old, name, None)
        undecided -= old
        if not undecided:
            if not runs:
                del self.runs[name]
            return kept, None
        entry = [None, undecided]
        runs.append(entry)
        return kept, entry

    def held_whole(self, name: str, undecided: int, fresh: int) -> Entry | None:
        """`decide` of a feed that handed back no piece, when its `fresh` characters are all left
        undecided and every run before them, of this field only, is a held event's: then its
        event may be held whole, as `may_hold` would find; their new run (owner None). Else None,
        deciding nothing."""
        runs = self.runs.get(name, [])
        if len(self.runs) > bool(runs) or any(entry[0] is None for entry in runs):
            return None
        held = sum(entry[1] for entry in runs)
        if undecided - min(held, undecided - min(undecided, fresh)) != fresh:  # (`decide`'s new run)
            return None
        return self.decide(name, [], undecided, fresh)[1]

    def may_hold(self, scanned: dict[str, str], own: list[tuple[str, Entry]], items: list[Any]) -> bool:
        """Whether an event may be held whole: its undecided characters (`own`, by field) are all
        that would change in it (`items`: its `(field, piece)`s), and no character of a rebuilt
        event waits before them (holding would put its bytes out before theirs)."""
        if not all(self.first_owned(name, entry) for name, entry in own):
            return False
        if any(isinstance(piece, ToolCall | Markup | CallPart) for _, piece in items):
            return False
        undecided = {name: entry[1] for name, entry in own}
        expected = {n: v[: len(v) - undecided.get(n, 0)] for n, v in scanned.items()}
        heads: dict[str, str] = {}
        for name, piece in items:
            if isinstance(piece, Text):
                heads[name] = heads.get(name, "") + piece.text
        return heads == {name: text for name, text in expected.items() if text}

    def first_owned(self, name: str, entry: Entry) -> bool:
        """Whether every run of the field before `entry` belongs to a held event (else holding
        `entry`'s event would send its bytes before those of the rebuilt event before it)."""
        return all(run[0] is not None for run in self.runs[name] if run is not entry)


def _settle(runs: list[Entry], piece: Text | ToolCall | Markup, name: str) -> Piece | None:
    """Decide the oldest undecided characters with `piece`; the piece minus held events' text."""
    if not isinstance(piece, Text):
        _decide(runs, len(piece.raw), name, None)
        return piece
    kept, pos = _decide(runs, len(piece.text), name, piece.text)
    text = "".join(kept) + piece.text[pos:]
    return Text(text) if text else None


def _decide(runs: list[Entry], size: int, name: str, text: str | None) -> tuple[list[str], int]:
    """Decide the oldest `size` undecided characters (at most) as `text`, or as syntax when it is
    None: the parts of `text` no held event owns, and how much of `text` the runs covered."""
    pos, kept = 0, []
    while runs and pos < size:
        entry = runs[0]
        owner, count = entry[0], min(entry[1], size - pos)
        if owner is None:
            if text is not None:
                kept.append(text[pos : pos + count])
        else:
            owner.undecided -= count
            _add_run(owner, name, text is None, count)
        pos += count
        entry[1] -= count
        if not entry[1]:
            del runs[0]
    return kept, pos


def _add_run(owner: Any, name: str, syntax: bool, count: int) -> None:
    """Record that the owner's next `count` held characters of the field were syntax or text."""
    if owner.decided is None:
        owner.decided = {}
    owner.decided.setdefault(name, []).append((syntax, count))
