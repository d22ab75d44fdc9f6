"""Write the invoke/parameter family's captures: DSML, MiniMax M2 and M3, GCML, dots3, MiMo V2.5,
MiniCPM 5, and the special-token frames (Step-3, Solar Open, PLaMo 3) (deterministic).

    python sse_logs/make_invoke_captures.py
    sse-rewrite diff --update sse_logs/dsml-*.sse sse_logs/minimax-*.sse ...

Same envelope as `make_format_captures.py`; the model text is cut as the models' vocabularies
cut it, one token per chunk: a DSML tag word with its marker (`<｜DSML｜invoke`), M3's
namespace token `]<]minimax[>[`, `<minimax:tool_call>`, words, spacing, punctuation.
"""

from __future__ import annotations

import re
from typing import Any

from make_format_captures import deltas, write_captures

BAR = "｜DSML｜"
NS = "]<]minimax[>["
_TOKEN = re.compile(
    rf"</?(?:{BAR}|{BAR} )?\w+>?|{re.escape(NS)}|</?minimax:tool_call>|/?minimax:tool_call>|\w+|\s+|[^\w\s]"
)


def tokens(text: str) -> list[str]:
    out = _TOKEN.findall(text)
    assert "".join(out) == text
    return out


def content(text: str, field: str = "content") -> list[dict[str, Any]]:
    return deltas(tokens(text), field)


def dsml(mark: str, block: str, *invokes: str) -> str:
    return f"<{mark}{block}>\n" + "".join(invokes) + f"</{mark}{block}>"


V32 = "I'll look up both.\n\n" + dsml(
    BAR, "function_calls",
    f'<{BAR}invoke name="get_weather">\n<{BAR}parameter name="location" string="true">杭州</{BAR}parameter>\n'
    f'<{BAR}parameter name="days" string="false">3</{BAR}parameter>\n</{BAR}invoke>\n',
    f'<{BAR}invoke name="search">\n'
    f'<{BAR}parameter name="query" string="true">west lake "boats"</{BAR}parameter>\n'
    f'<{BAR}parameter name="filters" string="false">{{"lang": ["zh", "en"], "limit": 5}}</{BAR}parameter>\n'
    f"</{BAR}invoke>\n",
)  # fmt: skip
V4_THINK = "<think>The user wants a file listing; run ls.</think>" + dsml(
    BAR, "tool_calls",
    f'<{BAR}invoke name="bash">\n<{BAR}parameter name="command" string="true">ls -la src/</{BAR}parameter>\n'
    f"</{BAR}invoke>\n",
)  # fmt: skip
INSIDE_THINK = "<think>A listing first.\n" + dsml(  # (V4 ends the reasoning at the block)
    BAR, "tool_calls",
    f'<{BAR}invoke name="bash">\n<{BAR}parameter name="command" string="true">ls</{BAR}parameter>\n'
    f"</{BAR}invoke>\n",
)  # fmt: skip
SPACED = f"{BAR} "
V41_RELABELLED = "Reading it now." + dsml(
    SPACED, "calls",
    f'<{SPACED}invoke name="read_file">\n'
    f'<{SPACED}parameter name="path" string="true">README.md</{SPACED}parameter>\n'
    f"</{SPACED}invoke>\n",
)  # fmt: skip
ASCII = " | DSML | "
DAMAGED = (
    f"Two edits.\n<{ASCII}tool_calls\n"  # ASCII bars, the opener's '>' missing
    f'<{ASCII}invoke name="edit">\n'
    f'<{ASCII}parameter name="path" string="true">a.py\n'  # closed by the next parameter
    f'<{ASCII}parameter name="line" string="false">12</{ASCII}parameter>\n</{ASCII}invoke>\n'
    f'<{BAR}invoke name="noop">\n</{BAR}invoke>\n'  # another spelling, no parameters
    f"</{ASCII}tool_calls> Done."
)
MARKERLESS = (
    'Checking the time.\n<function_calls>\n<invoke name="get_time">\n'
    '<parameter name="tz" string="true">Asia/Shanghai</parameter>\n</invoke>\n</function_calls>'
)
IN_REASONING = dsml(
    BAR, "tool_calls",
    f'<{BAR}invoke name="lookup">\n'
    f'<{BAR}parameter name="id" string="false">42</{BAR}parameter>\n</{BAR}invoke>\n',
)  # fmt: skip
M2 = (
    "The user wants the weather in two cities. I'll call the tool twice.\n</think>\n\n"
    '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">\nParis\n</parameter>\n'
    "<parameter name=\"days\">2</parameter>\n</invoke>\n<invoke name='get_weather'>\n"
    "<parameter name='city'>Lyon</parameter>\n</invoke>\n</minimax:tool_call>"
)
M2_BARE = (
    'Status first.\n</think>\nRunning it.\n<invoke name="bash">\n'
    '<parameter name="command">git status</parameter>\n</invoke>'
)
M3 = (
    f'Listing.\n{NS}<tool_call>\n{NS}<invoke name="list_dir">{NS}<dir>docs/</dir>{NS}</invoke>\n'
    f"{NS}</tool_call>"
).replace("</dir>", f"{NS}</dir>")
M3_STRIPPED = (  # the namespace token stripped with the special tokens; `<mm:think>` reasoning
    "<mm:think>The user wants the docs folder.</mm:think>Listing.\n<tool_call>\n"
    '<invoke name="list_dir"><dir>docs/</dir><depth>1</depth></invoke>\n</tool_call>'
)
HASH_CALLS = (  # MiniMax M2.7 through OpenRouter: a wrapper no template defines, Perl-like bodies
    "Creating the folder, then the notes.\n[TOOL_CALL]\n"
    '{tool => "file_toolkit", args => {\n  --operation "create_directory"\n  --path "notes"\n}}\n'
    "[/TOOL_CALL]\n[TOOL_CALL]\n"
    '{tool => "file_toolkit", args => {\n  --operation "write_file"\n  --path "notes/a.md"\n'
    '  --content "# Notes\\n\\n- first"\n}}\n[/TOOL_CALL]'
)
UNANGLED = (  # M2.x writing its tags without `<` and `</`
    "The user wants the files.</think>\n\nListing them.\nminimax:tool_call>\n"
    'invoke name="bash">\nparameter name="command">ls -la/parameter>\n/invoke>\n/minimax:tool_call>'
)

