"""The tag families of FORMATS-2.md §B, §E and §H against the reference engines' own cases, as
data (`test_tag_families.py` runs them).

`REFERENCE[format][row]` is an `Expectation` (text in, calls as (name, arguments), text kept,
notice codes that must be among the notices). Where the engines disagree (§K: text around calls
is kept, a body that is no call stays text) the row follows DESIGN.md, and its id says what the
engine does instead.
"""

from __future__ import annotations

from tests.formats.harness import Expectation


def _call(name: str = "get_weather", arguments: str = '{"city": "Paris"}') -> list[tuple[str, str]]:
    return [(name, arguments)]


_JSON = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
_HT = "<tool_call>\n{}\n</tool_call>"
_FA = '{"name": "final_answer", "arguments": {"trigger": true}}'
_FA_CALL = ("final_answer", '{"trigger": true}')
_LC_KV = "<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Paris</longcat_arg_value>"
_HY = "<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>"
_IFM = "<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Paris</ifm|arg_value>"
_ACT = "<|action_start|><|plugin|>\n"
_QC = (
    "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n"
    "</parameter>\n</function>\n</tool_call>"
)
_IQ = (
    "<iquest_tool_call>run\n<arg_key>count</arg_key> <arg_value>42</arg_value>\n<arg_key>enabled</arg_key>"
    "<arg_value>true</arg_value><arg_key>items</arg_key><arg_value>[1, null]</arg_value></iquest_tool_call>"
)
_IQ_OPEN = "<iquest_tool_call>run<arg_key>count</arg_key><arg_value>1</iquest_tool_call>"
_IQ_CALL = ("run", '{"count": 42, "enabled": true, "items": [1, null]}')
_GLM_DALLAS = (
    "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n"
    "    <arg_key>state</arg_key>\n    <arg_value>TX</arg_value>\n    </tool_call>"
)
_DALLAS = ("get_current_weather", '{"city": "Dallas", "state": "TX"}')
_G47 = "<tool_call>d</tool_call>"
_GLM_INLINE = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"
_hy4_arg = "<arg_key:6124c78e>{}</arg_key:6124c78e><arg_value:6124c78e>{}</arg_value:6124c78e>".format
_hy4_block = "<tool_calls:6124c78e>{}</tool_calls:6124c78e>".format


