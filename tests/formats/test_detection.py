"""The format registry and `select_format`: model ids -> format, and what each choice rewrites."""

from __future__ import annotations

import pytest

from sse_rewrite.formats import FORMAT_CHOICES, FORMATS, NATIVE_TOOL_CALLS, SPECIAL_TOKENS, select_format
from tests.chunking import chunk_event, field_stream, rewrite_stream, token_stream
from tests.oracles import openai_final


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        pytest.param("moonshotai/kimi-k2.5", "kimi+deepseek", id="kimi"),
        pytest.param("moonshotai/Kimi-K2-Thinking", "kimi+deepseek", id="kimi-mixed-case"),
        pytest.param("moonshot-v1-8k", "kimi+deepseek", id="moonshot-bare"),
        pytest.param("qwen/qwen3-coder", "qwen+special-tokens", id="qwen3-coder"),
        pytest.param("Qwen/Qwen2.5-72B-Instruct", "qwen+special-tokens", id="qwen25-tag-parser"),
        pytest.param("qwen/qwq-32b", "qwen+special-tokens", id="qwq"),
        pytest.param("deepseek/deepseek-chat-v3.1", "deepseek+kimi", id="deepseek-v31"),
        pytest.param("deepseek-ai/DeepSeek-R1", "deepseek+kimi", id="deepseek-r1"),
        pytest.param("z-ai/glm-4.6", "glm+special-tokens", id="glm"),
        pytest.param("zhipuai/chatglm3", "glm+special-tokens", id="zhipu"),
        pytest.param("nousresearch/hermes-3-llama-3.1-70b", "hermes+special-tokens", id="hermes"),
        pytest.param("NousResearch/Nous-Capybara", "hermes+special-tokens", id="nous"),
        # ambiguous ids follow the precedence Kimi > Qwen > DeepSeek > GLM > Hermes
        pytest.param("deepseek/deepseek-r1-distill-qwen-32b", "qwen+special-tokens", id="qwen-over-deepseek"),
        pytest.param("someone/kimi-qwen-merge", "kimi+deepseek", id="kimi-over-qwen"),
        pytest.param("someone/glm-hermes-tune", "glm+special-tokens", id="glm-over-hermes"),
        # native tool_calls: no tag syntax, but the special tokens all the same
        pytest.param("openai/gpt-4o", NATIVE_TOOL_CALLS, id="openai"),
        pytest.param("gpt-4.1-mini", NATIVE_TOOL_CALLS, id="gpt-bare"),
        pytest.param("o3-mini", NATIVE_TOOL_CALLS, id="o-series"),
        pytest.param("anthropic/claude-sonnet-4.5", NATIVE_TOOL_CALLS, id="anthropic"),
        pytest.param("google/gemini-2.5-pro", NATIVE_TOOL_CALLS, id="google"),
        # unknown: only the unambiguous special tokens
        pytest.param("my-agent", SPECIAL_TOKENS, id="alias"),
        pytest.param("cohere/aya-expanse-32b", SPECIAL_TOKENS, id="unknown"),
        pytest.param("cohere/command-r-plus", "command-r-plus+special-tokens", id="command-r-plus-action"),
        # FORMATS-2.md §J: the more specific substring wins
        pytest.param("Salesforce/Qwen-xLAM-32B-fc-r", "xlam+special-tokens", id="xlam-over-qwen"),
        pytest.param("Salesforce/Llama-xLAM-2-8b-fc-r", "xlam+special-tokens", id="xlam-over-llama"),
        pytest.param("google/functiongemma-270m-it", "functiongemma+special-tokens",
            id="functiongemma-gemma"),
        pytest.param("nvidia/Llama-3_3-Nemotron-Super-49B-v1", "nemotron+special-tokens", id="nemotron"),
        pytest.param("fireworks-ai/llama-3-firefunction-v2", "functools+special-tokens",
            id="firefunction-llama"),
        pytest.param("meta-llama/Llama-3.2-1B-Instruct", "llama3.2+special-tokens",
            id="llama-3.2-over-llama"),
        pytest.param("ibm-granite/granite-3.1-8b-instruct", "granite+special-tokens", id="granite-3.1"),
        pytest.param("ibm-granite/granite-3.2-8b-instruct", "granite+special-tokens", id="granite-3.2-list"),
        pytest.param("ibm-granite/granite-3.3-8b-instruct", "granite-3.3+special-tokens",
            id="granite-3.3-lines"),
        pytest.param("ibm-granite/granite-4.0-micro", "hermes+special-tokens", id="granite-4-not-3"),
        pytest.param("tencent/Hunyuan-A13B-Instruct", "tool-calls-list+special-tokens", id="hunyuan-a13b"),
        pytest.param("allenai/Olmo-3-32B-Think", "olmo+special-tokens", id="olmo-3"),
        # the marker-then-list family (its special tokens are read in every stream anyway)
        pytest.param("mistralai/mistral-large", "mistral+special-tokens", id="mistral"),
        pytest.param("mistralai/devstral-2512", "mistral+special-tokens", id="devstral"),
        pytest.param("mistralai/Magistral-Small-2509", "mistral+special-tokens", id="magistral"),
        pytest.param("meta-llama/Llama-3.1-8B-Instruct", "llama+special-tokens", id="llama3"),
        pytest.param("llama3.2", "llama+special-tokens", id="llama-ollama"),
        pytest.param("meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama4+special-tokens", id="llama4"),
        pytest.param("google/gemma-4-31b-it", "gemma+special-tokens", id="gemma-over-google"),
        pytest.param("LiquidAI/LFM2-1.2B", "lfm2+special-tokens", id="lfm2"),
        pytest.param("", SPECIAL_TOKENS, id="empty"),
        pytest.param(None, SPECIAL_TOKENS, id="missing"),
    ],
)
def test_auto_picks_the_format_from_the_model_id(model: str | None, expected: str | None) -> None:
    name, reason = select_format(model, "auto")
    assert name == expected
    assert "Kimi and DeepSeek special tokens: recognized in every stream" in reason


