"""Write the invoke/parameter family's captures: DSML, MiniMax M2 and M3 (deterministic).

    python sse_logs/make_invoke_captures.py
    sse-rewrite diff --update sse_logs/dsml-*.sse sse_logs/minimax-*.sse

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
}


if __name__ == "__main__":
    write_captures({name: (model, chunks, "stop") for name, (model, chunks) in CAPTURES.items()}, {})
