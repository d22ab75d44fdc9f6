"""The damage table of docs/behaviour.md ("Damage") as data: per format, each row's input and outcome.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, notice codes that
must be among the notices)`; `PARSERS[format]` names the parsers (the `auto` compositions
that contain the format included) every row of that format runs through.
"""

from __future__ import annotations

import json

from sse_rewrite.formats import deepseek, kimi
from sse_rewrite.formats._section_base import Token

ROLES = {
    "sb": Token.SECTION_BEGIN,
    "se": Token.SECTION_END,
    "cb": Token.CALL_BEGIN,
    "ab": Token.ARGUMENT_BEGIN,
    "ce": Token.CALL_END,
}


def spellings(markers: dict[bytes, Token]) -> dict[str, str]:
    """The first spelling of each role."""
    return {key: next(m.decode() for m, t in markers.items() if t is role) for key, role in ROLES.items()}


KIMI = spellings(kimi.MARKERS)
DEEPSEEK = spellings(deepseek.MARKERS)
# Each format, and the parsers (`auto` compositions included) its rows run through.
PARSERS = {
    "kimi": ("kimi", "special-tokens", "glm+special-tokens"),
    "deepseek": ("deepseek", "special-tokens", "hermes+special-tokens"),
    "hermes": ("hermes", "hermes+special-tokens", "qwen+special-tokens"),
    "qwen3-coder": ("qwen3-coder", "qwen+special-tokens"),
    "glm": ("glm", "glm+special-tokens"),
    "text": ("text",),
}

Expected = tuple[str, list[tuple[str, str]], str, set[str]]
"""(text in, calls as (name, arguments), text kept, notice codes that must be among the notices)."""


