"""ChoiceRewriter through StreamRewriter: legacy `function_call` deltas and derived ids."""

from __future__ import annotations

import orjson
import pytest

from sse_rewrite.body import rewrite_completion
from sse_rewrite.formats.catalogue.kimi import KimiParser
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.chunks import derived_call_id
from sse_rewrite.stream.events import Text, ToolCall
from tests.chunking import chunk_event, rewrite_stream, token_stream
from tests.oracles import openai_final, openai_state

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/


def legacy_stream(model: str = "qwen/qwen-2.5-72b-instruct") -> bytes:
    """A Qwen-Agent style stream: name first, then argument fragments, finish `function_call`."""
    events = [
        chunk_event({"role": "assistant", "function_call": {"name": "get_weather", "arguments": ""}},
                    model=model),
        chunk_event({"function_call": {"arguments": '{"city": '}}, model=model),
        chunk_event({"function_call": {"arguments": '"Paris"}'}}, model=model),
        chunk_event({}, "function_call", model=model),
    ]
    return b"".join(events) + b"data: [DONE]\n\n"


@pytest.mark.parametrize("model", ["qwen/qwen-2.5-72b-instruct", "acme/unknown-model"])
def test_legacy_function_call_becomes_one_tool_call(model: str) -> None:
    body = rewrite_stream(legacy_stream(model))
    for final in (openai_final(body), openai_state(body)):
        choice = final.choices[0]
        assert choice.finish_reason == "tool_calls"
        [tool_call] = choice.message.tool_calls
        assert tool_call.function.name == "get_weather"
        assert orjson.loads(tool_call.function.arguments) == {"city": "Paris"}
        assert tool_call.id == derived_call_id("gen-1", 0, 0)
    assert b'"function_call":{' not in body  # native_finish_reason keeps the provider's word


def test_legacy_function_call_of_a_native_model_passes_through_whole() -> None:
    stream = legacy_stream("openai/gpt-4o")
    assert rewrite_stream(stream) == stream


@pytest.mark.parametrize("id_style", ["native", "openai"])
@pytest.mark.parametrize(
    ("model", "text"),
    [
        pytest.param("qwen/qwen3-coder", '<tool_call>{"name": "a"}</tool_call>', id="hermes"),
        pytest.param("deepseek/deepseek-chat-v3.1",
                     "<｜tool▁call▁begin｜>a<｜tool▁sep｜>{}<｜tool▁call▁end｜>", id="deepseek"),
        pytest.param("acme/model", "TOOL: a\nARGUMENTS: {}\n", id="text"),
    ],
)
def test_calls_without_a_native_id_get_a_derived_one_in_every_id_style(
    model: str, text: str, id_style: str
) -> None:
    fmt = "text" if text.startswith("TOOL") else "auto"
    body = rewrite_stream(token_stream([text, text], model=model), id_style=id_style, format=fmt)
    ids = [c.id for c in openai_final(body).choices[0].message.tool_calls]
    assert ids == [derived_call_id("gen-1", 0, 0), derived_call_id("gen-1", 0, 1)]


