"""MiniMax M2 and M3 damage rows and spellings as data (docs/behaviour.md, "Damage"), as in `damage_rows`."""

from __future__ import annotations

from tests.formats.damage_rows import Expected
from tests.formats.dsml_rows import A1, BX, PLAIN_INVOKE
from tests.formats.invoke_text import NS, m2, m2_invoke, m3

M2_ROWS: dict[str, Expected] = {
    "text-after-and-between-blocks": (
        f"a {m2(m2_invoke('f', a='1'))} b {m2(m2_invoke('g', b='x'))} c",
        [("f", A1), ("g", BX)],
        "a  b  c",
        set(),
    ),
    "parallel-invokes": (m2(m2_invoke("f", a="1"), m2_invoke("g", b="x")), [("f", A1), ("g", BX)], "", set()),
    "values-stripped-and-typed": (
        m2(m2_invoke("bash", command="\n ls -la \n", n="\n3\n", flag=" false")),
        [("bash", '{"command": "ls -la", "n": 3, "flag": false}')],
        "",
        set(),
    ),
    "single-quoted-names": (
        m2("<invoke name='f'><parameter name='a'>1</parameter></invoke>"),
        [("f", A1)],
        "",
        set(),
    ),
    "prose-after-opener": ("The <minimax:tool_call> tag.", [], "The <minimax:tool_call> tag.", set()),
    "orphan-block-closer": ("a </minimax:tool_call> b", [], "a  b", {"orphan-marker"}),
    "eof-in-call-complete-parameters": (
        m2(m2_invoke("f", a="1")).partition("</invoke>")[0],
        [("f", A1)],
        "",
        {"recovered-call"},
    ),
    "eof-in-call-incomplete": (
        '<minimax:tool_call><invoke name="f"><parameter name="a">1',
        [],
        '<minimax:tool_call><invoke name="f"><parameter name="a">1',
        {"truncated-call"},
    ),
    "eof-dangling-opener": ("text <minimax:tool_call>\n", [], "text ", {"dangling-opener"}),
    "unclosed-invoke-closed-by-the-next-invoke": (
        m2(m2_invoke("f", a="1").removesuffix("</invoke>") + m2_invoke("g", b="x")),
        [("f", A1), ("g", BX)],
        "",
        {"implicit-close"},
    ),
}
"""MiniMax M2 blocks: every stream reads these."""

HASH = (
    '[TOOL_CALL]\n{tool => "file_toolkit", args => {\n  --operation "write_file"\n'
    '  --content "# T\\n\\nx"\n  --n 2\n}}\n[/TOOL_CALL]'
)
HASH_ARGS = '{"operation": "write_file", "content": "# T\\n\\nx", "n": 2}'
M2_BARE_ROWS: dict[str, Expected] = {
    "bare-invoke": (f"a {PLAIN_INVOKE} b", [("f", A1)], "a  b", set()),
    "bare-invokes-in-a-row": (
        PLAIN_INVOKE + PLAIN_INVOKE.replace('"f"', '"g"'),
        [("f", A1), ("g", A1)],
        "",
        set(),
    ),
    "bare-invoke-in-prose": (
        'Use <invoke name="f"> to call f.',
        [],
        'Use <invoke name="f"> to call f.',
        set(),
    ),
    "invoke-tag-in-prose": ("The <invoke> tag.", [], "The <invoke> tag.", set()),
    "hash-call-wrapper": (
        f"Creating it.\n{HASH}\nDone.",
        [("file_toolkit", HASH_ARGS)],
        "Creating it.\n\nDone.",
        set(),
    ),
    "hash-call-json-args-in-a-row": (
        '[TOOL_CALL]{tool => "web_search", args => {"query":"NET"}}[/TOOL_CALL]'
        '[TOOL_CALL]{tool => "skill", args => { query => "topic", k => 3 }}[/TOOL_CALL]',
        [("web_search", '{"query":"NET"}'), ("skill", '{"query": "topic", "k": 3}')],
        "",
        set(),
    ),
    "hash-wrapper-around-a-json-call": (
        '[TOOL_CALL]\n{"name": "bash", "arguments": {"command": "ls"}}\n[/TOOL_CALL] ok',
        [("bash", '{"command": "ls"}')],
        " ok",
        set(),
    ),
    "hash-call-without-args": ('[TOOL_CALL]\n{tool => "skill"}\n[/TOOL_CALL]', [("skill", "{}")], "", set()),
    "hash-wrapper-holding-prose": (
        "Never write [TOOL_CALL] tags; [/TOOL_CALL] ends them.",
        [],
        "Never write [TOOL_CALL] tags; [/TOOL_CALL] ends them.",
        set(),
    ),
    "hash-call-eof-recovered": (
        HASH.removesuffix("\n[/TOOL_CALL]"),
        [("file_toolkit", HASH_ARGS)],
        "",
        {"recovered-call"},
    ),
    "hash-call-eof-in-args": (HASH[:40], [], HASH[:40], {"truncated-call"}),
    "hash-wrapper-around-other-braces": (
        "[TOOL_CALL] {not => a call} [/TOOL_CALL] ok",
        [],
        "[TOOL_CALL] {not => a call} [/TOOL_CALL] ok",
        {"malformed-call"},
    ),
}
"""MiniMax's bare invokes and `[TOOL_CALL]` hash calls: MiniMax ids and `--format minimax` only."""

