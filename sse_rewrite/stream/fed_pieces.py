"""What the pieces a fed text made say: whether the choice that carried it has anything left to send.

`ChoiceState` feeds a parser a text ahead of its chunk's rewrite (`feed_ahead`, `absorb`) and asks
these of the pieces it gets back: all syntax (`markup_only`), all reasoning (`reasoning_whole`),
a streamed call's end (`streamed_rest`) or more of its arguments (`streams_only`).
"""

from __future__ import annotations

from .events import ArgumentsDelta, CallStart, Markup, Piece, Reasoning, ToolCall


def reasoning_whole(pieces: list[Piece], text: str) -> bool:
    """Whether feeding the content `text` made one piece of it, all reasoning (harmony's analysis)."""
    return len(pieces) == 1 and type(pieces[0]) is Reasoning and pieces[0].text == text


def markup_only(pieces: list[Piece]) -> bool:
    """Whether every piece is syntax that carries no text (none at all, or `Markup`)."""
    for piece in pieces:  # noqa: SIM110 (a loop, not all(): this runs once per token fed ahead)
        if type(piece) is not Markup:
            return False
    return True


def streamed_rest(pieces: list[Piece], opened: list[int] | None) -> str | None:
    """Where the pieces are one call whose arguments began streaming, what they add to those sent
    ("" when they all streamed), as `StreamedCalls.parts` makes its last part; else None. `opened`
    is the open call's entry in `StreamedCalls.open` (index, characters sent)."""
    if opened is None or len(pieces) != 1:
        return None
    call = pieces[0]
    return call.arguments[opened[1] :] if type(call) is ToolCall else None


def streams_only(pieces: list[Piece]) -> bool:
    """Whether every piece announces a call or streams more of its arguments."""
    for piece in pieces:  # noqa: SIM110 (a loop, not all(): this runs once per streamed token)
        if type(piece) is not ArgumentsDelta and type(piece) is not CallStart:
            return False
    return True
