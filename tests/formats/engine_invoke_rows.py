"""FORMATS.md's invoke and channel syntaxes (DeepSeek DSML, MiniMax M2 and M3, Seed-OSS, gpt-oss
harmony) against vLLM's own cases for their parsers (`tests/tool_parsers/test_deepseekv32_…`,
`test_minimax_m2_…`, `test_minimax_m3_…`, `test_seed_oss_…`, `test_openai_…`), as data;
`test_invoke_families.py` runs them beside its own rows, under the format each model id picks, at
every cut and streamed.

`ROWS` are `(model id, text, calls as (name, arguments decoded), text kept, reasoning, notice
codes)`; `TYPED` rows give the request's tool `f` its properties' schemas and the arguments they
type. Where DESIGN.md disagrees with the engine, the row follows DESIGN.md and its id says what the
engine does instead.
"""

from __future__ import annotations

from typing import Any

import pytest

DSML, M2, M3 = "deepseek/deepseek-v3.2", "minimax/minimax-m2.1", "minimax/minimax-m3"
DSML4, _TS, _TE = "deepseek-v4-pro", "<｜DSML｜tool_calls>\n", "</｜DSML｜tool_calls>"
SEED, HARMONY, K3 = "bytedance-seed/seed-oss-36b-instruct", "openai/gpt-oss-120b", "moonshotai/kimi-k3"
NS = "]<]minimax[>["
_FS, _FE = "<｜DSML｜function_calls>\n", "</｜DSML｜function_calls>"
PLAMO, _EOT, _pl = "pfnet/plamo-3-nict-2b-base", "<|plamo:tag|>", "<|plamo:{}:plamo|>".format


def _plamo(name: str, arguments: str) -> str:
    """A PLaMo 3 request, its arguments behind the JSON constraint tokens (as vLLM's tests write it)."""
    return (f"{_pl('begin_tool_request')}{_pl('begin_tool_name')}{name}{_pl('end_tool_name')}"
            f"{_pl('begin_tool_arguments')}<|plamo:constrain|>json<|plamo:msg|>{arguments}"
            f"{_pl('end_tool_arguments')}{_pl('end_tool_request')}")  # fmt: skip


def _requests(*calls: str) -> str:
    return f"{_pl('begin_tool_requests')}{''.join(calls)}{_pl('end_tool_requests')}{_EOT}"


def _dsml(name: str, *parameters: tuple[str, str, str]) -> str:
    body = "".join(
        f'<｜DSML｜parameter name="{k}" string="{s}">{v}</｜DSML｜parameter>\n' for k, v, s in parameters
    )
    return f'<｜DSML｜invoke name="{name}">\n{body}</｜DSML｜invoke>\n'


def _m2(*invokes: tuple[str, dict[str, str]]) -> str:
    body = "".join(
        f'<invoke name="{name}">'
        + "".join(f'<parameter name="{k}">{v}</parameter>' for k, v in values.items())
        + "</invoke>"
        for name, values in invokes
    )
    return f"<minimax:tool_call>{body}</minimax:tool_call>"


def _t(key: str, value: str) -> str:
    """An M3 `<key>value</key>` tag, each tag behind the namespace token."""
    return f"{NS}<{key}>{value}{NS}</{key}>"


def _m3(*invokes: str) -> str:
    return (
        f"{NS}<tool_call>\n"
        + "\n".join(f'{NS}<invoke name="f">{body}{NS}</invoke>' for body in invokes)
        + (f"\n{NS}</tool_call>")
    )


_ORDER = (
    _t("user_id", "42")
    + _t("urgent", "true")
    + _t("note", "Leave it.")
    + _t("shipping", _t("city", "Singapore") + _t("zip", "018956"))
    + _t(
        "items",
        _t("item", _t("sku", "book-001") + _t("qty", "2"))
        + _t("item", _t("sku", "pen-007") + _t("qty", "5")),
    )
    + _t("duplicate_demo", _t("tag", "a") + _t("tag", "b"))
)
_ITEMS = [{"sku": "book-001", "qty": 2}, {"sku": "pen-007", "qty": 5}]
_SEATTLE, _M3_END = _t("city", "Seattle"), f"{NS}</tool_call>"
_RUST_EXTRAS = (  # (vLLM's Rust parser's case beside the Python one: rust/src/tool-parser/src/minimax_m3.rs)
    _t("metadata", _t("score", "42") + _t("rank", "7"))
    + _t("schema_mismatch_array", _t("x", "1") + _t("x", "2"))
    + _t("unknown_struct", _t("a", "1") + _t("a", "2"))
)
_ORDER_SCHEMA = {
    "user_id": "integer", "urgent": "boolean", "note": "string",
    "shipping": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}}},
    "items": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
    "metadata": {"type": "object", "additionalProperties": {"type": "integer"}},
    "duplicate_demo": {"type": "object", "properties": {"tag": {"type": "string"}}},
    "schema_mismatch_array": {"type": "array", "items": {"type": "integer"}},
}  # fmt: skip

