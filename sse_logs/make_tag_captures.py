"""Write the captures of the tag families of FORMATS-2.md §B, §E, §H (deterministic: same bytes every run).

    python sse_logs/make_tag_captures.py

Same envelope and tokenizing as `make_format_captures.py` (OpenRouter chunks a few characters
each, so markers split mid-way; finish, usage, DONE), under each syntax's model id.
"""

from __future__ import annotations

from make_format_captures import Captures, content, deltas, tokens, write_captures

GRANITE4 = (
    "Checking both.\n<tool_call>\n"
    '{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}\n</tool_call>\n<tool_call>\n'
    '{"name": "search", "arguments": {"query": "a </tool_call> in a string"}}\n</tool_call>\nDone.'
)
STEP35 = (
    "Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n"
    "<parameter=content>\n# Notes\n</parameter>\n</function>\n</tool_call>"
)
LING3 = (
    "On it.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Oslo</arg_value>"
    "<arg_key>days</arg_key><arg_value>2</arg_value></tool_call>"
)
LONGCAT_FLASH = (
    'Looking.\n<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n'
    "</longcat_tool_call>"
)
LONGCAT_2601 = (
    "Looking.\n<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n"
    "<longcat_arg_value>Lima</longcat_arg_value>\n</longcat_tool_call>"
)
# InternLM's tokens are read under any id (a gateway alias), each special token in a chunk of its own.
INTERNLM = ["Let me search.", "<|action_start|>", "<|plugin|>", "\n",
            *tokens('{"name": "search", "parameters": {"query": "tides"}}'), "<|action_end|>"]  # fmt: skip
HY3 = (
    "Two lookups.\n<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n"
    "<arg_value>Seoul</arg_value>\n</tool_call>\n<tool_call>get_time<tool_sep></tool_call>\n</tool_calls>"
)
K2_HORIZON = (
    "Checking.<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
    "<ifm|arg_value>Rome</ifm|arg_value></ifm|tool_call>\n</ifm|tool_calls>"
)
IQUEST = (  # (its prompt opens <think>: only the closer comes)
    "The user wants Hanoi's weather.</think>Looking.<iquest_tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Hanoi</arg_value>"
    "<arg_key>days</arg_key><arg_value>3</arg_value></iquest_tool_call>"
)
HY4 = (
    "Checking.<tool_calls:6124c78e>\n<tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e>"
    "<arg_value:6124c78e>Chengdu</arg_value:6124c78e></tool_call:6124c78e>\n</tool_calls:6124c78e>"
)
MIMO_V2 = (  # (values as written: the newline inside the value is its own)
    "Writing.\n<tool_call>\n<function=write_file>\n<parameter=path>notes.md</parameter>\n"
    "<parameter=content>line one\nline two\n</parameter>\n</function>\n</tool_call>"
)
REKA_EDGE = 'Weather for Accra.</think>\nOn it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Accra"}}</tool_call>Done.'
INTERN_S1 = ["Searching.", "<|action_start|>", " ", "<|plugin|>", "\n",
             *tokens('{"name": "search", "parameters": {"query": "tides"}}'), "<|action_end|>"]  # fmt: skip

CAPTURES: Captures = {
    "granite4-hermes": ("ibm-granite/granite-4.0-h-small", content(GRANITE4), "stop"),
    "step35-qwen3-coder": ("stepfun-ai/step-3.5-flash", content(STEP35), "stop"),
    "ling3-glm47": ("inclusionai/ling-3.0-flash", content(LING3), "stop"),
    "longcat-flash-json": ("meituan-longcat/longcat-flash-chat", content(LONGCAT_FLASH), "stop"),
    "longcat-2601-key-value": ("meituan-longcat/longcat-flash-thinking-2601", content(LONGCAT_2601), "stop"),
    "internlm-plugin": ("my-agent", deltas(INTERNLM), "stop"),
    "hy3-block": ("tencent/hy3-preview", content(HY3), "stop"),
    "k2-horizon-block": ("ifm/k2-horizon-36b", content(K2_HORIZON), "stop"),
    "hy3-stream-arguments": ("tencent/hy3-preview", content(HY3), "stop"),
    "iquest-q1-call": ("iquest/iquest-q1", content(IQUEST), "stop"),
    "hy4-suffixed-block": ("tencent/hy4-preview", content(HY4), "stop"),
    "mimo-v2-verbatim-values": ("xiaomimimo/mimo-v2-flash", content(MIMO_V2), "stop"),
    "reka-edge-hermes": ("rekaai/reka-edge-2603", content(REKA_EDGE), "stop"),
    "intern-s1-sglang-spelling": ("internlm/intern-s1", deltas(INTERN_S1), "stop"),
}
SIDECARS = {"hy3-stream-arguments": "--stream-arguments"}


if __name__ == "__main__":
    write_captures(CAPTURES, SIDECARS)
