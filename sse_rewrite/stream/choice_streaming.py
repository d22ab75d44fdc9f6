"""ChoiceStreaming: a choice's `--stream-arguments` hot path, the short way.

While a call is open, most tokens of a streamed call only add argument text: the open call's
parser takes them (`ToolSyntax.absorb_arguments` for a run, `absorb_argument` for a live
event's one token) and the argument parts they stream go out as they are, without a rewrite
(`TokenRuns`). Declined, a token is fed ahead as any other (`ChoiceState.feed_ahead`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .choice_state import ChoiceState

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .streamed_calls import Part


class ChoiceStreaming(ChoiceState):
    """`ChoiceState` and the short way for streamed arguments (see module docstring)."""

    def absorb_streamed(self, name: str, texts: Sequence[str], parts: list[Part]) -> int:
        """`take_run`'s absorb, streaming arguments (`ToolSyntax.absorb_arguments`): how many texts
        it took; the argument parts they stream are added to `parts`."""
        parser, streamed, think = self._parsers.get(name), self._streamed, self._think
        if streamed is None or parser is None or self._undecided.runs:  # (None: no streaming, never asked)
            return 0
        if (think is not None and think.tags.busy and not think.passes(name, "")) or self._fed:
            return 0  # (`_splits`, inlined: once per live token)
        if "" in texts:
            texts = texts[: list(texts).index("")]
        self._last_field = name
        taken = parser.absorb_arguments(texts)
        if len(taken) != 1:
            streamed.add(name, taken, parts)
        elif taken[0]:  # (a live token: `StreamedCalls.add` inlined, as in `absorb`; an XML value's is "")
            entry = streamed.open[name]
            entry[1] += len(taken[0])
            parts.append((entry[0], taken[0]))
        return len(taken)

    def absorb_live(self, name: str, text: str) -> tuple[int, str] | str | None:
        """`absorb_streamed` of a live event's one text (`TokenRuns.take_one`), without its lists:
        the argument part it streams, `""` when taken streaming nothing (an XML value's token), None
        when not taken (as `absorb_streamed` declines: the caller feeds it ahead)."""
        parser, streamed, think = self._parsers.get(name), self._streamed, self._think
        if streamed is None or parser is None or self._undecided.runs:
            return None
        if (think is not None and think.tags.busy and not think.passes(name, "")) or self._fed:
            return None
        self._last_field = name
        taken = parser.absorb_argument(text) if text else None
        if not taken:
            return taken
        entry = streamed.open[name]
        entry[1] += len(taken)
        return entry[0], taken
