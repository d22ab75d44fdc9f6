"""What the pieces a fed text made say: whether the choice that carried it has anything left to send.

`ChoiceState` feeds a parser a text ahead of its chunk's rewrite (`feed_ahead`, `absorb`) and asks
these of the pieces it gets back: all syntax (`markup_only`), all reasoning (`reasoning_whole`, or
with a marker's start held back or released with it: `reasoning_text`),
or more of a streamed call's arguments (`streams_only`; its end: `StreamedCalls.ended`), or whole calls
(`calls_only`).
"""

from __future__ import annotations

from .events import ArgumentsDelta, CallStart, Markup, Piece, Reasoning, ToolCall


def reasoning_whole(pieces: list[Piece], text: str) -> bool:
    """Whether feeding the content `text` made one piece of it, all reasoning (harmony's analysis)."""
    return len(pieces) == 1 and type(pieces[0]) is Reasoning and pieces[0].text == text


def reasoning_text(pieces: list[Piece]) -> str | None:
    """The text of pieces that are one piece of reasoning, not empty (harmony's analysis: the content fed,
    but for a marker's start its parser holds at its end, or with one held before it released); else None."""
    return pieces[0].text if len(pieces) == 1 and type(pieces[0]) is Reasoning and pieces[0].text else None


def markup_only(pieces: list[Piece]) -> bool:
    """Whether every piece is syntax that carries no text (none at all, or `Markup`)."""
    for piece in pieces:  # noqa: SIM110 (a loop, not all(): this runs once per token fed ahead)
        if type(piece) is not Markup:
            return False
    return True


def streams_only(pieces: list[Piece]) -> bool:
    """Whether every piece announces a call or streams more of its arguments."""
    for piece in pieces:  # noqa: SIM110 (a loop, not all(): this runs once per streamed token)
        if type(piece) is not ArgumentsDelta and type(piece) is not CallStart:
            return False
    return True


def calls_only(pieces: list[Piece]) -> bool:
    """Whether the pieces are calls and markup, a call among them."""
    called = False
    for piece in pieces:
        if type(piece) is ToolCall:
            called = True
        elif type(piece) is not Markup:
            return False
    return called
