"""The marker-then-list syntaxes as providers stream them: one token per chunk, in content and
in reasoning, under model ids that pick them or not."""

from __future__ import annotations

import json
import re

import pytest

from sse_rewrite.formats.catalogue import routing_wrapped
from tests.chunking import calls, reasoning, rewrite_stream, texts, token_stream
from tests.oracles import openai_final
from tests.rewrite_runs import chunks, tool_call_deltas

SPECIAL = re.compile(
    r"(\[TOOL_CALLS\]|\[ARGS\]|\[CALL_ID\]|\[/?THINK\]|<\|[a-z_\"]+\|>|<\|tool_call>|<tool_call\|>|<\|channel>|<channel\|>)"
)


def provider_tokens(text: str) -> list[str]:
    """`text` as a provider streams it: a special token per chunk, other text 3 characters at a time."""
    out: list[str] = []
    for part in SPECIAL.split(text):
        out += [part] if SPECIAL.fullmatch(part) else [part[i : i + 3] for i in range(0, len(part), 3)]
    return out


BASH_CALL = '{"name": "bash", "arguments": {"command": "ls"}}'
M1_CALL = '{"name": "f", "arguments": {}}'
STREAMED = [
    ("mistralai/devstral-2512", 'On it.[TOOL_CALLS]bash[ARGS]{"command": "ls -la"}', "bash", "On it."),
    (
        "mistralai/mistral-7b-instruct-v0.3",
        '[TOOL_CALLS] [{"name": "bash", "arguments": {"command": "ls"}}]',
        "bash",
        "",
    ),
    (
        "meta-llama/llama-3.1-8b-instruct",
        '<|python_tag|>{"name": "bash", "parameters": {"command": "ls"}}',
        "bash",
        "",
    ),
    ("meta-llama/llama-3.3-70b-instruct", '{"name": "bash", "parameters": {"command": "ls"}}', "bash", ""),
    ("meta-llama/llama-4-scout", '[bash(command="ls")]', "bash", ""),
    ("liquid/lfm2-8b-a1b", 'Ok.<|tool_call_start|>[bash(command="ls")]<|tool_call_end|>', "bash", "Ok."),
    ("LiquidAI/LFM2-1.2B-Tool", '[bash(command="ls")]', "bash", ""),
    ("MiniMaxAI/MiniMax-M1-80k", f"<tool_calls>\n{BASH_CALL}\n</tool_calls>", "bash", ""),
    ("google/gemma-4-31b-it", '<|tool_call>call:bash{command:<|"|>ls<|"|>}<tool_call|>', "bash", ""),
    ("google/gemma-4-31b-it", "call:bash{command:ls}", "bash", ""),
    ("mistralai/devstral-small-2507", 'bash{"command": "ls"}', "bash", ""),
    ("mistralai/mistral-small-3.2-24b-instruct-2506", f"[{BASH_CALL}]", "bash", ""),
    ("mistralai/devstral-2512", f'{{"tool_calls": [{BASH_CALL}]}}', "bash", ""),
]


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize(("model", "text", "name", "kept"), STREAMED)
def test_one_token_per_chunk_in_content_and_reasoning(
    model: str, text: str, name: str, kept: str, field: str
) -> None:
    body = rewrite_stream(token_stream(provider_tokens(text), field=field, model=model))
    deltas = tool_call_deltas(body)
    assert [d["function"]["name"] for d in deltas if "name" in d.get("function", {})] == [name]
    arguments = json.loads("".join(d["function"].get("arguments", "") for d in deltas))
    assert arguments == {"command": "ls -la" if "-la" in text else "ls"}
    got = "".join(ch["delta"].get(field) or "" for c in chunks(body) for ch in c["choices"])
    assert got == kept
    if field == "content":
        final = openai_final(body, chunk=5).choices[0]
        assert [c.function.name for c in final.message.tool_calls] == [name]
        assert final.finish_reason == "tool_calls"


THINKING = [
    (
        "mistralai/magistral-small-2509",
        '[THINK]Plan: ls.[/THINK]On it.[TOOL_CALLS]bash[ARGS]{"command": "ls"}',
    ),
    ("google/gemma-4-31b-it", '<|channel>thought\nPlan: ls.<channel|>On it.call:bash{command:<|"|>ls<|"|>}'),
]


