"""The FORMATS-2.md §B (one JSON call after a marker), §C and §F list syntaxes against the
serving engines' own behaviour, as data.

`ROWS[format][row]` is `(text in, calls as (name, arguments), text kept, notice codes that
must be among the notices)`, like `list_rows.ROWS`. Where the engines disagree (§K) the row
follows docs/behaviour.md, and its id says what the engine does instead. `PARSERS[format]`
names the parsers every row runs through: the `--format`, and the `auto` compositions of ids
that read the syntax (for the markers read everywhere, one of no family too).
"""

from __future__ import annotations

from tests.formats.damage_rows import Expected

W = '{"name": "f", "arguments": {"a": 1}}'
PARSERS = {
    "granite": ("granite", "granite+special-tokens", "granite-3.3+special-tokens"),
    "tool-calls-list": ("tool-calls-list", "tool-calls-list+special-tokens"),
    "nemotron": ("nemotron", "nemotron+special-tokens"),
    "cohere": ("cohere", "special-tokens"),
    "command-r-plus": ("cohere", "command-r-plus+special-tokens"),
    "functools": ("functools", "functools+special-tokens"),
    "apertus": ("apertus", "special-tokens"),
    "xlam": ("xlam", "xlam+special-tokens"),
    "olmo": ("olmo", "olmo+special-tokens"),
    "functiongemma": ("functiongemma", "functiongemma+special-tokens", "special-tokens"),
    "gigachat": ("special-tokens", "granite-20b+special-tokens"),
    "granite-20b": ("granite-20b+special-tokens",),
    "functionary": ("functionary+special-tokens",),
    "functionary-v3.2": ("functionary-v3.2+special-tokens",),
    "granite-lines": ("granite-4-lines+special-tokens", "granite-3.3+special-tokens"),
    "inkling": ("special-tokens", "olmo+special-tokens"),
}
ROWS: dict[str, dict[str, Expected]] = {
    "granite": {
        "3.0-either-key-order-text-kept": (
            f'a<|tool_call|>[{W}, {{"arguments": {{}}, "name": "g"}}] b', [("f", '{"a": 1}'), ("g", "{}")],
            "a b", set(),
        ),
        "3.1-no-closer": (f"<tool_call>[{W}]\nok", [("f", '{"a": 1}')], "\nok", set()),
        "3.1-hermes-object-is-not-a-list": (f"<tool_call>{W}", [], f"<tool_call>{W}", set()),
    },
    "tool-calls-list": {
        "jamba-text-before-and-after-kept": (
            f"a <tool_calls>[{W}]</tool_calls> b", [("f", '{"a": 1}')], "a  b", set()
        ),
        "invalid-json-is-text": ("<tool_calls>[{]</tool_calls>", [], "<tool_calls>[{]</tool_calls>", set()),
        "prose-after-opener": ("The <tool_calls> tag", [], "The <tool_calls> tag", set()),
        # (V tests/tool_parsers/test_hunyuan_a13b_tool_parser.py)
        "hunyuan-text-after-kept-vllm-strips-it": (
            f"I will call it. <tool_calls>[{W}]</tool_calls>\nThank you!", [("f", '{"a": 1}')],
            "I will call it. \nThank you!", set(),
        ),
        "hunyuan-nested-values-and-non-ascii": (
            '<tool_calls>[{"name": "f", "arguments": {"l1": {"l2": {"v": 123}}, "city": "北京", "n": null}}]'
            "</tool_calls>", [("f", '{"l1": {"l2": {"v": 123}}, "city": "北京", "n": null}')], "", set(),
        ),
        "hunyuan-empty-arguments-first-and-last": (
            '<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 42}}, '
            '{"name": "c", "arguments": {}}]</tool_calls>',
            [("a", "{}"), ("b", '{"x": 42}'), ("c", "{}")], "", set(),
        ),
    },
    "nemotron": {
        "brackets-missing": (
            f'<TOOLCALL>{W}, {{"name": "g", "arguments": {{}}}}</TOOLCALL>', [("f", '{"a": 1}'), ("g", "{}")],
            "", set(),
        ),
        "string-arguments-unwrapped": (
            '<TOOLCALL>[{"name": "f", "arguments": "{\\"a\\": 1}"}]</TOOLCALL>', [("f", '{"a": 1}')], "",
            set(),
        ),
        "text-after-kept-not-dropped": (f"x<TOOLCALL>[{W}]</TOOLCALL>y", [("f", '{"a": 1}')], "xy", set()),
        # (llama.cpp tests/chat-parsers/test-nemotron-v2.cpp)
        "llama.cpp-call-then-content": (
            f"<TOOLCALL>[{W}]</TOOLCALL>Hello, world!\nWhat's up?", [("f", '{"a": 1}')],
            "Hello, world!\nWhat's up?", set(),
        ),
    },
    "cohere": {
        "llama.cpp-two-calls-with-ids-and-python-code": (  # (llama.cpp tests/test-chat.cpp, Command R7B)
            '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "f", "parameters": {"a": 1}},\n'
            '    {"tool_call_id": "1", "tool_name": "python", "parameters": {"code": "print(\'hey\')"}}\n]'
            "<|END_ACTION|>",
            [("f", '{"a": 1}'), ("python", '{"code": "print(\'hey\')"}')], "", set(),
        ),
        "lone-object-and-id": (
            '<|START_ACTION|>{"tool_call_id": "1", "tool_name": "f", "parameters": {"a": 1}}<|END_ACTION|>',
            [("f", '{"a": 1}')], "", set(),
        ),
        "truncated-list-is-text-not-recovered-as-sglang-does": (
            '<|START_ACTION|>[{"tool_name": "f", "parameters": {"a": ',
            [], '<|START_ACTION|>[{"tool_name": "f", "parameters": {"a": ', {"truncated-call"},
        ),
        "name-key-is-tool-name": (
            '<|START_ACTION|>[{"name": "f"}]<|END_ACTION|>', [],
            '<|START_ACTION|>[{"name": "f"}]<|END_ACTION|>', {"malformed-call"},
        ),
    },
    "command-r-plus": {
        "fenced-list": (
            'Plan.\nAction: ```json\n[{"tool_name": "f", "parameters": {"a": 1}}]\n```', [("f", '{"a": 1}')],
            "Plan.\n", set(),
        ),
        "prose-action-is-text": ("Action: none needed.", [], "Action: none needed.", set()),
        "a-fence-alone-is-words": ("```\ncode\n```\n", [], "```\ncode\n```\n", set()),
    },
    "functools": {
        "list-in-arguments-does-not-end-it-as-vllm-does": (
            'functools[{"name": "f", "arguments": {"a": [1, 2]}}]', [("f", '{"a": [1, 2]}')], "", set()
        ),
        "text-kept-vllm-gives-none": (f"ok functools[{W}] done", [("f", '{"a": 1}')], "ok  done", set()),
        "prose-functools-dot": ("use functools.partial here", [], "use functools.partial here", set()),
        "inside-a-word-is-prose": (f"myfunctools[{W}]", [], f"myfunctools[{W}]", set()),
        "parameters-key": (
            'functools[{"name": "f", "parameters": {"a": 1}}]', [("f", '{"a": 1}')], "", set()
        ),
    },
    "apertus": {
        "suffix-optional": (
            'a<|tools_prefix|>[{"f": {"a": 1}}, {"g": {}}]', [("f", '{"a": 1}'), ("g", "{}")], "a",
            {"recovered-call"},
        ),
        "text-before-and-after-kept": (
            'a<|tools_prefix|>[{"f": {}}]<|tools_suffix|>b', [("f", "{}")], "ab", set()
        ),
        "two-keys-is-not-a-call": (
            '<|tools_prefix|>[{"f": {}, "g": {}}]<|tools_suffix|>', [],
            '<|tools_prefix|>[{"f": {}, "g": {}}]<|tools_suffix|>', {"malformed-call"},
        ),
    },
    "xlam": {
        "bare-list-is-the-whole-answer": (f"[{W}]", [("f", '{"a": 1}')], "", set()),
        "bare-list-after-prose-is-text": (f"Sure: [{W}]", [], f"Sure: [{W}]", set()),
        "fenced": (f"Here:\n```json\n[{W}]\n```\nok", [("f", '{"a": 1}')], "Here:\n\nok", set()),
        "tool-call-tag": (f"<tool_call>[{W}]</tool_call>", [("f", '{"a": 1}')], "", set()),
    },
    "olmo": {
        "lines": (
            '<function_calls>\nf(a=1)\ng(b="x", c=true, d=None)\n</function_calls>',
            [("f", '{"a": 1}'), ("g", '{"b": "x", "c": true, "d": null}')], "", set(),
        ),
        "text-kept-vllm-gives-none": (
            "ok <function_calls>f()</function_calls> done", [("f", "{}")], "ok  done", set()
        ),
        "invoke-body-is-not-olmo": (
            '<function_calls>\n<invoke name="f">', [], '<function_calls>\n<invoke name="f">', set()
        ),
        "a-prose-line-ends-the-calls-text-kept": (
            "<function_calls>f(a=1)\nthen stop</function_calls>", [("f", '{"a": 1}')],
            "\nthen stop</function_calls>", set(),
        ),
    },
    "functiongemma": {
        "escape-values-typed": (
            "<start_function_call>call:f{n:<escape>42<escape>,s:<escape>a, {b}<escape>,"
            'o:<escape>{"k": 1}<escape>}<end_function_call>',
            [("f", '{"n": 42, "s": "a, {b}", "o": {"k": 1}}')], "", set(),
        ),
        "text-before-and-after-kept": (
            "a<start_function_call>call:f{}<end_function_call>b", [("f", "{}")], "ab", set()
        ),
        "unclosed-value-at-the-end-is-text-vllm-takes-it": (
            "<start_function_call>call:f{s:<escape>x", [], "<start_function_call>call:f{s:<escape>x",
            {"truncated-call"},
        ),
    },
    "gigachat": {
        "3.1-content-before-kept": (f"Sure.<|function_call|>{W}", [("f", '{"a": 1}')], "Sure.", set()),
        "3-role-header-eos-cut": (
            f"<|message_sep|>\n\nfunction call<|role_sep|>\n{W}</s>", [("f", '{"a": 1}')], "", set()
        ),
        "text-after-kept-engines-take-json-to-the-end": (
            f"<|function_call|>{W} ok", [("f", '{"a": 1}')], " ok", set()
        ),
        "invalid-json-is-text": ("<|function_call|>{oops}", [], "<|function_call|>{oops}", set()),
        "a-lone-eos-is-words": ("x </s> y", [], "x </s> y", set()),
    },
    "granite-20b": {
        "two-calls-spacing-between": (
            f'<function_call> {W} <function_call> {{"name": "g", "arguments": {{}}}}',
            [("f", '{"a": 1}'), ("g", "{}")], " ", set(),
        ),
        "content-before-kept": (f"ok <function_call> {W}", [("f", '{"a": 1}')], "ok ", set()),
        "prose-opener-is-text": ("<function_call> is a tag", [], "<function_call> is a tag", set()),
    },
    "functionary": {
        "one-a-line": (
            '<function=f>{"a": 1}</function>\n<function=g>{}</function>', [("f", '{"a": 1}'), ("g", "{}")],
            "\n", set(),
        ),
        "text-around-kept": ('a <function=f>{"a": 1}</function> b', [("f", '{"a": 1}')], "a  b", set()),
        "qwen3-coder-body-handed-on": (
            'a <function=f>\n<parameter=a>\n1\n</parameter>\n</function> b <function=g>{"b": 2}</function>',
            [("f", '{"a": 1}'), ("g", '{"b": 2}')], "a  b ", set(),
        ),
        "prose-opener-is-text-for-both-bodies": (
            "The <function=NAME> tag, </function>", [], "The <function=NAME> tag, </function>", set()
        ),
        "no-closer-at-the-end-recovered": (
            '<function=f>{"a": 1}', [("f", '{"a": 1}')], "", {"recovered-call"}
        ),
    },
    "functionary-v3.2": {  # (llama.cpp tests/test-chat.cpp; the prompt ends with `>>>`)
        "all-header-is-markup": (">>>all\nHello, world!\nWhat's up?", [], "Hello, world!\nWhat's up?", set()),
        "call-after-its-opener": ('>>>f\n{"a": 1}', [("f", '{"a": 1}')], "", set()),
        "first-message-text-then-a-call-newline-kept-llama.cpp-strips-it": (
            'all\nHello, world!\nnono\nWhat\'s up?>>>f\n{"a": 1}\n', [("f", '{"a": 1}')],
            "Hello, world!\nnono\nWhat's up?\n", set(),
        ),
        "first-message-a-call": ('f\n{"a": 1}>>>all\nok', [("f", '{"a": 1}')], "ok", set()),
        "python-code-is-text-llama.cpp-calls-python": (
            "python\n# This is a program:\nprint('hey')", [], "python\n# This is a program:\nprint('hey')",
            set(),
        ),
        "no-header-is-text": ("Hello there", [], "Hello there", set()),
        "a-repl-prompt-is-prose": ("all\nType >>> 1+1 here", [], "Type >>> 1+1 here", set()),
    },
    "granite-lines": {  # (vLLM tests/tool_parsers/test_granite_pythonic_tool_parser.py)
        "single-call": (
            'get_weather(location="San Francisco", unit="celsius")',
            [("get_weather", '{"location": "San Francisco", "unit": "celsius"}')], "", set(),
        ),
        "multiple-calls": (
            'get_weather(location="Paris")\nsearch_web(query="vLLM release notes")',
            [("get_weather", '{"location": "Paris"}'), ("search_web", '{"query": "vLLM release notes"}')], "",
            set(),
        ),
        "no-args-call": ("list_files()", [("list_files", "{}")], "", set()),
        "plain-text-passthrough": (
            "I don't need to call any tools to answer this.", [],
            "I don't need to call any tools to answer this.", set(),
        ),
        "text-before-a-line-is-text-vllm-reads-the-line": (
            'Sure, let me check the weather.\nget_weather(location="London")', [],
            'Sure, let me check the weather.\nget_weather(location="London")', set(),
        ),
        "streamed-call-line-ending-kept": (
            'get_weather(location="Berlin")\n', [("get_weather", '{"location": "Berlin"}')], "\n", set(),
        ),
        "positional-arguments-are-text": ('print("hey")', [], 'print("hey")', set()),
    },
    "inkling": {
        "args-key": (
            '<|message_model|><|content_invoke_tool_json|>{"name": "f", "args": {"a": 1}}<|end_message|>',
            [("f", '{"a": 1}')], "", set(),
        ),
        "arguments-key-vllm-accepts": (
            '<|content_invoke_tool_json|>{"name": "f", "arguments": {"a": 1}}<|end_message|>',
            [("f", '{"a": 1}')], "", set(),
        ),
        "text-block-kept": ("<|message_model|><|content_text|>Hi.<|end_message|>", [], "Hi.", set()),
        "blocks-in-any-order": (
            "<|message_model|><|content_text|>A<|end_message|><|message_model|><|content_invoke_tool_json|>"
            '{"name": "f", "args": {}}<|end_message|><|message_model|><|content_text|>B<|end_message|>',
            [("f", "{}")], "AB", set(),
        ),
        "name-header-is-markup": (  # (vLLM: metadata between the role and kind tokens, not content)
            '<|message_model|>f<|content_invoke_tool_json|>{"name": "f", "args": {"a": 1}}<|end_message|>',
            [("f", '{"a": 1}')], "", set(),
        ),
        "tool-text-and-error-blocks-shown-as-text": (
            "<|message_model|><|content_invoke_tool_text|>f(1)<|end_message|>"
            "<|message_model|><|content_tool_error|>no such tool<|end_message|>", [], "f(1)no such tool",
            set(),
        ),
        "message-token-before-prose-is-text": (
            "<|message_model|>Hello there.", [], "<|message_model|>Hello there.", set()
        ),
    },
}  # fmt: skip
"""Rows per syntax (see the module docstring)."""
