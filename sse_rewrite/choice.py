"""ChoiceRewriter: rewrites the deltas of one choice (`choices[i]`) across a stream.

It owns one format parser per text field (`reasoning`, `reasoning_content`,
`content`), hands out `tool_calls` indexes that never collide with native ones, turns
legacy `function_call` deltas into `tool_calls`, keeps mirrored reasoning
(`reasoning_details`, an identical second reasoning field) in step with the text it
rewrites, and fixes `finish_reason`. It works on decoded JSON objects only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .chunks import tool_call_delta
from .events import Markup, Notice, Piece, Text, ToolCall

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from .formats import ToolSyntax

TEXT_FIELDS: Final = ("reasoning", "reasoning_content", "content")
_REASONING: Final = ("reasoning", "reasoning_content")
_FINISH_REWRITES: Final = {"function_call": "tool_calls"}

CallId = Callable[[int, ToolCall | None], str]
"""Gives the id of the call with this output index (the parsed call, or None if legacy)."""


@dataclass(slots=True)
class ChoiceResult:
    """What one chunk's choice became.

    `choice` is the rewritten choice object, or None when it is unchanged. `extras` are
    further choice objects, in order, each to go out in a chunk of its own (complete
    tool calls, and text that followed them). `droppable` says the rewritten choice
    carries nothing a client needs (all its text went into a pending tool section).
    """

    choice: dict[str, Any] | None = None
    extras: list[dict[str, Any]] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    calls: int = 0
    droppable: bool = False


class ChoiceRewriter:
    """Per-choice state: parsers by field, tool-call indexes, role and finish handling."""

    def __init__(
        self, index: int, make_parser: Callable[[], ToolSyntax] | None, call_id: CallId, legacy: bool = True
    ):
        self.index = index
        self.calls = 0
        self._make_parser = make_parser
        self._call_id = call_id
        self._parsers: dict[str, ToolSyntax] = {}
        self._next_index = 0
        self._native_offset: int | None = None
        self._legacy_index: int | None = None
        self._legacy = legacy  # whether legacy `function_call` deltas become `tool_calls`
        self._role_seen = False

    @property
    def pending(self) -> bool:
        """True while any field's parser holds text back."""
        return any(parser.pending for parser in self._parsers.values())

    def absorb(self, choice: dict[str, Any]) -> tuple[str, ToolSyntax] | None:
        """Feed a choice whose only text lands inside an open call; the field and parser
        that took it, or None.

        Such a choice has nothing left to send (the caller drops its chunk): no finish,
        no logprobs, and besides a repeated `role` exactly one key, a text field whose
        parser takes the text whole (`ToolSyntax.absorb`). Otherwise nothing changes
        and `rewrite` must run.
        """
        delta = choice.get("delta")
        if type(delta) is not dict or choice.get("finish_reason") is not None or choice.get("logprobs"):
            return None
        field, text = None, ""
        for key, value in delta.items():
            if key == "role" and self._role_seen:
                continue
            if field is not None or type(value) is not str or key not in self._parsers:
                return None
            field, text = key, value
        if field is None or not self._parsers[field].absorb((text,)):
            return None
        return field, self._parsers[field]

    def rewrite(self, choice: dict[str, Any]) -> ChoiceResult:
        """Rewrite one incoming choice object."""
        delta = choice.get("delta")
        delta = delta if isinstance(delta, dict) else {}
        role_seen, self._role_seen = self._role_seen, self._role_seen or "role" in delta
        scanned = _scanned_fields(delta) if self._make_parser is not None else {}
        items: list[tuple[str, Piece]] = []
        for name, value in scanned.items():
            items += [(name, piece) for piece in self._parser(name).feed(value)]
        finish = choice.get("finish_reason")
        if not items and finish is None and _absorbed(choice, delta, scanned, role_seen):
            # The fast path for tokens inside a tool section: what the general path
            # below would conclude, without its bookkeeping.
            blanked = {**delta, **dict.fromkeys(scanned, "")}
            return ChoiceResult(choice={**choice, "delta": blanked}, droppable=True)

        new_delta = dict(delta)
        result = ChoiceResult()
        changed = self._remap_native(new_delta) | self._convert_legacy(new_delta, result)
        if finish is not None:
            items += self._flush_parsers()
        head, tail = self._split(items, result)
        for name, value in scanned.items():
            text = "".join(head.pop(name, []))
            if text != value:
                changed = True
                _set_text(new_delta, delta, name, text)
        for name, texts in head.items():  # text flushed into a field this delta lacks
            changed = True
            _set_text(new_delta, {}, name, "".join(texts))
        result.extras = [self._extra(segment, delta, result) for segment in tail]

        new_finish = finish
        if isinstance(finish, str):
            new_finish = _FINISH_REWRITES.get(finish, finish) if self._legacy else finish
            if finish == "stop" and self.calls:
                new_finish = "tool_calls"
        if not (changed or result.extras or new_finish != finish):
            return result
        new_choice = dict(choice)
        new_choice["delta"] = new_delta
        if result.extras:
            new_choice["finish_reason"] = None
            result.extras[-1]["finish_reason"] = new_finish
        else:
            new_choice["finish_reason"] = new_finish
        result.choice = new_choice
        result.droppable = (
            new_choice["finish_reason"] is None
            and not choice.get("logprobs")
            and all(_is_blank(key, value, role_seen) for key, value in new_delta.items())
        )
        return result

    def flush(self) -> ChoiceResult:
        """End of stream: everything the parsers still hold, as extra choice objects."""
        result = ChoiceResult()
        head, tail = self._split(self._flush_parsers(), result)
        segments: list[dict[str, str] | ToolCall] = []
        if head:
            segments.append({name: "".join(texts) for name, texts in head.items()})
        result.extras = [self._extra(segment, {}, result) for segment in segments + tail]
        return result

    # -- helpers

    def _parser(self, name: str) -> ToolSyntax:
        parser = self._parsers.get(name)
        if parser is None:
            assert self._make_parser is not None
            parser = self._parsers[name] = self._make_parser()
        return parser

    def _flush_parsers(self) -> list[tuple[str, Piece]]:
        items = [(name, piece) for name, parser in self._parsers.items() for piece in parser.flush()]
        self._parsers.clear()
        return items

    @staticmethod
    def _split(
        items: list[tuple[str, Piece]], result: ChoiceResult
    ) -> tuple[dict[str, list[str]], list[dict[str, str] | ToolCall]]:
        """Text before the first call (by field), then calls and the text runs between them."""
        head: dict[str, list[str]] = {}
        tail: list[dict[str, str] | ToolCall] = []
        for name, piece in items:
            match piece:
                case Text(text=text) if not tail:
                    head.setdefault(name, []).append(text)
                case Text(text=text):
                    if not isinstance(tail[-1], dict):
                        tail.append({})
                    last = tail[-1]
                    assert isinstance(last, dict)
                    last[name] = last.get(name, "") + text
                case ToolCall():
                    tail.append(piece)
                case Notice():
                    result.notices.append(piece)
                case Markup():
                    pass
        return head, tail

    def _extra(
        self, segment: dict[str, str] | ToolCall, source: dict[str, Any], result: ChoiceResult
    ) -> dict[str, Any]:
        delta: dict[str, Any] = {}
        if isinstance(segment, ToolCall):
            index = self._take_index(result)
            call_id = self._call_id(index, segment)
            delta["tool_calls"] = [tool_call_delta(index, call_id, segment.name, segment.arguments)]
        else:
            for name, text in segment.items():
                _set_text(delta, source, name, text)
        return {"index": self.index, "delta": delta, "finish_reason": None}

    def _take_index(self, result: ChoiceResult) -> int:
        index = self._next_index
        self._next_index += 1
        self.calls += 1
        result.calls += 1
        return index

    def _remap_native(self, delta: dict[str, Any]) -> bool:
        """Shift native tool_calls indexes past calls already emitted; note the highest."""
        native = delta.get("tool_calls")
        if not isinstance(native, list):
            return False
        if self._native_offset is None:
            self._native_offset = self._next_index
        offset, entries = self._native_offset, []
        for entry in native:
            if isinstance(entry, dict) and isinstance(entry.get("index"), int):
                if offset:
                    entry = {**entry, "index": entry["index"] + offset}
                self._next_index = max(self._next_index, entry["index"] + 1)
            entries.append(entry)
        delta["tool_calls"] = entries
        return offset > 0

    def _convert_legacy(self, delta: dict[str, Any], result: ChoiceResult) -> bool:
        """A legacy `function_call` delta becomes a `tool_calls` delta."""
        call = delta.get("function_call") if self._legacy else None
        if not isinstance(call, dict):
            return False
        del delta["function_call"]
        name, arguments = call.get("name"), call.get("arguments")
        arguments = arguments if isinstance(arguments, str) else ""
        if (isinstance(name, str) and name) or self._legacy_index is None:
            index = self._legacy_index = self._take_index(result)
            name = name if isinstance(name, str) else ""
            entry = tool_call_delta(index, self._call_id(index, None), name, arguments)
        else:
            entry = {"index": self._legacy_index, "function": {"arguments": arguments}}
        delta["tool_calls"] = [*(delta.get("tool_calls") or []), entry]
        return True


