"""The invoke family in whole streams: which model ids read what, one token per chunk in content and
in reasoning, a differential test against the native tool calls, and prose that stays prose.

The differential: the calls of a native tool-call stream, leaked as DSML, MiniMax M2 or M3 one
token per chunk (in content, then in the reasoning field), come out as the openai SDK assembles
the native stream, and byte for byte the same under other model ids (the markers are distinctive).
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.cli import cli
from sse_rewrite.formats import FORMATS, select_format
from tests.chunking import (
    assert_same_for_any_cut,
    calls,
    feed_pieces,
    field_stream,
    normalize,
    rewrite_stream,
    texts,
)
from tests.formats.invoke_text import BAR, NS
from tests.formats.test_any_model_id import CALLS, PROSE, native_stream, pieces, relabel
from tests.oracles import openai_final
from tests.test_think import reads_think

DEEPSEEK_IDS = [
    "deepseek-ai/DeepSeek-V3.2-Exp",
    "deepseek.v3.2",
    "deepseek-v3.2:cloud",
    "deepseek-ai/DeepSeek-V4-Pro",
    "deepseek/deepseek-v4-pro",
    "deepseek-v4.1-flash",
    "deepseek-flash",
    "deepseek-chat",
]
MINIMAX_IDS = [
    "MiniMaxAI/MiniMax-M2",
    "MiniMaxAI/MiniMax-M2.7-highspeed",
    "minimax/minimax-m2.1",
    "minimax-m2.5:cloud",
]


@pytest.mark.parametrize("model", DEEPSEEK_IDS + MINIMAX_IDS)
def test_deepseek_and_minimax_ids_pick_their_plain_invoke_grammar(model: str) -> None:
    name, reason = select_format(model, "auto")
    assert name == ("deepseek+kimi" if model in DEEPSEEK_IDS else "minimax+special-tokens")
    assert "<invoke>" in reason and "as are DSML, MiniMax, harmony, Seed and Kimi K3 markers" in reason


def leak(shape: str) -> str:
    """The calls of `CALLS` written in `shape`."""
    if shape == "minimax-m3":
        body = "".join(
            f'{NS}<invoke name="{name}">'
            + "".join(f"{NS}<{k}>{v}{NS}</{k}>" for k, v in args.items())
            + f"{NS}</invoke>"
            for name, args in CALLS
        )
        return f"{NS}<tool_call>\n{body}\n{NS}</tool_call>"
    mark, block = (BAR, f"{BAR}tool_calls") if shape == "dsml" else ("", "minimax:tool_call")
    invokes = []
    for name, args in CALLS:
        params = []
        for key, value in args.items():
            typed = "" if shape != "dsml" else f' string="{str(isinstance(value, str)).lower()}"'
            params.append(f'<{mark}parameter name="{key}"{typed}>{value}</{mark}parameter>')
        invokes.append(f'<{mark}invoke name="{name}">\n' + "\n".join(params) + f"\n</{mark}invoke>")
    return f"<{block}>\n" + "\n".join(invokes) + f"\n</{block}>"


# Tokens as the models' vocabularies cut them: a DSML tag word with its marker, M3's namespace token, words.
_TOKEN = re.compile(rf"</?{BAR}\w+>?|{re.escape(NS)}|</?minimax:tool_call>|\w+|\s+|[^\w\s]")


def leaked_stream(shape: str, field: str, model: str) -> bytes:
    tokens = [*pieces(PROSE), *_TOKEN.findall(leak(shape))]
    return field_stream([{field: token} for token in tokens], model=model)


REFERENCE = {
    "dsml": "deepseek-ai/DeepSeek-V3.2",
    "minimax-m2": "MiniMaxAI/MiniMax-M2.5",
    "minimax-m3": "MiniMaxAI/MiniMax-M3",
}
RELABELS = ["gpt-4o", "claude-sonnet-4-5", "z-ai/glm-4.6", "qwen/qwen3-coder", "my-agent", ""]


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize("shape", list(REFERENCE))
def test_leaked_invokes_come_out_as_the_native_calls_under_any_model_id(shape: str, field: str) -> None:
    assert "".join(_TOKEN.findall(leak(shape))) == leak(shape)
    reference = REFERENCE[shape]
    expected = rewrite_stream(leaked_stream(shape, field, reference), think="off")
    final = openai_final(expected).choices[0]
    native = openai_final(native_stream(reference)).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in final.message.tool_calls] == [
        (c.function.name, json.loads(c.function.arguments)) for c in native.tool_calls
    ]
    assert final.finish_reason == "tool_calls"
    if field == "content":
        assert final.message.content == PROSE
    for model in RELABELS:
        out = rewrite_stream(leaked_stream(shape, field, model), think="off")
        assert relabel(out, model, reference) == expected, model


def test_stats_say_why_the_plain_invoke_grammar_is_read() -> None:
    result = CliRunner().invoke(
        cli, ["--stats"], input=leaked_stream("minimax-m2", "content", "minimax/minimax-m2.1")
    )
    assert result.exit_code == 0
    adds = "MiniMax bare <invoke> XML, [TOOL_CALL] wrappers, M3 tags without their namespace token, " \
        "<mm:think>"
    assert f"{adds}: model 'minimax/minimax-m2.1' contains 'minimax'" in result.stderr
    assert "tool calls 2" in result.stderr


def test_minimax_reasoning_without_its_opener_moves_to_the_reasoning_field() -> None:
    assert reads_think("MiniMaxAI/MiniMax-M2.5", "auto") == (True, True)
    text = "The user wants the weather.</think>Checking." + leak("minimax-m2")
    stream = field_stream([{"content": p} for p in pieces(text, 5)], model="MiniMaxAI/MiniMax-M2.5")
    final = openai_final(rewrite_stream(stream)).choices[0]
    assert final.message.content == "Checking."
    assert final.message.model_extra["reasoning_content"] == "The user wants the weather."
    assert [c.function.name for c in final.message.tool_calls] == [name for name, _ in CALLS]


def test_dsml_after_deepseek_reasoning_in_think_tags() -> None:
    text = "<think>Look it up.</think>" + leak("dsml")
    stream = field_stream([{"content": p} for p in pieces(text, 3)], model="deepseek/deepseek-v4-pro")
    final = openai_final(rewrite_stream(stream)).choices[0]
    assert final.message.model_extra["reasoning_content"] == "Look it up."
    assert [c.function.name for c in final.message.tool_calls] == [name for name, _ in CALLS]



@pytest.mark.parametrize("size", [1, 3, 7, 10_000])
@pytest.mark.parametrize("model", ["deepseek/deepseek-v4-pro", "deepseek-reasoner"])
def test_a_dsml_block_inside_think_ends_the_reasoning(model: str, size: int) -> None:
    """As DeepSeek V4's parser does: the block is the answer's (`<think>` written, or the
    template's, for an id that starts inside)."""
    for start in ("<think>", "") if reads_think(model, "auto")[1] else ("<think>",):
        text = start + "Look it up.\n" + leak("dsml")
        stream = field_stream([{"content": p} for p in pieces(text, size)], model=model)
        final = openai_final(rewrite_stream(stream)).choices[0]
        assert final.message.model_extra["reasoning_content"] == "Look it up.\n"
        assert not final.message.content
        assert [c.function.name for c in final.message.tool_calls] == [name for name, _ in CALLS]


def test_dsml_words_inside_think_that_open_no_block_stay_reasoning() -> None:
    thought = "The DSML marker <｜DSML｜ is not a block; nor is <｜DSML｜invoke alone, nor DSML."
    stream = field_stream([{"content": p} for p in pieces(f"<think>{thought}</think>ok", 2)],
                          model="deepseek/deepseek-v4-pro")  # fmt: skip
    final = openai_final(rewrite_stream(stream)).choices[0]
    assert final.message.model_extra["reasoning_content"] == thought
    assert final.message.content == "ok"



def test_m3_mm_think_moves_to_the_reasoning_field_under_minimax_ids_only() -> None:
    answer = "<mm:think>Plan: list docs.</mm:think>Listing."
    text = answer + leak("minimax-m3")
    for model, reasoning, content in (("MiniMaxAI/MiniMax-M3", "Plan: list docs.", "Listing."),
                                      ("gpt-4o", None, answer)):  # fmt: skip
        stream = field_stream([{"content": token} for token in _TOKEN.findall(text)], model=model)
        final = openai_final(rewrite_stream(stream)).choices[0]
        assert (final.message.model_extra or {}).get("reasoning_content") == reasoning, model
        assert final.message.content == content, model
        assert [c.function.name for c in final.message.tool_calls] == [name for name, _ in CALLS], model


# -- property: prose made of the markers' fragments comes out byte for byte, in every parser

_FRAGMENTS = [
    "<｜DSML",
    "｜",
    "｜DSML｜",
    "invoke",
    "<invoke",
    " name=",
    "parameter",
    "</｜DSML｜parameter>",
    "<minimax:",
    "tool",
    "]<]minimax",
    "[>[",
    "]",
    "<",
    ">",
    "/",
    " ",
    "\n",
    "a",
    "<function",
    "{",
    "minimax:tool_call>",  # (M2's block opener without its `<`: the invoke headers below lack a quoted name)
    ":tool_call>",
    "invoke>",
    "/parameter>",
]
# `<` then `minimax:tool_call>` is M2's real opener, which a stream ending there drops (dangling-opener).
_prose = st.lists(st.sampled_from(_FRAGMENTS), max_size=14).map("".join).filter(
    lambda text: "<minimax:tool_call>" not in text)


@settings(max_examples=60, deadline=None)
@given(text=_prose, data=st.data())
def test_prose_with_marker_fragments_comes_out_byte_for_byte(text: str, data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=6))
    for name in ("special-tokens", "deepseek+kimi", "minimax+special-tokens", "dsml", "minimax"):
        out = feed_pieces(FORMATS[name](), [text])
        assert texts(out) == text, name
        assert not calls(out)
        assert_same_for_any_cut(FORMATS[name], text, points)


