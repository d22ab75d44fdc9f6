"""Rows for the channel and token syntaxes (harmony, stripped harmony, Seed-OSS, Kimi K3):
the damage table of docs/behaviour.md and the reference parsers' cases, as data.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, reasoning, notice
codes that must be among the notices)`; `PARSERS[format]` names the parsers every row of
that format runs through (its own `--format` and the `auto` compositions that read it).
"""

from __future__ import annotations

from tests.formats.harmony_rows import HARMONY, STRIPPED, Row

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
    "think-channel-is-reasoning": (
        f"<|open|>think<|sep|>Need <|close|> to list.<|close|>think<|sep|><|open|>response<|sep|>On it."
        f"<|close|>response<|sep|><|open|>tools<|sep|>{_K3_CALL}<|close|>call<|sep|><|close|>tools<|sep|>",
        [("bash", '{"cmd": "ls -la", "n": 3}')],
        "On it.",
        "Need <|close|> to list.",
        set(),
    ),
    "think-skipped-bare-response-close": ("Hi.<|close|>response<|sep|>", [], "Hi.", "", set()),
    "eof-inside-think": ("<|open|>think<|sep|>Still thinking", [], "", "Still thinking", set()),
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
    # the end-of-message closer: dropped where it ends the message, adjoins syntax or stands alone
    # on its line (DESIGN.md §4, vLLM's `kimi_k3` parser); in a sentence or quoted, the text's
    "message-closer-ends-the-message": ("Done.<|close|>message<|sep|>", [], "Done.", "", {"orphan-marker"}),
    "message-closer-then-spacing": (
        "Done.<|close|> message <|sep|> \n", [], "Done. \n", "", {"orphan-marker"},
    ),
    "message-closer-after-a-section": (
        f"<|open|>tools<|sep|>{_K3_CALL}<|close|>call<|sep|><|close|>tools<|sep|>\n<|close|>message<|sep|>Hi",
        [("bash", '{"cmd": "ls -la", "n": 3}')],
        "\nHi",
        "",
        {"orphan-marker"},
    ),
    "message-closer-alone-on-a-line": (
        "Done.\n<|close|>message<|sep|>\nMore.", [], "Done.\n\nMore.", "", {"orphan-marker"},
    ),
    "message-closer-after-the-think-channel": (
        "<|open|>think<|sep|>hm<|close|>think<|sep|>Hi<|close|>message<|sep|>",
        [],
        "Hi",
        "hm",
        {"orphan-marker"},
    ),
    "message-closer-in-a-sentence-is-text": (
        "Write <|close|>message<|sep|> to end. <|close|>message<|sep|><|close|>message<|sep|> too.",
        [],
        "Write <|close|>message<|sep|> to end. <|close|>message<|sep|><|close|>message<|sep|> too.",
        "",
        set(),
    ),
    "message-closer-quoted-is-text": (
        "Like this:\n```\n<|close|>message<|sep|>\n```\nor `<|close|>message<|sep|>`",
        [],
        "Like this:\n```\n<|close|>message<|sep|>\n```\nor `<|close|>message<|sep|>`",
        "",
        set(),
    ),
    # (inside a think channel that never closed it is markup where it ends the message, the
    # reasoning stays reasoning (the model opened it); anywhere else there it is the reasoning's text)
    "message-closer-ends-the-message-inside-the-think-channel": (
        "<|open|>think<|sep|>hm<|close|> message<|sep|>\n", [], "", "hm\n", {"orphan-marker"},
    ),
    "message-closer-in-a-sentence-inside-the-think-channel-is-reasoning": (
        "<|open|>think<|sep|>Write <|close|>message<|sep|>\nto end.", [], "",
        "Write <|close|>message<|sep|>\nto end.", set(),
    ),
}

_READ = '{"path": "a.py"}'
KIMI_STRIPPED: dict[str, Row] = {
    "calls-back-to-back": (
        f"Let me look.functions.read:0{_READ}functions.read:1{{}} done",
        [("read", _READ), ("read", "{}")],
        "Let me look. done",
        "",
        set(),
    ),
    "one-marker-survives": (
        f"x functions.read:8<|tool_call_argument_begin|>{_READ}", [("read", _READ)], "x ", "", set()
    ),
    "name-with-dots": ("functions.mcp.fs.read:3{}", [("mcp.fs.read", "{}")], "", "", set()),
    "prose-after-opener-released-at-once": (
        "call functions.x:0{ in code", [], "call functions.x:0{ in code", "", set()
    ),
    "invalid-json-is-text": ('functions.a:0{"a": 1,} ok', [], 'functions.a:0{"a": 1,} ok', "", set()),
    "object-not-whole-at-eof-is-text": ('functions.a:0{"a": ', [], 'functions.a:0{"a": ', "", set()),
    "no-index-is-text": ("the functions.read{} helper", [], "the functions.read{} helper", "", set()),
    "functions-py-in-prose": (
        "see the functions.py file, one of", [], "see the functions.py file, one of", "", set()
    ),
    "word-start-at-the-end-is-text": ("the functio", [], "the functio", "", set()),
    "inside-a-section-kimi-reads-it": (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}"
        "<|tool_call_end|><|tool_calls_section_end|>",
        [("a", "{}")], "", "", set(),
    ),
}

STRIPPED_WORDS: dict[str, Row] = {
    "marker-fragments-in-reasoning": (
        "analysisThe assistant finally said: commentary to a function.assistantfinalOk",
        [], "Ok", "The assistant finally said: commentary to a function.", set(),
    ),
    "call-after-fragments": (
        'analysisHm: assistant final commentary to=functionsassistantcommentary to=functions.f{"a":1}',
        [("f", '{"a":1}')], "", "Hm: assistant final commentary to=functions", set(),
    ),
    "final-after-a-header-that-never-closed": (  # (read again from after the marker at the end)
        "analysisA.commentary to=functions.xassistantfinalHi", [], "Hi", "A.commentary to=functions.x", set(),
    ),
    "quoted-markers-stay-reasoning": (
        "analysisSay `assistantfinal` or `commentary to=functions.f{}`.assistantfinalOk",
        [], "Ok", "Say `assistantfinal` or `commentary to=functions.f{}`.", set(),
    ),
}
ROWS: dict[str, dict[str, Row]] = {
    "harmony": HARMONY, "gpt-oss": {**STRIPPED, **STRIPPED_WORDS}, "seed": SEED, "kimi-k3": K3,
    "kimi-stripped": KIMI_STRIPPED,
}  # fmt: skip
PARSERS: dict[str, tuple[str, ...]] = {
    "harmony": ("harmony", "special-tokens", "qwen+special-tokens", "gpt-oss+special-tokens"),
    "gpt-oss": ("gpt-oss+special-tokens",),
    "seed": ("seed", "special-tokens", "seed+special-tokens", "glm+special-tokens"),
    "kimi-k3": ("kimi-k3", "special-tokens", "kimi+deepseek"),
    "kimi-stripped": ("kimi+deepseek",),
}
MODELS: dict[str, str] = {
    "harmony": "openai/gpt-oss-20b",
    "gpt-oss": "gpt-oss:120b",
    "seed": "ByteDance-Seed/Seed-OSS-36B-Instruct",
    "kimi-k3": "moonshotai/kimi-k3",
    "kimi-stripped": "moonshotai/Kimi-K2-Instruct-0905",
}
