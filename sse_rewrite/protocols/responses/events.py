"""ResponsesEmitter: rewritten OpenAI chunks in, Responses API stream events out (sans-IO).

The input is the decoded `chat.completion.chunk` objects the rewriter would otherwise
encode, leaked calls already turned into `tool_calls`. The output is SSE bytes in the
order the official SDK's `ResponseStreamState` and Codex read, every event with an
`event:` line equal to its `type` and an increasing `sequence_number`:

    response.created, response.in_progress
    per output item, in output_index order of opening:
        response.output_item.added
        message:   content_part.added, output_text.delta*, output_text.done, content_part.done
        reasoning: content_part.added, reasoning_text.delta*, reasoning_text.done, content_part.done
        function_call:    function_call_arguments.delta*, function_call_arguments.done
        custom_tool_call: custom_tool_call_input.delta, custom_tool_call_input.done
        response.output_item.done
    response.completed | response.incomplete (finish_reason length or content_filter)
                       | response.failed (an error chunk; the stream that broke off)

One stream is one response, built from choice 0. `reasoning` / `reasoning_content`
become a reasoning item (raw text, no summary), `content` and `refusal` a message item,
each tool call a `function_call` item whose arguments stream on as written; a call to a
tool the request declared `custom` (`ResponseContext.custom_tools`) becomes a
`custom_tool_call` whose `input` is the string the model put in the function's one
parameter, sent whole when the call closes. A text item closes when another kind of
output starts; calls close at text, at the finish and at the end of the stream. The
response ends once a finish_reason has been seen and usage arrives, or at end of stream
(no `[DONE]`). No text is dropped: whitespace between calls is a message too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from ...stream.chunks import derived_call_id
from ...stream.events import Notice
from ...stream.sse import encode_event
from ..emitting import NUMBER_HOLE, TEXT_HOLE, ChunkEmitter, Emitted, template
from ..fields import object_field, reasoning_text, string_field
from .items import ResponseContext, call_item, custom_input, text_item, text_part
from .mapping import (
    error_fields,
    incomplete_reason,
    item_id,
    response_frame,
    response_id,
    responses_usage,
)

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...stream.chunks import Chunk
    from .items import CallKind, TextKind

@dataclass(slots=True)
class _Call:
    item: dict[str, Any]
    index: int  # output_index
    arguments: list[str] = field(default_factory=list)


class ResponsesEmitter(ChunkEmitter):
    """Turns one stream's rewritten OpenAI chunks into Responses events: `feed(chunk)`, `flush()`."""

    _made, _closed = "response", "response"

    def __init__(self, context: ResponseContext | None = None) -> None:
        super().__init__()
        self._context = context or ResponseContext()
        self.response: dict[str, Any] | None = None
        """The response object, from the first chunk on; final once the stream ended."""
        self._stream_id = ""
        self._output: list[dict[str, Any]] = []  # the response's output items
        self._sequence = 0
        self._text: tuple[TextKind, int, list[str]] | None = None  # the open text item
        self._calls: dict[int, _Call | None] = {}  # by call index; None once closed
        self._usage: dict[str, Any] | None = None
        self._delta_template: list[bytes] | None = None  # the open text item's delta event, as a template

    @property
    def _started(self) -> bool:
        return self.response is not None

    def _feed(self, chunk: Chunk) -> list[Emitted]:
        out: list[Emitted] = []
        if self.response is None:
            out += self._start(chunk)
        if chunk.get("error"):  # OpenAI `{"error": ...}`; OpenRouter adds finish_reason "error"
            return out + self._error(chunk["error"])
        if isinstance(chunk.get("usage"), dict):
            self._usage = responses_usage(chunk["usage"])
        out += self._choices(chunk)
        if not self._ended and self._finish is not None and self._usage is not None:
            out += self._end()
        return out

    # -- the response

    def _start(self, chunk: Chunk) -> list[Emitted]:
        self._stream_id = string_field(chunk, "id")
        rid = self._context.response_id or response_id(self._stream_id)
        created = chunk.get("created")
        created = created if isinstance(created, int) else 0
        self.response = response_frame(rid, string_field(chunk, "model"), created, self._context.echo)
        self._output = self.response["output"]
        return [self._event("response.created", response=self.response),
                self._event("response.in_progress", response=self.response)]

    def _end(self) -> list[Emitted]:
        out = self._close_all()
        assert self.response is not None
        reason = incomplete_reason(self._finish)
        self.response["status"] = "incomplete" if reason else "completed"
        self.response["incomplete_details"] = {"reason": reason} if reason else None
        self.response["usage"] = self._usage
        self._ended = True
        return [*out, self._event(f"response.{self.response['status']}", response=self.response)]

    def _error(self, error: Any) -> list[Emitted]:
        """The response failed: items still open stay out of it (a half call must not run)."""
        assert self.response is not None
        self._ended = True
        open_items = {call.index for call in self._calls.values() if call is not None}
        open_items |= {self._text[1]} if self._text is not None else set()
        self.response["output"] = [item for i, item in enumerate(self._output) if i not in open_items]
        self.response["status"] = "failed"
        self.response["error"] = fields = error_fields(error)
        self.response["usage"] = self._usage
        notice = Notice("stream-error", f"{fields['code']}: {fields['message']}")
        return [notice, self._event("response.failed", response=self.response)]

    # -- items

    def _delta(self, delta: dict[str, Any]) -> list[Emitted]:
        out: list[Emitted] = []
        if reasoning := reasoning_text(delta):
            out += self._text_delta("reasoning", reasoning)
        for name in ("content", "refusal"):
            if text := string_field(delta, name):
                out += self._text_delta("message", text)
        calls = delta.get("tool_calls")
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            if isinstance(call, dict):
                out += self._tool_call(call, position)
        return out

    def _text_delta(self, kind: TextKind, text: str) -> list[Emitted]:
        out: list[Emitted] = []
        if self._text is None or self._text[0] != kind:
            out += self._close_all()
            out += self._open_text(kind)
            self._delta_template = template(self._text_delta_event(NUMBER_HOLE, TEXT_HOLE),
                                        b"%d" % NUMBER_HOLE, orjson.dumps(TEXT_HOLE))
        assert self._text is not None
        self._text[2].append(text)
        self._sequence += 1
        return [*out, self._text_delta_event(self._sequence - 1, text)]

    def _lone_texts(self, reasoning: bool, texts: list[str]) -> bytes | None:
        pieces, open_text = self._delta_template, self._text
        if pieces is None or open_text is None or open_text[0] != ("reasoning" if reasoning else "message"):
            return None
        open_text[2].extend(texts)
        first, self._sequence = self._sequence, self._sequence + len(texts)
        head, middle, tail = pieces  # `_text_delta`'s events, from its template
        return b"".join([head + b"%d" % number + middle + orjson.dumps(text) + tail
                         for number, text in enumerate(texts, first)])

    def _text_delta_event(self, sequence: int, text: str) -> bytes:
        """The open text item's delta event for `text`, numbered `sequence`."""
        assert self._text is not None
        kind, index, _ = self._text
        name = "response.output_text.delta" if kind == "message" else "response.reasoning_text.delta"
        extra: dict[str, Any] = {"logprobs": []} if kind == "message" else {}
        fields = {**self._where(index), "content_index": 0, "delta": text, **extra}
        return encode_event(orjson.dumps({"type": name, "sequence_number": sequence, **fields}), event=name)

    def _open_text(self, kind: TextKind) -> list[Emitted]:
        index = len(self._output)
        rid = self._rid()
        item = text_item(kind, item_id(rid, kind, index))
        self._output.append(item)
        self._text = (kind, index, [])
        return [self._event("response.output_item.added", output_index=index, item=item),
                self._event("response.content_part.added", **self._where(index), content_index=0,
                            part=text_part(kind, ""))]

    def _close_text(self) -> list[Emitted]:
        if self._text is None:
            return []
        kind, index, texts = self._text
        self._text = None
        text = "".join(texts)
        item, part = self._output[index], text_part(kind, text)
        item["content"] = [part]
        if kind == "message":
            item["status"] = self._item_status()
            done = self._event("response.output_text.done", **self._where(index), content_index=0,
                               text=text, logprobs=[])
        else:
            done = self._event("response.reasoning_text.done", **self._where(index), content_index=0,
                               text=text)
        where = self._where(index)
        part_done = self._event("response.content_part.done", **where, content_index=0, part=part)
        return [done, part_done, self._event("response.output_item.done", output_index=index, item=item)]

    def _tool_call(self, call: dict[str, Any], position: int) -> list[Emitted]:
        number = call["index"] if isinstance(call.get("index"), int) else position
        function = object_field(call, "function")
        arguments = string_field(function, "arguments")
        if number in self._calls:
            state = self._calls[number]
            if state is None:  # closed: a Responses item cannot reopen
                note = f"arguments for tool call {number} came after its item closed; dropped"
                return [Notice("late-tool-arguments", note)] if arguments.strip() else []
            state.arguments.append(arguments)
            if arguments and state.item["type"] == "function_call":
                return [self._event("response.function_call_arguments.delta", **self._where(state.index),
                                    delta=arguments)]
            return []
        out = self._close_text()
        index, name = len(self._output), string_field(function, "name")
        call_id = call.get("id") if isinstance(call.get("id"), str) and call.get("id") else None
        call_id = call_id or derived_call_id(self._stream_id, 0, number)
        kind: CallKind = "custom_tool_call" if name in self._context.custom_tools else "function_call"
        item = call_item(kind, item_id(self._rid(), kind, index), call_id, name)
        self._output.append(item)
        self._calls[number] = _Call(item, index)
        out.append(self._event("response.output_item.added", output_index=index, item=item))
        return out + self._tool_call({**call, "index": number}, position)

    def _close_call(self, call: _Call) -> list[Emitted]:
        text, item, where = "".join(call.arguments), call.item, self._where(call.index)
        item["status"] = self._item_status()
        out: list[Emitted] = []
        if item["type"] == "function_call":
            item["arguments"] = text
            out.append(self._event("response.function_call_arguments.done", **where, name=item["name"],
                                   arguments=text))
        else:
            item["input"], notices = custom_input(text, item["name"])
            out += notices
            if item["input"]:
                out.append(self._event("response.custom_tool_call_input.delta", **where, delta=item["input"]))
            out.append(self._event("response.custom_tool_call_input.done", **where, input=item["input"]))
        return [*out, self._event("response.output_item.done", output_index=call.index, item=item)]

    def _close_all(self) -> list[Emitted]:
        out = self._close_text()
        for number, call in self._calls.items():
            if call is not None:
                self._calls[number] = None
                out += self._close_call(call)
        return out

    # -- helpers

    def _item_status(self) -> str:
        return "incomplete" if incomplete_reason(self._finish) else "completed"

    def _rid(self) -> str:
        assert self.response is not None
        return str(self.response["id"])

    def _where(self, index: int) -> dict[str, Any]:
        return {"item_id": self._output[index]["id"], "output_index": index}

    def _event(self, kind: str, **fields: Any) -> bytes:
        body = {"type": kind, "sequence_number": self._sequence, **fields}
        self._sequence += 1
        return encode_event(orjson.dumps(body), event=kind)
