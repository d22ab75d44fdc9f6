"""The tag families of FORMATS-2.md §B, §E and §H (`catalogue/tags.py`, the routing rows): which
ids pick them, and the reference engines' own cases as rows (`engine_tag_rows.py`), decided by
DESIGN.md where the engines disagree (§K: text around calls is kept, a body that is no call
stays text).

Every row runs at every cut (`harness.row_at_every_cut`) and with `--stream-arguments`
(`streamed.streamed_at_every_cut`: the same calls and text, the streaming guarantees held).
"""

from __future__ import annotations

import pytest

from sse_rewrite.formats import FORMATS, select_format
from sse_rewrite.formats.catalogue.tags import LONGCAT, Hy3Parser, K2HorizonParser, LongCatParser
from sse_rewrite.formats.machines.tool_call_bodies import glm_call
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import calls, codes, every_cut, feed_pieces, texts
from tests.formats.engine_tag_rows import REFERENCE
from tests.formats.harness import Expectation, over_the_cap_released, prose_released_at_once, row_at_every_cut
from tests.formats.streamed import streamed_at_every_cut

ROUTES = [
    pytest.param("ibm-granite/granite-4.0-h-tiny", "hermes+special-tokens", id="granite-4"),
    pytest.param("ibm-granite/granite-3.3-8b-instruct", "granite-3.3+special-tokens",
                 id="granite-3-not-hermes"),
    pytest.param("baidu/ERNIE-4.5-21B-A3B-Thinking", "hermes+special-tokens", id="ernie-4.5"),
    pytest.param("RekaAI/reka-edge-2603", "hermes+special-tokens", id="reka-edge"),
    pytest.param("arcee-ai/Trinity-Nano-Preview", "hermes+special-tokens", id="trinity"),
    pytest.param("Aleph-Alpha/Kolibri-1-BF16", "hermes+special-tokens", id="kolibri"),
    pytest.param("speakleash/Bielik-11B-v3.0-Instruct", "hermes+special-tokens", id="bielik"),
    pytest.param("meituan-longcat/LongCat-Flash-Chat-FP8", "longcat+special-tokens", id="longcat-flash"),
    pytest.param("meituan-longcat/LongCat-Flash-Lite", "longcat+special-tokens", id="longcat-lite"),
    pytest.param("meituan-longcat/LongCat-Next", "longcat-next+special-tokens", id="longcat-next"),
    pytest.param("internlm/internlm2_5-7b-chat", "special-tokens", id="internlm-everywhere"),
    pytest.param("iquest/iquest-q1", "iquest+special-tokens", id="iquest"),
    pytest.param("tencent/Hy3-preview", "hunyuan+special-tokens", id="hy3"),
    pytest.param("tencent/Hy4-preview", "hunyuan+special-tokens", id="hy4"),
    pytest.param("IFM/K2-Horizon-36B", "k2-horizon+special-tokens", id="k2-horizon-not-kimi"),
    pytest.param("inclusionAI/Ling-3.0-flash", "glm+special-tokens", id="ling-3"),
    pytest.param("poolside/Laguna-XS-2.1", "glm+special-tokens", id="laguna"),
    pytest.param("stepfun-ai/Step-3.5-Flash", "qwen3-coder+special-tokens", id="step-3.5"),
    pytest.param("stepfun-ai/step3p5-flash", "qwen3-coder+special-tokens", id="step3p5"),
    pytest.param("stepfun-ai/Step-5-Preview", "qwen3-coder+special-tokens", id="step-5"),
    pytest.param("Nanbeige/Nanbeige4.2-3B", "qwen3-coder+special-tokens", id="nanbeige"),
    pytest.param("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B", "qwen3-coder+special-tokens", id="nemotron-3"),
    # (MiMo V2.5 also writes `<tml:function_calls>`: its own row reads that beside Qwen3-Coder XML)
    pytest.param("XiaomiMiMo/MiMo-V2.5-Pro", "mimo-v2.5+special-tokens", id="mimo-v2.5"),
]


@pytest.mark.parametrize(("model", "expected"), ROUTES)
def test_model_ids_pick_their_syntax(model: str, expected: str) -> None:
    assert select_format(model, "auto")[0] == expected


ROWS = [
    pytest.param(fmt, row, id=f"{fmt}-{name}")
    for fmt, table in REFERENCE.items()
    for name, row in table.items()
]


@pytest.mark.parametrize(("fmt", "row"), ROWS)
def test_reference_rows_at_every_cut(fmt: str, row: Expectation) -> None:
    row_at_every_cut(fmt, FORMATS[fmt], row)


# (streaming, a call announced before its body broke is completed instead: docs/behaviour.md,
# "Streamed arguments"; junk after a closed value, or a value left open, breaks it after its announcement)
_COMPLETED_WHEN_STREAMED = {
    "hy4-vllm-junk-after-arguments-is-text",
    "iquest-sglang-value-left-open-then-the-next-call-stays-text",
    "iquest-sglang-between-two-calls",
    "glm-a-value-left-open-then-the-next-call-stays-text",
    "glm-vllm-key-never-closed-is-text",
}
STREAMED = [param for param in ROWS if "truncated-call" not in param.values[1].notices
            and param.id not in _COMPLETED_WHEN_STREAMED]  # fmt: skip


