"""ListReasoning: the list machine's reasoning steps, for a declaration with `reasoning`.

After its opener (dropped as markup; with `opener_line`, so is one newline right after it:
Gemma's `<|channel>thought` line), the text comes out as `Reasoning` as it arrives, holding
only what may begin the closer; the closer is dropped as markup and plain text follows
(docs/behaviour.md, "Marker-then-list syntaxes"); a `kept` block (Inkling's `<|content_text|>`)
is read the same, its text coming out as text. `ListParser` (`_list_machine.py`) is built on it.
"""

from __future__ import annotations

from ...stream.events import Markup, Piece
from ._list_fast import ListFastPaths
from ._machine import MachineState

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class ListReasoning(ListFastPaths):
    """`_step_think_line` and `_step_think` of the list machine."""

    THINK: ClassVar[MachineState]

    def _step_think_line(self, out: list[Piece]) -> bool:
        """Right after an `opener_line` opener: a newline there is markup too."""
        scan = self._scan
        if scan.cursor == scan.end:
            return False
        if scan.view[scan.cursor] == 0x0A:
            out.append(Markup(scan.take(scan.cursor + 1)))
        self._state = self.THINK
        return True

    def _step_think(self, out: list[Piece]) -> bool:
        """Reasoning up to the closer, handed back as it comes (a possible closer's start held);
        the text of a `kept` block as text."""
        scan, syntax = self._scan, self._syntax
        assert syntax is not None and syntax.closer is not None
        closer = syntax.closer
        at = scan.find(closer, scan.cursor)
        if at == -1:
            held = next((n for n in range(len(closer) - 1, 0, -1) if scan.view.endswith(closer[:n])), 0)
            self._emit_block(out, scan.end - held)
            scan.cursor = scan.end - held
            return False
        self._emit_block(out, at)
        out.append(Markup(scan.take(at + len(closer))))
        self._state = self.TEXT
        return True

    def _emit_block(self, out: list[Piece], end: int) -> None:
        """The block's text up to `end`: reasoning, or text for a `kept` block."""
        assert self._syntax is not None
        if self._syntax.kept:
            self._emit_text(out, end)
        else:
            self._emit_reasoning(out, end)
