"""sse-rewrite: turn tool-call syntax leaked into streamed LLM text into OpenAI tool_calls.

The core is sans-IO: `StreamRewriter.feed(bytes)` / `flush()` return bytes to write and
`Notice`s; `rewrite_completion` handles one non-streaming body. `AnthropicEmitter` and
`completion_to_message` turn the result into Anthropic Messages output. The CLI is `cli.main`.
"""

from .anthropic_events import AnthropicEmitter
from .anthropic_mapping import completion_to_message
from .events import Markup, Notice, SSEEvent, Text, ToolCall
from .rewrite import RewriteOptions, Stats, StreamRewriter, rewrite_completion
from .sse import SSEDecoder, encode_event

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
