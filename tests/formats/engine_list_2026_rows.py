"""FORMATS.md's marker-then-list syntaxes (Mistral, Llama 3 JSON, Llama 4 and 3.2 pythonic, LFM2,
Gemma 4) against vLLM's own cases for their parsers (`tests/tool_parsers/test_mistral_…`,
`test_llama3_json_…`, `test_llama4_pythonic_…`, `test_pythonic_…`, `test_lfm2_…`, `test_gemma4_…`),
as data; `test_engine_lists.py` runs them beside `engine_list_rows.ROWS`.

`ROWS[family][row]` is `(text in, calls as (name, arguments), text kept, notice codes that must be
among the notices)`; `PARSERS[family]` names the parsers every row runs through (the first is the
`--format` of the end-to-end run). Where DESIGN.md disagrees with the engine (text around calls is
kept, a value left open is text, when unsure text stays text), the row follows DESIGN.md and its
id says what the engine does instead.
"""

from __future__ import annotations

from tests.formats.damage_rows import Expected
from tests.formats.list_rows import GQ
from tests.formats.list_rows import PARSERS as LIST_PARSERS

PARSERS = {
    "mistral-engine": LIST_PARSERS["mistral"],
    "llama-json": ("llama", "llama+special-tokens"),
    "llama-python-start": LIST_PARSERS["llama"],
    "llama-pythonic": ("llama4+special-tokens", "llama3.2+special-tokens"),
    "lfm2-engine": LIST_PARSERS["lfm2"],
    "gemma-engine": LIST_PARSERS["gemma"],
    "gemma-engine-stripped": LIST_PARSERS["gemma-stripped"],
}
_ST, _EN = "<|tool_call_start|>[", "]<|tool_call_end|>"
_PS, _PE = "<|python_start|>[", "]<|python_end|>"
_LA = ("get_weather", '{"city": "LA", "metric": "C"}')
_DOE = ("register_user", '{"name": "Doe", "age": 9}')
_MORE = (
    "register_user(name='Doe', age=9, address={'city': 'LA', 'state': 'CA'}, role=None, passed_test=True, "
    "aliases=['John', 'Johnny'])"
)
_MORE_CALL = (
    "register_user",
    '{"name": "Doe", "age": 9, "address": {"city": "LA", "state": "CA"}, "role": null, "passed_test": true, '
    '"aliases": ["John", "Johnny"]}',
)
_ESCAPED = r"get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')"
_ESCAPED_CALL = ("get_weather", '{"city": "Martha\'s Vineyard", "metric": "\\"cool units\\""}')
_S1 = '{"name": "searchTool", "parameters": {"query": "test1"}}'
_S1_CALL = ("searchTool", '{"query": "test1"}')
_INC = '{"name": "getOpenIncidentsTool", "parameters": {}}'
_INC_CALL = ("getOpenIncidentsTool", "{}")
_TEXT = "How can I help you today?"


def _g(body: str) -> str:
    """A Gemma 4 call with its body's `'` written as the `<|"|>` quote token."""
    return f"<|tool_call>call:{body.replace(chr(39), GQ)}<tool_call|>"


