"""Write the captures of the marker-then-list syntaxes (deterministic: same bytes every run).

    python sse_logs/make_list_captures.py

Same envelope as `make_format_captures.py` (OpenRouter chunks, finish, usage, DONE), but
tokenized as providers stream these models: each special token (`[TOOL_CALLS]`, `[ARGS]`,
`<|tool_call>`, `<|"|>`...) in a chunk of its own, other text a few characters at a time.
"""

from __future__ import annotations

import re
from typing import Any

from make_format_captures import Captures, deltas, tokens, write_captures

SPECIAL = re.compile(
    r'(\[TOOL_CALLS\]|\[ARGS\]|\[CALL_ID\]|\[/?THINK\]|<\|[a-z_"]+\|>|<\|tool_call>|<tool_call\|>|<\|channel>|<channel\|>'
    r"|<\|[A-Z_]+\|>|<start_function_call>|<end_function_call>|<escape>)"
)


def provider_tokens(text: str) -> list[str]:
    """`text` as a provider streams it: special tokens whole, the rest in small pieces."""
    out: list[str] = []
    for part in SPECIAL.split(text):
        out += [part] if SPECIAL.fullmatch(part) else tokens(part)
    return out


def field(text: str, name: str = "content") -> list[dict[str, Any]]:
    return deltas(provider_tokens(text), name)


MISTRAL_V11 = (
    "I'll list the files and read the README.[TOOL_CALLS]bash[ARGS]{\"command\": \"ls -la\"}"
    '[TOOL_CALLS]read_file[CALL_ID]a1B2c3D4e[ARGS]{"path": "README.md", "limit": 40}'
)
MISTRAL_PRE_V11 = (
    'Let me add them.[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, '
    '{"name": "multiply", "arguments": {"a": 2, "b": [1, 2]}}]'
)
LLAMA3_TAG = (
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Dublin", "unit": "celsius"}}; '
    '{"name": "get_time", "parameters": {"timezone": "Europe/Dublin"}}'
)
LLAMA3_BARE = '{"name": "search", "parameters": {"query": "sse-rewrite {braces} \\"quotes\\""}}'
LLAMA4_PYTHONIC = (
    '[get_weather(location="Dublin, Ireland", date="2025-04-14"), get_time(tz=None, verbose=True)]'
)
LFM2 = (
    'Checking the weather.<|tool_call_start|>[get_weather(city="Oslo", days=3)]<|tool_call_end|>'
    '[get_weather(city="Oslo", days=3)] Done.'
)
GEMMA4 = (
    "<|tool_call>call:get_weather{location:<|\"|>Paris, France<|\"|>,days:2,metric:true}<tool_call|>"
    '<|tool_call>call:search{query:<|"|>museums {open} "late"<|"|>,filters:{free:false},tags:[<|"|>art<|"|>]}'
    "<tool_call|>"
)
GEMMA4_STRIPPED = "Let me check.call:get_weather{location:Paris,days:2}"
MAGISTRAL_THINK = (
    "[THINK]The user wants the files listed. I'll call bash with ls.[/THINK]"
    'Listing the files.[TOOL_CALLS]bash[ARGS]{"command": "ls -la"}'
)
MAGISTRAL_THINK_STRIPPED = (
    "[THINK]The user wants the files listed. I'll call bash with ls.[/THINK]"
    '\nbash{"command": "ls -la"}'
)
DEVSTRAL_ENVELOPE = (
    '{"tool_calls": [{"name": "bash", "arguments": {"command": "ls -la"}, "id": "call_8f2a"}]}'
)
LFM2_STRIPPED = '[get_weather(location="Paris, France", days=2)]'  # (its two tokens stripped by default)
MINIMAX_M1 = (  # M2 with M1's chat template
    "I'll check both cities.\n<tool_calls>\n"
    '{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
    '{"name": "get_weather", "arguments": {"city": "Lyon"}}\n</tool_calls>'
)
GEMMA4_THOUGHT = (
    "<|channel>thought\nParis weather: call get_weather for two days.<channel|>"
    "<|tool_call>call:get_weather{location:<|\"|>Paris, France<|\"|>,days:2}<tool_call|>"
)

