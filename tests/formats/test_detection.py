"""The format registry and `select_format`: model ids -> format, and what each choice rewrites."""

from __future__ import annotations

import pytest

from sse_rewrite.formats import FORMAT_CHOICES, FORMATS, SPECIAL_TOKENS, select_format
from tests.chunking import chunk_event, rewrite_stream, token_stream
from tests.oracles import openai_final


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        pytest.param("moonshotai/kimi-k2.5", "kimi", id="kimi"),
        pytest.param("moonshotai/Kimi-K2-Thinking", "kimi", id="kimi-mixed-case"),
        pytest.param("moonshot-v1-8k", "kimi", id="moonshot-bare"),
        pytest.param("qwen/qwen3-coder", "qwen3-coder", id="qwen3-coder"),
        pytest.param("Qwen/Qwen2.5-72B-Instruct", "qwen3-coder", id="qwen25-tag-parser"),
        pytest.param("qwen/qwq-32b", "qwen3-coder", id="qwq"),
        pytest.param("deepseek/deepseek-chat-v3.1", "deepseek", id="deepseek-v31"),
        pytest.param("deepseek-ai/DeepSeek-R1", "deepseek", id="deepseek-r1"),
        pytest.param("z-ai/glm-4.6", "glm", id="glm"),
        pytest.param("zhipuai/chatglm3", "glm", id="zhipu"),
        pytest.param("nousresearch/hermes-3-llama-3.1-70b", "hermes", id="hermes"),
        pytest.param("NousResearch/Nous-Capybara", "hermes", id="nous"),
        # ambiguous ids follow the precedence Kimi > Qwen > DeepSeek > GLM > Hermes
        pytest.param("deepseek/deepseek-r1-distill-qwen-32b", "qwen3-coder", id="qwen-over-deepseek"),
        pytest.param("someone/kimi-qwen-merge", "kimi", id="kimi-over-qwen"),
        pytest.param("someone/glm-hermes-tune", "glm", id="glm-over-hermes"),
        # native tool_calls: pass through untouched
        pytest.param("openai/gpt-4o", None, id="openai"),
        pytest.param("gpt-4.1-mini", None, id="gpt-bare"),
        pytest.param("o3-mini", None, id="o-series"),
        pytest.param("anthropic/claude-sonnet-4.5", None, id="anthropic"),
        pytest.param("google/gemini-2.5-pro", None, id="google"),
        # unknown: only the unambiguous special tokens
        pytest.param("mistralai/mistral-large", SPECIAL_TOKENS, id="unknown"),
        pytest.param("", SPECIAL_TOKENS, id="empty"),
        pytest.param(None, SPECIAL_TOKENS, id="missing"),
    ],
)
def test_auto_picks_the_format_from_the_model_id(model: str | None, expected: str | None) -> None:
    name, reason = select_format(model, "auto")
    assert name == expected
    assert reason


@pytest.mark.parametrize("requested", [c for c in FORMAT_CHOICES if c not in ("auto", "none")])
def test_an_explicit_format_wins_over_the_model(requested: str) -> None:
    assert select_format("moonshotai/kimi-k2", requested) == (requested, f"--format {requested}")
    assert requested in FORMATS


def test_format_none_turns_rewriting_off() -> None:
    assert select_format("moonshotai/kimi-k2", "none")[0] is None


def test_choices_are_the_documented_list() -> None:
    assert FORMAT_CHOICES == ("auto", "kimi", "hermes", "qwen3-coder", "deepseek", "glm", "text", "none")


def test_every_registered_parser_has_the_tool_syntax_shape() -> None:
    for factory in FORMATS.values():
        parser = factory(1024)
        assert parser.feed("plain") + parser.flush()
        assert not parser.pending


HERMES_IN_PROSE = 'To call a tool, write <tool_call>{"name": "f", "arguments": {}}</tool_call> on its own.'


@pytest.mark.parametrize("model", ["mistralai/mistral-large", "openai/gpt-4o", None])
def test_prose_mentioning_tool_call_tags_is_untouched_for_other_models(model: str | None) -> None:
    tokens = [HERMES_IN_PROSE[i : i + 4] for i in range(0, len(HERMES_IN_PROSE), 4)]
    stream = token_stream(tokens, model=model or "")
    message = openai_final(rewrite_stream(stream)).choices[0].message
    assert message.content == HERMES_IN_PROSE  # a trailing `<` may wait for the next chunk, no more
    assert message.tool_calls is None


def test_native_tool_call_models_pass_through_byte_for_byte() -> None:
    stream = token_stream([HERMES_IN_PROSE, "<|tool_call_begin|>"], model="openai/gpt-4o")
    assert rewrite_stream(stream) == stream


def test_the_same_tags_are_rewritten_for_a_qwen_model() -> None:
    stream = token_stream([HERMES_IN_PROSE], model="qwen/qwen3-235b-a22b")
    assert b'"tool_calls"' in rewrite_stream(stream)


def test_unknown_model_still_gets_deepseek_and_kimi_tokens_rewritten() -> None:
    text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}"
    text += "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    assert b'"tool_calls"' in rewrite_stream(token_stream([text], model="acme/new-model"))


def test_stream_without_a_model_field_uses_the_fallback() -> None:
    kimi = "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
    event = chunk_event({"content": kimi}, "stop").replace(b'"model":"moonshotai/kimi-k2.5",', b"")
    assert b'"model"' not in event
    assert b'"tool_calls"' in rewrite_stream(event + b"data: [DONE]\n\n")
