"""AnthropicEmitter: rewritten OpenAI chunks in, Anthropic Messages stream events out (sans-IO).

The input is the decoded `chat.completion.chunk` objects the rewriter would otherwise
encode, leaked calls already turned into `tool_calls`. The output is SSE bytes in the
Anthropic Messages streaming protocol, plus `Notice`s. One stream is one message, built
from choice 0 (Anthropic has no `n`). The order the official SDK's MessageStream
accepts (PROTOCOL.md sections 5-6) is:

    message_start
    (content_block_start content_block_delta* content_block_stop)*    blocks 0, 1, 2 ...
    message_delta     stop_reason, and usage with output_tokens always present
    message_stop

`reasoning` / `reasoning_content` become a `thinking` block, `content` (and `refusal`)
a `text` block, each tool call a `tool_use` block whose arguments stream on as
`input_json_delta` exactly as written. A block closes when a delta of another kind, or
of another call, arrives. Anthropic blocks cannot reopen, so a call that starts while
the open call's arguments are not yet whole JSON (providers that send every call's
header first, or interleave parallel calls) is held, arguments and all, and goes out
once the open call closes: at a later call that finds its arguments whole, at text, at
the finish or at the end of the stream. The message closes once a finish_reason has
been seen and usage arrives, or at end of stream (`[DONE]` or EOF). A chunk carrying
`error` becomes an `error` event and ends the output. Every event has an `event:` line
equal to its JSON `type` (the SDK drops events without one).

Thinking blocks carry an empty `signature`: OpenAI-compatible providers have none to give.
A text or thinking block opens at its first non-whitespace character (whitespace before
it is held and sent with it); a whitespace-only run between blocks is dropped, because
the Anthropic API rejects a whitespace-only text block when a client sends the message
back ("text content blocks must contain non-whitespace text").
Ids, usage, stop reasons and errors are mapped by `mapping`; `whole`
streams a whole message after the fact (for a proxy whose upstream answered whole).
"""

from __future__ import annotations

import orjson

from ...formats.machines._json import is_json
from ...stream.events import Notice
from ...stream.sse import encode_event
from ..emitting import TEXT_HOLE, ChunkEmitter, Emitted, filled, template
from ..fields import object_field, reasoning_text, string_field
from .mapping import anthropic_usage, error_object, message_id, stop_reason, tool_use_id

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal

    from ...stream.chunks import Chunk

    TextKind = Literal["thinking", "text"]
    BlockKind = TextKind | Literal["tool_use"]

EMPTY_BLOCKS: Final = {
    "thinking": {"type": "thinking", "thinking": "", "signature": ""},
    "text": {"type": "text", "text": ""},
}