# FORMATS-2.md §C and §F (the serving engines' syntaxes)
GRANITE_30 = (
    "I'll look both up.<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Boston\"}}, "
    '{"arguments": {"timezone": "America/New_York"}, "name": "get_time"}]'
)
GRANITE_31 = '<tool_call>[{"name": "search", "arguments": {"query": "granite [3.1] release"}}]\nSearching now.'
JAMBA = (
    "Checking the forecast.\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Haifa\"}}]"
    "</tool_calls>"
)
APRIEL = (
    '<tool_calls>[{"name": "read_file", "arguments": {"path": "notes.md"}}, '
    '{"name": "list_dir", "arguments": {"path": "."}}]</tool_calls>'
)
HUNYUAN_A13B = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Shenzhen"}}]</tool_calls>'
NEMOTRON = (  # (the list's brackets left out, as Nemotron sometimes writes it)
    '<TOOLCALL>{"name": "get_weather", "arguments": {"city": "Santa Clara"}}, '
    '{"name": "get_time", "arguments": "{\\"timezone\\": \\"PST\\"}"}</TOOLCALL>'
)
COHERE = (
    "I will search for that.<|START_ACTION|>[\n"
    '    {"tool_call_id": "0", "tool_name": "web_search", "parameters": {"query": "Cohere Command A"}}\n'
    "]<|END_ACTION|>"
)
COMMAND_R_PLUS = (
    "Plan: I will look up the weather.\nAction: ```json\n[\n    {\n        \"tool_name\": \"get_weather\",\n"
    '        "parameters": {"city": "Toronto"}\n    }\n]\n```'
)
PHI4_MINI = (  # (a list inside the arguments: vLLM's `functools\[(.*?)\]` stops at its `]`)
    'functools[{"name": "sum_numbers", "arguments": {"numbers": [1, 2, 3]}}]'
)
FIREFUNCTION = ' functools[{"name": "get_stock_price", "arguments": {"symbol": "NVDA"}}]'
APERTUS = (  # (the suffix is optional: this one ends without it)
    'Let me check.<|tools_prefix|>[{"get_weather": {"city": "Zurich"}}, {"get_time": {"tz": "CET"}}]'
)
XLAM_BARE = '[{"name": "get_weather", "arguments": {"location": "San Francisco", "unit": "fahrenheit"}}]'
XLAM_FENCED = (
    'Here you go:\n```json\n[{"name": "search_hotels", "arguments": {"city": "Paris", "max_price": 200}}]\n'
    "```\nI'll report back."
)
OLMO3 = (
    "Let me check both.\n<function_calls>get_weather(city=\"Seattle\", unit='celsius')\n"
    "get_time(timezone=\"America/Los_Angeles\", dst=true, offset=null)</function_calls>"
)
LLAMA32_PYTHONIC = "[get_weather(city='San Francisco', metric=True), get_time(tz=\"PST\")]"
FUNCTIONGEMMA = (
    "<start_function_call>call:set_alarm{time:<escape>07:30<escape>,repeat:<escape>true<escape>,"
    "label:<escape>wake up, {gently}<escape>}<end_function_call>"
)
FUNCTIONARY_V32 = (  # (the prompt ended with `>>>`: the first message starts at its header)
    "all\nI'll check the weather first.>>>get_weather\n{\"city\": \"Oslo\", \"unit\": \"celsius\"}"
    ">>>all\nChecking now."
)
GRANITE_LINES = 'get_weather(location="San Francisco", unit="celsius")\nget_time(timezone="PST")'
GRANITE33_LINES = (  # (after its reasoning, inside its answer wrapper)
    "<think>Two lookups: the weather, then the time.</think><response>"
    'get_weather(location="Austin", unit="fahrenheit")\nget_time(timezone="CST")</response>'
)
FUNCTIONARY_V31 = (  # (the JSON body, then Qwen3-Coder's parameter body under the same opener)
    'Checking both.\n<function=get_weather>{"city": "Oslo", "unit": "celsius"}</function>\n'
    "<function=get_time>\n<parameter=timezone>\nEurope/Oslo\n</parameter>\n</function>"
)
GRANITE_20B = (
    'Looking it up. <function_call> {"name": "get_weather", "arguments": {"city": "Nairobi"}} '
    '<function_call> {"name": "get_time", "arguments": {"timezone": "EAT"}}'
)
GIGACHAT31 = 'Сейчас узнаю.<|function_call|>{"name": "get_weather", "arguments": {"city": "Москва"}}</s>'
GIGACHAT3 = '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_time", "arguments": {"timezone": "MSK"}}'
INKLING = (
    "<|message_model|><|content_thinking|>Need the weather first.<|end_message|><|message_model|>get_weather"
    '<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Lisbon"}}<|end_message|>'
    "<|message_model|><|content_text|>Checking Lisbon.<|end_message|>"
)
LONGCAT_NEXT = (
    "Let me check both.\n<function_calls>[{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Hangzhou\"}}, "
    '{"name": "get_time", "parameters": {"timezone": "Asia/Shanghai"}}]</function_calls>'
)

