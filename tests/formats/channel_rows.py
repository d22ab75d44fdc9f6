"""Rows for the channel and token syntaxes (harmony, stripped harmony, Seed-OSS, Kimi K3):
the damage table of docs/behaviour.md and the reference parsers' cases, as data.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, reasoning, notice
codes that must be among the notices)`; `PARSERS[format]` names the parsers every row of
that format runs through (its own `--format` and the `auto` compositions that read it).
"""

from __future__ import annotations

Row = tuple[str, list[tuple[str, str]], str, str, set[str]]

CALL = "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
HARMONY: dict[str, Row] = {
    "reference-example": (
        "<|channel|>analysis<|message|>Need to use function get_weather.<|end|>"
        f'{CALL}{{"location":"SF"}}<|call|>',
        [("get_weather", '{"location":"SF"}')],
        "",
        "Need to use function get_weather.",
        set(),
    ),
    "final-is-content": (
        "<|channel|>analysis<|message|>hm<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>",
        [],
        "Hello!",
        "hm",
        set(),
    ),
    "commentary-without-recipient-is-content": (
        "<|channel|>commentary<|message|>Checking.<|end|>",
        [],
        "Checking.",
        "",
        set(),
    ),
    "json-without-constrain-and-start": (
        '<|channel|>commentary to=functions.f json<|message|>{"a": 1}<|call|>',
        [("f", '{"a": 1}')],
        "",
        "",
        set(),
    ),
    "json-glued-to-name": (
        '<|channel|>commentary to=functions.shelljson<|message|>{"c": "ls"}<|call|>',
        [("shell", '{"c": "ls"}')],
        "",
        "",
        set(),
    ),
    "text-around-messages": (
        "a <|channel|>commentary to=functions.f<|message|>{}<|call|> b",
        [("f", "{}")],
        "a  b",
        "",
        set(),
    ),
    "closer-inside-json-string-is-data": (
        '<|channel|>commentary to=functions.f<|message|>{"c": "x<|call|>y"}<|call|>',
        [("f", '{"c": "x<|call|>y"}')],
        "",
        "",
        set(),
    ),
    "closer-in-string-then-header-is-the-close": (
        '<|channel|>commentary to=functions.f<|message|>{"c": "oops}<|call|>'
        "<|start|>assistant<|channel|>final<|message|>after",
        [("f", '{"c": "oops}')],
        "after",
        "",
        {"invalid-arguments"},
    ),
    "closer-in-string-at-eof-is-the-close": (
        '<|channel|>commentary to=functions.f<|message|>{"c": "oops}<|call|>',
        [("f", '{"c": "oops}')],
        "",
        "",
        {"invalid-arguments"},
    ),
    "missing-call-at-eof-recovered": (
        f'{CALL}{{"location": "SF"}}',
        [("get_weather", '{"location": "SF"}')],
        "",
        "",
        {"recovered-call"},
    ),
    "missing-call-before-next-header": (
        f'{CALL}{{"a": 1}}<|start|>assistant<|channel|>final<|message|>ok',
        [("get_weather", '{"a": 1}')],
        "ok",
        "",
        {"missing-close"},
    ),
    "eof-in-call-incomplete": (f'x {CALL}{{"a": ', [], f'x {CALL}{{"a": ', "", {"truncated-call"}),
    "prose-after-opener": (
        "The <|channel|> token names a channel.",
        [],
        "The <|channel|> token names a channel.",
        "",
        set(),
    ),
    "unknown-channel-is-text": (
        "<|channel|>weird<|message|>x",
        [],
        "<|channel|>weird<|message|>x",
        "",
        set(),
    ),
    "orphan-end-is-text": ("a <|end|> b <|return|>", [], "a <|end|> b <|return|>", "", set()),
    "invalid-json-arguments": (
        '<|channel|>commentary to=functions.f<|message|>{"a": 1,}<|call|>',
        [("f", '{"a": 1,}')],
        "",
        "",
        {"invalid-arguments"},
    ),
    "reasoning-at-eof": (
        "<|channel|>analysis<|message|>still thinking <|en",
        [],
        "",
        "still thinking <|en",
        set(),
    ),
}

STRIPPED: dict[str, Row] = {
    "analysis-then-final": (
        "analysisUser says hi.assistantfinalHello!",
        [],
        "Hello!",
        "User says hi.",
        set(),
    ),
    "stripped-call": (
        'analysisNeed weather.assistantcommentary to=functions.get_weather json{"location":"SF"}',
        [("get_weather", '{"location":"SF"}')],
        "",
        "Need weather.",
        set(),
    ),
    "prose-starting-with-analysis": ("analysis of the data", [], "analysis of the data", "", set()),
    "quoted-call-with-invalid-json-is-reasoning": (
        "analysisSee commentary to=functions.f json{oops} there",
        [],
        "",
        "See commentary to=functions.f json{oops} there",
        set(),
    ),
    "tokens-still-read": ("Hi <|channel|>final<|message|>there", [], "Hi there", "", set()),
}

