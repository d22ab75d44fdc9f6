"""sse-rewrite: turn tool-call syntax leaked into streamed LLM text into OpenAI tool_calls.

The core is sans-IO: `StreamRewriter.feed(bytes)` / `flush()` return bytes to write and
`Notice`s; `rewrite_completion` handles one non-streaming body. `AnthropicEmitter` and
`completion_to_message` turn the result into Anthropic Messages output. The CLI is `cli.main`.
"""

from importlib.metadata import PackageNotFoundError, version

from .anthropic_events import AnthropicEmitter
from .anthropic_mapping import completion_to_message
from .events import Markup, Notice, SSEEvent, Text, ToolCall
from .rewrite import RewriteOptions, Stats, StreamRewriter, rewrite_completion
from .sse import SSEDecoder, encode_event

try:
    __version__ = version("sse-rewrite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

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