def _hy4_call(name: str, arguments: str = "") -> str:
    return f"<tool_call:6124c78e>{name}{arguments}</tool_call:6124c78e>"


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
        "reka-calls-back-to-back-text-after-kept": Expectation(
            f"<tool_call>\n{_JSON}</tool_call>\n<tool_call>\n{_JSON}\n</tool_call>Done.",
            _call() * 2,
            "\nDone.",
            set(),
        ),
        "text-between-calls-kept": Expectation(
            f"<tool_call>{_JSON}</tool_call> and <tool_call>{_JSON}</tool_call>", _call() * 2, " and ", set()
        ),
        # (V tests/tool_parsers/test_hermes_tool_parser.py)
        "vllm-plain-text": Expectation("This is not a tool call.", [], "This is not a tool call.", set()),
        "vllm-boolean-value": Expectation(_HT.format(_FA), [_FA_CALL], "", set()),
        "vllm-json-across-lines": Expectation(
            '<tool_call>{"name": "t",\n"arguments": {"location":\n"San Francisco", "unit": "celsius"}}'
            "</tool_call>",
            [("t", '{"location":\n"San Francisco", "unit": "celsius"}')],
            "",
            set(),
        ),
        "vllm-content-then-call": Expectation(
            f"Sure, let me check.<tool_call>{_JSON}</tool_call>", _call(), "Sure, let me check.", set()
        ),
        "vllm-two-calls-back-to-back": Expectation(_HT.format(_JSON) * 2, _call() * 2, "", set()),
        "vllm-until-end-of-input-recovered": Expectation(
            "<tool_call>\n" + _FA, [_FA_CALL], "", {"recovered-call"}
        ),
        "vllm-invalid-json-cut-off-is-text": Expectation(
            "<tool_call>\n" + _FA[:-1], [], "<tool_call>\n" + _FA[:-1], {"truncated-call"}
        ),
        "vllm-object-encoded-twice-unwrapped": Expectation(
            _HT.format('{"name": "f", "arguments": "{\\"p\\": \\"max\\"}"}'),
            [("f", '{"p": "max"}')],
            "",
            set(),
        ),
        "vllm-other-string-arguments-stay-the-json-written": Expectation(
            _HT.format('{"name": "f", "arguments": "[oops"}'), [("f", '"[oops"')], "", set()
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
    "iquest": {  # S iquest_q1 (its IQuestQ1Detector tests): string params raw,
        # a malformed block stays text
        "sglang-text-around-each-call": Expectation(
            f"before{_IQ}between{_IQ}after", [_IQ_CALL] * 2, "beforebetweenafter", set()
        ),
        "sglang-empty-arguments": Expectation(
            "<iquest_tool_call>run</iquest_tool_call>", [("run", "{}")], "", set()
        ),
        "sglang-incomplete-call-at-the-end-stays-text": Expectation(
            f"{_IQ}after<iquest_tool_call>run<arg_key>code</arg_key>",
            [_IQ_CALL],
            "after<iquest_tool_call>run<arg_key>code</arg_key>",
            {"truncated-call"},
        ),
        "sglang-value-left-open-then-the-next-call-stays-text": Expectation(
            f"{_IQ_OPEN}{_IQ}after", [_IQ_CALL], f"{_IQ_OPEN}after", {"malformed-call"}
        ),
        "sglang-between-two-calls": Expectation(
            f"{_IQ}{_IQ_OPEN}{_IQ}", [_IQ_CALL] * 2, _IQ_OPEN, {"malformed-call"}
        ),
        "a-close-in-a-value-then-text-is-the-values": Expectation(
            "<iquest_tool_call>w<arg_key>t</arg_key><arg_value>a</iquest_tool_call> b</arg_value>"
            "</iquest_tool_call>",
            [("w", '{"t": "a</iquest_tool_call> b"}')],
            "",
            set(),
        ),
        "sglang-stop-marker-text-kept": Expectation(
            "查询中。<iquest_tool_call>get_weather\n<arg_key>city</arg_key><arg_value>北京</arg_value>\n"
            "</iquest_tool_call><|iquest_end|>",
            [("get_weather", '{"city": "北京"}')],
            "查询中。<|iquest_end|>",
            set(),
        ),
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
    "hy4": {  # V hy_v4 (tests/tool_parsers/test_hy_v4_tool_parser.py): no separator, every tag suffixed
        "suffixed": Expectation(
            "<tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e>"
            "<arg_value:6124c78e>Paris</arg_value:6124c78e></tool_call:6124c78e>",
            _call(),
            "",
            set(),
        ),
        "vllm-content-before-two-calls-one-without-arguments": Expectation(
            f"sure!{_hy4_block(_hy4_call('get_weather', _hy4_arg('city', '北京')) + _hy4_call('now'))}",
            [("get_weather", '{"city": "北京"}'), ("now", "{}")],
            "sure!",
            set(),
        ),
        "vllm-block-end-missing-call-kept-strict-vllm-gives-content": Expectation(
            "<tool_calls:6124c78e>" + _hy4_call("now"), [("now", "{}")], "", set()
        ),
        "vllm-unbalanced-call-is-text": Expectation(
            _hy4_block("<tool_call:6124c78e>f" + _hy4_arg("city", "X")),
            [],
            _hy4_block("<tool_call:6124c78e>f" + _hy4_arg("city", "X")),
            {"truncated-call"},
        ),
        "vllm-junk-after-arguments-is-text": Expectation(
            _hy4_block("<tool_call:6124c78e>f" + _hy4_arg("city", "X") + "JUNK</tool_call:6124c78e>"),
            [],
            _hy4_block("<tool_call:6124c78e>f" + _hy4_arg("city", "X") + "JUNK</tool_call:6124c78e>"),
            {"malformed-call"},
        ),
        "vllm-empty-name-is-text": Expectation(
            _hy4_block(_hy4_call("")), [], _hy4_block(_hy4_call("")), set()
        ),
        "vllm-spacing-before-the-call": Expectation(
            "hi" + _hy4_block("\n  " + _hy4_call("f", _hy4_arg("city", "Beijing"))),
            [("f", '{"city": "Beijing"}')],
            "hi",
            set(),
        ),
    },
    "hunyuan+special-tokens": {  # (V's Hy4 tests spell the suffix `:opensource`)
        "hy4-vllm-opensource-suffix-without-separator": Expectation(
            "<tool_calls:opensource><tool_call:opensource>f<arg_key:opensource>days</arg_key:opensource>"
            "<arg_value:opensource>3</arg_value:opensource></tool_call:opensource></tool_calls:opensource>",
            [("f", '{"days": 3}')],
            "",
            set(),
        ),
    },
    "qwen3-coder": {  # V tests/tool_parsers/test_qwen3coder_tool_parser.py (no schema: values guessed)
        "vllm-content-before-values-on-their-lines": Expectation(
            f"Sure! Let me check.{_QC}",
            [("get_current_weather", '{"city": "Dallas", "state": "TX"}')],
            "Sure! Let me check.",
            set(),
        ),
        "vllm-parallel": Expectation(
            f"{_QC}\n{_QC}", [("get_current_weather", '{"city": "Dallas", "state": "TX"}')] * 2, "\n", set()
        ),
        "vllm-multiline-object-and-integer": Expectation(
            "<tool_call>\n<function=calculate_area>\n<parameter=dimensions>\n"
            '{"width": 10, \n "height": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n'
            "</function>\n</tool_call>",
            [("calculate_area", '{"dimensions": {"width": 10, \n "height": 20}, "precision": 2}')],
            "",
            set(),
        ),
        "vllm-fallback-without-the-wrapper": Expectation(
            _QC.removeprefix("<tool_call>\n").removesuffix("\n</tool_call>"),
            [("get_current_weather", '{"city": "Dallas", "state": "TX"}')],
            "",
            set(),
        ),
        # (SGLang test/srt/function_call/test_qwen3_coder_detector.py: no </function>, the wrapper's
        # closer closes the call, DESIGN.md §4's section end; before, the call was malformed text)
        "sglang-function-closed-by-the-wrapper": Expectation(
            "Thought: calling weather. <tool_call><function=get_weather><parameter=city>Shanghai</parameter>"
            "<parameter=unit>celsius</parameter></tool_call>",
            [("get_weather", '{"city": "Shanghai", "unit": "celsius"}')],
            "Thought: calling weather. ",
            {"implicit-close"},
        ),
    },
    "mimo-xml+special-tokens": {  # V tests/tool_parsers/test_mimov2_flash_tool_parser.py: values as written
        "vllm-content-before": Expectation(
            "Here is the result:\n<tool_call>\n<function=execute_bash>\n<parameter=command>pwd && ls"
            "</parameter>\n</function>\n</tool_call>",
            [("execute_bash", '{"command": "pwd && ls"}')],
            "Here is the result:\n",
            set(),
        ),
        "vllm-two-parameters": Expectation(
            '<tool_call>\n<function=run>\n<parameter=language>python</parameter>\n<parameter=code>print("hi")'
            "</parameter>\n</function>\n</tool_call>",
            [("run", '{"language": "python", "code": "print(\\"hi\\")"}')],
            "",
            set(),
        ),
        "vllm-no-parameters": Expectation(
            "<tool_call>\n<function=noop>\n</function>\n</tool_call>", [("noop", "{}")], "", set()
        ),
        "vllm-multiline-value-as-written": Expectation(
            "<tool_call>\n<function=f>\n<parameter=p>one\ntwo\n</parameter>\n</function>\n</tool_call>",
            [("f", '{"p": "one\\ntwo\\n"}')],
            "",
            set(),
        ),
        "parameter-before-function-is-text-vllm-reads-list-files": Expectation(
            "<tool_call>\n<parameter=command>ls</parameter>\n<function=list_files>\n</function>\n</tool_call>",
            [("list_files", "{}")],
            "<tool_call>\n<parameter=command>ls</parameter>\n",
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
    "glm": {  # Laguna: GLM-4.5 with and without newlines; Spark 2.5: null, booleans, integers;
        # V tests/tool_parsers/test_glm4_moe_tool_parser.py, test_glm47_moe_… (the vllm- rows)
        "vllm-4.7-inline-no-arguments": Expectation(_G47, [("d", "{}")], "", set()),
        "vllm-4.7-spacing-kept-vllm-drops-it": Expectation(f" \n {_G47}", [("d", "{}")], " \n ", set()),
        "vllm-4.7-two-calls-one-line": Expectation(_GLM_INLINE * 2, _call() * 2, "", set()),
        "vllm-indented-two-calls": Expectation(
            f"{_GLM_DALLAS}\n    {_GLM_DALLAS}", [_DALLAS] * 2, "\n    ", set()
        ),
        "vllm-content-before": Expectation(f"I will help.{_GLM_DALLAS}", [_DALLAS], "I will help.", set()),
        "vllm-no-arguments": Expectation(
            "<tool_call>get_current_time\n</tool_call>", [("get_current_time", "{}")], "", set()
        ),
        "vllm-text-between-calls-kept-vllm-keeps-only-the-text-before": Expectation(
            f"Info.\n\n{_GLM_DALLAS}\n\nAlso Orlando.\n\n{_GLM_DALLAS}",
            [_DALLAS] * 2,
            "Info.\n\n\n\nAlso Orlando.\n\n",
            set(),
        ),
        "vllm-key-never-closed-is-text": Expectation(
            "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b\n<arg_value>2</arg_value>\n</tool_call>",
            [],
            "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b\n<arg_value>2</arg_value>\n</tool_call>",
            {"malformed-call"},
        ),
        "closer-missing-at-the-end-recovered-vllm-keeps-the-text": Expectation(
            _GLM_DALLAS.removesuffix("</tool_call>"), [_DALLAS], "", {"recovered-call"}
        ),
        "laguna-newlines": Expectation(
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
            _call(),
            "",
            set(),
        ),
        "a-value-left-open-then-the-next-call-stays-text": Expectation(
            "<tool_call>f<arg_key>a</arg_key><arg_value>1</tool_call>\n<tool_call>g</tool_call>",
            [("g", "{}")],
            "<tool_call>f<arg_key>a</arg_key><arg_value>1</tool_call>\n",
            {"malformed-call"},
        ),
        "spark-guessed-types": Expectation(
            "<tool_call>f<arg_key>a</arg_key><arg_value>null</arg_value><arg_key>b</arg_key>"
            "<arg_value>true</arg_value><arg_key>c</arg_key><arg_value>12</arg_value></tool_call>",
            [("f", '{"a": null, "b": true, "c": 12}')],
            "",
            set(),
        ),
        # (llama.cpp tests/test-chat.cpp: GLM-4.7-Flash, Spark 2.5 and Ling 3.0 templates)
        "llama.cpp-spark-cjk-json-values-and-no-arguments": Expectation(
            "Preparing.<tool_call>m<arg_key>name</arg_key><arg_value>上海</arg_value></tool_call>"
            '<tool_call>n<arg_key>tags</arg_key><arg_value>["alpha", "测试"]</arg_value></tool_call>'
            "<tool_call>e</tool_call>",
            [("m", '{"name": "上海"}'), ("n", '{"tags": ["alpha", "测试"]}'), ("e", "{}")],
            "Preparing.",
            set(),
        ),
        "llama.cpp-ling-marker-like-strings-in-a-value-and-text-after": Expectation(
            "<tool_call>t\n<arg_key>q</arg_key>\n<arg_value>contains </think> and <tool_call> strings"
            "</arg_value>\n</tool_call>\nThe time has been checked.",
            [("t", '{"q": "contains </think> and <tool_call> strings"}')],
            "\nThe time has been checked.",
            set(),
        ),
        "llama.cpp-ling-end-of-turn-spelled-out-dropped": Expectation(
            "<tool_call>e</tool_call><|role_end|>Done.<|role_end|>", [("e", "{}")], "Done.", {"orphan-marker"}
        ),
        "ling-end-of-turn-in-a-sentence-is-text": Expectation(
            "Write <|role_end|> to end a turn.", [], "Write <|role_end|> to end a turn.", set()
        ),
    },
}