class AnthropicEmitter(ChunkEmitter):
    """Turns one stream's rewritten OpenAI chunks into Anthropic events: `feed(chunk)`, `flush()`."""

    _made, _closed = "Anthropic message", "message"

    def __init__(self) -> None:
        super().__init__()
        self._stream_id: str | None = None  # set by the first chunk, with message_start
        self._blocks = 0  # blocks started so far; the open one, if any, is the last
        self._open: tuple[BlockKind, int | None] | None = None  # kind and call index
        self._calls_seen: set[int] = set()
        self._open_arguments: list[str] = []  # the open tool_use block's argument text so far
        self._held_calls: dict[int, tuple[dict[str, Any], list[str]]] = {}  # block, arguments
        self._usage: dict[str, int] = {}
        self._held: tuple[TextKind, str] | None = None  # whitespace that may start a block
        self._delta_template: list[bytes] | None = None  # the open text block's delta event, as a template

    @property
    def _started(self) -> bool:
        return self._stream_id is not None

    def _feed(self, chunk: Chunk) -> list[Emitted]:
        if chunk.get("error"):  # OpenAI `{"error": ...}`; OpenRouter adds finish_reason "error"
            return self._error(chunk["error"])
        out: list[Emitted] = []
        if self._stream_id is None:
            out += self._start(chunk)
        has_usage = isinstance(chunk.get("usage"), dict)
        if has_usage:
            self._usage = anthropic_usage(chunk["usage"])
        out += self._choices(chunk)
        if not self._ended and self._finish is not None and has_usage:  # usage comes last: complete
            out += self._end()
        return out

    # -- message

    def _start(self, chunk: Chunk) -> list[Emitted]:
        self._stream_id = string_field(chunk, "id")
        usage = {"input_tokens": 0, "output_tokens": 0, **anthropic_usage(chunk.get("usage"))}
        message: dict[str, Any] = {
            "id": message_id(self._stream_id),
            "type": "message",
            "role": "assistant",
            "model": string_field(chunk, "model"),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        return [event_bytes({"type": "message_start", "message": message})]

    def _end(self) -> list[Emitted]:
        out = self._close_all()
        reason, notices = stop_reason(self._finish, bool(self._calls_seen))
        delta = {"stop_reason": reason, "stop_sequence": None}
        usage = {"output_tokens": 0, **self._usage}  # the SDK requires output_tokens
        self._ended = True
        return [
            *out,
            *notices,
            event_bytes({"type": "message_delta", "delta": delta, "usage": usage}),
            event_bytes({"type": "message_stop"}),
        ]

    def _error(self, error: Any) -> list[Emitted]:
        self._ended = True
        body = error_object(error)
        notice = Notice("stream-error", f"{body['error']['type']}: {body['error']['message']}")
        return [notice, event_bytes(body)]

    # -- content blocks

    def _delta(self, delta: dict[str, Any]) -> list[Emitted]:
        out: list[Emitted] = []
        thinking = reasoning_text(delta)
        if thinking:
            out += self._text("thinking", thinking)
        for name in ("content", "refusal"):
            if text := string_field(delta, name):
                out += self._text("text", text)
        calls = delta.get("tool_calls")
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            if isinstance(call, dict):
                out += self._tool_call(call, position)
        return out

    def _text(self, kind: TextKind, text: str) -> list[Emitted]:
        out: list[Emitted] = []
        if self._open != (kind, None):
            if self._held is not None and self._held[0] == kind:
                text = self._held[1] + text
            self._held = None
            if not text.strip():
                self._held = (kind, text)
                return []
            out += self._open_held_calls(final=True)
            out += self._open_block(kind, None, dict(EMPTY_BLOCKS[kind]))
            self._delta_template = template(self._text_delta_event(kind, TEXT_HOLE), orjson.dumps(TEXT_HOLE))
        return [*out, self._text_delta_event(kind, text)]

    def _text_delta_event(self, kind: TextKind, text: str) -> bytes:
        return self._block_delta({"type": f"{kind}_delta", kind: text})

    def _lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        pieces = self._delta_template
        if pieces is None or self._open != ("thinking" if reasoning else "text", None):
            return None
        return filled(pieces, texts)  # `_text`'s deltas, from its template

    def _tool_call(self, call: dict[str, Any], position: int) -> list[Emitted]:
        index = call["index"] if isinstance(call.get("index"), int) else position
        function = object_field(call, "function")
        arguments = string_field(function, "arguments")
        if self._open == ("tool_use", index):
            self._open_arguments.append(arguments)
            return [self._arguments_delta(arguments)] if arguments else []
        if index in self._held_calls:
            self._held_calls[index][1].append(arguments)
            return []
        if index in self._calls_seen:  # its block is closed: Anthropic blocks cannot reopen
            note = f"arguments for tool call {index} came after its block closed; dropped"
            return [Notice("late-tool-arguments", note)] if arguments.strip() else []
        self._calls_seen.add(index)
        assert self._stream_id is not None
        block = {
            "type": "tool_use",
            "id": tool_use_id(self._stream_id, index, call.get("id")),
            "name": string_field(function, "name"),
            "input": {},
        }
        self._held_calls[index] = (block, [arguments])
        return self._open_held_calls(final=False)

    def _open_held_calls(self, final: bool) -> list[Emitted]:
        """Open the held calls in turn while the open block may close: it is no call, its
        arguments are whole JSON (more text could only break them), or `final` is set."""
        out: list[Emitted] = []
        while self._held_calls:
            call_open = self._open is not None and self._open[0] == "tool_use"
            if call_open and not final and not is_json("".join(self._open_arguments)):
                break
            index = next(iter(self._held_calls))
            block, arguments = self._held_calls.pop(index)
            out += self._open_block("tool_use", index, block)
            self._open_arguments = arguments
            if text := "".join(arguments):
                out.append(self._arguments_delta(text))
        return out

    def _arguments_delta(self, arguments: str) -> bytes:
        return self._block_delta({"type": "input_json_delta", "partial_json": arguments})

    def _open_block(self, kind: BlockKind, call: int | None, block: dict[str, Any]) -> list[Emitted]:
        out = self._close_block()
        self._open, self._held = (kind, call), None
        self._blocks += 1
        start = {"type": "content_block_start", "index": self._blocks - 1, "content_block": block}
        return [*out, event_bytes(start)]

    def _block_delta(self, delta: dict[str, Any]) -> bytes:
        return event_bytes({"type": "content_block_delta", "index": self._blocks - 1, "delta": delta})

    def _close_all(self) -> list[Emitted]:
        """Nothing more can come for the open block: open and close every held call, then close."""
        return self._open_held_calls(final=True) + self._close_block()

    def _close_block(self) -> list[Emitted]:
        if self._open is None:
            return []
        self._open = None
        return [event_bytes({"type": "content_block_stop", "index": self._blocks - 1})]


def event_bytes(body: dict[str, Any]) -> bytes:
    """One Anthropic event, its `event:` line equal to its JSON `type`."""
    return encode_event(orjson.dumps(body), event=body["type"])