@pytest.mark.parametrize(
    ("model", "content"),
    [
        pytest.param("qwen/qwen3-coder", "Ok.<tool_call>\n<function=ls>\n<parameter=d>\n/\n</parameter>\n"
                     "</function>\n</tool_call>", id="qwen3-coder"),
        pytest.param("deepseek/deepseek-chat-v3.1",
                     'Ok.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ls<｜tool▁sep｜>{"d": "/"}'
                     "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", id="deepseek"),
    ],
)
def test_non_streaming_body_of_a_new_format_is_rewritten(model: str, content: str) -> None:
    completion = {"id": "gen-9", "object": "chat.completion", "model": model, "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]}
    body, notices, calls = rewrite_completion(orjson.dumps(completion))
    choice = orjson.loads(body)["choices"][0]
    assert choice["message"]["content"] == "Ok."
    [tool_call] = choice["message"]["tool_calls"]
    assert tool_call["id"] == derived_call_id("gen-9", 0, 0)
    function = tool_call["function"]
    assert (function["name"], orjson.loads(function["arguments"])) == ("ls", {"d": "/"})
    assert (choice["finish_reason"], notices, calls) == ("tool_calls", [], 1)


def test_non_streaming_body_of_a_native_model_is_returned_byte_for_byte() -> None:
    completion = {"id": "x", "model": "openai/gpt-4o", "choices": [
        {"index": 0, "finish_reason": "function_call", "message": {"function_call": {"name": "f"}}}]}
    body = orjson.dumps(completion)
    assert rewrite_completion(body) == (body, [], 0)


# -- the hot path: a token inside an open call is absorbed, and only then

OPEN_CALL = "<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{"


def _in_open_call() -> ChoiceRewriter:
    rewriter = ChoiceRewriter(0, lambda: KimiParser(200), lambda i, call: f"id{i}")
    rewriter.rewrite({"index": 0, "delta": {"role": "assistant", "content": OPEN_CALL}})
    assert rewriter.pending
    return rewriter


def test_a_token_inside_an_open_call_is_absorbed() -> None:
    rewriter = _in_open_call()
    assert rewriter.absorb({"index": 0, "delta": {"role": "assistant", "content": '"cmd": "ls"'}})
    result = rewriter.rewrite({"index": 0, "delta": {"content": "}<|tool_call_end|>"}})
    [extra] = result.extras
    assert extra["delta"]["tool_calls"][0]["function"]["arguments"] == '{"cmd": "ls"}'


def test_a_marker_start_inside_an_open_call_is_absorbed_by_feeding_it() -> None:
    rewriter = _in_open_call()
    assert rewriter.absorb({"index": 0, "delta": {"content": '"cmd": "ls"}<|tool_'}})
    result = rewriter.rewrite({"index": 0, "delta": {"content": "call_end|>"}})
    [extra] = result.extras
    assert extra["delta"]["tool_calls"][0]["function"]["arguments"] == '{"cmd": "ls"}'


@pytest.mark.parametrize(
    "choice",
    [
        pytest.param({"index": 0, "delta": {"content": "x"}, "finish_reason": "stop"}, id="finish"),
        pytest.param({"index": 0, "delta": {"content": "x"}, "logprobs": {"content": []}}, id="logprobs"),
        pytest.param({"index": 0, "delta": {"content": "x", "reasoning": "y"}}, id="two-fields"),
        pytest.param({"index": 0, "delta": {"reasoning": "x"}}, id="field-without-parser"),
        pytest.param({"index": 0, "delta": {"content": "}<|tool_call_end|>"}}, id="completes-a-call"),
        pytest.param({"index": 0, "delta": {"content": "x" * 300}}, id="passes-the-cap"),
        pytest.param({"index": 0, "delta": {"content": 1}}, id="not-text"),
    ],
)
def test_anything_with_something_to_send_is_not_absorbed(choice: dict[str, object]) -> None:
    """Declined, the choice is rewritten next as if `absorb` had never seen it."""
    rewriter, untouched = _in_open_call(), _in_open_call()
    assert not rewriter.absorb(choice)
    assert rewriter.rewrite(choice) == untouched.rewrite(choice)


def test_first_role_is_not_absorbed() -> None:
    rewriter = ChoiceRewriter(0, lambda: KimiParser(), lambda i, call: f"id{i}")
    rewriter.rewrite({"index": 0, "delta": {"content": OPEN_CALL}})
    assert not rewriter.absorb({"index": 0, "delta": {"role": "assistant", "content": "1"}})


def test_header_tokens_are_absorbed_until_spacing_could_make_the_header_prose() -> None:
    parser = KimiParser()
    parser.feed("<|tool_calls_section_begin|><|tool_call_begin|>")
    assert parser.absorb([" func", "tions"]) == 2  # leading spacing is stripped from a header
    assert parser.absorb([" "]) == 1  # and so is trailing spacing, as long as nothing follows
    assert parser.absorb([".bash", ":0"]) == 0  # inner spacing: the step handlers decide
    released = parser.feed(".bash")
    text = "".join(piece.text for piece in released if isinstance(piece, Text))
    assert text.endswith("<|tool_call_begin|> functions .bash")
    assert parser.absorb(["x" * 300]) == 0  # too long for a header


def test_argument_tokens_are_absorbed_up_to_the_first_that_holds_a_marker_start() -> None:
    parser = KimiParser()
    parser.feed("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>")
    assert parser.absorb(['{"a": ', '"x"', "}<|tool_call_end|>", "more"]) == 2
    assert parser.absorb([]) == 0
    [call] = [piece for piece in parser.feed("}<|tool_call_end|>") if isinstance(piece, ToolCall)]
    assert call.arguments == '{"a": "x"}'




@pytest.mark.parametrize("model", ["nousresearch/hermes-4-70b", "moonshotai/kimi-k2.5"])
def test_a_fields_first_text_taken_by_absorb_leaves_its_quote_state_as_the_rewrite_would(model: str) -> None:
    # (`ChoiceState.absorb` makes the field's parser, reading on first as `rewrite` does: the
    # events that passed unread before it are not the new field's `Quotes.skipped`)
    from sse_rewrite.stream.choice_state import ChoiceState
    from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter

    def event(delta: dict[str, str]) -> bytes:
        chunk = {"id": "g", "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    opener = "<tool_call>" if "hermes" in model else "<|tool_calls_section_begin|>"
    deltas = [{"role": "assistant", "content": ""}, *({"content": text} for text in ("Hi", " there", opener))]
    data = b"".join(event(delta) for delta in deltas)

    def state() -> tuple[dict[str, object], int]:
        rewriter = StreamRewriter(RewriteOptions())
        rewriter.feed(data)
        choice = rewriter.choices.get(0)
        assert choice is not None
        quotes = choice._quotes["content"]
        return {name: getattr(quotes, name) for name in type(quotes).__slots__}, rewriter.unread.events

    absorbed = state()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: None)  # (the rewrite)
        assert state() == absorbed
    assert absorbed[1] == 2  # (the prose passed unread)
