"""sse-rewrite: turn tool-call syntax leaked into streamed LLM text into OpenAI tool_calls.

The core is sans-IO: `StreamRewriter.feed(bytes)` / `flush()` return bytes to write and
`Notice`s; `rewrite_completion` handles one non-streaming body. `AnthropicEmitter` and
`completion_to_message` turn the result into Anthropic Messages output. The CLI is `cli.main`.
"""

from __future__ import annotations

from importlib import import_module

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Names are imported on first use (PEP 562), so `sse-rewrite --version` and the filter
# load only the modules they need.
_EXPORTS = {
    "AnthropicEmitter": "protocols.anthropic.events",
    "completion_to_message": "protocols.anthropic.mapping",
    "Markup": "stream.events",
    "Notice": "stream.events",
    "SSEEvent": "stream.events",
    "Text": "stream.events",
    "ToolCall": "stream.events",
    "RewriteOptions": "rewrite_options",
    "Stats": "stats",
    "StreamRewriter": "stream.rewrite",
    "rewrite_completion": "body",
    "SSEDecoder": "stream.sse",
    "encode_event": "stream.sse",
}

# A literal, read by setuptools for the package metadata: importlib.metadata would
# cost more start-up time than the rest of the CLI.
__version__ = "0.1.0"

__all__ = [
    "AnthropicEmitter",
    "Markup",
    "Notice",
    "RewriteOptions",
    "SSEDecoder",
    "SSEEvent",
    "Stats",
    "StreamRewriter",
    "Text",
    "ToolCall",
    "__version__",
    "completion_to_message",
    "encode_event",
    "rewrite_completion",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sse_rewrite' has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)
