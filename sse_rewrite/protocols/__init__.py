"""Client protocols: one package each, owning both directions of that protocol.

`openai/` (chat.completions, what upstreams speak), `anthropic/` (Messages),
`responses/` (the Responses API) and `gemini/` (the Gemini API). Each holds `output.py`, how a repaired
chat.completions stream (`stream_output`) or body (`whole_body`) becomes that protocol's
events or body, used by `--to NAME` and by `serve`; and `front.py`, its `serve` front:
routes, and how a request in that protocol becomes a chat.completions request.
Adding a protocol is adding a package and its name here.
"""

from __future__ import annotations

from importlib import import_module

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final, Protocol

    from ..stream.chunks import Chunk
    from ..stream.events import Notice, Output
    from ..stream.streamed_calls import Part

    class StreamOutput(Protocol):
        """How a protocol encodes what the rewriter decided to send (see `openai/output.py`)."""

        keeps_bytes: bool
        unchanged: str

        def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]: ...
        def chunk(self, chunk: Chunk) -> list[Output]: ...
        def moved(self, raw: bytes, chunk: Chunk, index: int, field: str, text: str) -> list[Output]: ...
        def parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = ...,
                  fed: tuple[str, str] | None = ...) -> list[Output]: ...  # fmt: skip
        def done(self, raw: bytes) -> list[Output]: ...
        def flush(self) -> list[Output]: ...


PROTOCOLS: Final = ("openai", "anthropic", "responses", "gemini")
"""The client protocols by name (`--to NAME`); the first is the default."""


def _module(name: str, part: str) -> ModuleType:
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol {name!r} (known: {', '.join(PROTOCOLS)})")
    return import_module(f"{__name__}.{name}.{part}")


def stream_output(name: str) -> StreamOutput:
    """A new encoder for one stream in protocol `name`."""
    output: StreamOutput = _module(name, "output").stream_output()
    return output


def whole_body(name: str, body: bytes) -> tuple[bytes, list[Notice]]:
    """A (rewritten) chat.completion body in protocol `name`, with notices."""
    converted: tuple[bytes, list[Notice]] = _module(name, "output").whole_body(body)
    return converted


def fronts() -> list[ModuleType]:
    """Every protocol's `serve` front (imports aiohttp: for `serve` only)."""
    return [_module(name, "front") for name in PROTOCOLS]
