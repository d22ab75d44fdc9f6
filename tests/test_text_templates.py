"""The translated fronts encode a lone text delta from a template: byte for byte the general encoder's event.

Every emitter (`--to anthropic`, `responses`, `gemini`) takes a chunk that is only choice 0's
text (`emitting.lone_text`) through `_lone_texts`, which joins a template's pieces around the
text's JSON. A twin emitter fed the same chunks through `_feed` (the general path: dicts
built, then `orjson.dumps`) must write the same bytes, for texts that JSON escapes.
"""

from __future__ import annotations

from typing import Any

import pytest

from sse_rewrite.protocols.anthropic.events import AnthropicEmitter
from sse_rewrite.protocols.emitting import TEXT_HOLE, ChunkEmitter, lone_text, template
from sse_rewrite.protocols.gemini.events import GeminiEmitter
from sse_rewrite.protocols.responses.events import ResponsesEmitter

EMITTERS = [
    pytest.param(AnthropicEmitter, id="anthropic"),
    pytest.param(ResponsesEmitter, id="responses"),
    pytest.param(GeminiEmitter, id="gemini"),
]
TEXTS = [
    pytest.param("word", id="plain"),
    pytest.param(' say "hi"', id="quotes"),
    pytest.param("C:\\tmp\\ and \\n, \\u0041", id="backslashes"),
    pytest.param("\x00\x01\x08\x0b\x0c\x1f\x7f", id="control-chars"),
    pytest.param("\t\n\r", id="whitespace-escapes"),
    pytest.param("naïve — 日本語 🙂 \u2028\u2029", id="unicode"),
    pytest.param("</script><!-- & ' ", id="markup"),
    pytest.param(TEXT_HOLE, id="the-hole-itself"),
    pytest.param(" ", id="one-space"),
    pytest.param("", id="empty"),
]

CALL = {"index": 0, "id": "call_1", "type": "function",
        "function": {"name": "ls", "arguments": '{"path": "."}'}}


def chunk(delta: dict[str, Any], model: str = "moonshotai/kimi-k2.5", **extra: Any) -> dict[str, Any]:
    """An OpenRouter-shaped chunk of choice 0."""
    choice = {"index": 0, "delta": {"role": "assistant", **delta}, "finish_reason": None,
              "native_finish_reason": None, "logprobs": None}
    return {"id": "gen-1", "provider": "Fake", "model": model, "object": "chat.completion.chunk",
            "created": 1763900000, "choices": [choice], **extra}


def stream(text: str, model: str = "moonshotai/kimi-k2.5") -> list[dict[str, Any]]:
    """Reasoning then content, each opened by a word and continued by `text`, a call, `text`
    again, then the end."""
    finish = chunk({"content": ""}, model)
    finish["choices"][0]["finish_reason"] = "stop"
    usage = {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    return [
        chunk({"reasoning": "Think", "content": ""}, model),
        chunk({"reasoning": text, "content": ""}, model),
        chunk({"content": "Answer"}, model),
        chunk({"content": text}, model),
        chunk({"content": "", "tool_calls": [CALL]}, model),
        chunk({"content": text}, model),  # (after a call: Gemini sends the call's part first)
        chunk({"refusal": text}, model),
        finish,
        {**chunk({}, model), "choices": [], "usage": usage},
    ]


def general(emitter: ChunkEmitter, item: dict[str, Any]) -> list[Any]:
    """What the general path (`_feed`, no template) makes of `item`."""
    return emitter._feed(item)  # (the path the template stands in for)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("make", EMITTERS)
def test_a_lone_text_from_the_template_is_the_general_event(make: type[ChunkEmitter], text: str) -> None:
    fast, slow = make(), make()
    items = stream(text)
    for item in items:
        assert fast.feed(item) == general(slow, item)
    assert fast.flush() == slow.flush()
    # the reasoning word, the content word and `text` (when not empty) four times are lone texts
    assert sum(lone_text(item) is not None for item in items) == (6 if text else 2)


@pytest.mark.parametrize("make", EMITTERS)
def test_the_texts_that_follow_an_opened_one_take_the_template(make: type[ChunkEmitter],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    emitter = make()
    first, *more = [chunk({"content": word}) for word in ("Hello", " wor", "ld", ' "quoted"')]
    emitter.feed(first)
    reference = make()
    expected = [general(reference, item) for item in (first, *more)][1:]

    def no_general_path(item: dict[str, Any]) -> list[Any]:
        raise AssertionError(f"the general path ran for {item}")

    monkeypatch.setattr(emitter, "_feed", no_general_path)
    assert [emitter.feed(item) for item in more] == expected


@pytest.mark.parametrize("make", EMITTERS)
def test_a_model_name_holding_the_hole_falls_back_to_the_general_encoder(make: type[ChunkEmitter]) -> None:
    fast, slow = make(), make()
    for item in stream("text", model=f"odd/{TEXT_HOLE}"):
        assert fast.feed(item) == general(slow, item)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        pytest.param(chunk({"content": "a"}), (False, "a"), id="content"),
        pytest.param(chunk({"reasoning": "a", "content": ""}), (True, "a"), id="reasoning"),
        pytest.param(chunk({"reasoning_content": "a"}), (True, "a"), id="reasoning_content"),
        pytest.param(chunk({"refusal": "no"}), (False, "no"), id="refusal"),
        pytest.param(chunk({"reasoning": "a", "content": "b"}), None, id="two-texts"),
        pytest.param(chunk({"content": "a", "refusal": "b"}), None, id="content-and-refusal"),
        pytest.param(chunk({"content": ""}), None, id="empty"),
        pytest.param(chunk({"content": "a", "tool_calls": [{"index": 0}]}), None, id="a-call"),
        pytest.param(chunk({"content": "a"}, usage={"prompt_tokens": 1}), None, id="usage"),
        pytest.param(chunk({"content": "a"}, error={"message": "x"}), None, id="error"),
        pytest.param({**chunk({"content": "a"}), "choices": [{"index": 1, "delta": {"content": "a"}}]}, None,
                     id="another-choice"),
        pytest.param({**chunk({}), "choices": [{"delta": {"content": "a"}, "finish_reason": "stop"}]}, None,
                     id="a-finish"),
        pytest.param({**chunk({}), "choices": [{"delta": {"content": "a"}}, {"index": 1}]}, None,
                     id="two-choices"),
        pytest.param({**chunk({}), "choices": [{"delta": "a"}]}, None, id="no-delta-object"),
    ],
)
def test_lone_text_is_only_one_text_of_choice_0(item: dict[str, Any],
                                                expected: tuple[bool, str] | None) -> None:
    assert lone_text(item) == expected


@pytest.mark.parametrize(
    ("encoded", "holes", "expected"),
    [
        pytest.param(b'a"\xee\x80\x80"b', [b'"\xee\x80\x80"'], [b"a", b"b"], id="one-hole"),
        pytest.param(b"x1y2z", [b"1", b"2"], [b"x", b"y", b"z"], id="two-holes"),
        pytest.param(b"x1y1z", [b"1"], None, id="twice"),
        pytest.param(b"xyz", [b"1"], None, id="missing"),
        pytest.param(b"x2y1z", [b"1", b"2"], None, id="out-of-order"),
    ],
)
def test_template_cuts_at_each_hole_found_once(encoded: bytes, holes: list[bytes],
                                              expected: list[bytes] | None) -> None:
    assert template(encoded, *holes) == expected
