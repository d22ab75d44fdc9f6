"""DSML's damage rows and spellings as data (docs/behaviour.md, "Damage"), as in `damage_rows`:
`(text in, calls as (name, arguments), text kept, notice codes that must be among the notices)`."""

from __future__ import annotations

from tests.formats.damage_rows import Expected
from tests.formats.invoke_text import BAR, dsml, invoke

F = invoke("f", ("a", "1", None))
G = invoke("g", ("b", "x", "true"))
OPEN = f"<{BAR}tool_calls>"
A1 = '{"a": 1}'
BX = '{"b": "x"}'

DSML_ROWS: dict[str, Expected] = {
    "text-after-and-between-blocks": (f"a {dsml(F)} b {dsml(G)} c", [("f", A1), ("g", BX)], "a  b  c", set()),
    "parallel-invokes-in-one-block": (dsml(F, G), [("f", A1), ("g", BX)], "", set()),
    "v3.2-function-calls": (dsml(F, block="function_calls"), [("f", A1)], "", set()),
    "v4.1-space-after-marker": (
        dsml(invoke("f", ("a", "1", None), mark="｜DSML｜ "), mark="｜DSML｜ ", block="calls"),
        [("f", A1)],
        "",
        set(),
    ),
    "doubled-bars": (
        dsml(invoke("f", ("a", "1", None), mark="｜｜DSML｜｜"), mark="｜｜DSML｜｜"),
        [("f", A1)],
        "",
        set(),
    ),
    "double-vertical-line": (
        dsml(invoke("f", ("a", "1", None), mark="‖DSML‖"), mark="‖DSML‖"),
        [("f", A1)],
        "",
        set(),
    ),
    "ascii-bars": (
        dsml(invoke("f", ("a", "1", None), mark=" | DSML | "), mark=" | DSML | "),
        [("f", A1)],
        "",
        set(),
    ),
    "block-opener-missing-its-angle": (dsml(F).replace(">", "", 1), [("f", A1)], "", set()),
    "mixed-marked-and-plain-tags": (
        f'{OPEN}<invoke name="f"><parameter name="a" string="false">1</{BAR}parameter></invoke></tool_calls>',
        [("f", A1)],
        "",
        set(),
    ),
    "parameter-closed-by-the-next-parameter": (
        dsml(
            f'<{BAR}invoke name="f">\n<{BAR}parameter name="a">1\n'
            f'<{BAR}parameter name="b">x y\n</{BAR}invoke>'
        ),
        [("f", '{"a": 1, "b": "x y"}')],
        "",
        set(),
    ),
    "parameter-closed-by-the-invoke-closer": (
        dsml(f'<{BAR}invoke name="f"><{BAR}parameter name="b" string="true">x</{BAR}invoke>'),
        [("f", BX)],
        "",
        set(),
    ),
    "string-true-closed-by-the-next-tag-loses-only-the-separating-line-end": (
        dsml(
            f'<{BAR}invoke name="f">\n<{BAR}parameter name="s" string="true">x\n\n'
            f'<{BAR}parameter name="t" string="true">y\r\n</{BAR}invoke>'
        ),
        [("f", '{"s": "x\\n", "t": "y"}')],
        "",
        set(),
    ),
    "invoke-closer-inside-a-value-is-data": (
        dsml(invoke("f", ("s", f"a</{BAR}invoke> b", "true"), ("t", "</invoke>\n", "true"))),
        [("f", f'{{"s": "a</{BAR}invoke> b", "t": "</invoke>\\n"}}')],
        "",
        set(),
    ),
    "invoke-closer-ends-an-open-value-before-a-tag-or-the-end": (
        dsml(f'<{BAR}invoke name="f"><{BAR}parameter name="b">x</{BAR}invoke>\n', G)
        + f'{OPEN}<{BAR}invoke name="f"><{BAR}parameter name="b">x</{BAR}invoke> \n',
        [("f", BX), ("g", BX), ("f", BX)],
        "",
        set(),
    ),
    "fenced-toolcall": (
        f'Checking.\n<{BAR}toolcall>get_weather\n```json\n{{"city": "x"}}\n```\nDone.',
        [("get_weather", '{"city": "x"}')],
        "Checking.\n\nDone.",
        set(),
    ),
    "fenced-toolcall-with-a-closer-and-ascii-bars": (
        f"< | DSML | toolcall> f \n\n```\n{A1}\n```</ | DSML | toolcall>",
        [("f", A1)],
        "",
        {"orphan-marker"},
    ),
    "fenced-toolcall-in-prose": (
        f"The <{BAR}toolcall> tag, then\nmore.",
        [],
        f"The <{BAR}toolcall> tag, then\nmore.",
        set(),
    ),
    "fenced-toolcall-not-json": (
        f"<{BAR}toolcall>f\n```json\nnot json\n``` ok",
        [],
        f"<{BAR}toolcall>f\n```json\nnot json\n``` ok",
        {"malformed-call"},
    ),
    "fenced-toolcall-eof-recovered": (
        f"<{BAR}toolcall>f\n```json\n{A1}\n",
        [("f", A1)],
        "",
        {"recovered-call"},
    ),
    "json-object-body": (dsml(f'<{BAR}invoke name="f">{{"a": 1}}</{BAR}invoke>'), [("f", A1)], "", set()),
    "invoke-without-parameters": (dsml(invoke("f")), [("f", "{}")], "", set()),
    "string-true-is-byte-exact": (
        dsml(invoke("f", ("s", " 3 \n", "true"), ("t", '"q"', "true"))),
        [("f", '{"s": " 3 \\n", "t": "\\"q\\""}')],
        "",
        set(),
    ),
    "string-false-is-json-or-the-raw-string": (
        dsml(invoke("f", ("n", "[1, 2]", "false"), ("o", "{oops", "false"))),
        [("f", '{"n": [1, 2], "o": "{oops"}')],
        "",
        set(),
    ),
    "untyped-values-follow-the-typing-rule": (
        dsml(invoke("f", ("n", "3", None), ("s", "three", None), ("b", "true", None))),
        [("f", '{"n": 3, "s": "three", "b": true}')],
        "",
        set(),
    ),
    "single-quoted-names": (
        dsml(f"<{BAR}invoke name='f'><{BAR}parameter name='a'>1</{BAR}parameter></{BAR}invoke>"),
        [("f", A1)],
        "",
        set(),
    ),
    "unclosed-invoke-closed-by-the-next-invoke": (
        dsml(F.removesuffix(f"</{BAR}invoke>") + G),
        [("f", A1), ("g", BX)],
        "",
        {"implicit-close"},
    ),
    "unclosed-invoke-closed-by-the-block-closer": (
        dsml(F.removesuffix(f"</{BAR}invoke>")) + " ok",
        [("f", A1)],
        " ok",
        {"implicit-close"},
    ),
    "invoke-without-a-block": (f"x {F} y", [("f", A1)], "x  y", set()),
    "block-not-closed-before-text": (
        f"{OPEN}\n{F}\nThat was it.",
        [("f", A1)],
        "\nThat was it.",
        {"missing-close"},
    ),
    "prose-after-opener": (f"The {OPEN} tag opens a block.", [], f"The {OPEN} tag opens a block.", set()),
    "prose-after-an-invoke-opener": (f"Its <{BAR}invoke tag", [], f"Its <{BAR}invoke tag", set()),
    "invoke-without-a-name-in-a-block": (
        f"{OPEN}<{BAR}invoke>x</{BAR}invoke></{BAR}tool_calls>",
        [],
        f"{OPEN}<{BAR}invoke>x</{BAR}invoke>",
        {"malformed-call", "orphan-marker"},
    ),
    "orphan-block-closer": (f"a </{BAR}tool_calls> b", [], "a  b", {"orphan-marker"}),
    "eof-in-call-complete-parameters": (
        dsml(F).partition(f"</{BAR}invoke>")[0],
        [("f", A1)],
        "",
        {"recovered-call"},
    ),
    "eof-in-call-incomplete": (
        f'x {OPEN}\n<{BAR}invoke name="f"><{BAR}parameter name="a">va',
        [],
        f'x {OPEN}\n<{BAR}invoke name="f"><{BAR}parameter name="a">va',
        {"truncated-call"},
    ),
    "eof-dangling-opener": (f"text {OPEN}  \n", [], "text ", {"dangling-opener"}),
    "invalid-json-body": (
        dsml(f'<{BAR}invoke name="f">{{"a": }}</{BAR}invoke>'),
        [],
        dsml(f'<{BAR}invoke name="f">{{"a": }}</{BAR}invoke>').removesuffix(f"\n</{BAR}tool_calls>"),
        {"malformed-call"},
    ),
}
"""DSML by its marker: every stream reads these."""

PLAIN_INVOKE = '<invoke name="f"><parameter name="a">1</parameter></invoke>'
DSML_PLAIN_ROWS: dict[str, Expected] = {
    "marker-less-block": (
        f"<function_calls>\n{PLAIN_INVOKE}\n</function_calls> ok",
        [("f", A1)],
        " ok",
        set(),
    ),
    "bare-invoke": (f"a {PLAIN_INVOKE} b", [("f", A1)], "a  b", set()),
    "bare-invoke-in-prose": (
        'Use <invoke name="f"> to call f.',
        [],
        'Use <invoke name="f"> to call f.',
        set(),
    ),
    "plain-block-in-prose": (
        "Wrap them in <function_calls> tags.",
        [],
        "Wrap them in <function_calls> tags.",
        set(),
    ),
}
"""DSML without its marker: DeepSeek ids and `--format dsml` only."""
