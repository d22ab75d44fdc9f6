"""The marker-then-list rows of calls written without their markers, as the whole answer
(`list_rows.ROWS` holds them with the others): Mistral's v11 calls with their tokens stripped,
and what else is left of Mistral's calls (pre-v11's bare array, llama.cpp's envelope), after
the `[THINK]` reasoning or not; LFM2's pythonic list without its tokens; and MiniMax M1's
`<tool_calls>` block, which prose may also write (MiniMax ids and `--format minimax` only)."""

from __future__ import annotations

from tests.formats.damage_rows import Expected

LONE_CALL = '{"name": "f", "arguments": {}}'
BARE_ROWS: dict[str, dict[str, Expected]] = {
    "mistral-stripped": {
        "one-call-as-the-whole-answer": (
            'bash{"command": "ls -la"}', [("bash", '{"command": "ls -la"}')], "", set()
        ),
        "calls-back-to-back": (
            'bash{"command": "ls"}read_file{"path": "a.txt"}',
            [("bash", '{"command": "ls"}'), ("read_file", '{"path": "a.txt"}')],
            "",
            set(),
        ),
        "spacing-around-kept": (' \nf{"a": 1}\n', [("f", '{"a": 1}')], " \n\n", set()),
        "braces-in-a-sentence-are-text": ("Use dict{} here", [], "Use dict{} here", set()),
        "call-shape-in-a-sentence-is-text": ('see foo{"a":1} and more', [], 'see foo{"a":1} and more', set()),
        "call-then-prose-is-text": ('f{"a": 1} and more', [], 'f{"a": 1} and more', set()),
        "calls-then-prose-is-text": ("f{}g{} ok", [], "f{}g{} ok", set()),
        "arguments-not-json-is-text": ('f{"a": 1,}', [], 'f{"a": 1,}', set()),
        "arguments-not-an-object-is-text": ("f{a: 1}", [], "f{a: 1}", set()),
        "cut-off-at-eof-is-text": ('f{"a": ', [], 'f{"a": ', set()),
        "a-name-alone-is-text": ("bash", [], "bash", set()),
        "digit-first-is-no-name": ("2{}", [], "2{}", set()),
        "tokens-are-still-read": ('[TOOL_CALLS]f[ARGS]{"a": 1}', [("f", '{"a": 1}')], "", set()),
        "stripped-then-tokens": ("f{}[TOOL_CALLS]g[ARGS]{}", [("g", "{}")], "f{}", set()),
    },
    "mistral-bare": {
        "think-then-stripped-call": (
            '[THINK]Plan.[/THINK]bash{"command": "ls"}', [("bash", '{"command": "ls"}')], "", set()
        ),
        "think-then-spacing-then-calls": (
            '[THINK]x[/THINK]\n\nf{}g{"a": 1}', [("f", "{}"), ("g", '{"a": 1}')], "\n\n", set()
        ),
        "think-then-prose": ("[THINK]x[/THINK]Use dict{} here", [], "Use dict{} here", set()),
        "think-then-call-then-prose-is-text": ("[THINK]x[/THINK]f{} ok", [], "f{} ok", set()),
        "think-closer-look-alike-then-call": ("[THINK]a [/THIN b[/THINK]f{}", [("f", "{}")], "", set()),
        "think-cut-off-at-eof": ("[THINK]Let me", [], "", set()),
        "think-after-prose-is-no-answer-start": ("ok [THINK]x[/THINK]f{}", [], "ok f{}", set()),
        "think-then-tokens": ("[THINK]x[/THINK]On it.[TOOL_CALLS]f[ARGS]{}", [("f", "{}")], "On it.", set()),
        "think-then-array": ('[THINK]x[/THINK][{"name": "f", "arguments": {}}]', [("f", "{}")], "", set()),
        "pre-v11-array-as-the-whole-answer": (
            '[{"name": "add", "arguments": {"a": 3.5}}, {"name": "mul", "arguments": {}}]',
            [("add", '{"a": 3.5}'), ("mul", "{}")],
            "",
            set(),
        ),
        "llama-cpp-envelope": (
            '{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}, "id": "abc"}]}',
            [("bash", '{"command": "ls"}')],
            "",
            set(),
        ),
        "a-lone-call-object-is-text": (LONE_CALL, [], LONE_CALL, set()),
        "array-then-prose-is-text": (f"[{LONE_CALL}] ok", [], f"[{LONE_CALL}] ok", set()),
        "array-not-of-calls-is-text": ("[1, 2]", [], "[1, 2]", set()),
        "array-cut-off-at-eof-is-text": ('[{"name": "f", ', [], '[{"name": "f", ', set()),
    },
    "lfm2-bare": {
        "list-as-the-whole-answer": (
            '[get_weather(city="Oslo"), get_time()]',
            [("get_weather", '{"city": "Oslo"}'), ("get_time", "{}")],
            "",
            set(),
        ),
        "spacing-around-kept": (' [f(a="x")]\n', [("f", '{"a": "x"}')], " \n", set()),
        "list-then-prose-is-text": ('[f(a="x")] done', [], '[f(a="x")] done', set()),
        "prose-then-list-is-text": ("Use [f(a=1)] here", [], "Use [f(a=1)] here", set()),
        "list-not-of-calls-is-text": ("[1, 2]", [], "[1, 2]", set()),
        "cut-off-at-eof-is-text": ('[f(a="x"', [], '[f(a="x"', set()),
        "tokens-are-still-read": (
            '<|tool_call_start|>[f(a="x")]<|tool_call_end|>', [("f", '{"a": "x"}')], "", set()
        ),
    },
    "minimax-m1": {
        "json-lines": (
            'Checking.\n<tool_calls>\n{"name": "bash", "arguments": {"command": "ls"}}\n'
            '{"name": "read", "arguments": {"path": "a"}}\n</tool_calls>',
            [("bash", '{"command": "ls"}'), ("read", '{"path": "a"}')],
            "Checking.\n",
            set(),
        ),
        "one-call-then-text": (
            '<tool_calls>{"name": "f", "arguments": {"a": 1}}</tool_calls> ok',
            [("f", '{"a": 1}')],
            " ok",
            set(),
        ),
        "not-a-call-is-text": (
            '<tool_calls>{"x": 1}</tool_calls>', [], '<tool_calls>{"x": 1}</tool_calls>', {"malformed-call"}
        ),
        "opener-in-prose": ("Use <tool_calls> tags.", [], "Use <tool_calls> tags.", set()),
        "missing-closer-at-eof": ('<tool_calls>\n{"name": "f", "arguments": {}}', [("f", "{}")], "", set()),
    },
}
BARE_REASONING = {
    **{("mistral-bare", row): "x" for row in (
        "think-then-spacing-then-calls", "think-then-prose", "think-then-call-then-prose-is-text",
        "think-after-prose-is-no-answer-start", "think-then-tokens", "think-then-array",
    )},
    ("mistral-bare", "think-then-stripped-call"): "Plan.",
    ("mistral-bare", "think-closer-look-alike-then-call"): "a [/THIN b",
    ("mistral-bare", "think-cut-off-at-eof"): "Let me",
}
"""The reasoning a row's text gives, where there is any."""