@pytest.mark.parametrize("shape", list(REFERENCE))
@pytest.mark.parametrize("stream_arguments", [False, True])
def test_absorbing_what_it_can_changes_nothing(shape: str, stream_arguments: bool) -> None:
    text = PROSE + leak(shape) + " done"
    tokens = _TOKEN.findall(text)
    name = "deepseek+kimi" if shape == "dsml" else "minimax+special-tokens"
    parser, out, absorbed = FORMATS[name](stream_arguments=stream_arguments), [], 0
    for token in tokens:
        taken = parser.absorb([token])
        absorbed += taken
        out += [] if taken else parser.feed(token)
    out += parser.flush()
    assert absorbed  # the hot path is taken
    assert normalize(out) == normalize(feed_pieces(FORMATS[name](stream_arguments=stream_arguments), tokens))



_K3_ARGUMENT = ["<|open|>", "argument", " key", '="', "KEY", '"', " type", '="', "TYPE", '"', "<|sep|>",
                "VALUE", "<|close|>", "argument", "<|sep|>"]  # fmt: skip
_K3_TOKENS = [
    "Let me look.", "<|open|>", "tools", "<|sep|>", "<|open|>", "call", " tool", '="', "bash", '"', "<|sep|>",
    *[{"KEY": "command", "TYPE": "string", "VALUE": "ls -la"}.get(token, token) for token in _K3_ARGUMENT],
    *[{"KEY": "n", "TYPE": "integer", "VALUE": "1"}.get(token, token) for token in _K3_ARGUMENT],
    "<|close|>", "call", "<|sep|>", "<|close|>", "tools", "<|sep|>", " done",
]  # fmt: skip


