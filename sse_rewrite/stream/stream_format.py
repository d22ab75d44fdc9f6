"""What a stream reads, chosen at its first chunk, and the needles its events are searched for (sans-IO).

`choose` picks the format and the reasoning markers from the chunk's `model` and the options
(docs/behaviour.md, "Formats" and "Reasoning"), and makes the stream's choices. `StreamNeedles`
holds the bytes without which an idle event needs no work (`StreamRewriter.needles`): the
format's own and the words the choices act on, and the choices' newcomers as they come.
"""

from __future__ import annotations

from ..formats import FORMATS, select_format
from .call_indexes import REWRITTEN_WORDS, STOP_WORD
from .choices import StreamChoices
from .held_starts import held_starts
from .needle_groups import as_text
from .quotes import NEEDLES as QUOTE_NEEDLES
from .think import think_mode

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..formats import ToolSyntax
    from ..rewrite_options import RewriteOptions
    from ..stats import Stats
    from .held_starts import HeldStarts
    from .quotes import Unread


class StreamNeedles:
    """A stream's needles, in bytes (`runs`, for the accelerators) and as text (`sought`, for one
    event), each by whether calls were made; `quoting`: the quote needles, where a parser reads quotes
    (`quotes.py`): an idle event with one of them only is read for them alone."""

    __slots__ = ("format", "newcomers", "quoting", "runs", "sniff", "sought")

    def __init__(self) -> None:
        self.format: tuple[bytes, ...] = ()  # the format's and its markers'; empty: nothing to do
        self.quoting: tuple[str, ...] = ()
        self.newcomers: tuple[bytes, ...] = ()  # the choices' newcomers in `sniff`
        self.sniff: tuple[bytes, ...] = ()  # the format's and the newcomers
        self.runs: tuple[tuple[bytes, ...], tuple[bytes, ...]] = ((), ())
        self.sought: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def update(self, newcomers: tuple[bytes, ...]) -> None:
        """The needles with the choices' `newcomers` (`StreamChoices.newcomers`) in them."""
        self.newcomers = newcomers
        if not self.format:
            return  # (nothing to do in any event: no parser, no reasoning markers)
        self.sniff = sniff = (*self.format, *newcomers)
        sniff_stop = (*sniff, STOP_WORD.encode())
        self.sought = (as_text(sniff), as_text(sniff_stop))
        quotes = QUOTE_NEEDLES if self.quoting else ()
        self.runs = ((*sniff, *quotes), (*sniff_stop, *quotes))


def choose(
    model: object, options: RewriteOptions, stats: Stats, unread: Unread, needles: StreamNeedles,
) -> tuple[StreamChoices, HeldStarts | None]:  # fmt: skip
    """The choices of a stream whose first chunk names `model`, and the starts of the words its
    parser holds (`held_starts.py`); notes the format and why in `stats`, and sets `needles`."""
    model_id = model if isinstance(model, str) else None
    name, reason = select_format(model_id, options.format, bool(options.tools))
    stats.format, stats.format_reason = name, reason
    parser_type = FORMATS[name] if name else None
    make_parser = None if parser_type is None else _parser_factory(parser_type, options)
    markers, why = think_mode(model_id, options.think, options.prompt_think)
    if parser_type is None and markers is not None and not markers.id_bound:
        markers = None  # (`--format none`: nothing is read in every stream, reasoning markers neither)
    reads_start = bool(getattr(parser_type, "reads_from_start", False))
    choices = StreamChoices(make_parser, options, stats, markers, unread, reads_start)
    starts = None
    if parser_type is not None:
        needles.format = (*parser_type.sniff, *(word.encode() for word in REWRITTEN_WORDS))
        needles.quoting = as_text(QUOTE_NEEDLES)
        starts = held_starts(getattr(parser_type, "held_words", ()))
    if markers is not None:
        needles.format = tuple(dict.fromkeys((*needles.format, *markers.needles)))
        stats.format_reason += f"; {why}"
    needles.update(choices.newcomers)
    return choices, starts


def _parser_factory(parser_type: type[ToolSyntax], options: RewriteOptions) -> Callable[[], ToolSyntax]:
    cap, stream_arguments, tools = options.max_section_bytes, options.stream_arguments, options.tools
    return lambda: parser_type(cap, stream_arguments=stream_arguments, tools=tools)