_SEED_CALL = (
    "<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n"
    "</function>\n</seed:tool_call>"
)
_BARCELONA = [("get_weather", {"location": "Barcelona, Spain"})]
_THOUGHT = 'User asks: "What is the weather in Tokyo?" We need get_current_weather.'
_ANALYSIS = f"<|start|>assistant<|channel|>analysis<|message|>{_THOUGHT}<|end|>"
_TOKYO = '{"location": "Tokyo"}'


def _h(name: str, body: str, constrain: str = " <|constrain|>json") -> str:
    """A harmony call to `functions.NAME` (`constrain`: its content type, as rendered)."""
    return f"<|start|>assistant<|channel|>commentary to=functions.{name}{constrain}<|message|>{body}<|call|>"


ROWS: list[Any] = [
    pytest.param(
        DSML, _FS + _dsml("get_time") + _FE, [("get_time", {})], "", "", set(), id="dsml-vllm-no-parameters"
    ),
    pytest.param(
        DSML,
        "Sure, let me check! "
        + _FS
        + _dsml("w", ("location", "SF", "true"), ("date", "2024-01-16", "true"))
        + _FE,
        [("w", {"location": "SF", "date": "2024-01-16"})],
        "Sure, let me check! ",
        "",
        set(),
        id="dsml-vllm-content-before",
    ),
    pytest.param(
        DSML,
        _FS + _dsml("w", ("location", "SF", "true")) + _dsml("w", ("location", "NYC", "true")) + _FE,
        [("w", {"location": "SF"}), ("w", {"location": "NYC"})],
        "",
        "",
        set(),
        id="dsml-vllm-two-invokes",
    ),
    pytest.param(
        DSML,
        _FS
        + _dsml(
            "f", ("tags", '["a", "b"]', "false"), ("meta", '{"k": 1}', "false"), ("ratio", "3.14", "false")
        )
        + _FE,
        [("f", {"tags": ["a", "b"], "meta": {"k": 1}, "ratio": 3.14})],
        "",
        "",
        set(),
        id="dsml-vllm-json-values",
    ),
    pytest.param(DSML, "just some text", [], "just some text", "", set(), id="dsml-vllm-no-call"),
    pytest.param(
        M2,
        "Let me check. " + _m2(("get_weather", {"city": "Seattle", "days": "5"})),
        [("get_weather", {"city": "Seattle", "days": 5})],
        "Let me check. ",
        "",
        set(),
        id="m2-vllm-content-before-untyped-5-guessed-a-number-vllm-keeps-the-string",
    ),
    pytest.param(
        M2,
        _m2(("fn_a", {"x": "1"}), ("fn_b", {"y": "2"})),
        [("fn_a", {"x": 1}), ("fn_b", {"y": 2})],
        "",
        "",
        set(),
        id="m2-vllm-two-invokes-in-one-block",
    ),
    pytest.param(
        M3,
        "I will create it.\n" + _m3(_ORDER),
        [
            (
                "f",
                {
                    "user_id": 42,
                    "urgent": True,
                    "note": "Leave it.",
                    "shipping": {"city": "Singapore", "zip": "018956"},
                    "items": {"item": _ITEMS},
                    "duplicate_demo": {"tag": ["a", "b"]},
                },
            )
        ],
        "I will create it.\n",
        "",
        set(),
        id="m3-vllm-nested-repeated-tags-are-arrays",
    ),
    pytest.param(
        M3,
        _m3(_t("user_id", "1"), _t("user_id", "2")),
        [("f", {"user_id": 1}), ("f", {"user_id": 2})],
        "",
        "",
        set(),
        id="m3-vllm-two-invokes",
    ),
    pytest.param(
        M3, f"plain {NS}<tool_ca", [], f"plain {NS}<tool_ca", "", set(), id="m3-vllm-cut-off-start-is-text"
    ),
    pytest.param(
        M3,
        f'plain {NS}<tool_call>\n{NS}<invoke name="f">{_t("user_id", "1")}{NS}</invoke>\n'
        f'{NS}<invoke name="f">{NS}<user_id>2',
        [("f", {"user_id": 1})],
        f'plain \n{NS}<invoke name="f">{NS}<user_id>2',
        "",
        {"truncated-call"},
        id="m3-vllm-second-invoke-cut-off-is-text",
    ),
    pytest.param(
        M3,
        f"{NS}<tool_call>\n{NS}</user_id> after error",
        [],
        f"{NS}<tool_call>\n{NS}</user_id> after error",
        "",
        set(),
        id="m3-vllm-stray-closer-is-text-vllm-drops-the-opener",
    ),
    # (vLLM's Rust parser's own cases, rust/src/tool-parser/src/minimax_m3.rs)
    pytest.param(
        M3,
        f"Let me check. {_m3(_SEATTLE)} This trailing text is ignored.",
        [("f", {"city": "Seattle"})],
        "Let me check.  This trailing text is ignored.",
        "",
        set(),
        id="m3-vllm-rust-text-after-the-block-kept-vllm-drops-it",
    ),
    pytest.param(
        M3,
        _m3(_SEATTLE + "I need to use the city above." + _t("days", "5")),
        [],
        _m3(_SEATTLE + "I need to use the city above." + _t("days", "5")).removesuffix("\n" + _M3_END),
        "",
        {"malformed-call"},
        id="m3-vllm-rust-prose-inside-the-invoke-is-text-vllm-drops-the-rest",
    ),
    pytest.param(
        M3,
        _m3(_t("shape", "\nrectangle\n") + _t("dimensions", '{"width":10}') + _t("precision", "2")),
        [("f", {"shape": "rectangle", "dimensions": {"width": 10}, "precision": 2})],
        "",
        "",
        set(),
        id="m3-vllm-rust-multiline-value-stripped-vllm-keeps-its-newlines",
    ),
    pytest.param(
        M3,
        _m3(_t("payload", "text before " + _t("child", "value") + " text after")),
        [("f", {"payload": f"text before {_t('child', 'value')} text after"})],
        "",
        "",
        set(),
        id="m3-vllm-rust-text-beside-tags-is-the-raw-string-vllm-splits-it-into-text-and-child",
    ),
    pytest.param(
        M3,
        _m3(_SEATTLE).removesuffix(_M3_END) + "  \n",
        [("f", {"city": "Seattle"})],
        "",
        "",
        set(),
        id="m3-vllm-rust-block-closer-lost-after-a-call",
    ),
    pytest.param(
        M3,
        _m3(_SEATTLE)[: -len(_M3_END) + 3],
        [("f", {"city": "Seattle"})],
        "\n]<]",
        "",
        {"truncated-call"},
        id="m3-vllm-rust-cut-off-closer-is-text-vllm-fails",
    ),
    pytest.param(SEED, _SEED_CALL, _BARCELONA, "", "", set(), id="seed-vllm-call"),
    pytest.param(
        SEED,
        "<seed:think>\n</seed:cot_budget_reflect>\nBudget 0.\n</seed:think>\n" + _SEED_CALL,
        _BARCELONA,
        "\n",
        "\n</seed:cot_budget_reflect>\nBudget 0.\n",
        set(),
        id="seed-vllm-think-is-reasoning-vllm-keeps-it-in-content",
    ),
    pytest.param(
        SEED,
        "<seed:think>The format is " + _SEED_CALL + ". Wait.</seed:think>" + _SEED_CALL,
        _BARCELONA,
        "",
        "The format is " + _SEED_CALL + ". Wait.",
        set(),
        id="seed-vllm-call-quoted-in-thought-stays-reasoning",
    ),
    pytest.param(
        HARMONY,
        "<|start|>assistant<|channel|>final<|message|>This is a test<|return|>",
        [],
        "This is a test",
        "",
        set(),
        id="harmony-vllm-final-only",
    ),
    pytest.param(
        HARMONY,
        _ANALYSIS + _h("get_current_weather", '{\n"location": "Tokyo"\n}'),
        [("get_current_weather", {"location": "Tokyo"})],
        "",
        _THOUGHT,
        set(),
        id="harmony-vllm-analysis-then-call",
    ),
    pytest.param(
        HARMONY,
        _ANALYSIS
        + _h("w", _TOKYO)
        + _h("no_content_type", _TOKYO, "")
        + _h("not_json_no_content_type", "{}", "")
        + _h("parse_json", "{}", "")
        + _h("no_args", ""),
        [
            ("w", {"location": "Tokyo"}),
            ("no_content_type", {"location": "Tokyo"}),
            ("not_json_no_content_type", {}),
            ("parse_json", {}),
            ("no_args", {}),
        ],
        "",
        _THOUGHT,
        set(),
        id="harmony-vllm-calls-no-arguments-are-an-object-vllm-sends-nothing",
    ),
    pytest.param(
        HARMONY,
        _ANALYSIS
        + _h("w", _TOKYO)
        + "<|start|>assistant<|channel|>final<|message|>This call gets the weather.<|return|>",
        [("w", {"location": "Tokyo"})],
        "This call gets the weather.",
        _THOUGHT,
        set(),
        id="harmony-vllm-call-then-final",
    ),
    # (llama.cpp tests/chat-parsers/test-seed-oss.cpp)
    pytest.param(
        SEED,
        "<seed:think>Usage 45.</seed:think><seed:cot_budget_reflect>Usage 45.</seed:cot_budget_reflect>"
        "I need to calculate.",
        [],
        "<seed:cot_budget_reflect>Usage 45.</seed:cot_budget_reflect>I need to calculate.",
        "Usage 45.",
        set(),
        id="seed-llama.cpp-budget-reflection-after-the-thought-is-content",
    ),
    pytest.param(
        SEED,
        "<seed:think>I need to call it</seed:think><seed:tool_call>\n<function=f>\n<parameter=arg1>\n"
        "42\n</parameter>\n<parameter=format>\njson\n</parameter>\n</function>\n</seed:tool_call>",
        [("f", {"arg1": 42, "format": "json"})],
        "",
        "I need to call it",
        set(),
        id="seed-llama.cpp-thought-then-call",
    ),
    pytest.param(
        SEED,
        "<seed:think>I was thinking",
        [],
        "",
        "I was thinking",
        set(),
        id="seed-llama.cpp-thought-cut-off",
    ),
    # (V tests/tool_parsers/test_deepseekv4_tool_parser.py)
    pytest.param(
        DSML4,
        "Let me check. " + _TS + _dsml("w", ("location", "Beijing", "true"), ("unit", "c", "true")) + _TE,
        [("w", {"location": "Beijing", "unit": "c"})],
        "Let me check. ",
        "",
        set(),
        id="dsml-v4-vllm-call",
    ),
    pytest.param(
        DSML4,
        _FS + _dsml("search", ("query", "v", "true")) + _FE,
        [("search", {"query": "v"})],
        "",
        "",
        set(),
        id="dsml-v4-function-calls-block-read-too-vllm-v4-keeps-it-as-text",
    ),
    # (V tests/tool_parsers/test_kimi_k3_tool_parser.py: the end-of-turn marker is markup; DESIGN.md
    # §4 agrees, a vocabulary closer ending the message is dropped)
    pytest.param(
        K3,
        "Hello<|close|>message<|sep|>",
        [],
        "Hello",
        "",
        {"orphan-marker"},
        id="k3-vllm-message-closer-at-the-end-dropped",
    ),
]

