"""The damage table of docs/behaviour.md ("Damage") as data: per format, each row's input and outcome.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, notice codes that
must be among the notices)`; `PARSERS[format]` names the parsers (the `auto` compositions
that contain the format included) every row of that format runs through.
"""

from __future__ import annotations

import json

from sse_rewrite.formats.catalogue import deepseek, kimi
from sse_rewrite.formats.machines._section_base import Token
from tests.formats.damage_tag_rows import OPEN_VALUE, STOPPED, TAG_CALLS, glm, hermes, qwen, tag_rows
from tests.formats.damage_types import Expected

__all__ = [
    "DEEPSEEK", "KIMI", "OPEN_VALUE", "PARSERS", "ROWS", "STOPPED", "Expected", "glm", "hermes", "qwen"
]  # fmt: skip

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
