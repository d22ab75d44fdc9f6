"""GeminiEmitter: rewritten OpenAI chunks in, Gemini `GenerateContentResponse` events out (sans-IO).

The input is the decoded `chat.completion.chunk` objects the rewriter would otherwise
encode, leaked calls already turned into `tool_calls`. The output is SSE bytes, one
`data: {GenerateContentResponse}` event per chunk that has something to say, as
`streamGenerateContent?alt=sse` sends them; there is no `[DONE]` and no comment (the
official Python SDK takes any line that is not `data:` for JSON).

One stream is candidate 0, built from choice 0. `reasoning` / `reasoning_content` become
text parts marked `thought: true`, `content` and `refusal` text parts, as they come. A
tool call's arguments are gathered until it closes (at text after it, at the finish, at
the end of the stream) and go out as one `functionCall` part with its `args` parsed, its
`name` and an `id` (`mapping.call_id`); arguments that are no JSON object go out as `{}`
with a notice. The last event carries `finishReason` (`mapping.finish_reason`) and
`usageMetadata`; it goes out once a finish_reason has been seen and usage arrives, or at
the end of the stream. Every event carries `modelVersion` (the upstream's model) and
`responseId` (the upstream's stream id). An error chunk ends the stream with Google's
`data: {"error": {"code", "message", "status"}}` event; calls still open are left out
(a half call must not run), with a notice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from ...stream.events import Notice
from ...stream.sse import encode_event
from ..emitting import TEXT_HOLE, ChunkEmitter, Emitted, filled, template
from ..fields import object_field, reasoning_text, string_field
from .mapping import call_id, candidate, finish_reason, response_frame, stream_error, usage_metadata

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.chunks import Chunk


@dataclass(slots=True)
class _Call:
    id: str
    name: str
    arguments: list[str] = field(default_factory=list)


class GeminiEmitter(ChunkEmitter):
    """Turns one stream's rewritten OpenAI chunks into Gemini events: `feed(chunk)`, `flush()`."""

    _made, _closed = "Gemini response", "response"

    def __init__(self) -> None:
        super().__init__()
        self._frame: dict[str, Any] | None = None
        self._stream_id = ""
        self._parts: list[dict[str, Any]] = []  # parts of the event being built
        self._open: dict[int, _Call] = {}  # calls being gathered, by call index
        self._sent: set[int] = set()  # the indexes of calls already sent
        self._usage: dict[str, int] | None = None
        self._templates: tuple[list[bytes] | None, list[bytes] | None] = (None, None)  # text, thought

    @property
    def _started(self) -> bool:
        return self._frame is not None

    def _feed(self, chunk: Chunk) -> list[Emitted]:
        if self._frame is None:
            self._stream_id = string_field(chunk, "id")
            self._frame = response_frame(self._stream_id, string_field(chunk, "model"))
            hole = orjson.dumps(TEXT_HOLE)
            self._templates = (template(self._text_event(TEXT_HOLE, thought=False), hole),
                               template(self._text_event(TEXT_HOLE, thought=True), hole))
        if chunk.get("error"):  # OpenAI `{"error": ...}`; OpenRouter adds finish_reason "error"
            return self._error(chunk["error"])
        if isinstance(chunk.get("usage"), dict):
            self._usage = usage_metadata(chunk["usage"])
        out = self._choices(chunk)
        if self._ended:
            return out
        if self._finish is not None and self._usage is not None:
            return out + self._end()
        return out + self._event_of_parts()

    def _delta(self, delta: dict[str, Any]) -> list[Emitted]:
        out: list[Emitted] = []
        if reasoning := reasoning_text(delta):
            out += self._text(reasoning, thought=True)
        for name in ("content", "refusal"):
            if text := string_field(delta, name):
                out += self._text(text, thought=False)
        calls = delta.get("tool_calls")
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            if isinstance(call, dict):
                out += self._tool_call(call, position)
        return out

    def _text(self, text: str, *, thought: bool) -> list[Emitted]:
        out = self._close_all()  # parts keep the order of the answer: a call before the text after it
        self._parts.append(text_part(text, thought))
        return out

    def _lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        pieces = self._templates[reasoning]
        if pieces is None or self._open or self._parts:
            return None
        return filled(pieces, texts)  # `_text_event`'s, from its template

    def _text_event(self, text: str, *, thought: bool) -> bytes:
        """The event of one text part (no call open, nothing else said)."""
        return self._event({"candidates": [candidate([text_part(text, thought)])]})

    def _tool_call(self, call: dict[str, Any], position: int) -> list[Emitted]:
        number = call["index"] if isinstance(call.get("index"), int) else position
        function = object_field(call, "function")
        arguments = string_field(function, "arguments")
        if number in self._sent:  # a functionCall part cannot grow
            note = f"arguments for tool call {number} came after it was sent; dropped"
            return [Notice("late-tool-arguments", note)] if arguments.strip() else []
        if number not in self._open:
            name = string_field(function, "name")
            self._open[number] = _Call(call_id(call, self._stream_id, number), name)
        self._open[number].arguments.append(arguments)
        return []

    def _close_all(self) -> list[Emitted]:
        out: list[Emitted] = []
        for number, call in self._open.items():
            part, notices = function_call_part(call.id, call.name, "".join(call.arguments), number)
            out += notices
            self._parts.append(part)
        self._sent.update(self._open)
        self._open.clear()
        return out

    def _end(self) -> list[Emitted]:
        out = self._close_all() + self._event_of_parts()
        reason, notices = finish_reason(self._finish)
        self._ended = True
        final: dict[str, Any] = {"candidates": [candidate([{"text": ""}], reason)]}
        if self._usage is not None:
            final["usageMetadata"] = self._usage
        return [*out, *notices, self._event(final)]

    def _error(self, error: Any) -> list[Emitted]:
        """The answer failed: what was said goes out, calls still open do not (they must not run)."""
        out = self._event_of_parts()
        self._ended = True
        if dropped := [call.name for call in self._open.values()]:
            note = f"the stream failed inside tool calls {dropped}: not sent"
            out.append(Notice("open-calls-dropped", note))
        body = stream_error(error)
        notice = Notice("stream-error", f"{body['error']['code']}: {body['error']['message']}")
        return [*out, notice, encode_event(orjson.dumps(body))]

    def _event_of_parts(self) -> list[Emitted]:
        if not self._parts:
            return []
        parts, self._parts = self._parts, []
        return [self._event({"candidates": [candidate(parts)]})]

    def _event(self, fields: dict[str, Any]) -> bytes:
        assert self._frame is not None
        return encode_event(orjson.dumps({**fields, **self._frame}))


def text_part(text: str, thought: bool) -> dict[str, Any]:
    """A text part; `thought`: reasoning, marked `thought: true`."""
    return {"text": text, "thought": True} if thought else {"text": text}


def function_call_part(call_id: str, name: str, arguments: str, index: int,
                       ) -> tuple[dict[str, Any], list[Notice]]:  # fmt: skip
    """Call `index` as a `functionCall` part, its arguments parsed; `{}` with a notice when they
    are no JSON object."""
    text = arguments.strip()
    try:
        value = orjson.loads(text or "{}")
    except orjson.JSONDecodeError:
        value = None
    notices: list[Notice] = []
    if not isinstance(value, dict):
        note = f"tool call {index}: arguments {text!r} are not a JSON object; args sent as {{}}"
        value, notices = {}, [Notice("tool-args-not-object", note)]
    return {"functionCall": {"id": call_id, "name": name, "args": value}}, notices