# (V tests/tool_parsers/test_plamo3_tool_parser.py: the end of turn ends the message; vLLM drops
# what follows it, and the text of a request cut off, or a cut-off marker)
_BEFORE, _ARGS = f"Before tools.{_pl('begin_tool_requests')}", _plamo("sum", '{"a": 1}')
_NAMED = f"{_BEFORE}{_pl('begin_tool_request')}{_pl('begin_tool_name')}sum{_pl('end_tool_name')}"
ROWS += [
    pytest.param(PLAMO, f"Regular response{_EOT}", [], "Regular response", "", {"orphan-marker"},
                 id="plamo-vllm-end-of-turn-dropped"),
    pytest.param(PLAMO, f"Regular response{_EOT}ignored", [], f"Regular response{_EOT}ignored", "", set(),
                 id="plamo-vllm-end-of-turn-glued-to-words-is-text-vllm-drops-the-rest"),
    pytest.param(PLAMO, "Answer<|plamo:begin_", [], "Answer<|plamo:begin_", "", set(),
                 id="plamo-vllm-cut-off-marker-is-text-vllm-drops-it"),
    pytest.param(PLAMO, "Checking the weather." + _requests(_plamo("get_weather", '{"city": "Tokyo"}')),
                 [("get_weather", {"city": "Tokyo"})], "Checking the weather.", "", {"orphan-marker"},
                 id="plamo-vllm-content-then-call"),
    pytest.param(PLAMO, _requests(_plamo("echo", '{"text": "hi"}'), _plamo("sum", '{"a": 1, "b": 2}')),
                 [("echo", {"text": "hi"}), ("sum", {"a": 1, "b": 2})], "", "", {"orphan-marker"},
                 id="plamo-vllm-two-calls"),
    pytest.param(PLAMO, _BEFORE + _pl("begin_tool_request"), [], "Before tools.", "", {"dangling-opener"},
                 id="plamo-vllm-cut-after-the-request-opener"),
    pytest.param(PLAMO, _NAMED, [], _NAMED, "", {"truncated-call"},
                 id="plamo-vllm-cut-after-the-name-is-text-vllm-streams-the-name"),
    pytest.param(PLAMO, _BEFORE + _ARGS.removesuffix(_pl("end_tool_request")), [("sum", {"a": 1})],
                 "Before tools.", "", set(), id="plamo-vllm-closers-lost-after-the-arguments-vllm-drops-it"),
]  # fmt: skip

