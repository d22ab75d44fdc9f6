"""The damage table's rows for the `<tool_call>` formats (Hermes JSON, Qwen3-Coder XML, GLM),
and the builders of their calls; `damage_rows.py` gathers them with the others."""

from __future__ import annotations

import json

from tests.formats.damage_types import Expected


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
# A call whose closers a stop sequence took (`</tool_call>`, `</function>`: only closers after
# complete values), and its arguments.
STOPPED = {
    "hermes": ('<tool_call>\n{"name": "f", "arguments": {"a": "x y"}}\n', '{"a": "x y"}'),
    "qwen3-coder": (
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\nx y\n</parameter>\n",
        '{"a": 1, "b": "x y"}',
    ),
    "glm": ("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b</arg_key>"
            "<arg_value>x y</arg_value>", '{"a": 1, "b": "x y"}'),
}
# A call cut inside its last value (DESIGN.md §4: a parameter still open at any end is text,
# a normal finish too: a file write cut off mid-content is never a call).
OPEN_VALUE = {
    "qwen3-coder": "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\nx y\n",
    "glm": "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b</arg_key><arg_value>x y",
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
    if fmt in OPEN_VALUE:
        rows["stop-sequence-inside-an-open-value-is-text"] = (
            f"x {OPEN_VALUE[fmt]}", [], f"x {OPEN_VALUE[fmt]}", {"truncated-call"}
        )
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
                    "<function=f>\n<parameter=x>\nline one\nline two\n</parameter>\n",
                    [("f", '{"x": "line one\\nline two"}')],
                    "",
                    {"recovered-call"},
                ),
                "stop-sequence-inside-a-bare-calls-open-parameter-is-text": (
                    "<function=f>\n<parameter=x>\nline one\nline two\n",
                    [],
                    "<function=f>\n<parameter=x>\nline one\nline two\n",
                    {"truncated-call"},
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
