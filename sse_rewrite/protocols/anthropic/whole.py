"""A whole Anthropic message (from a non-streaming upstream answer) as the events that stream it."""

from __future__ import annotations

import orjson

from .events import EMPTY_BLOCKS, event_bytes

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def message_events(message: dict[str, Any]) -> bytes:
    """A whole Anthropic `message` (or error object) as the events that stream it.

    For an upstream that answered a streaming request in one body: each block goes out
    whole, as one start, one delta and one stop; the stop reason and usage close it.
    """
    if message.get("type") == "error":
        return event_bytes(message)
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    out = [event_bytes({"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            empty = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": orjson.dumps(block["input"]).decode()}
        else:  # text or thinking
            kind = block["type"]
            empty, delta = dict(EMPTY_BLOCKS[kind]), {"type": f"{kind}_delta", kind: block[kind]}
        out += [
            event_bytes({"type": "content_block_start", "index": index, "content_block": empty}),
            event_bytes({"type": "content_block_delta", "index": index, "delta": delta}),
            event_bytes({"type": "content_block_stop", "index": index}),
        ]
    end = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    out += [
        event_bytes({"type": "message_delta", "delta": end, "usage": message["usage"]}),
        event_bytes({"type": "message_stop"}),
    ]
    return b"".join(out)
