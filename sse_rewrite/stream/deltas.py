"""The text fields of a choice's delta: which are scanned, how a new text is set, and
the one rule for "this choice has nothing to send", and how parser pieces become field
texts (pure functions on decoded JSON).

A delta carries text in `content`, `reasoning` and `reasoning_content`. OpenRouter
mirrors reasoning: `reasoning_content` identical to `reasoning`, and the `text` of the
`reasoning.text` entries of `reasoning_details`. A mirror is not a second text: it is
not scanned, and whatever is set in the field it mirrors is set in it too
(docs/behaviour.md, "What is rewritten": mirrored reasoning).
"""

from __future__ import annotations

from .call_indexes import LEGACY_CALL, NATIVE_CALLS
from .events import ArgumentsDelta, CallStart, Markup, Notice, Piece, Text, ToolCall
from .streamed_calls import CallPart

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any, Final

TEXT_FIELDS: Final = ("reasoning", "reasoning_content", "content")
"""The delta fields scanned for leaked syntax, in the order they are fed."""

_REASONING: Final = ("reasoning", "reasoning_content")
_CALL_KEYS: Final = (NATIVE_CALLS, LEGACY_CALL)
_ABSENT: Final = object()


def scanned_fields(delta: dict[str, Any]) -> dict[str, str]:
    """The non-empty text fields to parse; a `reasoning_content` identical to `reasoning` is a mirror."""
    fields: dict[str, str] = {}
    for name in TEXT_FIELDS:
        value = delta.get(name)
        if type(value) is str and value:
            if name == "reasoning_content" and delta.get("reasoning") == value:
                continue
            fields[name] = value
    return fields


def lone_text(choice: dict[str, Any], role_seen: bool) -> tuple[str, str] | None:
    """The one field `scanned_fields` gives for the choice's delta and its text, when the
    choice carries nothing else (`carries_nothing(choice, role_seen, (name,))`) and has no
    `tool_calls` or `function_call` key; else None.

    The same rules in one pass over the delta: it runs once per token event inside a call."""
    delta = choice.get("delta")
    if type(delta) is not dict or choice.get("finish_reason") is not None or choice.get("logprobs"):
        return None
    size = len(delta)
    if size <= 2:  # (a content token, beside the role sent already: most are)
        content = delta.get("content")
        if content and type(content) is str and (size == 1 or (role_seen and "role" in delta)):
            return "content", content
    found = None
    details: object = _ABSENT  # the value of `reasoning_details`, if the delta has one
    for key, value in delta.items():
        if key == "role":
            if not role_seen:
                return None
            continue
        if value and type(value) is str and key in TEXT_FIELDS:
            if key == "reasoning_content" and delta.get("reasoning") == value:
                continue  # a mirror: blank once the reasoning it mirrors is taken
            if found is not None:
                return None
            found = (key, value)
        elif key == "reasoning_details":
            details = value
        elif key in _CALL_KEYS or not (value is None or value == "" or value == []):
            return None
    if found is None or (details is not _ABSENT and not _blank_details(details, delta, (found[0],))):
        return None
    return found


def set_text(target: dict[str, Any], source: dict[str, Any], name: str, text: str) -> None:
    """Set field `name` of `target` to `text`, and its mirrors as they stood in `source`."""
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


def with_texts(choice: dict[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    """`choice` with these delta fields (and their mirrors) set; every other key as it was."""
    delta = choice["delta"]
    new_delta = dict(delta)
    for name, text in texts.items():
        set_text(new_delta, delta, name, text)
    return {**choice, "delta": new_delta}


def carries_nothing(choice: dict[str, Any], role_seen: bool, emptied: Collection[str] = ()) -> bool:
    """True when a rewritten choice holds nothing a client needs, so its chunk may be dropped.

    That is: no finish_reason, no logprobs, and every delta key blank: a role already
    sent (`role_seen`), empty text, empty mirrors, an empty list, or null. The text fields
    `emptied`, and their mirrors, count as emptied (what `with_texts(choice, {name: ""})`
    would make of them, without making it). This is the one rule every path uses; it is
    asked only about choices that were rewritten (an event nobody changed goes out byte
    for byte, blank or not).
    """
    delta = choice.get("delta")
    if choice.get("finish_reason") is not None or choice.get("logprobs") or type(delta) is not dict:
        return False
    for key, value in delta.items():
        if key in emptied:
            continue
        if key == "role":
            if not role_seen:
                return False
        elif key == "reasoning_details":
            if not _blank_details(value, delta, emptied):
                return False
        elif key == "reasoning_content" and "reasoning" in emptied and value == delta.get("reasoning"):
            continue  # emptied with the reasoning it mirrors
        elif not (value is None or value == "" or value == []):
            return False
    return True


def _blank_details(details: object, delta: dict[str, Any], emptied: Collection[str]) -> bool:
    """Whether `reasoning_details` is blank once the emptied fields it mirrors are (see `set_text`)."""
    if not isinstance(details, list):
        return False
    first = details[0] if len(details) == 1 else None  # (one text entry, OpenRouter's mirror: most are)
    if type(first) is dict and first.get("type") == "reasoning.text" and not (
        first.get("summary") or first.get("data")
    ):
        joined = first.get("text", "")  # (the loop's answer, without its list)
        if type(joined) is not str:
            joined = str(joined) if joined else ""
    else:
        texts, has_text = [], False
        for detail in details:
            if not isinstance(detail, dict) or detail.get("summary") or detail.get("data"):
                return False
            text = detail.get("text", "")
            if detail.get("type") == "reasoning.text":
                texts.append(text if type(text) is str else str(text))
                has_text = has_text or bool(text)
            elif text:
                return False
        if not has_text:
            return True
        joined = "".join(texts)
    if not joined:
        return True
    # Its texts are blank only as the mirror of an emptied field: they join up to its text.
    for name in emptied:  # noqa: SIM110 (a loop, not any(): this runs once per reasoning token in a call)
        if name in _REASONING and delta.get(name) == joined:
            return True
    return False


def split_pieces(
    items: list[tuple[str, Piece | CallPart]],
) -> tuple[dict[str, list[str]], list[dict[str, str] | ToolCall | CallPart], list[Notice]]:
    """A field-tagged run of parser pieces as deltas need it: the text before the first call
    (by field), then the calls and the text runs between them; and the notices."""
    head: dict[str, list[str]] = {}
    tail: list[dict[str, str] | ToolCall | CallPart] = []
    notices: list[Notice] = []
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
            case ToolCall() | CallPart():
                tail.append(piece)
            case Notice():
                notices.append(piece)
            case Markup() | CallStart() | ArgumentsDelta():  # (the choice makes calls' parts of these)
                pass
    return head, tail, notices
