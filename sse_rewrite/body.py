"""Non-streaming bodies: one JSON `chat.completion` rewritten as a whole (sans-IO).

`rewrite_completion` runs every choice's `message` through the same `ChoiceRewriter` as a
stream's deltas (as one delta with its finish), then folds the result back into a
message. `rewrite_body` is what `StreamRewriter` does with a body: that, then the
Anthropic message when the output is Anthropic.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from .formats import FORMATS, NATIVE_TOOL_CALLS, select_format
from .protocols import whole_body
from .stream.choice import ChoiceRewriter
from .stream.choice_result import ChoiceResult
from .stream.chunks import derived_call_id, message_tool_call
from .stream.content_thinking import ContentThinking
from .stream.events import Notice, ToolCall
from .stream.think import think_mode

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .formats import ToolSyntax
    from .rewrite_options import RewriteOptions


@dataclass(frozen=True, slots=True)
class BodyResult:
    """A rewritten body: the bytes to write, notices, calls recovered, and the body's model id."""

    body: bytes
    notices: list[Notice]
    calls: int
    model: str | None


def rewrite_body(raw: bytes, options: RewriteOptions) -> BodyResult:
    """The body to write for `raw`: rewritten, and as an Anthropic message if asked."""
    body, notices, calls = rewrite_completion(raw, options)
    if options.to != "openai":
        body, more = whole_body(options.to, body)  # it judges the body's shape itself
        notices = [n for n in notices if n.code != "not-a-completion"] + more
    try:
        completion = orjson.loads(raw)
    except orjson.JSONDecodeError:
        completion = None
    model = completion.get("model") if isinstance(completion, dict) else None
    return BodyResult(body, notices, calls, model if isinstance(model, str) else None)


def completion_syntax(model: object, options: RewriteOptions) -> str | None:
    """The syntax `rewrite_completion` reads a completion of `model` (its `model` field) as; None: none."""
    return select_format(model if isinstance(model, str) else None, options.format, bool(options.tools))[0]


def rewrite_completion(body: bytes, options: RewriteOptions | None = None) -> tuple[bytes, list[Notice], int]:
    """Rewrite a non-streaming `chat.completion` body: (new body, notices, calls recovered).

    An unchanged body comes back byte for byte.
    """
    if options is None:
        from .rewrite_options import RewriteOptions

        options = RewriteOptions()
    try:
        completion = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        return body, [Notice("invalid-json", f"body is not JSON ({error}); passed through")], 0
    choices = completion.get("choices") if isinstance(completion, dict) else None
    if not isinstance(choices, list):
        return body, [Notice("not-a-completion", "body has no choices list; passed through")], 0
    model = completion.get("model")
    name = completion_syntax(model, options)
    if name is None:  # --format none, or a model with native tool_calls
        return body, [], 0
    parser_type = FORMATS[name]
    markers, _ = think_mode(model if isinstance(model, str) else None, options.think, options.prompt_think)

    def make_parser() -> ToolSyntax:
        return parser_type(options.max_section_bytes, tools=options.tools)

    stream_id = completion.get("id") if isinstance(completion.get("id"), str) else ""
    notices: list[Notice] = []
    changed = False
    total_calls = 0
    for position, choice in enumerate(choices):
        if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
            continue
        index: int = choice["index"] if isinstance(choice.get("index"), int) else position

        def call_id(i: int, call: ToolCall | None, index: int = index) -> str:
            if options.id_style == "native" and call is not None and call.id:
                return call.id
            return derived_call_id(stream_id, index, i)

        think = ContentThinking(markers, options.max_section_bytes) if markers else None
        rewriter = ChoiceRewriter(index, make_parser, call_id, name != NATIVE_TOOL_CALLS, think=think)
        message = choice["message"]
        native = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
        as_delta = {**message, "tool_calls": [{**c, "index": i} for i, c in enumerate(native)]}
        finish = choice.get("finish_reason") or "stop"
        result = rewriter.rewrite({**choice, "delta": as_delta, "finish_reason": finish})
        notices += result.notices
        total_calls += result.calls
        if not result.changed:
            continue
        changed = True
        choice["message"], choice["finish_reason"] = _message(result, as_delta, native)
    if not changed:
        return body, notices, total_calls
    return orjson.dumps(completion) + b"\n", notices, total_calls


def _message(result: ChoiceResult, as_delta: dict[str, Any], native: list[Any]) -> tuple[dict[str, Any], Any]:
    """The message and finish_reason of a rewritten choice: its delta with the text and calls
    of the choice objects around it folded in."""
    rewritten: dict[str, Any] = result.rewritten() or {"delta": as_delta, "finish_reason": None}
    merged = dict(rewritten["delta"])
    calls = list(native)
    for extra in [*result.before, *result.extras]:
        for key, value in extra["delta"].items():
            if key == "tool_calls":
                calls += [message_tool_call(c["id"], **c["function"]) for c in value]
            elif isinstance(value, str):
                merged[key] = (merged.get(key) or "") + value
    if calls:
        merged["tool_calls"] = calls
    else:
        merged.pop("tool_calls", None)
    finishes = [e["finish_reason"] for e in result.extras if e["finish_reason"]]
    return merged, finishes[-1] if finishes else rewritten.get("finish_reason")