@pytest.mark.parametrize("requested", [c for c in FORMAT_CHOICES if c not in ("auto", "none")])
def test_an_explicit_format_wins_over_the_model(requested: str) -> None:
    assert select_format("moonshotai/kimi-k2", requested) == (requested, f"--format {requested}")
    assert requested in FORMATS


def test_format_none_turns_rewriting_off() -> None:
    assert select_format("moonshotai/kimi-k2", "none")[0] is None


def test_choices_are_the_documented_list() -> None:
    assert FORMAT_CHOICES == (
        "auto", "kimi", "hermes", "qwen3-coder", "deepseek", "glm", "dsml", "minimax", "harmony", "seed",
        "kimi-k3", "mistral", "llama", "gemma", "lfm2", "longcat", "internlm", "iquest", "hy3", "hy4",
        "k2-horizon", "functiongemma", "granite", "tool-calls-list", "nemotron", "cohere", "functools",
        "apertus", "xlam", "olmo", "text", "none",
    )


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


def test_native_tool_call_stream_passes_through_byte_for_byte() -> None:
    native = [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    stream = field_stream([{"content": "a < b and <b>bold</b>"}, {"tool_calls": native}], finish="tool_calls",
                          model="openai/gpt-4o")
    assert rewrite_stream(stream) == stream


def test_kimi_tokens_are_recognized_under_a_native_model_id() -> None:
    kimi = "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
    stream = token_stream([HERMES_IN_PROSE, kimi], model="openai/gpt-4o")
    message = openai_final(rewrite_stream(stream)).choices[0].message
    assert message.content == HERMES_IN_PROSE
    assert [(c.id, c.function.name) for c in message.tool_calls] == [("functions.f:0", "f")]


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
