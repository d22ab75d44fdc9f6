"""What a stream reads, chosen at its first chunk (sans-IO).

`choose` picks the format and the reasoning markers from the chunk's `model` and the options
(docs/behaviour.md, "Formats" and "Reasoning"), makes the stream's choices, and says what its
events are searched for while it is idle (`StreamRewriter.needles`).
"""

from __future__ import annotations

from ..formats import FORMATS, select_format
from .call_indexes import REWRITTEN_WORDS
from .choices import StreamChoices
from .held_starts import held_starts
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


def choose(
    model: object, options: RewriteOptions, stats: Stats, unread: Unread,
) -> tuple[StreamChoices, tuple[bytes, ...], tuple[bytes, ...], HeldStarts | None]:  # fmt: skip
    """For a stream whose first chunk names `model`: its choices, the needles of its format and
    reasoning markers (empty: nothing to do in any event), the quote needles where a parser reads
    quotes (`quotes.py`), and the starts of the words its parser holds (`held_starts.py`). Notes
    the format and why in `stats`."""
    model_id = model if isinstance(model, str) else None
    name, reason = select_format(model_id, options.format, bool(options.tools))
    stats.format, stats.format_reason = name, reason
    parser_type = FORMATS[name] if name else None
    make_parser = None if parser_type is None else _parser_factory(parser_type, options)
    markers, why = think_mode(model_id, options.think, options.prompt_think)
    if parser_type is None and markers is not None and not markers.id_bound:
        markers = None  # (`--format none`: nothing is read in every stream, reasoning markers neither)
    reads_start = bool(getattr(parser_type, "reads_from_start", False))
    # The gate where the tools are known (`HEADS`, formats/machines/whole_answer.py) holds only the first
    # choice's answer: a later choice's (`n` > 1) is its `INNER`'s. Reading every choice's start
    # costs every event of a stream a search (`StreamChoices.newcomers`: +5 % on a prose stream).
    later = None
    if reads_start and getattr(parser_type, "HEADS", None) is not None:
        reads_start, later = False, _parser_factory(parser_type.INNER, options)  # type: ignore[union-attr]
    choices = StreamChoices(make_parser, options, stats, markers, unread, reads_start, later)
    needles: tuple[bytes, ...] = ()
    quotes: tuple[bytes, ...] = ()
    starts = None
    if parser_type is not None:
        needles = (*parser_type.sniff, *(word.encode() for word in REWRITTEN_WORDS))
        quotes = QUOTE_NEEDLES
        names = options.tools.names() if options.tools else None  # (a word may hold a declared name)
        starts = held_starts(getattr(parser_type, "held_words", ()), names)
        needles += starts.named if starts is not None else ()
    if markers is not None:
        needles = tuple(dict.fromkeys((*needles, *markers.needles)))
        stats.format_reason += f"; {why}"
    return choices, needles, quotes, starts


def _parser_factory(parser_type: type[ToolSyntax], options: RewriteOptions) -> Callable[[], ToolSyntax]:
    cap, stream_arguments, tools = options.max_section_bytes, options.stream_arguments, options.tools
    return lambda: parser_type(cap, stream_arguments=stream_arguments, tools=tools)