@pytest.mark.parametrize(("fmt", "row"), [param for param in ROWS if param.id in _COMPLETED_WHEN_STREAMED])
def test_broken_rows_streamed_give_the_same_at_every_cut(fmt: str, row: Expectation) -> None:
    made, _, _ = streamed_at_every_cut(fmt, row.text)  # (the same at any cut, nothing lost)
    assert len(made) == len(row.calls) + 1  # (the broken call completed)


@pytest.mark.parametrize(("fmt", "row"), STREAMED)
def test_reference_rows_streamed(fmt: str, row: Expectation) -> None:
    made, kept, _ = streamed_at_every_cut(fmt, row.text)
    assert [(name, arguments) for _, name, arguments in made] == row.calls
    assert kept == row.kept


def test_values_are_typed_by_the_schema() -> None:
    # Hy3 (V): bool, int, number, JSON for other types by the schema; a value that fails stays a string
    properties = {
        "b": {"type": "boolean"},
        "i": {"type": "integer"},
        "x": {"type": "number"},
        "o": {"type": "object"},
        "s": {"type": "string"},
        "bad": {"type": "integer"},
    }
    tools = ToolSchemas.read(
        [
            {
                "type": "function",
                "function": {"name": "f", "parameters": {"type": "object", "properties": properties}},
            }
        ]
    )
    pairs = "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>"
        for k, v in [
            ("b", "true"),
            ("i", "7"),
            ("x", "1.5"),
            ("o", '{"k": 1}'),
            ("s", "007"),
            ("bad", "seven"),
        ]
    )
    out = feed_pieces(
        Hy3Parser(tools=tools), [f"<tool_calls><tool_call>f<tool_sep>{pairs}</tool_call></tool_calls>"]
    )
    assert [(c[1], c[2]) for c in calls(out)] == [
        ("f", '{"b": true, "i": 7, "x": 1.5, "o": {"k": 1}, "s": "007", "bad": "seven"}')
    ]


def test_longcat_key_value_is_typed_by_the_schema() -> None:
    tools = ToolSchemas.read(
        [
            {
                "type": "function",
                "function": {
                    "name": "f",
                    "parameters": {
                        "type": "object",
                        "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
                    },
                },
            }
        ]
    )
    body = (
        "f\n<longcat_arg_key>n</longcat_arg_key><longcat_arg_value>2</longcat_arg_value>"
        "<longcat_arg_key>s</longcat_arg_key><longcat_arg_value>2</longcat_arg_value>"
    )
    assert glm_call(body, tools, tags=LONGCAT.tags) == ("f", '{"n": 2, "s": "2"}')


@pytest.mark.parametrize("fmt", ["longcat", "internlm", "iquest", "hy3", "hy4", "k2-horizon"])
def test_an_opener_followed_by_prose_is_text_at_once(fmt: str) -> None:
    opener = FORMATS[fmt].TAGS.opens[0].decode()  # type: ignore[attr-defined]
    prose_released_at_once([fmt], f"the {opener} tag, as the docs spell it. ")


@pytest.mark.parametrize(("fmt", "opener", "later"), [
    pytest.param("longcat", '<longcat_tool_call>{"', '<longcat_tool_call>{"name": "b"}</longcat_tool_call>',
                 id="longcat"),
    pytest.param("internlm", '<|action_start|><|plugin|>{"name": "a", "parameters": "',
                 '<|action_start|><|plugin|>{"name": "b"}<|action_end|>', id="internlm"),
    pytest.param("hy3", "<tool_calls><tool_call>a<tool_sep><arg_key>k</arg_key><arg_value>",
                 "<tool_calls><tool_call>b<tool_sep></tool_call></tool_calls>", id="hy3"),
    pytest.param("k2-horizon", "<ifm|tool_call>a<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>",
                 "<ifm|tool_call>b</ifm|tool_call>", id="k2-horizon"),
])  # fmt: skip
def test_the_section_cap_holds(fmt: str, opener: str, later: str) -> None:
    over_the_cap_released(fmt, [fmt], opener, later)


def test_an_open_value_at_the_end_is_text() -> None:
    # a file write cut off mid-content is never a call (docs/behaviour.md, "Damage")
    text = "<ifm|tool_calls><ifm|tool_call>write<ifm|arg_key>body</ifm|arg_key><ifm|arg_value>half a fi"
    out = every_cut(K2HorizonParser, text)
    assert (calls(out), texts(out)) == ([], text)
    assert "truncated-call" in codes(out)


def test_longcat_parser_is_the_declared_syntax() -> None:
    assert LongCatParser.SYNTAX is LONGCAT