@pytest.mark.parametrize(
    ("model", "options"), [("mistralai/magistral-small-2509", {}), ("my-agent", {"format": "mistral"})]
)
def test_a_stripped_call_after_the_reasoning_is_read_one_token_per_chunk(
    model: str, options: dict[str, str]
) -> None:
    text = '[THINK]Plan: ls.[/THINK]\nbash{"command": "ls"}'
    body = rewrite_stream(token_stream(provider_tokens(text), model=model), **options)
    final = openai_final(body, chunk=5).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
        ("bash", '{"command": "ls"}')
    ]
    assert final.message.content == "\n"
    thought = "".join(ch["delta"].get("reasoning_content") or "" for c in chunks(body) for ch in c["choices"])
    assert thought == "Plan: ls."


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize(("model", "text"), THINKING)
def test_reasoning_tokens_move_to_the_reasoning_field_one_token_per_chunk(
    model: str, text: str, field: str
) -> None:
    body = rewrite_stream(token_stream(provider_tokens(text), field=field, model=model))
    deltas = [choice["delta"] for c in chunks(body) for choice in c["choices"]]
    thought = "".join(d.get("reasoning_content" if field == "content" else "reasoning") or "" for d in deltas)
    assert thought == ("Plan: ls." if field == "content" else "Plan: ls.On it.")
    if field == "content":
        assert "".join(d.get("content") or "" for d in deltas) == "On it."
    calls = tool_call_deltas(body)
    assert [d["function"]["name"] for d in calls if "name" in d.get("function", {})] == ["bash"]
    assert json.loads("".join(d["function"].get("arguments", "") for d in calls)) == {"command": "ls"}


@pytest.mark.parametrize("model", ["my-agent", "openai/gpt-4o", "qwen/qwen3-coder", "z-ai/glm-4.6"])
def test_special_token_openers_are_read_under_any_model_id(model: str) -> None:
    for text in (
        '[TOOL_CALLS]f[ARGS]{"a": 1}',
        '<|python_tag|>{"name": "f", "parameters": {"a": 1}}',
        "<|python_start|>[f(a=1)]<|python_end|>",
        "<|tool_call_start|>[f(a=1)]<|tool_call_end|>",
        "<|tool_call>call:f{a:1}<tool_call|>",
    ):
        final = openai_final(rewrite_stream(token_stream(provider_tokens(text), model=model))).choices[0]
        assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
            ("f", '{"a": 1}')
        ]


@pytest.mark.parametrize(
    ("model", "text"),
    [
        pytest.param("my-agent", '{"name": "f", "parameters": {}}', id="bare-json-unknown-id"),
        pytest.param("mistralai/devstral-2512", '{"name": "f", "parameters": {}}', id="bare-json-mistral-id"),
        pytest.param("meta-llama/llama-3.1-8b-instruct", "[f(a=1)]", id="bare-list-llama3-id"),
        pytest.param("my-agent", "call:f{a:1}", id="stripped-gemma-unknown-id"),
        pytest.param("my-agent", 'f{"a": 1}g{}', id="stripped-mistral-unknown-id"),
        pytest.param("meta-llama/llama-3.1-8b-instruct", 'f{"a": 1}', id="stripped-mistral-llama-id"),
        pytest.param("google/gemma-4-31b-it", 'f{"a": 1}', id="stripped-mistral-gemma-id"),
        pytest.param("moonshotai/kimi-k2", 'f{"a": 1}', id="stripped-mistral-kimi-id"),
        pytest.param("my-agent", "[THINK]x[/THINK]y", id="mistral-think-unknown-id"),
        pytest.param("my-agent", "<|channel>thought\nx<channel|>y", id="gemma-thought-unknown-id"),
        pytest.param("my-agent", f"<tool_calls>\n{M1_CALL}\n</tool_calls>", id="m1-unknown-id"),
        pytest.param("google/gemma-4-31b-it", f"<tool_calls>{M1_CALL}</tool_calls>", id="m1-gemma-id"),
    ],
)
def test_forms_prose_may_hold_are_read_only_under_their_ids(model: str, text: str) -> None:
    stream = token_stream(provider_tokens(text), model=model)
    assert rewrite_stream(stream) == stream  # byte for byte


@pytest.mark.parametrize("text", ["Use dict{} here", 'see foo{"a":1} and more', 'f{"a": 1} and more', "x{"])
def test_braces_after_a_word_under_mistral_ids_pass_byte_for_byte(text: str) -> None:
    stream = token_stream(provider_tokens(text), model="mistralai/mistral-small-3.2-24b-instruct-2506")
    assert rewrite_stream(stream) == stream