TYPED: list[Any] = [
    pytest.param(
        DSML,
        _FS + _dsml("f", ("b", "true", "false"), ("n", "42", "false")) + _FE,
        {"b": "boolean", "n": "integer"},
        {"b": True, "n": 42},
        id="dsml-vllm-string-false-typed",
    ),
    pytest.param(
        DSML,
        _FS + _dsml("f", ("n", "42", "true")) + _FE,
        {"n": "integer"},
        {"n": "42"},
        id="dsml-vllm-string-true-stays-a-string-vllm-coerces-it-by-schema",
    ),
    pytest.param(
        DSML,
        _FS + _dsml("f", ("arguments", '{"location":"Beijing"}', "false")) + _FE,
        {"location": "string"},
        {"location": "Beijing"},
        id="dsml-vllm-arguments-wrapper-unwrapped",
    ),
    pytest.param(
        DSML,
        _FS + _dsml("f", ("input", '{"location":"Beijing"}', "true")) + _FE,
        {"location": "string"},
        {"location": "Beijing"},
        id="dsml-vllm-input-wrapper-unwrapped",
    ),
    pytest.param(
        M2,
        _m2(("f", {"s": "Alice", "z": "null", "o": '{"theme": "dark", "size": 14}'})),
        {"s": ["string", "null"], "z": ["string", "null"], "o": ["object", "null"]},
        {"s": "Alice", "z": None, "o": {"theme": "dark", "size": 14}},
        id="m2-vllm-any-of-nullable",
    ),
    pytest.param(
        M3,
        _m3(_ORDER + _RUST_EXTRAS),
        _ORDER_SCHEMA,
        {
            "user_id": 42,
            "urgent": True,
            "note": "Leave it.",
            "shipping": {"city": "Singapore", "zip": 18956},
            "items": _ITEMS,
            "duplicate_demo": {"tag": ["a", "b"]},
            "metadata": {"score": 42, "rank": 7},
            "schema_mismatch_array": [1, 2],
            "unknown_struct": {"a": [1, 2]},
        },
        id="m3-vllm-nested-values-typed-arrays-unwrapped-unknown-guessed-vllm-keeps-strings",
    ),
]

# (SGLang test/srt/function_call/test_unknown_tool_name.py: a call to a tool the request does not
# declare is dropped, its text lost. DESIGN.md §5: a syntax prose can hold keeps it as text, a
# special-token syntax keeps the call; docs/behaviour.md, "Evidence".) The request declares `f`.
_UNKNOWN = '{"name": "unknown_tool", "arguments": {"city": "Paris"}}'
_K = "<|tool_calls_section_begin|><|tool_call_begin|>functions.unknown_tool:0<|tool_call_argument_begin|>"
UNDECLARED: list[Any] = [
    pytest.param("nousresearch/hermes-4-70b", f"Ok <tool_call>{_UNKNOWN}</tool_call>", [],
                 f"Ok <tool_call>{_UNKNOWN}</tool_call>", {"undeclared-tool"},
                 id="hermes-sglang-unknown-tool-stays-text-sglang-drops-it"),
    pytest.param("moonshotai/kimi-k2.5", _K + '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
                 [("unknown_tool", {"city": "Paris"})], "", set(),
                 id="kimi-sglang-unknown-tool-is-a-call-sglang-drops-it"),
]  # fmt: skip
