"""ComposedParser: a model's tag syntax and the special tokens in one pass (what `auto` reads)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats import FORMATS
from tests.chunking import assert_same_for_any_cut, calls, every_cut, rewrite_stream, texts, token_stream
from tests.formats.damage_rows import DEEPSEEK, KIMI, glm, hermes, qwen
from tests.oracles import openai_final

COMPOSED = ["qwen+special-tokens", "glm+special-tokens", "hermes+special-tokens"]
TAG_CALL = {"qwen+special-tokens": qwen("t", a="1"), "glm+special-tokens": glm("t", a="1"),
            "hermes+special-tokens": hermes("t", {"a": 1})}  # fmt: skip


def kimi_call(name: str, args: str) -> str:
    return f"{KIMI['cb']}functions.{name}:0{KIMI['ab']}{args}{KIMI['ce']}"


def deepseek_call(name: str, args: str) -> str:
    return f"{DEEPSEEK['cb']}{name}{DEEPSEEK['ab']}{args}{DEEPSEEK['ce']}"


@pytest.mark.parametrize("name", COMPOSED)
def test_both_syntaxes_in_one_text(name: str) -> None:
    text = f"a {kimi_call('k', '{}')} b {TAG_CALL[name]} c {deepseek_call('d', '[1]')} e"
    out = every_cut(FORMATS[name], text)
    assert [(c[1], c[2]) for c in calls(out)] == [("k", "{}"), ("t", '{"a": 1}'), ("d", "[1]")]
    assert texts(out) == "a  b  c  e"


@pytest.mark.parametrize("name", COMPOSED)
def test_the_first_opener_owns_the_text_up_to_its_end(name: str) -> None:
    inner_tag = json.dumps({"cmd": f"echo '{TAG_CALL[name]}'"})
    out = every_cut(FORMATS[name], kimi_call("bash", inner_tag))
    assert [(c[1], c[2]) for c in calls(out)] == [("bash", inner_tag)]
    tokens_in_tag = hermes("t", {"a": kimi_call("k", "{}")})
    if name != "glm+special-tokens":  # GLM reads no JSON body
        assert [c[1] for c in calls(every_cut(FORMATS[name], tokens_in_tag))] == ["t"]


BODIES = {"glm": "<tool_call>foo</tool_call>", "hermes": hermes("foo", {}), "qwen3-coder": qwen("foo")}


@pytest.mark.parametrize("fmt", list(BODIES))
@pytest.mark.parametrize("body", list(BODIES))
def test_an_explicit_tag_format_reads_only_its_own_body(fmt: str, body: str) -> None:
    text = BODIES[body]
    out = every_cut(FORMATS[fmt], text)
    assert [c[1] for c in calls(out)] == (["foo"] if body == fmt else [])
    assert texts(out) == ("" if body == fmt else text)


def test_format_hermes_leaves_a_glm_body_alone_end_to_end() -> None:
    stream = token_stream(["<tool_call>", "foo", "</tool_call>"], model="nousresearch/hermes-3")
    message = openai_final(rewrite_stream(stream, format="hermes")).choices[0].message
    assert (message.content, message.tool_calls) == ("<tool_call>foo</tool_call>", None)


_piece = st.sampled_from([
    "a", " ", "\n", "<", "|", ">", "{", "}", '"', "<tool_call>", "</tool_call>", "<function=", "f>",
    KIMI["cb"], KIMI["ab"], KIMI["ce"], KIMI["sb"], KIMI["se"], DEEPSEEK["cb"], DEEPSEEK["ab"], "name",
    kimi_call("k", '{"x": "<tool_call>"}'), deepseek_call("d", "{}"), hermes("h", {"s": "<|tool_call_end|>"}),
    qwen("q", v="1"), glm("g", k="</tool_call>"),
])  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(_piece, max_size=10), name=st.sampled_from(COMPOSED), data=st.data())
def test_any_chunking_gives_the_same_result_and_loses_nothing(
    parts: list[str], name: str, data: st.DataObject
) -> None:
    text = "".join(parts)
    points = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert_same_for_any_cut(FORMATS[name], text, points)
