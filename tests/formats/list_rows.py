"""The damage table of docs/behaviour.md for the marker-then-list syntaxes, as data.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, notice codes that
must be among the notices)`, like `damage_rows.ROWS`; `PARSERS[format]` names the parsers
(the `auto` compositions that contain the syntax included) every row runs through.
"""

from __future__ import annotations

import json

from tests.formats.damage_rows import Expected
from tests.formats.list_bare_rows import BARE_REASONING, BARE_ROWS

PARSERS = {
    "mistral": ("mistral", "special-tokens", "mistral+special-tokens", "qwen+special-tokens"),
    "llama": ("llama", "llama+special-tokens", "llama4+special-tokens", "special-tokens"),
    "lfm2": ("lfm2", "special-tokens", "lfm2+special-tokens", "glm+special-tokens"),
    "gemma": ("gemma", "gemma+special-tokens", "special-tokens"),
    "gemma-stripped": ("gemma", "gemma+special-tokens"),
    "mistral-think": ("mistral", "mistral+special-tokens"),
    "mistral-stripped": ("mistral", "mistral+special-tokens"),
    "mistral-bare": ("mistral", "mistral+special-tokens"),
    "lfm2-bare": ("lfm2", "lfm2+special-tokens"),
    "minimax-m1": ("minimax", "minimax+special-tokens"),
    "gemma-thought": ("gemma", "gemma+special-tokens"),
}
FORMAT = {
    "gemma-stripped": "gemma", "mistral-think": "mistral", "gemma-thought": "gemma",
    "mistral-stripped": "mistral+special-tokens", "mistral-bare": "mistral", "lfm2-bare": "lfm2",
    "minimax-m1": "minimax",
}  # fmt: skip
"""The `--format` a family's rows run under end to end, where it is not the family's name."""
GQ = '<|"|>'


def mistral(name: str, args: str) -> str:
    return f"[TOOL_CALLS]{name}[ARGS]{args}"


def python_tag(name: str, args: str) -> str:
    return f'<|python_tag|>{{"name": "{name}", "parameters": {args}}}'


def lfm2(name: str, args: str) -> str:
    return f"<|tool_call_start|>[{name}({args})]<|tool_call_end|>"


def gemma(name: str, args: str) -> str:
    return f"<|tool_call>call:{name}{{{args}}}<tool_call|>"


def _common(fmt: str) -> dict[str, Expected]:
    """Rows every syntax of the family has, in its own spelling."""
    a1 = {"mistral": '{"k": 1}', "llama": '{"k": 1}', "lfm2": "k=1", "gemma": "k:1"}[fmt]
    spell = {"mistral": mistral, "llama": python_tag, "lfm2": lfm2, "gemma": gemma}[fmt]
    opener = {
        "mistral": "[TOOL_CALLS]",
        "llama": "<|python_tag|>",
        "lfm2": "<|tool_call_start|>",
        "gemma": "<|tool_call>",
    }[fmt]
    tricky = {  # a value whose string holds the syntax's own markers
        "mistral": ('{"k": "[TOOL_CALLS]x[ARGS]{"}', {"k": "[TOOL_CALLS]x[ARGS]{"}),
        "llama": ('{"k": "<|python_tag|>}; {"}', {"k": "<|python_tag|>}; {"}),
        "lfm2": ('k="<|tool_call_end|>)]"', {"k": "<|tool_call_end|>)]"}),
        "gemma": (f"k:{GQ}<tool_call|>}}{GQ}", {"k": "<tool_call|>}"}),
    }[fmt]
    cut = {
        "mistral": '[TOOL_CALLS]f[ARGS]{"a": ',
        "llama": '<|python_tag|>{"name": "f", "parameters": {',
        "lfm2": '<|tool_call_start|>[f(a="',
        "gemma": f"<|tool_call>call:f{{a:{GQ}x",
    }[fmt]
    return {
        "text-after-and-between-calls": (
            f"a {spell('f', a1)} b {spell('g', a1)} c",
            [("f", '{"k": 1}'), ("g", '{"k": 1}')],
            "a  b  c",
            set(),
        ),
        "markers-inside-a-string-are-data": (
            spell("f", tricky[0]),
            [("f", json.dumps(tricky[1]))],
            "",
            set(),
        ),
        "prose-after-opener": (
            f"The {opener} token starts calls.",
            [],
            f"The {opener} token starts calls.",
            set(),
        ),
        "eof-in-call-incomplete": (f"x {cut}", [], f"x {cut}", {"truncated-call"}),
        "eof-dangling-opener": (f"text {opener}  \n", [], "text ", {"dangling-opener"}),
    }


