"""The catalogue's index: every syntax sse-rewrite reads, one `Entry` each.

An entry says what a syntax is for a reader and for the conformance suite
(tests/formats/test_catalogue.py): the `--format` whose parser reads it, the model ids that
write it (each picks that syntax under `auto`), whether its markers are read in every
stream, and one leak of it with the calls and the text it holds. The declarations
themselves (markers, spellings, typing) sit in the catalogue's modules, on their machine;
the routing from ids to formats is `routing.FAMILIES`. Adding a syntax adds a row here
(docs/behaviour.md, "Adding the next model's syntax"). Only tests and docs import this
module: the filter's start-up never does.
"""

from __future__ import annotations

from dataclasses import dataclass

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


@dataclass(frozen=True, slots=True)
class Entry:
    """One syntax: its name, family, reader, ids, and one leak of it with what it holds."""

    name: str
    """The syntax (a row of the README's Formats table)."""
    family: str
    """Its grammar family: the machine that reads it (`sections`, `tag`, `invoke`, `list`,
    `channels`, `pythonic`, `bare`)."""
    format: str
    """The `--format` whose parser reads it (a key of `formats.FORMATS`)."""
    ids: tuple[str, ...]
    """Model ids that write it; `auto` reads the syntax under each."""
    example: str
    """A leak: text, calls, text, as one field of a stream holds it."""
    calls: tuple[tuple[str, str], ...]
    """The (name, arguments) of each call the example holds, in order."""
    kept: str
    """The example's text outside the syntax: what stays in its field."""
    reasoning: str = ""
    """The example's text a reasoning channel of the syntax holds."""
    everywhere: bool = False
    """Its markers cannot occur in prose: read under any model id."""


_K = ("<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
      '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>')  # fmt: skip
_D = ("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
      '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>')  # fmt: skip
_CITY: Final = (("get_weather", '{"city": "Paris"}'),)


def _amid(leak: str, gap: str = "") -> tuple[str, tuple[tuple[str, str], ...], str]:
    """An entry's example, calls and kept text, where `leak` holds the one `get_weather` call
    between `Checking.` and `Done.`, with `gap` either side of it."""
    return f"Checking.{gap}{leak}{gap}Done.", _CITY, f"Checking.{gap}{gap}Done."


_K3_SEP: Final = ('tools<|sep|>call tool="get_weather" index="1"<|sep|>argument key="city" type="string"'
                  "<|sep|>Paris argument<|sep|>call<|sep|>tools<|sep|>")
_W: Final = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
"""A JSON call object, as Hermes's tags and the list syntaxes write it."""
_P: Final = '{"name": "get_weather", "parameters": {"city": "Paris"}}'
"""The same with its arguments under `parameters` (Llama's, InternLM's, LongCat-Next's)."""
_QWEN3_CODER: Final = _amid("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
                            "</function>\n</tool_call>", "\n")
_LINES: Final = ('get_weather(city="Paris")\nget_time()', (*_CITY, ("get_time", "{}")), "")  # (Granite's)