def token_rows(fmt: str, t: dict[str, str]) -> dict[str, Expected]:
    """The rows for Kimi-shaped special tokens (Kimi, DeepSeek)."""

    def h(name: str, i: int) -> str:
        return f"functions.{name}:{i}" if fmt == "kimi" else name

    def call(name: str, i: int, args: str) -> str:
        return f"{t['cb']}{h(name, i)}{t['ab']}{args}{t['ce']}"

    sb, se, cb, ab, ce = t["sb"], t["se"], t["cb"], t["ab"], t["ce"]
    grep = f'{{"cmd": "grep \'{ce}\' x"}}'
    oops = '{"cmd": "oops}'
    return {
        "text-after-and-between-sections": (
            f"a {sb}{call('f', 0, '{}')}{se} b {sb}{call('g', 1, '[1]')}{se} c",
            [("f", "{}"), ("g", "[1]")],
            "a  b  c",
            set(),
        ),
        "call-begin-opens-a-section": (f"ok {call('f', 0, '{}')} done", [("f", "{}")], "ok  done", set()),
        "unclosed-call-closed-by-next-call": (
            f'{sb}{cb}{h("a", 0)}{ab}{{"x": 1}}{call("b", 1, "{}")}{se}',
            [("a", '{"x": 1}'), ("b", "{}")],
            "",
            {"implicit-close"},
        ),
        "unclosed-call-closed-by-section-end": (
            f'{sb}{cb}{h("a", 0)}{ab}{{"x": 1}}{se}tail',
            [("a", '{"x": 1}')],
            "tail",
            set(),
        ),
        "closer-inside-json-string-is-data": (
            f"{sb}{call('bash', 1, grep)}{se}",
            [("bash", grep)],
            "",
            set(),
        ),
        "closer-in-string-then-marker-is-the-close": (
            f"{sb}{call('bash', 1, oops)}{se}after",
            [("bash", oops)],
            "after",
            {"invalid-arguments"},
        ),
        "closer-in-string-at-eof-is-the-close": (f"{sb}{call('bash', 1, oops)}", [("bash", oops)], "", set()),
        "prose-after-opener": (
            f"The {sb} token opens a section.",
            [],
            f"The {sb} token opens a section.",
            set(),
        ),
        "orphan-closers-in-a-sentence-are-words": (f"a {ce} b {se} c", [], f"a {ce} b {se} c", set()),
        "orphan-closers-side-by-side-in-a-sentence": (
            f"ends with {ce}{se} and more",
            [],
            f"ends with {ce}{se} and more",
            set(),
        ),
        "orphan-closers-after-a-section-are-dropped": (
            f"{sb}{call('f', 0, '{}')}{se}\n{ce} {se} tail",
            [("f", "{}")],
            "\n  tail",
            {"orphan-marker"},
        ),
        "orphan-closers-alone-on-their-line-are-dropped": (
            f"done.\n {ce}{se} \nnext\n{se}",
            [],
            "done.\n  \nnext\n",
            {"orphan-marker"},
        ),
        "closers-of-a-syntax-explained-in-prose-are-words": (
            f"It writes {sb}\n{cb}{h('<name>', 0)}{ab}{{...}}{ce}\n{se}\nand so on.",
            [],
            f"It writes {sb}\n{cb}{h('<name>', 0)}{ab}{{...}}{ce}\n{se}\nand so on.",
            set(),
        ),
        "eof-in-call-complete-json": (
            f'{sb}{cb}{h("f", 0)}{ab}{{"a": 1}}',
            [("f", '{"a": 1}')],
            "",
            {"recovered-call"},
        ),
        "eof-in-call-incomplete": (
            f'x {sb}{cb}{h("f", 0)}{ab}{{"a": ',
            [],
            f'x {sb}{cb}{h("f", 0)}{ab}{{"a": ',
            {"truncated-call"},
        ),
        "stop-sequence-took-the-closers": (
            f'x {sb}{cb}{h("f", 0)}{ab}{{"a": 1}}',
            [("f", '{"a": 1}')],
            "x ",
            {"recovered-call"},
        ),
        "eof-dangling-call-opener-without-section": (f"text {cb}  ", [], "text ", {"dangling-opener"}),
        "eof-dangling-section-opener": (f"text {sb} \n", [], "text ", {"dangling-opener"}),
        "arguments-encoded-twice": (
            call("f", 0, f" {json.dumps(json.dumps({'a': [1, '<x>']}))} "),
            [("f", '{"a": [1, "<x>"]}')],
            "",
            {"arguments-encoded-twice"},
        ),
        "a-json-string-that-holds-no-object-stays": (
            call("f", 0, '"[1]"'),
            [("f", '"[1]"')],
            "",
            set(),
        ),
        "invalid-json-arguments": (
            call("f", 0, '{"a": 1,}'),
            [("f", '{"a": 1,}')],
            "",
            {"invalid-arguments"},
        ),
        "header-and-argument-marker-without-call-begin": (
            f'{sb}{h("a", 0)}{ab}{{"x": 1}}{ce}\n{h("b", 1)}{ab}{{}}{ce}{se}',
            [("a", '{"x": 1}'), ("b", "{}")],
            "",
            set(),
        ),
        "orphan-headers-dropped-calls-around-kept": (
            f"{sb}{cb}{h('a', 0)}{call('b', 1, '{}')}{cb}{h('c', 2)}{se} end",
            [("b", "{}")],
            " end",
            {"orphan-header"},
        ),
    }


def hermes(name: str, args: object) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': args})}\n</tool_call>"


def qwen(name: str, **params: str) -> str:
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


def glm(name: str, **args: str) -> str:
    body = "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n" for k, v in args.items())
    return f"<tool_call>{name}\n{body}</tool_call>"


