"""`deltas.lone_text` (the absorb path's one pass) against the rules it stands for:
`scanned_fields` gives exactly one field, no call key, and `carries_nothing` with that field emptied."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.call_indexes import LEGACY_CALL, NATIVE_CALLS
from sse_rewrite.stream.deltas import _blank_details, carries_nothing, lone_text, scanned_fields

_TEXTS = st.sampled_from(["", "x", "y", "<"])
_DETAILS = st.lists(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["reasoning.text", "reasoning.summary"])},
        optional={"text": _TEXTS, "summary": _TEXTS, "data": _TEXTS},
    ),
    max_size=2,
)
_ODD = st.sampled_from([0, 1, False, True, ["x"]])  # values no text field should hold
_BLANK = st.sampled_from([None, "", []])
_VALUES = st.one_of(_BLANK, _BLANK, _BLANK, _TEXTS, _ODD, _DETAILS, st.just({}))  # mostly blank
_TEXT_KEYS = ["content", "reasoning", "reasoning_content"]
_KEYS = st.sampled_from(["role", *_TEXT_KEYS, "reasoning_details", NATIVE_CALLS, LEGACY_CALL, "refusal"])
_DELTAS = st.builds(  # a text, and around it keys that are mostly blank
    lambda around, key, text: {**around, key: text},
    st.dictionaries(_KEYS, _VALUES, max_size=3), st.sampled_from(_TEXT_KEYS), _TEXTS,
)


def _by_the_rules(choice: dict[str, Any], role_seen: bool) -> tuple[str, str] | None:
    delta = choice.get("delta")
    if type(delta) is not dict:
        return None
    fields = scanned_fields(delta)
    if len(fields) != 1 or NATIVE_CALLS in delta or LEGACY_CALL in delta:
        return None
    ((name, text),) = fields.items()
    return (name, text) if carries_nothing(choice, role_seen, (name,)) else None


@settings(max_examples=300, deadline=None)
@given(
    delta=st.one_of(_DELTAS, _DELTAS, _DELTAS, st.dictionaries(_KEYS, _VALUES, max_size=4), st.just(None)),
    mirror=st.booleans(),
    finish=st.sampled_from([None, None, None, "stop", ""]),
    logprobs=st.sampled_from(["absent", "absent", None, {}, {"content": []}]),
    role_seen=st.booleans(),
)
def test_lone_text_is_the_rules(
    delta: Any, mirror: bool, finish: str | None, logprobs: Any, role_seen: bool
) -> None:
    if mirror and isinstance(delta, dict) and isinstance(delta.get("reasoning"), str):
        delta["reasoning_content"] = delta["reasoning"]  # OpenRouter's mirror
        delta["reasoning_details"] = [{"type": "reasoning.text", "text": delta["reasoning"]}]
    choice: dict[str, Any] = {"index": 0, "delta": delta, "finish_reason": finish}
    if logprobs != "absent":
        choice["logprobs"] = logprobs
    assert lone_text(choice, role_seen) == _by_the_rules(choice, role_seen)


def test_the_common_token_events() -> None:
    assert lone_text({"delta": {"role": "assistant", "content": "ab"}, "finish_reason": None}, True) == (
        "content", "ab",
    )
    assert lone_text({"delta": {"role": "assistant", "content": "ab"}}, False) is None  # the role is news
    details = [{"type": "reasoning.text", "text": "r"}]
    mirrored = {"reasoning": "r", "reasoning_content": "r", "reasoning_details": details}
    assert lone_text({"delta": {**mirrored, "content": ""}}, True) == ("reasoning", "r")
    assert lone_text({"delta": {**mirrored, "content": "c"}}, True) is None  # two texts
    assert lone_text({"delta": {"content": "c", NATIVE_CALLS: []}}, True) is None


def _blank_by_the_loop(details: object, delta: dict[str, Any], emptied: tuple[str, ...]) -> bool:
    """`_blank_details` as one loop over the entries (its one-entry case reads the entry alone)."""
    if not isinstance(details, list):
        return False
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
    joined = "".join(texts)
    return not has_text or any(name in ("reasoning", "reasoning_content") and delta.get(name) == joined
                               for name in emptied)


_DETAIL_TEXTS = st.one_of(_TEXTS, _ODD, _BLANK)


@settings(max_examples=300, deadline=None)
@given(
    details=st.one_of(st.lists(st.fixed_dictionaries(
        {"type": st.sampled_from(["reasoning.text", "reasoning.summary", "other"])},
        optional={"text": _DETAIL_TEXTS, "summary": _TEXTS, "data": _TEXTS},
    ), max_size=2), _ODD, st.just([["x"]])),
    reasoning=_TEXTS, emptied=st.sampled_from([(), ("reasoning",), ("reasoning_content",), ("content",)]),
)
@example(details=[{"type": "reasoning.text", "text": None}], reasoning="x", emptied=())
@example(details=[{"type": "reasoning.text", "text": 1}], reasoning="1", emptied=("reasoning",))
@example(details=[{"type": "reasoning.text", "text": "x", "data": "d"}], reasoning="x", emptied=("content",))
def test_blank_details_is_the_loop(details: Any, reasoning: str, emptied: tuple[str, ...]) -> None:
    delta = {"reasoning": reasoning, "reasoning_content": reasoning, "reasoning_details": details}
    assert _blank_details(details, delta, emptied) == _blank_by_the_loop(details, delta, emptied)