def _scanned_fields(delta: dict[str, Any]) -> dict[str, str]:
    """The text fields to parse: a reasoning field identical to the first is a mirror."""
    fields: dict[str, str] = {}
    for name in TEXT_FIELDS:
        value = delta.get(name)
        if isinstance(value, str) and value:
            if name == "reasoning_content" and delta.get("reasoning") == value:
                continue
            fields[name] = value
    return fields


def _absorbed(
    choice: dict[str, Any], delta: dict[str, Any], scanned: dict[str, str], role_seen: bool
) -> bool:
    """True when a delta whose scanned text all went into a parser leaves nothing to send.

    That is: text was scanned, and every other key is a repeated role or an empty text
    field (no mirrors to update, no tool calls, no logprobs). The caller has checked
    that the parsers gave nothing back and that there is no finish_reason.
    """
    if not scanned or choice.get("logprobs"):
        return False
    for key, value in delta.items():
        if key == "role":
            if not role_seen:
                return False
        elif key not in scanned and not (key in TEXT_FIELDS and not value):
            return False
    return True


def _set_text(target: dict[str, Any], source: dict[str, Any], name: str, text: str) -> None:
    """Set field `name` to `text`, and its mirrors as they stood in `source`."""
    original = source.get(name)
    target[name] = text
    if name not in _REASONING or not original:
        return
    if name == "reasoning" and source.get("reasoning_content") == original:
        target["reasoning_content"] = text
    details = source.get("reasoning_details")
    if not isinstance(details, list):
        return
    mirrored = [d for d in details if isinstance(d, dict) and d.get("type") == "reasoning.text"]
    if "".join(str(d.get("text", "")) for d in mirrored) != original:
        return
    first = True
    new_details = []
    for entry in details:
        if any(entry is d for d in mirrored):
            entry = {**entry, "text": text if first else ""}
            first = False
        new_details.append(entry)
    target["reasoning_details"] = new_details


def _is_blank(key: str, value: Any, role_seen: bool) -> bool:
    if key == "role":
        return role_seen
    if key == "reasoning_details":
        return isinstance(value, list) and all(
            isinstance(d, dict) and not d.get("text") and not d.get("summary") and not d.get("data")
            for d in value
        )
    return value is None or value == "" or value == []
