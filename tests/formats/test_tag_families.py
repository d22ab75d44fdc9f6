"""The tag families of FORMATS-2.md §B, §E and §H (`catalogue/tags.py`, the routing rows): which
ids pick them, and the reference engines' own cases as rows, decided by DESIGN.md where the
engines disagree (§K: text around calls is kept, a body that is no call stays text).

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


def _call(name: str = "get_weather", arguments: str = '{"city": "Paris"}') -> list[tuple[str, str]]:
    return [(name, arguments)]


_JSON = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
_LC_KV = "<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Paris</longcat_arg_value>"
_HY = "<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>"
_IFM = "<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Paris</ifm|arg_value>"
_ACT = "<|action_start|><|plugin|>\n"

# format -> id -> (text in, calls, text kept, notice codes)
REFERENCE: dict[str, dict[str, Expectation]] = {
    "hermes": {  # V granite4, ernie45, Hermes: text before, between and after is kept (§K)
        "granite-string-arguments": Expectation(
            'a<tool_call>\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}\n</tool_call>b',
            _call(),
            "ab",
            set(),
        ),
        "ernie-missing-name-is-text": Expectation(
            '<tool_call>\n{"arguments": {"city": "Paris"}}\n</tool_call>',
            [],
            '<tool_call>\n{"arguments": {"city": "Paris"}}\n</tool_call>',
            {"malformed-call"},
        ),
        "reka-no-newline-before-closer": Expectation(f"<tool_call>\n{_JSON}</tool_call>", _call(), "", set()),
        "text-between-calls-kept": Expectation(
            f"<tool_call>{_JSON}</tool_call> and <tool_call>{_JSON}</tool_call>", _call() * 2, " and ", set()
        ),
    },
    "longcat": {  # V longcat_tool_parser (JSON), mlx-lm longcat (key/value)
        "flash-json": Expectation(
            f"x<longcat_tool_call>\n{_JSON}\n</longcat_tool_call>y", _call(), "xy", set()
        ),
        "2601-key-value": Expectation(
            f"<longcat_tool_call>get_weather\n{_LC_KV}\n</longcat_tool_call>", _call(), "", set()
        ),
        "invalid-json-is-text": Expectation(
            '<longcat_tool_call>{"name": "f", "arguments": {</longcat_tool_call>',
            [],
            '<longcat_tool_call>{"name": "f", "arguments": {</longcat_tool_call>',
            {"truncated-call"},
        ),
        "two-calls": Expectation(
            f"<longcat_tool_call>{_JSON}</longcat_tool_call>\n<longcat_tool_call>get_weather\n{_LC_KV}"
            "</longcat_tool_call>",
            _call() * 2,
            "\n",
            set(),
        ),
        "stray-closer-after-a-call-dropped": Expectation(
            f"<longcat_tool_call>{_JSON}</longcat_tool_call>\n</longcat_tool_call>",
            _call(),
            "\n",
            {"orphan-marker"},
        ),
        "unclosed-recovered-at-end": Expectation(
            f"<longcat_tool_call>\n{_JSON}", _call(), "", {"recovered-call"}
        ),
    },
    "internlm": {  # V internlm2, S internlm (every block; invalid JSON: S skips, we keep the text)
        "parameters": Expectation(
            f"a{_ACT}{_JSON.replace('arguments', 'parameters')}<|action_end|>b", _call(), "ab", set()
        ),
        "arguments": Expectation(f"{_ACT}{_JSON}<|action_end|>", _call(), "", set()),
        "sglang-space": Expectation(
            f"<|action_start|> <|plugin|>\n{_JSON}<|action_end|>", _call(), "", set()
        ),
        "every-block": Expectation(
            f"{_ACT}{_JSON}<|action_end|>{_ACT}{_JSON}<|action_end|>", _call() * 2, "", set()
        ),
        "invalid-json-is-text": Expectation(
            f"{_ACT}{{oops}}<|action_end|>", [], f"{_ACT}{{oops}}<|action_end|>", set()
        ),
        "stray-closer-after-a-call-dropped": Expectation(
            f"{_ACT}{_JSON}<|action_end|><|action_end|> ok", _call(), " ok", {"orphan-marker"}
        ),
        "closer-in-a-sentence-is-words": Expectation(
            "It ends with <|action_end|> here.", [], "It ends with <|action_end|> here.", set()
        ),
    },
    "iquest": {  # S iquest_q1: string params raw, a malformed block stays text
        "call": Expectation(
            "a<iquest_tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value>"
            "</iquest_tool_call>b",
            _call(),
            "ab",
            set(),
        ),
        "malformed-stays-text": Expectation(
            "<iquest_tool_call>get_weather\n<arg_key>city</arg_key></iquest_tool_call>",
            [],
            "<iquest_tool_call>get_weather\n<arg_key>city</arg_key></iquest_tool_call>",
            {"malformed-call"},
        ),
    },
    "hy3": {  # V hy_v3, S hunyuan
        "block": Expectation(
            f"<tool_calls>\n<tool_call>get_weather<tool_sep>\n{_HY}\n</tool_call>\n</tool_calls>",
            _call(),
            "\n",
            set(),
        ),
        "no-arguments": Expectation(
            "<tool_calls>\n<tool_call>now<tool_sep></tool_call>\n</tool_calls>", [("now", "{}")], "\n", set()
        ),
        "last-call-without-closer": Expectation(
            f"<tool_calls>\n<tool_call>get_weather<tool_sep>\n{_HY}\n", _call(), "", {"recovered-call"}
        ),
        "block-word-in-prose": Expectation(
            "Hy3 wraps calls in <tool_calls> blocks.", [], "Hy3 wraps calls in <tool_calls> blocks.", set()
        ),
        "block-closer-in-prose": Expectation("a </tool_calls> b", [], "a </tool_calls> b", set()),
        "second-block-closer-is-an-orphan": Expectation(
            "<tool_calls><tool_call>now<tool_sep></tool_call></tool_calls>\n</tool_calls>",
            [("now", "{}")],
            "\n",
            {"orphan-marker"},
        ),
    },
    "hy4": {  # V hy_v4: no separator, every tag suffixed
        "suffixed": Expectation(
            "<tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e>"
            "<arg_value:6124c78e>Paris</arg_value:6124c78e></tool_call:6124c78e>",
            _call(),
            "",
            set(),
        ),
    },
    "k2-horizon": {  # V k2_horizon, S k2_v3: text before and after kept
        "xml": Expectation(
            f"a<ifm|tool_calls><ifm|tool_call>get_weather{_IFM}</ifm|tool_call>\n</ifm|tool_calls>b",
            _call(),
            "a\nb",
            set(),
        ),
        "xml-typed": Expectation(
            "<ifm|tool_calls><ifm|tool_call>f<ifm|arg_key>n</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type>"
            "<ifm|arg_value>3</ifm|arg_value></ifm|tool_call></ifm|tool_calls>",
            [("f", '{"n": 3}')],
            "",
            set(),
        ),
    },
    "glm": {  # Laguna: GLM-4.5 with and without newlines; Spark 2.5: null, booleans, integers
        "laguna-newlines": Expectation(
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
            _call(),
            "",
            set(),
        ),
        "spark-guessed-types": Expectation(
            "<tool_call>f<arg_key>a</arg_key><arg_value>null</arg_value><arg_key>b</arg_key>"
            "<arg_value>true</arg_value><arg_key>c</arg_key><arg_value>12</arg_value></tool_call>",
            [("f", '{"a": null, "b": true, "c": 12}')],
            "",
            set(),
        ),
    },
}
ROWS = [
    pytest.param(fmt, row, id=f"{fmt}-{name}")
    for fmt, table in REFERENCE.items()
    for name, row in table.items()
]


@pytest.mark.parametrize(("fmt", "row"), ROWS)
def test_reference_rows_at_every_cut(fmt: str, row: Expectation) -> None:
    row_at_every_cut(fmt, FORMATS[fmt], row)


# (streaming, a call announced before its body broke is completed instead: docs/behaviour.md,
# "Streamed arguments")
STREAMED = [param for param in ROWS if "truncated-call" not in param.values[1].notices]


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