ENTRIES: Final[tuple[Entry, ...]] = (
    # Special-token sections and calls (`machines/_sections.py`).
    Entry("Kimi K2", "sections", "kimi", ("moonshotai/kimi-k2.5", "kimi-k2-thinking"), *_amid(_K, " "),
          everywhere=True),
    Entry("DeepSeek V3 / V3.1", "sections", "deepseek", ("deepseek/deepseek-chat-v3.1",), *_amid(_D, " "),
          everywhere=True),
    Entry("Step-3 steptml", "sections", "special-tokens", ("stepfun-ai/step3",),
          *_amid("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"
                 '<steptml:invoke name="get_weather"><steptml:parameter name="city">Paris</steptml:parameter>'
                 "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>", " "), everywhere=True),
    Entry("Solar Open", "sections", "special-tokens", ("upstage/Solar-Open-100B",),
          *_amid("<|tool_calls|><|tool_call:begin|>k3v9x2m7q1<|tool_call:name|>get_weather"
                 '<|tool_call:args|>{"city": "Paris"}<|tool_call:end|><|calls|>', " "), everywhere=True),
    Entry("PLaMo 3", "sections", "special-tokens", ("pfnet/plamo-3-nict-2b-base",),
          *_amid("<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>"
                 "<|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|>"
                 "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>"
                 '{"city": "Paris"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>'
                 "<|plamo:end_tool_requests:plamo|>", " "), everywhere=True),
    # A tag around one body (`machines/tool_call_tag.py`).
    Entry("Hermes / Qwen2.5", "tag", "hermes", ("nousresearch/hermes-4-70b", "qwen/qwen-2.5-72b-instruct"),
          *_amid(f"<tool_call>\n{_W}\n</tool_call>", "\n")),
    Entry("Qwen3-Coder XML", "tag", "qwen3-coder", ("qwen/qwen3-coder",), *_QWEN3_CODER),
    Entry("GLM-4.5 / 4.7", "tag", "glm", ("z-ai/glm-4.6", "zai-org/GLM-4.7"),
          *_amid("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
                 "\n")),
    Entry("Hermes spelling: Granite 4, ERNIE 4.5, Trinity, Kolibri, Bielik", "tag", "hermes",
          ("ibm-granite/granite-4.0-h-small", "baidu/ERNIE-4.5-21B-A3B-Thinking", "arcee-ai/Trinity-Mini",
           "Aleph-Alpha/Kolibri-1", "speakleash/Bielik-11B-v3.0-Instruct"),
          *_amid('<tool_call>\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}\n'
                 "</tool_call>", "\n")),
    Entry("Reka Edge", "tag", "hermes", ("RekaAI/reka-edge-2603",),
          f"Checking.\n<tool_call>\n{_W}</tool_call>Done.", _CITY, "Checking.\nDone."),
    Entry("Qwen3-Coder XML: Step-3.5/3.7/5, Nanbeige, Nemotron 3", "tag", "qwen3-coder",
          ("stepfun-ai/Step-3.5-Flash", "stepfun-ai/Step-3.7-Flash", "stepfun-ai/Step-5-Preview",
           "Nanbeige/Nanbeige4.2-3B", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B"), *_QWEN3_CODER),
    Entry("Qwen3-Coder XML, values as written: MiMo V2", "tag", "mimo-xml+special-tokens",
          ("XiaomiMiMo/MiMo-V2-Flash", "XiaomiMiMo/MiMo-V2.5-Pro"),
          *_amid("<tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n"
                 "</tool_call>", "\n")),
    Entry("GLM-4.7 spelling: Ling 3.0, Laguna, Spark 2.5", "tag", "glm",
          ("inclusionAI/Ling-3.0-flash", "poolside/Laguna-XS.2", "poolside/Laguna-S-2.1",
           "iflytek/Spark-2.5"),
          *_amid("<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>")),
    Entry("LongCat Flash", "tag", "longcat", ("meituan-longcat/LongCat-Flash-Chat",),
          *_amid(f"<longcat_tool_call>\n{_W}\n</longcat_tool_call>", "\n")),
    Entry("LongCat 2601 / Lite", "tag", "longcat",
          ("meituan-longcat/LongCat-Flash-Thinking-2601", "meituan-longcat/LongCat-Flash-Lite"),
          *_amid("<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n"
                 "<longcat_arg_value>Paris</longcat_arg_value>\n</longcat_tool_call>", "\n")),
    Entry("InternLM 2.5 / Intern-S1", "tag", "internlm",
          ("internlm/internlm2_5-7b-chat", "internlm/Intern-S1"),
          *_amid(f"<|action_start|><|plugin|>\n{_P}<|action_end|>"), everywhere=True),
    Entry("Intern-S1 (SGLang spelling)", "tag", "internlm", ("internlm/Intern-S1",),
          *_amid(f"<|action_start|> <|plugin|>\n{_P}<|action_end|>"), everywhere=True),
    Entry("IQuest Q1", "tag", "iquest", (),
          *_amid("<iquest_tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value>"
                 "</iquest_tool_call>")),
    Entry("Hy3", "tag", "hy3", ("tencent/Hy3-preview",),
          "Checking.<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n"
          "<arg_value>Paris</arg_value>\n</tool_call>\n</tool_calls>Done.", _CITY, "Checking.\nDone."),
    Entry("Hy4", "tag", "hy4", ("tencent/Hy4-preview",),
          "Checking.<tool_calls:6124c78e>\n<tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e>"
          "<arg_value:6124c78e>Paris</arg_value:6124c78e></tool_call:6124c78e>\n</tool_calls:6124c78e>Done.",
          _CITY, "Checking.\nDone."),
    Entry("K2 Horizon", "tag", "k2-horizon", ("IFM/K2-Horizon-36B",),
          "Checking.<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
          "<ifm|arg_type>string</ifm|arg_type><ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call>\n"
          "</ifm|tool_calls>Done.", _CITY, "Checking.\nDone."),
    # Invoke/parameter XML (`machines/_invoke.py`).
    Entry("DeepSeek DSML", "invoke", "dsml", ("deepseek/deepseek-v3.2", "deepseek-v4-pro"),
          *_amid('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n'
                 '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n'
                 "</｜DSML｜tool_calls>", "\n"), everywhere=True),
    Entry("MiniMax M2", "invoke", "minimax", ("minimax/minimax-m2.1",),
          *_amid('<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris'
                 "</parameter>\n</invoke>\n</minimax:tool_call>", "\n"), everywhere=True),
    Entry("MiniMax M3", "invoke", "minimax", ("minimax/minimax-m3",),
          *_amid(']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Paris'
                 "]<]minimax[>[</city>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>", "\n"),
          everywhere=True),
    Entry("GigaChat 3.5 GCML", "invoke", "special-tokens", ("gigachat3.5",),
          *_amid('<｜GCML｜tool_calls>\n<｜GCML｜invoke name="get_weather">\n'
                 '<｜GCML｜parameter name="city" string="true">Paris</｜GCML｜parameter>\n</｜GCML｜invoke>\n'
                 "</｜GCML｜tool_calls>", "\n"), everywhere=True),
    Entry("dots3.note", "invoke", "dots3+special-tokens", ("dots-studio/dots3-note-prev",),
          *_amid("<dots_function_call>\n<invoke name=get_weather>\n<parameter name=city>Paris</parameter>\n"
                 "</invoke>\n</dots_function_call>", "\n")),
    Entry("MiMo V2.5 TML", "invoke", "mimo-v2.5+special-tokens", ("opencode-go/mimo-v2.5",),
          *_amid('<tml:function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris'
                 "</parameter>\n</invoke>\n</tml:function_calls>", "\n")),
    Entry("MiniCPM 5", "invoke", "minicpm5+special-tokens",
          ("openbmb/MiniCPM5-1B", "openbmb/MiniCPM5-2B", "minicpm5-2b:latest"),
          *_amid('<function name="get_weather"><param name="city"><![CDATA[Paris]]></param></function>',
                 "\n")),
    # Channels with recipients (`machines/channels.py`) and channel tokens (Seed-OSS, Kimi K3).
    Entry("gpt-oss harmony", "channels", "harmony", ("openai/gpt-oss-120b",),
          "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary "
          'to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>', _CITY, "",
          reasoning="Need the weather.", everywhere=True),
    Entry("Seed-OSS", "channels", "seed", ("bytedance-seed/seed-oss-36b-instruct",),
          *_amid("<seed:tool_call><function=get_weather><parameter=city>Paris</parameter></function>"
                 "</seed:tool_call>"), everywhere=True),
    Entry("Kimi K3 XTML", "invoke", "kimi-k3", ("moonshotai/kimi-k3",),
          *_amid('<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument '
                 'key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|><|close|>'
                 "tools<|sep|>"),
          everywhere=True),
    Entry("Kimi K3 XTML, <|open|>/<|close|> dropped", "invoke", "kimi+deepseek", ("moonshotai/kimi-k3",),
          *_amid(_K3_SEP)),
    Entry("Kimi K3 XTML, <|open|>/<|close|> dropped, under any id (from `<|sep|>call `)", "invoke", "kimi-k3",
          (), f"Checking.{_K3_SEP}Done.", _CITY, "Checking.toolsDone.", everywhere=True),
    Entry("Muse Spark", "channels", "muse-spark+special-tokens",
          ("meta-models/Muse-Spark-Open-816B-A42B-NVFP4", "amd/Muse-Spark-Open-816B-A42B-Quark-MXFP4"),
          " to=self<|message|>Need the weather.<|eom|><|start|>assistant to=get_weather<|message|>"
          '<atem:function_calls>\n<atem:invoke name="get_weather">\n<atem:parameter name="city">Paris'
          "</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>"
          "<|start|>assistant to=user<|message|>Checking.<|eot|>", _CITY, "Checking.",
          reasoning="Need the weather."),
    Entry("Muse Glimmer", "channels", "muse-glimmer+special-tokens", ("meta-models/Muse-Glimmer-30B",),
          " to=self<|message|>Need the weather.<|eom|><|start|>assistant to=get_weather<|message|>"
          '<atem:function_calls><atem:invoke name="get_weather"><atem:parameter name="city">Paris'
          "</atem:parameter></atem:invoke></atem:function_calls><|eom|><|start|>assistant<|message|>"
          "Checking.<|eot|>", _CITY, "Checking.", reasoning="Need the weather."),
    Entry("Beam", "channels", "beam+special-tokens", ("reflection/Beam-1.0-501B-A23B-NVFP4",),
          "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant to=get_weather"
          '<|channel|>analysis <|constrain|>xml<|message|><rfl:parameter name="city">\nParis\n'
          "</rfl:parameter><|call|><|channel|>final<|message|>Checking.<|return|>", _CITY, "Checking.",
          reasoning="Need the weather."),
    # A marker, then a JSON or pythonic list (`machines/_list_machine.py`).
    Entry("Mistral v11", "list", "mistral", ("mistralai/devstral-2512",),
          'Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', _CITY, "Checking.", everywhere=True),
    Entry("Mistral pre-v11", "list", "mistral", ("mistralai/mistral-small-3.1-24b-instruct",),
          f"Checking.[TOOL_CALLS] [{_W}]", _CITY, "Checking.", everywhere=True),
    Entry("Llama 3 JSON", "list", "llama", ("meta-llama/llama-3.3-70b-instruct",),
          f"<|python_tag|>{_P}", _CITY, "", everywhere=True),
    Entry("Llama 4 pythonic", "list", "llama", ("meta-llama/llama-4-maverick",),
          *_amid("<|python_start|>[get_weather(city='Paris')]<|python_end|>"), everywhere=True),
    Entry("LFM2", "list", "lfm2", ("liquid/lfm2-8b-a1b",),
          *_amid('<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>'), everywhere=True),
    Entry("gpt-oss harmony, tokens stripped", "list", "gpt-oss+special-tokens", ("gpt-oss:120b",),
          'analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city": "Paris"}',
          _CITY, "", reasoning="Need the weather."),
    Entry("Kimi K2, tokens stripped", "list", "kimi+deepseek", ("moonshotai/Kimi-K2-Instruct-0905",),
          'Checking.functions.get_weather:0{"city": "Paris"} Done.', _CITY, "Checking. Done."),
    Entry("Gemma 4", "list", "gemma", ("google/gemma-4-31b-it",),
          *_amid('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'), everywhere=True),
    # FORMATS-2.md §C: a marker, then a JSON list (`json_lists.py`).
    Entry("Granite 3.0", "list", "granite", ("ibm-granite/granite-3.0-8b-instruct",),
          f"Checking.<|tool_call|>[{_W}] Done.", _CITY, "Checking. Done.", everywhere=True),
    Entry("Granite 3.1", "list", "granite",
          ("ibm-granite/granite-3.1-8b-instruct", "ibm-granite/granite-3.2-8b-instruct",
           "ibm-granite/granite-3.3-8b-instruct"),
          'Checking.<tool_call>[{"arguments": {"city": "Paris"}, "name": "get_weather"}] Done.', _CITY,
          "Checking. Done."),
    Entry("Jamba 1.5", "list", "tool-calls-list",
          ("ai21labs/AI21-Jamba-1.5-Mini", "ai21labs/AI21-Jamba-1.5-Large"),
          *_amid(f"<tool_calls>[{_W}]</tool_calls>", "\n")),
    Entry("Apriel 1.5 / 1.6", "list", "tool-calls-list",
          ("ServiceNow-AI/Apriel-1.5-15b-Thinker", "ServiceNow-AI/Apriel-1.6-15b-Thinker"),
          f"Checking.\n<tool_calls>[{_W}]</tool_calls>", _CITY, "Checking.\n"),
    Entry("Hunyuan A13B", "list", "tool-calls-list", ("tencent/Hunyuan-A13B-Instruct",),
          f"Checking.\n<tool_calls>[{_W}]</tool_calls>\n", _CITY, "Checking.\n\n"),
    Entry("Nemotron Nano v2 / Llama-Nemotron", "list", "nemotron",
          ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nvidia/Llama-3_3-Nemotron-Super-49B-v1",
           "nvidia/llama-3.3-nemotron-super-49b-v1"), *_amid(f"<TOOLCALL>[{_W}]</TOOLCALL>")),
    Entry("Cohere Command A / R7B", "list", "cohere",
          ("CohereLabs/command-a-reasoning-08-2025", "CohereForAI/c4ai-command-r7b-12-2024"),
          *_amid('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": '
                 '{"city": "Paris"}}]<|END_ACTION|>'), everywhere=True),
    Entry("Command R+", "list", "cohere", ("CohereForAI/c4ai-command-r-plus",),
          *_amid('Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```',
                 "\n")),
    Entry("Phi-4-mini", "list", "functools", ("microsoft/Phi-4-mini-instruct",),
          f"Checking. functools[{_W}]", _CITY, "Checking. "),
    Entry("FireFunction v2", "list", "functools", ("fireworks-ai/llama-3-firefunction-v2",),
          f" functools[{_W}]", _CITY, " "),
    Entry("Apertus", "list", "apertus",
          ("swiss-ai/Apertus-8B-Instruct-2509", "swiss-ai/Apertus-70B-Instruct-2509"),
          *_amid('<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>'), everywhere=True),
    Entry("xLAM bare list", "list", "xlam", ("Salesforce/Llama-xLAM-2-8b-fc-r", "Salesforce/xLAM-1b-fc-r",
          "Salesforce/Qwen-xLAM-32B-fc-r"), f"[{_W}]", _CITY, ""),
    Entry("xLAM fenced list", "list", "xlam", ("Salesforce/Llama-xLAM-2-70b-fc-r",),
          *_amid(f"```json\n[{_W}]\n```", "\n")),
    Entry("LongCat-Next <function_calls> list", "list", "longcat-next+special-tokens",
          ("meituan-longcat/LongCat-Next",),
          *_amid(f"<function_calls>[{_P}]</function_calls>", "\n")),
    # FORMATS-2.md §F: pythonic and call expressions (`pythonic.py`, `lists.py`).
    Entry("Olmo 3", "list", "olmo", ("allenai/Olmo-3-7B-Instruct", "allenai/Olmo-3-32B-Think"),
          'Checking.\n<function_calls>get_weather(city="Paris")\nget_time(tz=null)</function_calls>\nDone.',
          (*_CITY, ("get_time", '{"tz": null}')), "Checking.\n\nDone."),
    Entry("Llama 3.2 / ToolACE pythonic", "list", "llama",
          ("meta-llama/Llama-3.2-3B-Instruct", "Team-ACE/ToolACE-8B"),
          "[get_weather(city='Paris')]", _CITY, ""),
    Entry("Granite 4.0 H-Small call lines", "list", "granite-4-lines+special-tokens",
          ("ibm-granite/granite-4.0-h-small",), *_LINES),
    Entry("Granite 3.3 call lines", "list", "granite-3.3+special-tokens",
          ("ibm-granite/granite-3.3-2b-instruct",), *_LINES),
    Entry("FunctionGemma", "list", "functiongemma", ("google/functiongemma-270m-it", "ai/functiongemma"),
          *_amid("<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>"),
          everywhere=True),
    # FORMATS-2.md §B: a marker, then one JSON call (`one_call.py`).
    Entry("GigaChat 3.1", "list", "special-tokens", ("ai-sage/GigaChat3.1-10B-A1.8B",),
          f"Checking.<|function_call|>{_W}</s>", _CITY, "Checking.", everywhere=True),
    Entry("GigaChat 3", "list", "special-tokens",
          ("ai-sage/GigaChat3-10B-A1.8B", "ai-sage/GigaChat3-702B-A36B-preview"),
          f"Checking.<|message_sep|>\n\nfunction call<|role_sep|>\n{_W}", _CITY, "Checking.",
          everywhere=True),
    Entry("granite-20b-functioncalling", "list", "granite-20b+special-tokens",
          ("ibm-granite/granite-20b-functioncalling",),
          f'Checking. <function_call> {_W} <function_call> {{"name": "get_time", "arguments": {{}}}}',
          (*_CITY, ("get_time", "{}")), "Checking.  "),
    Entry("Functionary v3.1", "list", "functionary+special-tokens", ("meetkai/functionary-medium-v3.1",),
          *_amid('<function=get_weather>{"city": "Paris"}</function>', "\n")),
    Entry("Functionary v3.1, Qwen3-Coder body", "list", "functionary+special-tokens",
          ("meetkai/functionary-small-v3.1",),
          *_amid("<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>", "\n")),
    Entry("Functionary v3.2", "list", "functionary-v3.2+special-tokens", ("meetkai/functionary-small-v3.2",),
          'all\nChecking.>>>get_weather\n{"city": "Paris"}>>>all\nDone.', _CITY, "Checking.Done."),
    Entry("Inkling", "list", "special-tokens", ("thinkingmachines/Inkling-NVFP4",),
          "<|message_model|><|content_thinking|>Need the weather.<|end_message|><|message_model|>get_weather"
          '<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Paris"}}<|end_message|>'
          "<|message_model|><|content_text|>Checking.<|end_message|>", _CITY, "Checking.",
          reasoning="Need the weather.", everywhere=True),
    Entry("Solar Open 2", "sections", "special-tokens", (),
          *_amid("<|tool_call:start|>get_weather\n<|tool_arg:start|>city<|tool_arg:value|>Paris"
                 "<|tool_arg:end|><|tool_call:end|>", " "), everywhere=True),
    # A plain-text convention (`catalogue/lists.py`).
    Entry("TOOL:/ARGUMENTS: text", "bare", "text", (),
          *_amid('TOOL: get_weather\nARGUMENTS: {"city": "Paris"}', "\n")),
)  # fmt: skip
"""Every syntax, grouped by family."""
