"""Issue #34's families on the section, invoke and recipient machines (docs/behaviour.md "Channel and
token syntaxes", "Invoke/parameter XML"): what the reference engines read (FORMATS-2.md §A, §D,
§G; Kimi K2's and DeepSeek V3's own engine cases too), their damage, schema typing, prose that is
not syntax, and `--stream-arguments`. Where DESIGN.md disagrees with the engine, the row's id says
what the engine does instead.

Each row runs under the format `auto` picks for its model id, at every cut (the same result,
nothing lost), and streamed (the same calls, the streaming guarantees); `engine_invoke_rows.py`
adds vLLM's cases for DSML, MiniMax M2/M3 and Seed-OSS.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sse_rewrite.formats import FORMATS, select_format
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import calls, chunkings, codes, every_cut, feed_pieces, reasoning, rejoin, texts
from tests.formats import engine_invoke_rows
from tests.formats.streamed import checked

STEP3, SOLAR, PLAMO = "stepfun-ai/step3", "upstage/Solar-Open-100B", "pfnet/plamo-3-nict-2b-base"
DOTS3, MIMO, MINICPM5 = "dots-studio/dots3-note-prev", "opencode-go/mimo-v2.5", "openbmb/MiniCPM5-2B"
SPARK, GLIMMER = "meta-models/Muse-Spark-Open-816B-A42B-NVFP4", "meta-models/Muse-Glimmer-30B"
BEAM, SOLAR2 = "beam-1.0", "upstage/solar-open-2"
SOLAR2_CALL = "<|tool_call:start|>{}\n".format
SOLAR2_ARG = "<|tool_arg:start|>{}<|tool_arg:value|>{}<|tool_arg:end|>".format
SOLAR2_END = "<|tool_call:end|>"
S3B = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"
S3C = "<｜tool_call_end｜><｜tool_calls_end｜>"
SOLAR_CALL = "<|tool_calls|><|tool_call:begin|>{}<|tool_call:args|>{}<|tool_call:end|><|calls|>".format
BEAM_CALL = "<|start|>assistant to=f<|channel|>analysis{}<|message|>".format
KIMI, DEEPSEEK = "moonshotai/Kimi-K2-Instruct", "deepseek-ai/DeepSeek-V3.1"
KB, KE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
K_CALL = "<|tool_call_begin|>{} <|tool_call_argument_begin|>{}<|tool_call_end|>".format
DB, DE, DC = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>"
DSEP, DCE = "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
D3 = (DC + "function" + DSEP + "{}\n```json\n{}\n```" + DCE).format
D31 = (DC + "{}" + DSEP + "{}" + DCE).format
GB, GE = "<｜GCML｜tool_calls>", "</｜GCML｜tool_calls>"


def _gcml(name: str, *parameters: tuple[str, str, bool]) -> str:
    body = "".join(f'<｜GCML｜parameter name="{k}" string="{str(raw).lower()}">{v}</｜GCML｜parameter>'
                   for k, v, raw in parameters)  # fmt: skip
    return f'<｜GCML｜invoke name="{name}">{body}</｜GCML｜invoke>'


def _plamo(name: str, arguments: str) -> str:
    p = "<|plamo:{}:plamo|>".format
    return (f"{p('begin_tool_requests')}{p('begin_tool_request')}{p('begin_tool_name')}{name}"
            f"{p('end_tool_name')}{p('begin_tool_arguments')}<|plamo:constrain|>json<|plamo:msg|>{arguments}{p('end_tool_arguments')}"
            f"{p('end_tool_request')}{p('end_tool_requests')}")  # fmt: skip


def _atem(*invokes: str) -> str:
    return "<atem:function_calls>\n" + "".join(invokes) + "</atem:function_calls>"


def _ainvoke(name: str, **values: str) -> str:
    body = "".join(f'<atem:parameter name="{k}">{v}</atem:parameter>\n' for k, v in values.items())
    return f'<atem:invoke name="{name}">\n{body}</atem:invoke>\n'


# (model id, text, calls as (name, arguments), text kept, reasoning, notice codes)
Row = tuple[str, str, list[tuple[str, Any]], str, str, set[str]]
ROWS: list[Any] = [
    pytest.param(STEP3, f'A{S3B}<steptml:invoke name="f"><steptml:parameter name="n"> 2 </steptml:parameter>'
                 f'<steptml:parameter name="s">a b</steptml:parameter></steptml:invoke>{S3C}B',
                 [("f", {"n": 2, "s": "a b"})], "AB", "", set(), id="step3-stripped-values"),
    pytest.param(STEP3, f"{S3B}get_weather\n```json\n{{\"city\": \"Oslo\"}}\n```{S3C}",
                 [("get_weather", {"city": "Oslo"})], "", "", set(), id="step3-v3-body-as-deepseek-reads-it"),
    pytest.param(STEP3, f'{S3B}<steptml:invoke name="f"><steptml:parameter name="q">x</steptml:parameter>'
                 "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"g\"></steptml:invoke>"
                 "<｜tool_call_end｜><｜tool_calls_end｜>",
                 [("f", {"q": "x"}), ("g", {})], "", "", {"implicit-close"}, id="step3-call-end-lost"),
    pytest.param(STEP3, '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="get_weather">'
                 '<steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke>'
                 '<｜tool_call_end｜><｜tool_call_begin｜><steptml:invoke name="refresh"></steptml:invoke>'
                 f"{S3C}", [("get_weather", {"city": "Tokyo"}), ("refresh", {})], "", "", set(),
                 id="step3-vllm-tests-without-function"),
    pytest.param(STEP3, f'{S3B}edit_file\n<steptml:invoke name="edit_file"><steptml:parameter name="i"> 4 '
                 f"</steptml:parameter></steptml:invoke>{S3C}", [("edit_file", {"i": 4})], "", "", set(),
                 id="step3-vllm-tests-name-line"),
    pytest.param(STEP3, f'{S3B}<steptml:invoke name="f"><steptml:parameter name="q">a', [],
                 f'{S3B}<steptml:invoke name="f"><steptml:parameter name="q">a', "", {"truncated-call"},
                 id="step3-truncated"),
    # Kimi K2 (vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py; text after a section kept: DESIGN.md §4)
    pytest.param(KIMI, "Compare. " + KB + K_CALL("functions.get_weather:0", '{"city": "Beijing"}')
                 + K_CALL("functions.get_news:1", '{"topic": "tech"}') + KE,
                 [("get_weather", {"city": "Beijing"}), ("get_news", {"topic": "tech"})], "Compare. ", "",
                 set(), id="kimi-k2-vllm-parallel"),
    pytest.param(KIMI, KB + K_CALL("functions.process_html:0", '{"html": "<div>x</div>"}') + KE,
                 [("process_html", {"html": "<div>x</div>"})], "", "", set(),
                 id="kimi-k2-vllm-angle-brackets"),
    pytest.param(KIMI, KB + K_CALL("functions.f:0", '{\n  "name": "t",\n  "value": 123\n}') + KE,
                 [("f", {"name": "t", "value": 123})], "", "", set(), id="kimi-k2-vllm-multiline-json"),
    pytest.param(KIMI, "No prefix. " + KB + K_CALL("get_weather:0", "{}") + KE, [("get_weather", {})],
                 "No prefix. ", "", set(), id="kimi-k2-vllm-no-functions-prefix-empty-arguments"),
    pytest.param(KIMI, KB + K_CALL("functions.invalid.0", "{}") + K_CALL("functions.valid:1", "{}") + KE,
                 [("invalid.0", {}), ("valid", {})], "", "", set(),
                 id="kimi-k2-id-without-counter-is-a-call-vllm-skips-it"),
    pytest.param(KIMI, "Let me check. " + KB + K_CALL("0", '{"city": "Tokyo"}') + KE,
                 [("0", {"city": "Tokyo"})], "Let me check. ", "", set(),
                 id="kimi-k2-bare-counter-named-as-written-vllm-infers-the-tool"),
    # DeepSeek V3 / V3.1 (vLLM tests/tool_parsers/test_deepseekv3_tool_parser.py, test_deepseekv31_...)
    pytest.param(DEEPSEEK, DB + D3("get_weather", '{"city": "Tokyo"}')
                 + D3("search_hotels", '{"location": "Tokyo"}') + DE,
                 [("get_weather", {"city": "Tokyo"}), ("search_hotels", {"location": "Tokyo"})], "", "",
                 set(), id="deepseek-v3-vllm-parallel"),
    pytest.param(DEEPSEEK, "Checking." + DB + D3("send", r'{"t": "He said \"hi\"", "n": "a\nb"}') + DE,
                 [("send", {"t": 'He said "hi"', "n": "a\nb"})], "Checking.", "", set(),
                 id="deepseek-v3-vllm-escaped-strings-text-before"),
    pytest.param(DEEPSEEK, DB + D3("get_current_time", "{}") + DE, [("get_current_time", {})], "", "", set(),
                 id="deepseek-v3-vllm-empty-arguments"),
    pytest.param(DEEPSEEK, DB + "function" + DSEP + "get_weather\n```json\n{}\n```" + DE,
                 [("get_weather", {})], "", "", set(),
                 id="deepseek-v3-call-begin-lost-is-a-call-vllm-reads-none"),
    pytest.param(DEEPSEEK, "pre" + DB + D31("foo", '{"x":1}') + D31("bar", '{"y":2}') + DE + " post",
                 [("foo", {"x": 1}), ("bar", {"y": 2})], "pre post", "", set(),
                 id="deepseek-v31-vllm-two-calls-text-after-kept-vllm-drops-it"),
    pytest.param(DEEPSEEK, "Let me look that up." + DB + "get_weather", [], "Let me look that up." + DB
                 + "get_weather", "", set(), id="deepseek-v31-vllm-cut-off-is-text"),
    # GigaChat 3.5 GCML (vLLM tests/tool_parsers/test_gigachat35_tool_parser.py)
    pytest.param("gigachat3.5", "I will check." + GB + _gcml("get_weather", ("city", "Tokyo", True))
                 + _gcml("get_time", ("tz", "Asia/Tokyo", True)) + GE,
                 [("get_weather", {"city": "Tokyo"}), ("get_time", {"tz": "Asia/Tokyo"})], "I will check.",
                 "", set(), id="gcml-vllm-parallel"),
    pytest.param("gigachat3.5", GB + _gcml("t", ("s", '"hi"', False), ("i", "7", False), ("x", "3.5", False),
                 ("b", "true", False), ("z", "null", False), ("a", "[1, 2]", False),
                 ("o", '{"n": true}', False)) + GE,
                 [("t", {"s": "hi", "i": 7, "x": 3.5, "b": True, "z": None, "a": [1, 2], "o": {"n": True}})],
                 "", "", set(), id="gcml-vllm-json-values"),
    pytest.param("gigachat3.5", GB + _gcml("empty_args") + GE, [("empty_args", {})], "", "", set(),
                 id="gcml-vllm-no-arguments"),
    pytest.param("gigachat3.5", GB + _gcml("e", ("text", r'line 1\n"quoted"', True)) + GE,
                 [("e", {"text": r'line 1\n"quoted"'})], "", "", set(), id="gcml-vllm-raw-string-as-written"),
    pytest.param("gigachat3.5", GB + '<｜GCML｜invoke name="broken">', [],
                 GB + '<｜GCML｜invoke name="broken">', "", {"truncated-call"},
                 id="gcml-vllm-cut-off-invoke-is-text"),
    pytest.param("gigachat3.5", GB + '<｜GCML｜parameter name="x">1</｜GCML｜parameter>', [],
                 GB + '<｜GCML｜parameter name="x">1</｜GCML｜parameter>', "", set(),
                 id="gcml-vllm-parameter-without-invoke-is-text"),
    pytest.param(SOLAR, SOLAR_CALL("get_time", ""),
                 [("get_time", {})], "", "", set(), id="solar-no-id-no-arguments"),
    pytest.param(SOLAR, "Say <|tool_call:name|> and <|tool_call:args|> in prose.", [],
                 "Say <|tool_call:name|> and <|tool_call:args|> in prose.", "", set(),
                 id="solar-frame-tokens-alone"),
    # Solar Open 2 (vLLM solar_open2_tool_parser: raw values typed, a missing end closed by the next start)
    pytest.param(SOLAR2, f"A {SOLAR2_CALL('f')}{SOLAR2_ARG('n', '2')}{SOLAR2_ARG('s', 'a b')}{SOLAR2_END} B",
                 [("f", {"n": 2, "s": "a b"})], "A  B", "", set(), id="solar2-values-guessed"),
    pytest.param(SOLAR2, f"{SOLAR2_CALL('get_time')}{SOLAR2_END}", [("get_time", {})], "", "", set(),
                 id="solar2-no-arguments"),
    pytest.param(SOLAR2, f"{SOLAR2_CALL('f')}{SOLAR2_ARG('a', '1')}{SOLAR2_CALL('g')}{SOLAR2_END}",
                 [("f", {"a": 1}), ("g", {})], "", "", {"implicit-close"},
                 id="solar2-end-missing-next-start"),
    pytest.param(SOLAR2, "Say <|tool_arg:start|> in prose.", [], "Say <|tool_arg:start|> in prose.", "",
                 set(), id="solar2-argument-token-alone"),
    pytest.param(PLAMO, _plamo("ls", ""), [("ls", {})], "", "", set(), id="plamo-empty-arguments"),
    pytest.param(PLAMO, _plamo("f", '{"a": [1, "<|plamo:end_tool_arguments:plamo|>"]}'),
                 [("f", {"a": [1, "<|plamo:end_tool_arguments:plamo|>"]})], "", "", set(),
                 id="plamo-end-in-string"),
    pytest.param("gigachat3.5", '<｜GCML｜tool_calls>\n<｜GCML｜invoke name="f">\n'
                 '<｜GCML｜parameter name="s" string="true">\n a \n</｜GCML｜parameter>\n'
                 '<｜GCML｜parameter name="o" string="false">{"k": 1}'
                 "</｜GCML｜parameter>\n</｜GCML｜invoke>\n</｜GCML｜tool_calls>",
                 [("f", {"s": "\n a \n", "o": {"k": 1}})], "", "", set(), id="gcml-raw-unstripped"),
    pytest.param(DOTS3, "<dots_function_call>\n<invoke name=f>\n<parameter name=a> 1 </parameter>\n"
                 "<parameter name='b'>x y</parameter>\n</invoke>\n<invoke name=\"g\">\n</invoke>\n"
                 "</dots_function_call>", [("f", {"a": 1, "b": "x y"}), ("g", {})], "", "", set(),
                 id="dots3-bare-and-quoted"),
    pytest.param(DOTS3, 'a<dots_function_call>\n{"name": "f", "arguments": {"a": 1}}\n</dots_function_call>b',
                 [("f", {"a": 1})], "ab", "", set(), id="dots3-json-body-as-vllm"),
    pytest.param(DOTS3, "<dots_function_call>{oops}</dots_function_call>", [],
                 "<dots_function_call>{oops}</dots_function_call>", "", {"malformed-call"},
                 id="dots3-json-body-not-a-call-is-text"),
    pytest.param("dots-ocr", "<dots_function_call>\n<invoke name=f>\n</invoke>\n</dots_function_call>", [],
                 "<dots_function_call>\n<invoke name=f>\n</invoke>\n</dots_function_call>", "", set(),
                 id="dots3-not-under-other-ids"),
    pytest.param(MIMO, "<tml:function_calls>\n<invoke name=\"f\">\n<parameter name=\"p\">a.py</parameter>\n"
                 "</invoke>\n</tml:function_calls>\nDone.", [("f", {"p": "a.py"})], "\nDone.", "", set(),
                 id="mimo-tml"),
    pytest.param(MIMO, "<tool_call>\n<function=f>\n<parameter=p>\na.py\n</parameter>\n</function>\n"
                 "</tool_call>",
                 [("f", {"p": "\na.py\n"})], "", "", set(), id="mimo-qwen3-coder-too-values-as-written"),
    pytest.param(MINICPM5, "<function name='f'><param name='c'><![CDATA[x <b>y]]></param></function>"
                 '<function name="g"><param name="n">3</param></function>',
                 [("f", {"c": "x <b>y"}), ("g", {"n": 3})], "", "", set(), id="minicpm5-cdata-back-to-back"),
    pytest.param(MINICPM5, "Write <function name=x> like so.", [], "Write <function name=x> like so.", "",
                 set(),
                 id="minicpm5-prose"),
    pytest.param(MINICPM5, 'a<functionname="f"><paramname="c">x</param></function>b', [("f", {"c": "x"})],
                 "ab", "", set(), id="minicpm5-lost-space-repaired-as-vllm"),
    pytest.param(MINICPM5, 'a<functionĠname="f">Ċ<paramĠname="c">NewĠYorkĊ</param>Ċ</function>b',
                 [("f", {"c": "New York"})], "ab", "", set(),
                 id="minicpm5-byte-level-spelling-decoded-as-vllm"),
    pytest.param(MINICPM5, "ĠHelloĠworld <functionĠs> ĠĊ", [], "ĠHelloĠworld <functionĠs> ĠĊ", "", set(),
                 id="minicpm5-byte-level-prose-stays-as-written"),
    # (llama.cpp tests/test-chat-peg-parser-minicpm5.cpp)
    pytest.param(MINICPM5,
                 "<function name=\"python\"><param name=\"code\">print('Hello, World!')</param></function>",
                 [("python", {"code": "print('Hello, World!')"})], "", "", set(),
                 id="minicpm5-llama.cpp-full-xml"),
    pytest.param(MINICPM5, '<function name="get_current_timestamp"></function>',
                 [("get_current_timestamp", {})], "", "", set(), id="minicpm5-llama.cpp-empty-args"),
    pytest.param(MINICPM5, " name=\"python\"> name=\"code\">print('Hello, World!')", [],
                 " name=\"python\"> name=\"code\">print('Hello, World!')", "", set(),
                 id="minicpm5-stripped-fragments-stay-text-llama.cpp-reads-them"),
    pytest.param(MINICPM5, "<functions> and <functionnamed> stay", [], "<functions> and <functionnamed> stay",
                 "", set(), id="minicpm5-glued-words-are-prose"),
    pytest.param(SPARK, " to=self<|message|>Think.<|eom|><|start|>assistant to=f<|message|>"
                 + _atem(_ainvoke("f", a="1"), _ainvoke("g", b="x"))
                 + "<|eom|><|start|>assistant to=developer"
                 "<|message|>Dev.<|eot|>", [("f", {"a": 1}), ("g", {"b": "x"})], "Dev.", "Think.", set(),
                 id="spark-two-invokes-and-developer-kept"),
    pytest.param(SPARK, "<|start|>assistant to=f<|message|>not atem<|eom|>After.", [],
                 "<|start|>assistant to=f<|message|>not atem<|eom|>After.", "", {"malformed-call"},
                 id="spark-body-not-a-call"),
    pytest.param(SPARK, "<|start|>assistant to=f<|message|>" + _atem(_ainvoke("f", a="x"))
                 + "<|start|>assistant to=user<|message|>Hi.", [("f", {"a": "x"})], "Hi.", "",
                 {"missing-close"},
                 id="spark-end-lost"),
    pytest.param(SPARK, "<|start|>assistant to=f<|message|>" + _atem(_ainvoke("f", a="x")),
                 [("f", {"a": "x"})],
                 "", "", {"recovered-call"}, id="spark-truncated-whole"),
    pytest.param(SPARK, "<|start|>assistant to=f<|message|><atem:function_calls>\n<atem:invoke name=", [],
                 "<|start|>assistant to=f<|message|><atem:function_calls>\n<atem:invoke name=", "",
                 {"truncated-call"}, id="spark-truncated-broken"),
    pytest.param(SPARK, "Set x to=5 and y to=self then <|eom|> ends nothing. to=", [],
                 "Set x to=5 and y to=self then <|eom|> ends nothing. to=", "", set(), id="spark-prose"),
    pytest.param(GLIMMER, " to=self<|message|>R.<|eom|><|start|>assistant<|message|>Answer.<|eot|>", [],
                 "Answer.", "R.", set(), id="glimmer-no-recipient-is-content"),
    pytest.param(BEAM, BEAM_CALL(" <|constrain|>xml") + '<rfl:parameter name="a">'
                 '\n1\n<rfl:parameter name="b">\n x\n</rfl:parameter><|call|>',
                 [("f", {"a": 1, "b": " x"})], "", "", set(), id="beam-closer-lost-and-value-as-written"),
    pytest.param(BEAM, '<|start|>assistant to=f<|channel|>analysis<|message|><rfl:parameter name="a">\n1\n'
                 "</rfl:parameter><|end|><|start|>assistant<|channel|>final<|message|>Ok.<|return|>",
                 [("f", {"a": 1})], "Ok.", "", set(), id="beam-ended-by-end"),
    pytest.param(BEAM, "<|channel|>analysis<|message|>R.<|end|><|channel|>final<|message|>A.<|return|>", [],
                 "A.",
                 "R.", set(), id="beam-channels"),
]  # fmt: skip


def _read(model: str, text: str, **options: Any) -> Any:
    name, _ = select_format(model, "auto")
    assert name is not None
    return FORMATS[name](**options)


@pytest.mark.parametrize(
    ("model", "text", "expected", "kept", "reasoned", "notices"), ROWS + engine_invoke_rows.ROWS
)
def test_rows_read_at_every_cut_and_streamed(
    model: str, text: str, expected: list[tuple[str, Any]], kept: str, reasoned: str, notices: set[str]
) -> None:
    out = every_cut(lambda: _read(model, text), text)
    assert [(name, json.loads(arguments)) for _, name, arguments in calls(out)] == expected
    assert (texts(out), reasoning(out)) == (kept, reasoned)
    assert codes(out) == notices
    streamed = feed_pieces(_read(model, text, stream_arguments=True), list(text))
    assert rejoin(streamed) == text
    assert [c[1:] for c in checked(streamed)[0]] == [c[1:] for c in calls(out)]


def _tools(**properties: str) -> ToolSchemas:
    schema = {"type": "object", "properties": {k: {"type": v} for k, v in properties.items()}}
    return ToolSchemas.read([{"name": "f", "input_schema": schema}])


TYPED: list[Any] = [
    pytest.param(STEP3, f'{S3B}<steptml:invoke name="f"><steptml:parameter name="s">42</steptml:parameter>'
                 '<steptml:parameter name="b">true</steptml:parameter><steptml:parameter name="z">null'
                 f"</steptml:parameter></steptml:invoke>{S3C}", {"s": "42", "b": True, "z": None},
                 id="step3"),
    pytest.param(STEP3, f'{S3B}<steptml:invoke name="f"><steptml:parameter name="s">    if x: '
                 "</steptml:parameter>"
                 f"</steptml:invoke>{S3C}", {"s": "    if x: "}, id="step3-string-keeps-its-spacing"),
    pytest.param(DOTS3, "<dots_function_call>\n<invoke name=f>\n<parameter name=s> 42 </parameter>\n"
                 "<parameter name=b>true</parameter>\n</invoke>\n</dots_function_call>",
                 {"s": "42", "b": True},
                 id="dots3"),
    pytest.param(MINICPM5, '<function name="f"><param name="arguments">{"s": "42", "b": true}</param>'
                 "</function>",
                 {"s": "42", "b": True}, id="minicpm5-arguments-unwrapped"),
    pytest.param(SPARK, "<|start|>assistant to=f<|message|>" + _atem(_ainvoke("f", s="42", b="true"))
                 + "<|eom|>",
                 {"s": "42", "b": True}, id="muse"),
    pytest.param(BEAM, '<|start|>assistant to=f<|channel|>analysis<|message|><rfl:parameter name="s">\n42\n'
                 '</rfl:parameter><rfl:parameter name="b">\ntrue\n</rfl:parameter><|call|>',
                 {"s": "42", "b": True},
                 id="beam"),
]  # fmt: skip


@pytest.mark.parametrize(("model", "text", "expected"), TYPED)
def test_values_take_the_tools_types(model: str, text: str, expected: dict[str, Any]) -> None:
    tools = _tools(s="string", b="boolean", z="null")
    out = every_cut(lambda: _read(model, text, tools=tools), text)
    assert [(name, json.loads(arguments)) for _, name, arguments in calls(out)] == [("f", expected)]


@pytest.mark.parametrize(("model", "text", "properties", "expected"), engine_invoke_rows.TYPED)
def test_engine_values_take_the_tools_types(
    model: str, text: str, properties: dict[str, Any], expected: dict[str, Any]
) -> None:
    schemas = {k: {"anyOf": [{"type": t} for t in v]} if isinstance(v, list) else {"type": v}
               if isinstance(v, str) else v for k, v in properties.items()}  # fmt: skip
    tools = ToolSchemas.read([{"name": "f", "input_schema": {"type": "object", "properties": schemas}}])
    cuts = every_cut if len(text) < 300 else chunkings  # (a long row: whole and the cheap cuts; its
    out = cuts(lambda: _read(model, text, tools=tools), text)  # untyped twin runs every cut)
    assert [(name, json.loads(arguments)) for _, name, arguments in calls(out)] == [("f", expected)]


@pytest.mark.parametrize(("model", "text", "expected", "kept", "notices"), engine_invoke_rows.UNDECLARED)
def test_a_call_to_an_undeclared_tool(
    model: str, text: str, expected: list[tuple[str, Any]], kept: str, notices: set[str]
) -> None:
    out = every_cut(lambda: _read(model, text, tools=_tools(s="string")), text)
    assert [(name, json.loads(arguments)) for _, name, arguments in calls(out)] == expected
    assert texts(out) == kept
    assert notices <= codes(out)


@pytest.mark.parametrize("model", [SPARK, BEAM, STEP3, SOLAR])
def test_a_call_over_the_cap_is_text(model: str) -> None:
    body = "x" * 200
    text = {
        SPARK: f"<|start|>assistant to=f<|message|>{_atem(_ainvoke('f', a=body))}<|eom|>",
        BEAM: f'<|start|>assistant to=f<|channel|>analysis<|message|><rfl:parameter name="a">\n{body}\n'
              "</rfl:parameter><|call|>",
        STEP3: f'{S3B}<steptml:invoke name="f"><steptml:parameter name="a">{body}</steptml:parameter>'
               f"</steptml:invoke>{S3C}",
        SOLAR: SOLAR_CALL("f", f'{{"a": "{body}"}}'),
    }[model]  # fmt: skip
    out = feed_pieces(_read(model, text, max_section_bytes=100), list(text))
    assert calls(out) == []
    assert "section-cap" in codes(out)
    # the raw text comes out; closer tokens that then end the message are orphans, dropped as
    # markup (docs/behaviour.md, "Damage": orphan closers by kind)
    assert rejoin(out) == text
    assert text.startswith(texts(out))
    assert texts(out) == text or model in (STEP3, SOLAR)