ROWS: dict[str, dict[str, Expected]] = {
    "mistral": {
        **_common("mistral"),
        "eof-after-a-complete-call": ('[TOOL_CALLS]f[ARGS]{"a": 1}', [("f", '{"a": 1}')], "", set()),
        "arguments-not-json-as-written": (
            mistral("f", '{"a": 1,}'),
            [("f", '{"a": 1,}')],
            "",
            {"invalid-arguments"},
        ),
        "pre-v11-array-trailing-text-kept": (
            'Sure.[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5}}, '
            '{"name": "mul", "arguments": {}}] ok',
            [("add", '{"a": 3.5}'), ("mul", "{}")],
            "Sure. ok",
            set(),
        ),
        "pre-v11-not-calls-is-text": (
            '[TOOL_CALLS] [{"nom": "add"}]',
            [],
            '[TOOL_CALLS] [{"nom": "add"}]',
            {"malformed-call"},
        ),
        "v11-call-id-and-no-args-marker": (
            '[TOOL_CALLS]f[CALL_ID]a1B2c3D4e[ARGS]{}[TOOL_CALLS]g{"x": [1]}',
            [("f", "{}"), ("g", '{"x": [1]}')],
            "",
            set(),
        ),
        "v11-name-then-prose-is-text": ("[TOOL_CALLS]f is next", [], "[TOOL_CALLS]f is next", set()),
    },
    "llama": {
        **_common("llama"),
        "several-joined-by-semicolons": (
            'x<|python_tag|>{"name": "f", "parameters": {"a": 1}}; '
            '{"name": "g", "arguments": {}, "parameters": 1}',
            [("f", '{"a": 1}'), ("g", "{}")],
            "x",
            set(),
        ),
        "python-start-pythonic-list": (
            '<|python_start|>[get_weather(location="Dublin, Ireland"), get_time()]<|python_end|> ok',
            [("get_weather", '{"location": "Dublin, Ireland"}'), ("get_time", "{}")],
            " ok",
            set(),
        ),
        "orphan-closer-in-a-sentence": ("a <|python_end|> b", [], "a <|python_end|> b", set()),
        "orphan-closer-after-a-call": (
            "<|python_start|>[f()]<|python_end|>\n<|python_end|> b", [("f", "{}")], "\n b", {"orphan-marker"}
        ),
        "object-without-name-is-text": (
            '<|python_tag|>{"query": "x"}',
            [],
            '<|python_tag|>{"query": "x"}',
            {"malformed-call"},
        ),
        "code-after-python-tag-is-text": (
            "<|python_tag|>import math",
            [],
            "<|python_tag|>import math",
            set(),
        ),
    },
    "lfm2": {
        **_common("lfm2"),
        "exact-echo-after-the-closer-dropped": (
            'a<|tool_call_start|>[f(a="x")]<|tool_call_end|>[f(a="x")] b',
            [("f", '{"a": "x"}')],
            "a b",
            {"echo-dropped"},
        ),
        "other-text-after-the-closer-kept": (
            'a<|tool_call_start|>[f(a="x")]<|tool_call_end|>[f(a="y")] b',
            [("f", '{"a": "x"}')],
            'a[f(a="y")] b',
            set(),
        ),
        "missing-closer-at-eof": (
            "x <|tool_call_start|>[f(a=1)]",
            [("f", '{"a": 1}')],
            "x ",
            {"recovered-call"},
        ),
        "json-list-inside": (
            '<|tool_call_start|>[{"name": "f", "arguments": {"a": 1}}]<|tool_call_end|>',
            [("f", '{"a": 1}')],
            "",
            set(),
        ),
        "orphan-closer-in-a-sentence": ("a <|tool_call_end|> b", [], "a <|tool_call_end|> b", set()),
        "not-a-call-is-text": (
            "<|tool_call_start|>[f(x)]<|tool_call_end|>",
            [],
            "<|tool_call_start|>[f(x)]<|tool_call_end|>",
            {"malformed-call"},
        ),
    },
    "gemma": {
        **_common("gemma"),
        "every-value-type": (
            gemma("f", f"s:{GQ}a, b:{{c}}{GQ},n:42,x:-1.5,t:true,z:null,o:{{k:{GQ}v{GQ}}},l:[1,{GQ}w{GQ}]"),
            [
                (
                    "f",
                    '{"s": "a, b:{c}", "n": 42, "x": -1.5, "t": true, "z": null, '
                    '"o": {"k": "v"}, "l": [1, "w"]}',
                )
            ],
            "",
            set(),
        ),
        "concatenated-calls": (
            "<|tool_call>call:f{}call:g{a:1}<tool_call|><|tool_call>call:h{}<tool_call|>",
            [("f", "{}"), ("g", '{"a": 1}'), ("h", "{}")],
            "",
            set(),
        ),
        "orphan-closer-in-a-sentence": ("a <tool_call|> b", [], "a <tool_call|> b", set()),
        "orphan-closer-after-a-call": (
            "<|tool_call>call:f{}<tool_call|> <tool_call|> b", [("f", "{}")], "  b", {"orphan-marker"}
        ),
        "missing-closer-at-eof": ("x <|tool_call>call:f{a:1}", [("f", '{"a": 1}')], "x ", {"recovered-call"}),
        "keyword-call-spelling": (
            '<|tool_call>call:f(a="x, y", n=2)<tool_call|>',
            [("f", '{"a": "x, y", "n": 2}')],
            "",
            set(),
        ),
    },
    "gemma-stripped": {
        "call-after-punctuation": (
            "Checking.call:get{city:Oslo}", [("get", '{"city": "Oslo"}')], "Checking.", set()
        ),
        "call-at-the-field-start-and-after-spacing": (
            "call:f{a:1} then\ncall:g{}", [("f", '{"a": 1}'), ("g", "{}")], " then\n", set()
        ),
        "call-after-non-ascii-punctuation": ("好。call:f{}", [("f", "{}")], "好。", set()),
        "recall-is-prose": ("I recall:x{a:1} well", [], "I recall:x{a:1} well", set()),
        "call-after-digit-underscore-or-letter-is-prose": (
            "2call:f{} a_call:f{} écall:f{}", [], "2call:f{} a_call:f{} écall:f{}", set()
        ),
        "prose-call-then-a-call": ("recall:x{}.call:f{}", [("f", "{}")], "recall:x{}.", set()),
    },
    "mistral-think": {
        "think-then-answer-then-call": (
            "[THINK]Add 2 and 2.[/THINK]4.[TOOL_CALLS]f[ARGS]{}", [("f", "{}")], "4.", set()
        ),
        "closer-look-alike-inside": ("[THINK]a [/THIN b[/THINK]c", [], "c", set()),
        "markers-inside-reasoning-are-reasoning": ("[THINK]x[TOOL_CALLS]f[ARGS]{}[/THINK]k", [], "k", set()),
        "think-cut-off-at-eof": ("[THINK]Let me", [], "", set()),
        "orphan-closer-in-a-sentence": ("a [/THINK] b", [], "a [/THINK] b", set()),
        "opener-in-a-sentence-takes-the-rest": ("say [THINK] to", [], "say ", set()),
    },
    "gemma-thought": {
        "thought-then-stripped-call": (
            "<|channel>thought\nCheck.<channel|>call:get{city:Oslo}", [("get", '{"city": "Oslo"}')], "", set()
        ),
        "thought-then-call-tokens-then-text": (
            "<|channel>thought\n\nx<channel|><|tool_call>call:f{}<tool_call|>ok", [("f", "{}")], "ok", set()
        ),
        "thought-cut-off-at-eof": ("<|channel>thought\nHm", [], "", set()),
        "thought-without-its-newline": ("<|channel>thoughtHm<channel|>", [], "", set()),
        "thought-opener-at-eof": ("a<|channel>thought", [], "a", set()),
        # (its closer ends the message: a vocabulary token with nothing open, dropped: DESIGN.md §4)
        "other-channel-is-text": ("<|channel>final x<channel|>", [], "<|channel>final x", {"orphan-marker"}),
    },
    **BARE_ROWS,
}
REASONING = {
    **BARE_REASONING,
    ("mistral-think", "think-then-answer-then-call"): "Add 2 and 2.",
    ("mistral-think", "closer-look-alike-inside"): "a [/THIN b",
    ("mistral-think", "markers-inside-reasoning-are-reasoning"): "x[TOOL_CALLS]f[ARGS]{}",
    ("mistral-think", "think-cut-off-at-eof"): "Let me",
    ("mistral-think", "opener-in-a-sentence-takes-the-rest"): " to",
    ("gemma-thought", "thought-then-stripped-call"): "Check.",
    ("gemma-thought", "thought-then-call-tokens-then-text"): "\nx",
    ("gemma-thought", "thought-cut-off-at-eof"): "Hm",
    ("gemma-thought", "thought-without-its-newline"): "Hm",
}
"""The reasoning a row's text gives (the reasoning field), where there is any."""