TAG_CALLS = {
    "hermes": lambda n, v: hermes(n, {"k": v}),
    "qwen3-coder": lambda n, v: qwen(n, k=v),
    "glm": lambda n, v: glm(n, k=v),
}
CUT_BODIES = {
    "hermes": (
        '<tool_call>{"name": "f", "arguments": {"a": 1}}',
        '<tool_call>{"name": "f", "arguments": {"a": ',
    ),
    "qwen3-coder": (
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n",
        "<tool_call>\n<function=f>\n<parameter=a>\nval",
    ),
    "glm": (
        "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n",
        "<tool_call>f\n<arg_key>a</arg_key><arg_value>1",
    ),
}
# A call whose closers a stop sequence took (`</tool_call>`, `</arg_value>`...), and its arguments.
STOPPED = {
    "hermes": ('<tool_call>\n{"name": "f", "arguments": {"a": "x y"}}\n', '{"a": "x y"}'),
    "qwen3-coder": ("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\nx y\n",
                    '{"a": 1, "b": "x y"}'),
    "glm": ("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b</arg_key>"
            "<arg_value>x y", '{"a": 1, "b": "x y"}'),
}
OTHER_BODY = {"hermes": glm("f", k="v"), "qwen3-coder": hermes("f", {}), "glm": hermes("f", {})}


def tag_rows(fmt: str) -> dict[str, Expected]:
    """The rows for the `<tool_call>` formats."""
    call = TAG_CALLS[fmt]
    look_alike = "</tool_call> {"
    complete, cut = CUT_BODIES[fmt]
    rows: dict[str, Expected] = {
        "text-after-and-between-calls": (
            f"a {call('f', 'x')} b {call('g', 'y')} c",
            [("f", '{"k": "x"}'), ("g", '{"k": "y"}')],
            "a  b  c",
            set(),
        ),
        "closer-inside-a-value-is-data": (
            call("f", look_alike),
            [("f", json.dumps({"k": look_alike}))],
            "",
            set(),
        ),
        "prose-after-opener": (
            "Wrap calls in <tool_call> tags.",
            [],
            "Wrap calls in <tool_call> tags.",
            set(),
        ),
        "orphan-closer-in-a-sentence-is-words": (
            "ends with a stray </tool_call> and no opening tag",
            [],
            "ends with a stray </tool_call> and no opening tag",
            set(),
        ),
        "orphan-closer-after-a-call-is-dropped": (
            f"{call('f', 'x')}\n</tool_call> b",
            [("f", '{"k": "x"}')],
            "\n b",
            {"orphan-marker"},
        ),
        "orphan-closer-alone-on-its-line-is-dropped": (
            "done.\n</tool_call>\nnext\n  </tool_call>",
            [],
            "done.\n\nnext\n  ",
            {"orphan-marker"},
        ),
        "closer-of-a-tag-explained-in-prose-is-words": (
            "Wrap each call:\n<tool_call> goes here\n</tool_call>\n",
            [],
            "Wrap each call:\n<tool_call> goes here\n</tool_call>\n",
            set(),
        ),
        "eof-in-call-complete": (complete, [("f", '{"a": 1}')], "", {"recovered-call"}),
        "eof-in-call-incomplete": (f"x {cut}", [], f"x {cut}", {"truncated-call"}),
        "eof-dangling-opener": ("text <tool_call>  \n", [], "text ", {"dangling-opener"}),
        "stop-sequence-took-the-closers": (
            f"x {STOPPED[fmt][0]}",
            [("f", STOPPED[fmt][1])],
            "x ",
            {"recovered-call"},
        ),
        "another-formats-body-is-text": (OTHER_BODY[fmt], [], OTHER_BODY[fmt], set()),
    }
    if fmt != "hermes":  # (a JSON body ends where its object does: see the hermes row)
        rows["unclosed-call-closed-by-next-call"] = (
            call("a", "x").removesuffix("</tool_call>") + call("b", "y"),
            [("a", '{"k": "x"}'), ("b", '{"k": "y"}')],
            "",
            {"implicit-close"},
        )
    if fmt == "hermes":
        rows["unclosed-call-closed-by-next-call"] = (
            f'<tool_call>{{"name": "a"}}\n{hermes("b", {})}',
            [("a", "{}"), ("b", "{}")],
            "\n",
            {"missing-close"},
        )
        rows["arguments-encoded-twice"] = (
            f"<tool_call>{json.dumps({'name': 'f', 'arguments': json.dumps(json.dumps({'a': 1}))})}"
            "</tool_call>",
            [("f", '{"a": 1}')],
            "",
            {"arguments-encoded-twice"},
        )
        rows["invalid-json-arguments"] = (
            '<tool_call>{"name": "f", "arguments": "{\\"a\\": 1,}"}</tool_call>',
            [("f", '{"a": 1,}')],
            "",
            {"invalid-arguments"},
        )
    if fmt == "qwen3-coder":
        bare = "<function=f>\n<parameter=x>\n1\n</parameter>\n</function>"
        rows.update(
            {
                "parameter-left-open": (
                    "<tool_call>\n<function=f>\n<parameter=a>\n1\n<parameter=b>\nx y\n"
                    "</function>\n</tool_call>",
                    [("f", '{"a": 1, "b": "x y"}')],
                    "",
                    set(),
                ),
                "bare-function-and-its-stray-closer": (
                    f"a {bare}\n</tool_call> b",
                    [("f", '{"x": 1}')],
                    "a  b",
                    set(),
                ),
                "bare-functions-in-a-row": (
                    f"{bare}{bare.replace('=f>', '=g>')}",
                    [("f", '{"x": 1}'), ("g", '{"x": 1}')],
                    "",
                    set(),
                ),
                "bare-function-missing-its-angle": (
                    f"<function=f\n<parameter=x>\n1\n</parameter>\n</function> then {bare}",
                    [("f", '{"x": 1}')],
                    "<function=f\n<parameter=x>\n1\n</parameter>\n</function> then ",
                    {"malformed-call"},
                ),
                "wrapped-function-missing-its-angle": (
                    f"<tool_call><function=f\n</function></tool_call> {qwen('g')}",
                    [("g", "{}")],
                    "<tool_call><function=f\n</function></tool_call> ",
                    {"malformed-call"},
                ),
                "function-closers-in-a-sentence-are-words": (
                    "end it with </function></tool_call> and stop",
                    [],
                    "end it with </function></tool_call> and stop",
                    set(),
                ),
                "function-closer-after-a-call-is-dropped": (
                    f"{qwen('f', x='1')}</function>\n</tool_call>",
                    [("f", '{"x": 1}')],
                    "\n",
                    {"orphan-marker"},
                ),
                "stop-sequence-took-a-bare-calls-closers": (
                    "<function=f>\n<parameter=x>\nline one\nline two\n",
                    [("f", '{"x": "line one\\nline two"}')],
                    "",
                    {"recovered-call"},
                ),
                "eof-in-bare-call-complete-parameters": (
                    bare[: -len("</function>")],
                    [("f", '{"x": 1}')],
                    "",
                    {"recovered-call"},
                ),
            }
        )
    return rows


