"""Rows for gpt-oss harmony and its stripped form (see `channel_rows`)."""

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
    # a recipient ends at a control token: one glued to the name is the header's own
    "channel-again-glued-to-name": (
        "<|start|>assistant<|channel|>commentary to=functions.get_weather"
        '<|channel|>commentary <|constrain|>json<|message|>{"a":1}<|call|>',
        [("get_weather", '{"a":1}')],
        "",
        "",
        set(),
    ),
    "channel-again-without-type": (
        'x <|channel|>commentary to=functions.f<|channel|>commentary<|message|>{"a":1}<|call|>',
        [("f", '{"a":1}')],
        "x ",
        "",
        set(),
    ),
    "channel-again-not-harmony-is-text": (
        "<|channel|>commentary to=functions.f<|channel|>nope<|message|>{}<|call|>",
        [],
        "<|channel|>commentary to=functions.f<|channel|>nope<|message|>{}<|call|>",
        "",
        set(),
    ),
    "constrain-glued-to-name": (
        '<|start|>assistant<|channel|>commentary to=functions.f<|constrain|>json<|message|>{"a":1}<|call|>',
        [("f", '{"a":1}')],
        "",
        "",
        set(),
    ),
    "space-in-name-runs-to-the-next-marker": (  # (a recipient runs to the next marker: issue #35)
        '<|channel|>commentary to=functions.get weather <|constrain|>json<|message|>{"a":1}<|call|>',
        [("get weather", '{"a":1}')],
        "",
        "",
        set(),
    ),
    "message-glued-to-name": (
        '<|start|>assistant<|channel|>commentary to=functions.f<|message|>{"a":1}<|call|>',
        [("f", '{"a":1}')],
        "",
        "",
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