SEED: dict[str, Row] = {
    "reference-example": (
        "hi <seed:tool_call>\n<function=get_weather>\n<parameter=city>\nDallas\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n</function>\n</seed:tool_call> bye",
        [("get_weather", '{"city": "Dallas", "days": 3}')],
        "hi  bye",
        "",
        set(),
    ),
    "doubao-spelling": (
        '<seed:tool_call><function name="exec"><parameter name="action" string="true">42</parameter>'
        '<parameter name="n" string="false">5</parameter></function></seed:tool_call>',
        [("exec", '{"action": "42", "n": 5}')],
        "",
        "",
        set(),
    ),
    "think-to-reasoning": ("<seed:think>plan</seed:think>Answer", [], "Answer", "plan", set()),
    "two-functions-in-one-wrapper": (
        "<seed:tool_call><function=a></function><function=b><parameter=x>y</parameter></function></seed:tool_call>",
        [("a", "{}"), ("b", '{"x": "y"}')],
        "",
        "",
        set(),
    ),
    "unclosed-function-closed-by-wrapper-end": (
        "<seed:tool_call><function=f><parameter=a>1</parameter></seed:tool_call>t",
        [("f", '{"a": 1}')],
        "t",
        "",
        {"implicit-close"},
    ),
    "prose-after-opener": (
        "The <seed:tool_call> tag wraps calls.",
        [],
        "The <seed:tool_call> tag wraps calls.",
        "",
        set(),
    ),
    "orphan-closer-is-text": ("a </seed:tool_call> b", [], "a </seed:tool_call> b", "", set()),
    "eof-in-call-complete-parameters": (
        "<seed:tool_call><function=f><parameter=a>1</parameter>",
        [("f", '{"a": 1}')],
        "",
        "",
        {"recovered-call"},
    ),
    "eof-in-call-incomplete": (
        "x <seed:tool_call><function=f><parameter=a>1",
        [],
        "x <seed:tool_call><function=f><parameter=a>1",
        "",
        {"truncated-call"},
    ),
    "eof-dangling-opener": ("text <seed:tool_call> \n", [], "text ", "", {"dangling-opener"}),
    "malformed-body": (
        "<seed:tool_call><function=a b></function></seed:tool_call>",
        [],
        "<seed:tool_call><function=a b></function></seed:tool_call>",
        "",
        {"malformed-call"},
    ),
}

_K3_CALL = (
    '<|open|>call tool="bash" index="1"<|sep|><|open|>argument key="cmd" type="string"<|sep|>ls -la'
    '<|close|>argument<|sep|><|open|>argument key="n" type="integer"<|sep|>3<|close|>argument<|sep|>'
)
K3: dict[str, Row] = {
    "reference-example": (
        f"Sure.<|open|>tools<|sep|>{_K3_CALL}<|close|>call<|sep|><|close|>tools<|sep|>done",
        [("bash", '{"cmd": "ls -la", "n": 3}')],
        "Sure.done",
        "",
        set(),
    ),
    "response-channel-is-content": (
        "<|open|>response<|sep|>Hello<|close|>response<|sep|>",
        [],
        "Hello",
        "",
        set(),
    ),
    "spaces-inside-markers-and-escapes": (
        '<|open|> tools <|sep|> <|open|> call tool="a&amp;b" index="1" <|sep|>'
        '<|open|> argument key="q&quot;" type="string" <|sep|>x<|close|> argument <|sep|>'
        "<|close|> call <|sep|><|close|> tools <|sep|>",
        [("a&b", '{"q\\"": "x"}')],
        "",
        "",
        set(),
    ),
    "typed-value-not-json-is-raw": (
        '<|open|>call tool="f" index="1"<|sep|><|open|>argument key="x" type="object"<|sep|>'
        '{"a": <|close|>argument<|sep|><|close|>call<|sep|>',
        [("f", '{"x": "{\\"a\\": "}')],
        "",
        "",
        set(),
    ),
    "call-without-section-opener": (
        f"{_K3_CALL}<|close|>call<|sep|>",
        [("bash", '{"cmd": "ls -la", "n": 3}')],
        "",
        "",
        set(),
    ),
    "unclosed-call-closed-by-next-call": (
        f'<|open|>tools<|sep|>{_K3_CALL}<|open|>call tool="b" index="2"<|sep|><|close|>call<|sep|>'
        "<|close|>tools<|sep|>",
        [("bash", '{"cmd": "ls -la", "n": 3}'), ("b", "{}")],
        "",
        "",
        {"implicit-close"},
    ),
    "prose-after-opener": (
        "<|open|>tools<|sep|> opens a section.",
        [],
        "<|open|>tools<|sep|> opens a section.",
        "",
        set(),
    ),
    "unknown-marker-is-text": ("The <|open|> token", [], "The <|open|> token", "", set()),
    "eof-in-call-complete-arguments": (
        f"<|open|>tools<|sep|>{_K3_CALL}",
        [("bash", '{"cmd": "ls -la", "n": 3}')],
        "",
        "",
        {"recovered-call"},
    ),
    "eof-in-call-incomplete": (
        '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="x"<|sep|>1',
        [],
        '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="x"<|sep|>1',
        "",
        {"truncated-call"},
    ),
    "eof-dangling-opener": ("text <|open|>tools<|sep|> ", [], "text ", "", {"dangling-opener"}),
}

ROWS: dict[str, dict[str, Row]] = {"harmony": HARMONY, "gpt-oss": STRIPPED, "seed": SEED, "kimi-k3": K3}
PARSERS: dict[str, tuple[str, ...]] = {
    "harmony": ("harmony", "special-tokens", "qwen+special-tokens", "gpt-oss+special-tokens"),
    "gpt-oss": ("gpt-oss+special-tokens",),
    "seed": ("seed", "special-tokens", "seed+special-tokens", "glm+special-tokens"),
    "kimi-k3": ("kimi-k3", "special-tokens", "kimi+deepseek"),
}
MODELS: dict[str, str] = {
    "harmony": "openai/gpt-oss-20b",
    "gpt-oss": "gpt-oss:120b",
    "seed": "ByteDance-Seed/Seed-OSS-36B-Instruct",
    "kimi-k3": "moonshotai/kimi-k3",
}
