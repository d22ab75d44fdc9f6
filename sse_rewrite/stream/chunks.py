"""Pure builders for OpenAI `chat.completion.chunk` pieces: envelopes, tool-call deltas, ids.

Everything here is deterministic (golden files depend on it): ids derive from the
stream id, the choice and the call index, never from a clock or a random source.
"""

from __future__ import annotations

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    Chunk = dict[str, Any]
    """A decoded chat.completion.chunk (or chat.completion) JSON object."""

_NOT_ENVELOPE: Final = frozenset({"choices", "usage", "error"})


def envelope(chunk: Chunk) -> Chunk:
    """The chunk's top-level fields that a synthesized chunk copies (id, model, provider...)."""
    base = chunk.copy()  # (then the few keys deleted: a comprehension costs about 1k instructions a key)
    for key in _NOT_ENVELOPE:
        if key in base:
            del base[key]
    return base


def with_choice(chunk: Chunk, choice: dict[str, Any]) -> Chunk:
    """A synthesized chunk: the envelope of `chunk`, and `choice` as its one choice."""
    base = envelope(chunk)
    base["choices"] = [choice]
    return base


_HASH: list[Any] = []
"""blake2b, once `derived_call_id` has imported it (an import statement costs ~7k instructions
even when the module is loaded: this one ran once a call)."""


def moved_choice(index: int, field: str, text: str) -> dict[str, Any]:
    """Choice `index` sending `text` in the reasoning field `field` alone (harmony's analysis text,
    read in the content: `StreamChoices.absorbed`)."""
    return {"index": index, "delta": {field: text}, "finish_reason": None}


def thought_choice(choice: dict[str, Any], field: str, text: str) -> dict[str, Any]:
    """`choice` with its content `text` moved to the reasoning field `field`, which it has blank
    or lacks (`--think` inside a block, as `ContentThinking.split` makes it): `content` emptied
    in place, `field` set in place or added last."""
    delta = dict(choice["delta"])
    delta["content"] = ""
    delta[field] = text
    return {**choice, "delta": delta}


def derived_call_id(stream_id: str, choice: int, index: int) -> str:
    """A `call_`-prefixed id derived from the stream id, choice index and call index."""
    if not _HASH:
        # Here, not at the top: most streams never need it, and start-up counts. `_blake2` is where
        # hashlib's blake2b comes from: `import hashlib` also loads OpenSSL (~11M instructions, ~13x).
        try:
            from _blake2 import blake2b
        except ImportError:  # (a Python built without it)
            from hashlib import blake2b
        _HASH.append(blake2b)
    digest: str = _HASH[0](f"{stream_id}\0{choice}\0{index}".encode(), digest_size=12).hexdigest()
    return "call_" + digest


def tool_call_delta(index: int, call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One complete call as a single OpenAI `tool_calls` delta entry."""
    return {
        "index": index,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }


def message_tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One call as a non-streaming `message.tool_calls` entry."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}