_SPECIAL = re.compile(r"<[|｜][^<>|｜]*[|｜]>|</?[\w:]+|\w+|\s+|[^\w\s]")


def specials(text: str, field: str = "content") -> list[dict[str, Any]]:
    """One delta a token, a special token (`<|tool_call:name|>`, `<｜tool_sep｜>`) being one."""
    out = _SPECIAL.findall(text)
    assert "".join(out) == text
    return deltas(out, field)


GCML = "Checking the forecast.\n" + dsml(
    "｜GCML｜", "tool_calls",
    '<｜GCML｜invoke name="get_weather">\n<｜GCML｜parameter name="city" string="true"> New York </｜GCML｜parameter>\n'
    '<｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>\n</｜GCML｜invoke>\n',
)  # fmt: skip
DOTS3 = (
    "Two lookups.\n<dots_function_call>\n<invoke name=get_weather>\n<parameter name=city>Paris</parameter>\n"
    '<parameter name="days">2</parameter>\n</invoke>\n</dots_function_call>\n<dots_function_call>\n'
    "<invoke name='search'>\n<parameter name='query'>louvre hours</parameter>\n</invoke>\n</dots_function_call>"
)
MIMO_TML = (
    "Let me look.\n<tml:function_calls>\n<invoke name=\"read_file\">\n<parameter name=\"path\">src/app.py"
    "</parameter>\n</invoke>\n</tml:function_calls>"
)
MINICPM5 = (
    'Reading.\n<function name="read_file"><param name="path"><![CDATA[a <b>.py]]>'
    '</param><param name="limit">20</param></function><function name="bash">'
    '<param name="arguments">{"command": "ls"}</param></function>'
)
MINICPM5_BYTE_LEVEL = (  # (a server that leaves byte-level BPE undecoded: `Ġ` a space, `Ċ` a newline)
    'ReadingĠtheĠfile.Ċ<functionĠname="read_file">Ċ<paramĠname="path">myĠnotes.md</param>Ċ</function>'
)
STEP3_CALL = "<｜tool_call_begin｜>function<｜tool_sep｜>"
STEP3 = (
    "Checking both.<｜tool_calls_begin｜>"
    f'{STEP3_CALL}<steptml:invoke name="get_weather"><steptml:parameter name="city">Paris</steptml:parameter>'
    '<steptml:parameter name="days">2</steptml:parameter></steptml:invoke><｜tool_call_end｜>'
    f'{STEP3_CALL}<steptml:invoke name="search"><steptml:parameter name="query">a < b</steptml:parameter>'
    "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"
)
SOLAR_OPEN2 = (
    "Checking both. <|tool_call:start|>get_weather\n<|tool_arg:start|>city<|tool_arg:value|>Seoul"
    "<|tool_arg:end|><|tool_call:end|><|tool_call:start|>get_time\n<|tool_call:end|>"
)
SOLAR_OPEN = (
    "<|tool_calls|><|tool_call:begin|>k3v9x2m7q1<|tool_call:name|>get_weather<|tool_call:args|>"
    '{"city": "Seoul"}<|tool_call:end|><|tool_call:begin|>p0a8r4t6z2<|tool_call:name|>get_time<|tool_call:args|>'
    '{"timezone": "Asia/Seoul"}<|tool_call:end|><|calls|>'
)


