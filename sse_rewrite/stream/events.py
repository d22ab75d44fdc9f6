"""Pure value types that flow through sse-rewrite.

`SSEEvent` is one blank-line-terminated block of a server-sent-event stream, with the
exact bytes it arrived as. `Text`, `ToolCall`, `Markup` and `Notice` (with
`--stream-arguments` also `CallStart` and `ArgumentsDelta`; harmony's reasoning channel
gives `Reasoning`) are what a format parser hands back for the text it was fed. These
are values with no behaviour: which choice or field they belong to, and how they are
written out, lives elsewhere.

Treat them all as immutable; they compare and hash by value, as frozen values would.
They are not dataclasses: `@dataclass` compiles each class's methods at import, about
0.5 ms a class (3.3 ms of a one-event run's start-up for seven of them); `_Value` gives
them equality, hash and repr from their fields instead, and each writes its own
`__init__`, the one method on the hot path (a piece of text per token).
"""

from __future__ import annotations


class _Value:
    """Base of the value types: equality, hash and repr by the fields a subclass lists, in
    order, in `__match_args__` (which also lets `match` take them positionally)."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"


class SSEEvent(_Value):
    """One SSE block: its raw bytes (line ends and comments included) and decoded fields.

    `data` is None when the block carried no `data` field (comments, keep-alives).
    `complete` is False for a trailing block that the stream ended without a blank line.
    """

    __slots__ = ("complete", "data", "event", "raw")
    __match_args__ = ("raw", "data", "event", "complete")

    def __init__(self, raw: bytes, data: str | None, event: str | None = None, complete: bool = True) -> None:
        self.raw, self.data, self.event, self.complete = raw, data, event, complete


class Text(_Value):
    """Plain text outside any tool-call syntax, to be kept in its field."""

    __slots__ = ("text",)
    __match_args__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class ToolCall(_Value):
    """A complete tool call recovered from leaked syntax.

    `id` is the model's own call id when the syntax carries one (Kimi's
    `functions.bash:15`), else None. `raw` is the exact source text the call was parsed
    from, so that text pieces and raw spans always re-join to the input.
    """

    __slots__ = ("arguments", "id", "name", "raw")
    __match_args__ = ("id", "name", "arguments", "raw")

    def __init__(self, id: str | None, name: str, arguments: str, raw: str) -> None:
        self.id, self.name, self.arguments, self.raw = id, name, arguments, raw


class CallStart(_Value):
    """With `--stream-arguments`: a call's id and name, as soon as they are known.

    Its `ArgumentsDelta` pieces follow, then the complete `ToolCall`, whose `arguments`
    always begin with the deltas' text joined (only the rest is new) and whose id and
    name are these. A call that breaks after its start is still completed, never
    released as text: what was announced cannot be taken back.
    """

    __slots__ = ("id", "name")
    __match_args__ = ("id", "name")

    def __init__(self, id: str | None, name: str) -> None:
        self.id, self.name = id, name


class ArgumentsDelta(_Value):
    """With `--stream-arguments`: the next settled piece of the open call's arguments."""

    __slots__ = ("text",)
    __match_args__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Reasoning(_Value):
    """Text of a reasoning channel (harmony's `analysis`), to go to the stream's reasoning field."""

    __slots__ = ("text",)
    __match_args__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Markup(_Value):
    """Source text consumed as syntax without producing a call (section markers, spacing)."""

    __slots__ = ("raw",)
    __match_args__ = ("raw",)

    def __init__(self, raw: str) -> None:
        self.raw = raw


class Notice(_Value):
    """A diagnostic about the input: `code` is a short stable tag, `message` one line."""

    __slots__ = ("code", "message")
    __match_args__ = ("code", "message")

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message


Piece = Text | ToolCall | Markup | Notice | CallStart | ArgumentsDelta | Reasoning
"""What a format parser returns from `feed` and `flush`."""

Output = bytes | Notice
"""What the rewriter produces: bytes to write, or a notice for stderr."""