def test_a_bare_json_answer_that_is_not_only_calls_passes_byte_for_byte() -> None:
    text = '{"name": "f", "parameters": {"a": 1}} is the shape Llama writes.'
    stream = token_stream(provider_tokens(text), model="meta-llama/llama-3.1-8b-instruct")
    assert rewrite_stream(stream) == stream


@pytest.mark.usefixtures("accelerators")
def test_a_stripped_gemma_call_cut_anywhere_is_found_by_its_needles() -> None:
    text = "Checking. call:get{city:Oslo}"
    for point in range(1, len(text)):
        tokens = ["Some prose first.", text[:point], text[point:]]
        stream = token_stream(tokens, model="google/gemma-4-31b-it")
        final = openai_final(rewrite_stream(stream)).choices[0]
        assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
            ("get", '{"city": "Oslo"}')
        ], point
        assert final.message.content == "Some prose first.Checking. "


@pytest.mark.usefixtures("accelerators")
def test_a_word_before_a_stripped_gemma_call_keeps_it_prose_wherever_the_events_are_cut() -> None:
    text = "I recall:get{city:Oslo} well"
    for point in range(1, len(text)):
        stream = token_stream(["Prose.", text[:point], text[point:]], model="google/gemma-4-31b-it")
        assert rewrite_stream(stream) == stream, point  # byte for byte


@pytest.mark.usefixtures("accelerators")
@pytest.mark.parametrize("model", ["meta-llama/llama-3.3-70b-instruct", "meta-llama/llama-4-scout"])
def test_a_bare_call_after_prose_is_text_though_the_prose_events_hold_no_needle(model: str) -> None:
    for answer in ('{"name": "f", "parameters": {}}', "[f(a=1)]"):
        stream = token_stream(["", "Here", " it", " is:", " ", answer[:3], answer[3:]], model=model)
        assert rewrite_stream(stream) == stream  # byte for byte: not the whole answer


@pytest.mark.usefixtures("accelerators")
def test_a_bare_call_as_the_whole_answer_is_read_after_a_role_only_chunk() -> None:
    answer = '{"name": "f", "parameters": {"a": 1}}'
    stream = token_stream(["", "\n", *(answer[i : i + 4] for i in range(0, len(answer), 4))],
                          model="meta-llama/llama-3.3-70b-instruct")  # fmt: skip
    final = openai_final(rewrite_stream(stream)).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [("f", '{"a": 1}')]
    assert final.message.content == "\n"


@pytest.mark.parametrize(
    ("model", "answer"),
    [
        ("meta-llama/llama-3.3-70b-instruct", '{"name": "f", "parameters": {"a": 1}}'),
        ("mistralai/devstral-2512", 'f{"a": 1}'),
    ],
)
def test_spacing_around_a_whole_answer_call_in_the_same_event_is_kept(model: str, answer: str) -> None:
    for tokens in ([" \n" + answer + "\n"], [" \n" + answer[:3], answer[3:] + "\n"]):
        final = openai_final(rewrite_stream(token_stream(tokens, model=model))).choices[0]
        assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
            ("f", '{"a": 1}')
        ]
        assert final.message.content == " \n\n", tokens


@pytest.mark.parametrize(
    ("gate", "fed"),
    [
        pytest.param("LlamaAndTokens", ["", " \n", "Here: <|python_tag|>", '{"name": "f", "parameters": {}}'],
                     id="llama-prose"),
        pytest.param("MistralAndTokens", ["[THINK]hm", "m[/THINK]", "Sure.[TOOL_CALLS]f[ARGS]{}"],
                     id="mistral-think"),
        pytest.param("Lfm2AndTokens", ["Hi", " <|tool_call_start|>[f(a=1)]<|tool_call_end|>"],
                     id="lfm2-prose"),
    ],
)
def test_the_whole_answer_gate_becomes_its_inner_parser_once_the_answer_is_text(
    gate: str, fed: list[str]
) -> None:
    """Once the answer is not bare calls, no later call goes through the gate (`_become_inner`),
    and what comes out is what the inner parser gives for the same texts."""
    made = getattr(routing_wrapped, gate)
    parser, inner = made(), made.INNER()
    out, expected = [], []
    for text in fed:
        out += parser.feed(text)
        expected += inner.feed(text)
    assert not isinstance(parser, made)
    out, expected = out + parser.flush(), expected + inner.flush()
    assert (texts(out), calls(out), reasoning(out)) == (texts(expected), calls(expected), reasoning(expected))