def _plamo(word: str) -> str:
    return f"<|plamo:{word}:plamo|>"


PLAMO3 = (
    f"Searching.{_plamo('begin_tool_requests')}{_plamo('begin_tool_request')}{_plamo('begin_tool_name')}search"
    f"{_plamo('end_tool_name')}{_plamo('begin_tool_arguments')}<|plamo:constrain|>json<|plamo:msg|>"
    f'{{"query": "Tokyo <|plamo:msg|> weather"}}{_plamo("end_tool_arguments")}{_plamo("end_tool_request")}'
    f"{_plamo('end_tool_requests')}"
)

CAPTURES = {
    "dsml-v32-parallel": ("deepseek-ai/DeepSeek-V3.2", content(V32)),
    "dsml-v4-think": ("deepseek/deepseek-v4-pro", content(V4_THINK)),
    "dsml-inside-think": ("deepseek-ai/DeepSeek-V4-Flash", content(INSIDE_THINK)),
    "dsml-v41-relabelled": ("gpt-4o", content(V41_RELABELLED)),
    "dsml-damaged": ("my-agent", content(DAMAGED)),
    "dsml-marker-less": ("deepseek-v3.2:cloud", content(MARKERLESS)),
    "dsml-in-reasoning": (
        "deepseek-reasoner",
        [*content(IN_REASONING, "reasoning_content"), {"content": "ok"}],
    ),
    "minimax-m2-think": ("MiniMaxAI/MiniMax-M2.5", content(M2)),
    "minimax-m2-bare": ("minimax/minimax-m2.1", content(M2_BARE)),
    "minimax-hash-calls": (  # (OpenRouter sends the reasoning in its own field)
        "minimax/minimax-m2.7",
        [*content("The user wants notes.", "reasoning"), *content(HASH_CALLS)],
    ),
    "minimax-m3": ("MiniMaxAI/MiniMax-M3", content(M3)),
    "minimax-m3-stripped": ("MiniMaxAI/MiniMax-M3", content(M3_STRIPPED)),
    "minimax-m2-unangled": ("MiniMaxAI/MiniMax-M2.5", content(UNANGLED)),
    "gcml-relabelled": ("gpt-4o", content(GCML)),
    "dots3-blocks": ("dots-studio/dots3-note-prev", content(DOTS3)),
    "mimo-v25-tml": ("opencode-go/mimo-v2.5", content(MIMO_TML)),
    "minicpm5-calls": ("openbmb/MiniCPM5-2B", content(MINICPM5)),
    "minicpm5-byte-level": ("openbmb/MiniCPM5-2B", content(MINICPM5_BYTE_LEVEL)),
    "step3-steptml": ("stepfun-ai/step3", specials(STEP3)),
    "solar-open2-calls": ("upstage/solar-open-2", specials(SOLAR_OPEN2)),
    "solar-open-calls": ("upstage/Solar-Open-100B", specials(SOLAR_OPEN)),
    "solar-open-stream-arguments": ("upstage/Solar-Open-100B", specials(SOLAR_OPEN)),
    "plamo3-call": ("pfnet/plamo-3-nict-2b-base", specials(PLAMO3)),
}
SIDECARS = {"solar-open-stream-arguments": "--stream-arguments"}


if __name__ == "__main__":
    write_captures({name: (model, chunks, "stop") for name, (model, chunks) in CAPTURES.items()}, SIDECARS)