CAPTURES: Captures = {
    "mistral-v11-calls": ("mistralai/devstral-2512", field(MISTRAL_V11), "stop"),
    "mistral-pre-v11-array": ("mistralai/mistral-7b-instruct-v0.3", field(MISTRAL_PRE_V11), "stop"),
    "mistral-v11-stream-arguments": ("mistralai/devstral-2512", field(MISTRAL_V11), "stop"),
    "mistral-v11-under-alias": ("my-agent", field(MISTRAL_V11), "stop"),
    "llama3-python-tag": ("meta-llama/llama-3.1-8b-instruct", field(LLAMA3_TAG), "stop"),
    "llama3-bare-json": ("meta-llama/llama-3.3-70b-instruct", field(LLAMA3_BARE), "stop"),
    "llama4-pythonic": ("meta-llama/llama-4-scout", field(LLAMA4_PYTHONIC), "stop"),
    "lfm2-echo": ("liquid/lfm2-8b-a1b", field(LFM2), "stop"),
    "lfm2-in-reasoning": ("liquid/lfm2-8b-a1b", field(LFM2, "reasoning"), "stop"),
    "gemma4-tool-calls": ("google/gemma-4-31b-it", field(GEMMA4), "stop"),
    "gemma4-stripped": ("google/gemma-4-31b-it", field(GEMMA4_STRIPPED), "stop"),
    "magistral-think": ("mistralai/magistral-small-2509", field(MAGISTRAL_THINK), "stop"),
    "gemma4-thought": ("google/gemma-4-31b-it", field(GEMMA4_THOUGHT), "stop"),
    "magistral-think-stripped": ("mistralai/magistral-small-2509", field(MAGISTRAL_THINK_STRIPPED), "stop"),
    "devstral-llama-cpp-envelope": ("mistralai/devstral-small-2507", field(DEVSTRAL_ENVELOPE), "stop"),
    "lfm2-stripped": ("LiquidAI/LFM2-1.2B-Tool", field(LFM2_STRIPPED), "stop"),
    "minimax-m1-tool-calls": (  # (OpenRouter sends the reasoning in its own field)
        "minimax/minimax-m2.1", field("The user wants two cities.", "reasoning") + field(MINIMAX_M1), "stop"
    ),
    "granite-30-tool-call": ("ibm-granite/granite-3.0-8b-instruct", field(GRANITE_30), "stop"),
    "granite-30-under-alias": ("my-agent", field(GRANITE_30), "stop"),
    "granite-31-tool-call": ("ibm-granite/granite-3.1-8b-instruct", field(GRANITE_31), "stop"),
    "jamba-tool-calls": ("ai21labs/AI21-Jamba-1.5-Mini", field(JAMBA), "stop"),
    "apriel-tool-calls": ("ServiceNow-AI/Apriel-1.5-15b-Thinker", field(APRIEL), "stop"),
    "hunyuan-a13b-tool-calls": ("tencent/Hunyuan-A13B-Instruct", field(HUNYUAN_A13B), "stop"),
    "nemotron-toolcall": ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", field(NEMOTRON), "stop"),
    "cohere-start-action": ("CohereLabs/command-a-reasoning-08-2025", field(COHERE), "stop"),
    "command-r-plus-action": ("CohereForAI/c4ai-command-r-plus", field(COMMAND_R_PLUS), "stop"),
    "phi4-mini-functools": ("microsoft/Phi-4-mini-instruct", field(PHI4_MINI), "stop"),
    "firefunction-functools": ("fireworks-ai/llama-3-firefunction-v2", field(FIREFUNCTION), "stop"),
    "apertus-tools-prefix": ("swiss-ai/Apertus-8B-Instruct-2509", field(APERTUS), "stop"),
    "xlam-bare-list": ("Salesforce/Llama-xLAM-2-8b-fc-r", field(XLAM_BARE), "stop"),
    "xlam-fenced-list": ("Salesforce/Qwen-xLAM-32B-fc-r", field(XLAM_FENCED), "stop"),
    "olmo3-function-calls": ("allenai/Olmo-3-7B-Instruct", field(OLMO3), "stop"),
    "llama32-pythonic": ("meta-llama/Llama-3.2-3B-Instruct", field(LLAMA32_PYTHONIC), "stop"),
    "functiongemma-call": ("google/functiongemma-270m-it", field(FUNCTIONGEMMA), "stop"),
    "functiongemma-stream-arguments": ("google/functiongemma-270m-it", field(FUNCTIONGEMMA), "stop"),
    "functionary-v32-recipients": ("meetkai/functionary-small-v3.2", field(FUNCTIONARY_V32), "stop"),
    "granite-4-h-small-call-lines": ("ibm-granite/granite-4.0-h-small", field(GRANITE_LINES), "stop"),
    "granite-33-call-lines": ("ibm-granite/granite-3.3-8b-instruct", field(GRANITE33_LINES), "stop"),
    "functionary-v31-both-bodies": ("meetkai/functionary-medium-v3.1", field(FUNCTIONARY_V31), "stop"),
    "granite-20b-function-call": ("ibm-granite/granite-20b-functioncalling", field(GRANITE_20B), "stop"),
    "gigachat31-function-call": ("ai-sage/GigaChat3.1-10B-A1.8B", field(GIGACHAT31), "stop"),
    "inkling-blocks": ("thinkingmachines/Inkling-NVFP4", field(INKLING), "stop"),
    "gigachat3-role-header": ("ai-sage/GigaChat3-10B-A1.8B", field(GIGACHAT3), "stop"),
    "longcat-next-function-calls": ("meituan-longcat/LongCat-Next", field(LONGCAT_NEXT), "stop"),
}
SIDECARS = {"mistral-v11-stream-arguments": "--stream-arguments", "functiongemma-stream-arguments": "--stream-arguments"}


if __name__ == "__main__":
    write_captures(CAPTURES, SIDECARS)