@pytest.mark.parametrize("stream_arguments", [False, True])
def test_a_marker_cut_in_an_invoke_body_is_absorbed_and_changes_nothing(stream_arguments: bool) -> None:
    """Kimi K3 streams a parameter's tags a token a part (`<|open|>`, `argument`; `<|close|>`, `argument`,
    `<|sep|>`): inside the body each part is absorbed (a cut marker waits, the cursor on it, as the body
    step leaves it), and what comes out is what feeding every token gives."""
    parser, out, absorbed = FORMATS["kimi-k3"](stream_arguments=stream_arguments), [], []
    for token in _K3_TOKENS:
        taken = parser.absorb([token])
        absorbed += [token] * taken
        out += [] if taken else parser.feed(token)
    out += parser.flush()
    fed = feed_pieces(FORMATS["kimi-k3"](stream_arguments=stream_arguments), _K3_TOKENS)
    assert normalize(out) == normalize(fed)
    assert [name for _, name, _ in calls(out)] == ["bash"]
    if not stream_arguments:
        assert absorbed.count("<|close|>") >= 2 and absorbed.count("argument") == 4

UNANGLED_TOKENS = [
    "minimax:tool_call>", "\n", "invoke", ' name="', "bash", '">', "\n", "parameter", ' name="', "command",
    '">', "ls", " -la", "/", "parameter", ">\n", "/", "invoke", ">\n",
    "/", "minimax", ":", "tool", "_call", ">",
]  # fmt: skip


@pytest.mark.parametrize("model", MINIMAX_IDS)
@pytest.mark.parametrize("field", ["content", "reasoning"])
def test_m2_tags_without_their_angles_one_token_per_chunk_under_minimax_ids_only(
    model: str, field: str
) -> None:
    stream = field_stream([{field: token} for token in ["Listing.\n", *UNANGLED_TOKENS]], model=model)
    final = openai_final(rewrite_stream(stream)).choices[0]
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
        ("bash", '{"command": "ls -la"}')
    ]
    other = field_stream([{field: token} for token in ["Listing.\n", *UNANGLED_TOKENS]], model="my-agent")
    assert rewrite_stream(other) == other  # byte for byte