M3_ROWS: dict[str, Expected] = {
    "documented-example": (
        f"ok {m3('list_dir', dir='docs/')}",
        [("list_dir", '{"dir": "docs/"}')],
        "ok ",
        set(),
    ),
    "typed-and-nested-values": (
        m3("f", n="3", o=f"{NS}<k>v{NS}</k>"),
        [("f", '{"n": 3, "o": {"k": "v"}}')],
        "",
        set(),
    ),
    "prose-after-opener": (f"The {NS}<tool_call> token.", [], f"The {NS}<tool_call> token.", set()),
    "eof-in-call-incomplete": (
        f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>1',
        [],
        f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>1',
        {"truncated-call"},
    ),
    "eof-dangling-opener": (f"text {NS}<tool_call>\n", [], "text ", {"dangling-opener"}),
}
"""MiniMax M3 behind its namespace token: every stream reads these."""

M3_STRIPPED = '<tool_call>\n<invoke name="list_dir"><dir>docs/</dir><depth> 2 </depth></invoke>\n</tool_call>'
M3_STRIPPED_ROWS: dict[str, Expected] = {
    "namespace-token-stripped": (
        f"Listing.\n{M3_STRIPPED} done",
        [("list_dir", '{"dir": "docs/", "depth": 2}')],
        "Listing.\n done",
        set(),
    ),
    "stripped-parallel-invokes": (
        '<tool_call>\n<invoke name="f"><a>1</a></invoke>\n<invoke name="g"><b>x</b></invoke>\n</tool_call>',
        [("f", A1), ("g", BX)],
        "",
        set(),
    ),
    "stripped-opener-in-prose": ("Use a <tool_call> tag.", [], "Use a <tool_call> tag.", set()),
    "hermes-body-is-not-m3": (
        '<tool_call>{"name": "f"}</tool_call>',
        [],
        '<tool_call>{"name": "f"}</tool_call>',
        set(),
    ),
    "stripped-eof-in-call": (
        '<tool_call>\n<invoke name="f"><a>1',
        [],
        '<tool_call>\n<invoke name="f"><a>1',
        {"truncated-call"},
    ),
}
"""MiniMax M3 with its namespace token stripped (prose-like tags): MiniMax ids and `--format minimax` only."""


UNANGLED = (
    'minimax:tool_call>\ninvoke name="bash">\nparameter name="command">ls -la/parameter>\n/invoke>\n'
    "/minimax:tool_call>"
)
M2_UNANGLED_ROWS: dict[str, Expected] = {
    "closers-with-their-slash": (f"Sure.\n{UNANGLED}", [("bash", '{"command": "ls -la"}')], "Sure.\n", set()),
    "closers-without-their-slash": (
        'minimax:tool_call>\ninvoke name="f">\nparameter name="a">1parameter>\ninvoke>\n'
        "minimax:tool_call> ok",
        [("f", A1)],
        " ok",
        set(),
    ),
    "parallel-invokes-typed-and-quoted": (
        "minimax:tool_call>invoke name='f'>parameter name='a'> 1 /parameter>/invoke>"
        'invoke name="g">parameter name="b">x/parameter>/invoke>/minimax:tool_call>',
        [("f", A1), ("g", BX)],
        "",
        set(),
    ),
    "angled-tags-inside": (
        'minimax:tool_call><invoke name="f"><parameter name="a">1</parameter></invoke>/minimax:tool_call>',
        [("f", A1)],
        "",
        set(),
    ),
    "json-body": (
        'minimax:tool_call>invoke name="f">{"a": 1}/invoke>/minimax:tool_call>', [("f", A1)], "", set()
    ),
    "opener-in-prose": ("Write minimax:tool_call> then", [], "Write minimax:tool_call> then", set()),
    "a-value-holding-the-invoke-word": (  # (its word and spacing open a tag only between tags: data here)
        'minimax:tool_call>\ninvoke name="bash">\nparameter name="command">echo invoke now/parameter>\n'
        "/invoke>\n/minimax:tool_call>",
        [("bash", '{"command": "echo invoke now"}')],
        "",
        set(),
    ),
    "block-not-closed-before-prose": (
        'minimax:tool_call>\ninvoke name="f">parameter name="a">1/parameter>/invoke>\nThanks',
        [("f", A1)],
        "\nThanks",
        {"missing-close"},
    ),
    "invoke-body-not-parameters": (
        'minimax:tool_call>invoke name="f">hello/invoke>/minimax:tool_call>',
        [],
        'minimax:tool_call>invoke name="f">hello/invoke>/minimax:tool_call>',
        {"malformed-call"},
    ),
    "eof-in-call-complete-parameters": (
        'minimax:tool_call>invoke name="f">parameter name="a">1/parameter>',
        [("f", A1)],
        "",
        {"recovered-call"},
    ),
    "eof-in-call-incomplete": (
        'minimax:tool_call>invoke name="f">parameter name="a">1',
        [],
        'minimax:tool_call>invoke name="f">parameter name="a">1',
        {"truncated-call"},
    ),
    "eof-opener-with-nothing-after-is-text": (
        "text minimax:tool_call>\n", [], "text minimax:tool_call>\n", set()
    ),
    "eof-after-a-call-in-a-block": (
        'minimax:tool_call>invoke name="f">{"a": 1}/invoke>\n', [("f", A1)], "", set()
    ),
}
"""MiniMax M2 tags that lost their `<` and `</`: MiniMax ids and `--format minimax` only."""