def text_rows() -> dict[str, Expected]:
    """The rows for the `TOOL:` / `ARGUMENTS:` convention."""
    return {
        "text-after-and-between-calls": (
            'a\nTOOL: f\nARGUMENTS: {}\nb\nTOOL: g\nARGUMENTS: {"x": 1}\nc',
            [("f", "{}"), ("g", '{"x": 1}')],
            "a\n\nb\n\nc",
            set(),
        ),
        "prose-after-opener": ("TOOL: is a label I use", [], "TOOL: is a label I use", set()),
        "eof-in-call-incomplete": (
            'TOOL: f\nARGUMENTS: {"a": ',
            [],
            'TOOL: f\nARGUMENTS: {"a": ',
            {"truncated-call"},
        ),
        "eof-dangling-opener": ("text\nTOOL:  ", [], "text\n", {"dangling-opener"}),
        "invalid-json-arguments": (
            'TOOL: f\nARGUMENTS: {"a": 1,}',
            [("f", '{"a": 1,}')],
            "",
            {"invalid-arguments"},
        ),
    }


ROWS = {
    "kimi": token_rows("kimi", KIMI),
    "deepseek": token_rows("deepseek", DEEPSEEK),
    **{fmt: tag_rows(fmt) for fmt in TAG_CALLS},
    "text": text_rows(),
}