ROWS: dict[str, dict[str, Expected]] = {
    "mistral-engine": {
        "pre-v11-no-space": (
            '[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]',
            [("add", '{"a": 3.5, "b": 4}')],
            "",
            set(),
        ),
        "pre-v11-arguments-before-name": (
            '[TOOL_CALLS] [{"arguments":{"name": "Doe"}, "name": "get_age"}]',
            [("get_age", '{"name": "Doe"}')],
            "",
            set(),
        ),
        "pre-v11-spacing-inside": (
            '[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]',
            [("add", '{"a": 3, "b": 4}')],
            "",
            set(),
        ),
        "pre-v11-content-before-two-calls": (
            'Hello[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1}}, {"name": "f", "arguments": {}}]',
            [("add", '{"a": 1}'), ("f", "{}")],
            "Hello",
            set(),
        ),
        "pre-v11-trailing-text-kept": (
            '[TOOL_CALLS] [{"name": "f", "arguments":{"a": 1}}]\nextra trailing data',
            [("f", '{"a": 1}')],
            "\nextra trailing data",
            set(),
        ),
        "pre-v11-two-markers-both-read-vllm-raises": (
            '[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1}}][TOOL_CALLS][{"name": "s", "arguments":{}}]',
            [("add", '{"a": 1}'), ("s", "{}")],
            "",
            set(),
        ),
        "pre-v11-junk-before-the-list-is-text-vllm-finds-the-list": (
            '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1}}] trail',
            [],
            '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1}}] trail',
            set(),
        ),
        "pre-v11-prose-after-the-marker-kept-whole-vllm-drops-the-marker": (
            "[TOOL_CALLS] not json at all",
            [],
            "[TOOL_CALLS] not json at all",
            set(),
        ),
        "v11-two-calls": (
            '[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}',
            [("add", '{"a": 3.5, "b": 4}'), ("multiply", '{"a": 3, "b": 6}')],
            "",
            set(),
        ),
        "v11-content-with-a-brace-before": (
            'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hi\\")\\nre.compile(r\'{}\')"}',
            [("bash", '{"command": "print(\\"hi\\")\\nre.compile(r\'{}\')"}')],
            "hi{hi",
            set(),
        ),
        "v11-cut-off-is-text-vllm-sends-the-prefix": (
            'hi[TOOL_CALLS]bash{"command": "ls"',
            [],
            'hi[TOOL_CALLS]bash{"command": "ls"',
            {"truncated-call"},
        ),
        "v11-name-without-arguments-is-text-vllm-drops-it": (
            "[TOOL_CALLS]toolname_no_args",
            [],
            "[TOOL_CALLS]toolname_no_args",
            {"truncated-call"},
        ),
        # (SGLang test/srt/function_call/test_mistral_detector.py)
        "sglang-canonical-space-then-list-then-space-kept": (
            '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}] ',
            [("get_weather", '{"city": "Paris"}')],
            " ",
            set(),
        ),
        "sglang-compact-args": (
            '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
            [("get_weather", '{"city": "Paris"}')],
            "",
            set(),
        ),
    },
    "llama-json": {
        "parameters": (
            '{"name": "searchTool", "parameters": {"query": "test query", "limit": 10}}',
            [("searchTool", '{"query": "test query", "limit": 10}')],
            "",
            set(),
        ),
        "arguments-key": (
            '{"name": "searchTool", "arguments": {"query": "test"}}',
            [("searchTool", '{"query": "test"}')],
            "",
            set(),
        ),
        "three-joined-by-semicolons": (f"{_S1}; {_INC}; {_S1}", [_S1_CALL, _INC_CALL, _S1_CALL], "", set()),
        "semicolon-after-a-space": (f"{_S1} ; {_INC}", [_S1_CALL, _INC_CALL], "", set()),
        "quotes-and-brackets-in-strings": (
            '{"name": "parserTool", "parameters": {"text": "He said \\"Hello {world}\\" [x]"}}',
            [("parserTool", '{"text": "He said \\"Hello {world}\\" [x]"}')],
            "",
            set(),
        ),
        "deeply-nested": (
            '{"name": "c", "parameters": {"l1": {"l2": {"l3": {"l4": {"v": "deep"}}}}}}',
            [("c", '{"l1": {"l2": {"l3": {"l4": {"v": "deep"}}}}}')],
            "",
            set(),
        ),
        "invalid-json-is-text": (
            '{"name": "t", "parameters": {invalid json}',
            [],
            '{"name": "t", "parameters": {invalid json}',
            set(),
        ),
        "missing-name-is-text": ('{"parameters": {}}', [], '{"parameters": {}}', set()),
        "no-parameters-is-a-call-vllm-keeps-the-text": ('{"name": "t"}', [("t", "{}")], "", set()),
        "json-in-prose-is-text-vllm-calls-it": (
            f"Here is the result: {_INC} Would you like more?",
            [],
            f"Here is the result: {_INC} Would you like more?",
            set(),
        ),
        "prose-after-the-call-keeps-it-text-vllm-calls-it": (
            f"{_S1} I used {{searchTool}} for this.",
            [],
            f"{_S1} I used {{searchTool}} for this.",
            set(),
        ),
        "joined-by-a-newline": (f"{_S1}\n{_INC}", [_S1_CALL, _INC_CALL], "", set()),
        "prose-between-lines-keeps-all-text": (f"{_S1}\nthen\n{_INC}", [], f"{_S1}\nthen\n{_INC}", set()),
        "python-tag-semicolons": (f"<|python_tag|>{_S1}; {_INC}", [_S1_CALL, _INC_CALL], "", set()),
        "a-semicolon-may-end-the-answer": (f"{_S1};\n", [_S1_CALL], ";\n", set()),
        "placeholder-arguments-are-text": (
            '{"name": "t", "arguments": "{...}"}', [], '{"name": "t", "arguments": "{...}"}', set()
        ),
        "arguments-encoded-twice-unwrapped": (
            '{"name": "t", "arguments": "\\"{\\\\\\"a\\\\\\": 1}\\""}', [("t", '{"a": 1}')], "",
            {"arguments-encoded-twice"},
        ),
    },
    "llama-python-start": {
        "escaped-strings": (f"{_PS}{_ESCAPED}{_PE}", [_ESCAPED_CALL], "", set()),
        "more-types": (f"{_PS}{_MORE}{_PE}", [_MORE_CALL], "", set()),
        "parallel-without-spaces": (
            f"{_PS}get_weather(city='LA',metric='C'),register_user(name='Doe',age=9){_PE}",
            [_LA, _DOE],
            "",
            set(),
        ),
        "parameterless-empty-list-empty-dict": (
            f"{_PS}get_weather(city='LA', metric='C'), get_weather(), f(steps=[]), f(d={{}}){_PE}",
            [_LA, ("get_weather", "{}"), ("f", '{"steps": []}'), ("f", '{"d": {}}')],
            "",
            set(),
        ),
        "end-token-missing-recovered": (
            f"{_PS}get_weather(city='LA', metric='C'), register_user(name='Doe', age=9)]",
            [_LA, _DOE],
            "",
            {"recovered-call"},
        ),
        "bytes-literal-read-as-a-string-vllm-drops-that-call": (
            f"{_PS}bad(x=b'z'), get_weather(city='LA', metric='C'){_PE}",
            [("bad", '{"x": "z"}'), _LA],
            "",
            set(),
        ),
        "huge-number-kept-as-written-vllm-drops-that-call": (
            f"{_PS}calc(x=1e999), get_weather(city='LA', metric='C'){_PE}",
            [("calc", '{"x": 1e999}'), _LA],
            "",
            set(),
        ),
        "mismatched-brackets-are-text": (f"{_PS}foo(x=1]){_PE}", [], f"{_PS}foo(x=1])]", {"malformed-call"}),
    },
    "llama-pythonic": {
        "bare-list": ("[get_weather(city='LA', metric='C')]", [_LA], "", set()),
        "bare-list-more-types": (f"[{_MORE}]", [_MORE_CALL], "", set()),
        "no-call": (_TEXT, [], _TEXT, set()),
    },
    "lfm2-engine": {
        # (llama.cpp tests/chat-parsers/test-lfm2.cpp: LFM2 with JSON tools, a JSON list between its tokens)
        "llama.cpp-json-list-two-calls-text-after": (
            f'{_ST}{{"name": "get_weather", "arguments": {{"location": "Paris"}}}}, '
            f'{{"name": "get_time", "arguments": {{"timezone": "UTC"}}}}{_EN}Here\'s the result.',
            [("get_weather", '{"location": "Paris"}'), ("get_time", '{"timezone": "UTC"}')],
            "Here's the result.",
            set(),
        ),
        "llama.cpp-json-with-newlines-text-before": (
            f'Let me check.{_ST}{{\n    "name": "t",\n    "arguments": {{\n        "location": "Paris"\n'
            f"    }}\n}}{_EN}",
            [("t", '{\n        "location": "Paris"\n    }')],
            "Let me check.",
            set(),
        ),
        "set-is-an-array": (
            f"{_ST}label(tags={{'urgent', 'bug'}}){_EN}",
            [("label", '{"tags": ["urgent", "bug"]}')],
            "",
            set(),
        ),
        "leading-zeros": (
            f"{_ST}set_date(month=07, day=05){_EN}",
            [("set_date", '{"month": 7, "day": 5}')],
            "",
            set(),
        ),
        "dotted-name": (
            f"{_ST}grocery.order(items=[{{'name': 'noodles', 'amount': 250}}], to='845 Willow'){_EN}",
            [("grocery.order", '{"items": [{"name": "noodles", "amount": 250}], "to": "845 Willow"}')],
            "",
            set(),
        ),
        "bracket-in-a-string": (
            f"{_ST}exec(command='grep -F \"]\" log.txt'){_EN}",
            [("exec", '{"command": "grep -F \\"]\\" log.txt"}')],
            "",
            set(),
        ),
        "newline-in-a-string": (
            f"{_ST}exec(command='cat << EOF\nprint(1)\nEOF'){_EN}",
            [("exec", '{"command": "cat << EOF\\nprint(1)\\nEOF"}')],
            "",
            set(),
        ),
        "nul-in-a-string": (
            f"{_ST}exec(command='a\x00b'){_EN}",
            [("exec", '{"command": "a\\u0000b"}')],
            "",
            set(),
        ),
        "content-after-kept": (
            f"{_ST}get_status(id='12345'){_EN}\nChecking.",
            [("get_status", '{"id": "12345"}')],
            "\nChecking.",
            set(),
        ),
        "empty-block-no-call": (f"{_ST} {_EN}", [], "", set()),
        "space-after-the-start-token": (
            f"<|tool_call_start|> [get_weather(){_EN}",
            [("get_weather", "{}")],
            "",
            set(),
        ),
        "parallel-more-types": (
            f"{_ST}get_weather(city='LA', metric='C'), {_MORE}{_EN}",
            [_LA, _MORE_CALL],
            "",
            set(),
        ),
        "unescaped-inner-quotes-are-text-vllm-guesses-the-string": (
            f"{_ST}bash(command='sed -n '360,450p' a.py'){_EN}",
            [],
            f"{_ST}bash(command='sed -n '360,450p' a.py'){_EN}",
            {"malformed-call"},
        ),
    },
    "gemma-engine": {
        "string-with-a-comma": (
            _g("get_weather{location:'Paris, France',unit:'celsius'}"),
            [("get_weather", '{"location": "Paris, France", "unit": "celsius"}')],
            "",
            set(),
        ),
        "mixed-types-and-null": (
            _g("f{name:'test',count:42,active:true,score:3.14,param:null}"),
            [("f", '{"name": "test", "count": 42, "active": true, "score": 3.14, "param": null}')],
            "",
            set(),
        ),
        "quoted-keys-nested": (
            _g("f{record_map:{'3':'new text'},outer:{inner:{'3':'x'}}}"),
            [("f", '{"record_map": {"3": "new text"}, "outer": {"inner": {"3": "x"}}}')],
            "",
            set(),
        ),
        "text-before-two-calls": (
            "Let me check. " + _g("get_weather{location:'Paris'}") + _g("get_time{location:'London'}"),
            [("get_weather", '{"location": "Paris"}'), ("get_time", '{"location": "London"}')],
            "Let me check. ",
            set(),
        ),
        "nested-object-and-list": (
            _g("f{nested:{inner:'value'},list:['a','b']}"),
            [("f", '{"nested": {"inner": "value"}, "list": ["a", "b"]}')],
            "",
            set(),
        ),
        "hyphenated-and-dotted-names-no-arguments": (
            _g("get-weather{location:'London'}") + _g("weather.get{}"),
            [("get-weather", '{"location": "London"}'), ("weather.get", "{}")],
            "",
            set(),
        ),
        "bracket-in-a-string-and-bare-array-values": (
            _g("f{items:['a]b',42,true,3.14]}"),
            [("f", '{"items": ["a]b", 42, true, 3.14]}')],
            "",
            set(),
        ),
        # (llama.cpp tests/test-chat.cpp, the Gemma 4 template)
        "llama.cpp-numbers-empties-null-nested": (
            _g("f{a:-7,b:1.5e10,c:[],d:{},e:null,config:{theme:'dark'}}"),
            [("f", '{"a": -7, "b": 1.5e10, "c": [], "d": {}, "e": null, "config": {"theme": "dark"}}')],
            "",
            set(),
        ),
        "llama.cpp-content-then-a-call-and-one-without-arguments": (
            "Hello, world!\nWhat's up?" + _g("get_time{city:'Paris'}") + _g("empty_args{}"),
            [("get_time", '{"city": "Paris"}'), ("empty_args", "{}")],
            "Hello, world!\nWhat's up?",
            set(),
        ),
        "trailing-dot-number": (
            _g("f{left:108.,name:'x'}"),
            [("f", '{"left": 108.0, "name": "x"}')],
            "",
            set(),
        ),
        "cut-off-is-text": (
            '<|tool_call>call:get_weather{location:<|"|>London',
            [],
            '<|tool_call>call:get_weather{location:<|"|>London',
            {"truncated-call"},
        ),
    },
    # (vLLM's #42047 case with the quote tokens stripped: a bare `108.` is the number it spells, as
    # when quoted; the raw-value guess alone reads JSON and kept it the string "108.")
    "gemma-engine-stripped": {
        "trailing-dot-number-quote-tokens-stripped": (
            "<|tool_call>call:f{left:108.,name:x,sizes:[1.,2]}<tool_call|>",
            [("f", '{"left": 108.0, "name": "x", "sizes": [1.0, 2]}')],
            "",
            set(),
        ),
        "trailing-dot-number-every-token-stripped": (
            "call:f{left:-108.}",
            [("f", '{"left": -108.0}')],
            "",
            set(),
        ),
    },
}
