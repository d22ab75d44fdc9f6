"""`LiteralReader`: Python and Gemma 4 literals become JSON text; anything else is refused."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.machines.literals import LiteralReader, NotALiteral


def read(text: str, **kw: bool) -> object:
    reader = LiteralReader(text, **kw)
    value = reader.value()
    if not reader.at_end():  # (what the callers check: a literal is the whole value)
        raise NotALiteral("text after the literal")
    return json.loads(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("'it\\'s'", "it's", id="single-quotes-escaped"),
        pytest.param('"a\\nb\\t\\u00e9\\x41\\\\"', "a\nb\té" + "A\\", id="escapes"),
        pytest.param("r'C:\\dir\\n'", "C:\\dir\\n", id="raw-string"),
        pytest.param('"""multi\n"line"\n"""', 'multi\n"line"\n', id="triple-quoted"),
        pytest.param("'\\d+'", "\\d+", id="unknown-escape-kept"),
        pytest.param(
            "[1, -2, 3.5, .5, 1_000, 0x1F, 1e3, +4]", [1, -2, 3.5, 0.5, 1000, 31, 1000.0, 4], id="numbers"
        ),
        pytest.param("[True, False, None, true, null]", [True, False, None, True, None], id="words"),
        pytest.param("(1, (2,), [])", [1, [2], []], id="tuples-are-arrays"),
        pytest.param("{'a': {'b': [1]}, 2: 'x',}", {"a": {"b": [1]}, "2": "x"}, id="dict-literal-keys"),
        pytest.param('{"k": "v"}', {"k": "v"}, id="json-is-python"),
    ],
)
def test_python_literals_become_json(text: str, expected: object) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("__import__('os').system('ls')", id="a-call"),
        pytest.param("x", id="a-name"),
        pytest.param("1 + 2", id="an-expression"),
        pytest.param("[1, 2", id="unclosed"),
        pytest.param("'open", id="unclosed-string"),
        pytest.param("{[1]: 2}", id="unhashable-key"),
        pytest.param("float('nan')", id="nan"),
        pytest.param("'\\ud800'", id="lone-surrogate"),
        pytest.param("[" * 100 + "]" * 100, id="too-deep"),
    ],
)
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(NotALiteral):
        read(text)


def test_keyword_arguments_become_an_object() -> None:
    reader = LiteralReader('get_weather(location="Dublin, Ireland", days=3, units: "c")')
    assert reader.name() == "get_weather"
    reader.expect("(")
    assert json.loads(reader.keywords(")")) == {"location": "Dublin, Ireland", "days": 3, "units": "c"}
    with pytest.raises(NotALiteral):
        LiteralReader("1, 2)").keywords(")")  # positional arguments are not provable


GQ = '<|"|>'


@pytest.mark.parametrize(
    ("text", "stripped", "expected"),
    [
        pytest.param(
            f"{{s:{GQ}a, b: {{c}}{GQ},n:42,f:-1.5e2,t:true,z:null}}",
            False,
            {"s": "a, b: {c}", "n": 42, "f": -150.0, "t": True, "z": None},
            id="quote-tokens",
        ),
        pytest.param(
            f"{{o:{{k:{GQ}v{GQ}}},l:[1,{GQ}w{GQ},[]]}}",
            False,
            {"o": {"k": "v"}, "l": [1, "w", []]},
            id="nested",
        ),
        pytest.param(
            "{city:Dublin,days:3,ok:true,o:{k:v},l:[1,x]}",
            True,
            {"city": "Dublin", "days": 3, "ok": True, "o": {"k": "v"}, "l": [1, "x"]},
            id="stripped",
        ),
    ],
)
def test_gemma_objects_become_json(text: str, stripped: bool, expected: object) -> None:
    assert read(text, gemma=True, stripped=stripped) == expected


def test_a_stripped_gemma_string_with_a_comma_is_not_provable() -> None:
    with pytest.raises(NotALiteral):
        read("{city:Dublin, Ireland}", gemma=True, stripped=True)


python_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(python_values)
def test_the_repr_of_any_python_value_reads_back_as_its_json(value: object) -> None:
    try:
        expected = json.loads(json.dumps(value))
    except UnicodeEncodeError:  # (surrogates: JSON text cannot hold them)
        return
    if any(0xD800 <= ord(c) <= 0xDFFF for c in repr(value)):
        return
    got = read(repr(value))
    assert got == expected or _same_floats(got, expected)


def _same_floats(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same_floats, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_floats(a[k], b[k]) for k in a)
    return a == b
