"""KimiParser: the grammar, every damage row (docs/behaviour.md), and chunking invariance."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.formats.catalogue.kimi import KimiParser, name_from_header
from sse_rewrite.stream.events import Markup, Notice, Piece, Text, ToolCall
from tests.chunking import chunkings, feed_pieces, json_values, normalize, rejoin, without_notices

SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"


def call(header: str, args: str) -> str:
    return f"{CB}{header}{AB}{args}{CE}"


def parse(text: str) -> list[Piece]:
    return chunkings(KimiParser, text)


def texts(pieces: list[Piece]) -> str:
    return "".join(p.text for p in pieces if isinstance(p, Text))


def calls(pieces: list[Piece]) -> list[tuple[str | None, str, str]]:
    return [(p.id, p.name, p.arguments) for p in pieces if isinstance(p, ToolCall)]


def codes(pieces: list[Piece]) -> set[str]:
    return {p.code for p in pieces if isinstance(p, Notice)}


def test_one_call_in_a_section() -> None:
    out = parse(SB + call("functions.bash:15", '{"cmd": "ls"}') + SE)
    assert calls(out) == [("functions.bash:15", "bash", '{"cmd": "ls"}')]
    assert texts(out) == ""
    assert codes(out) == set()


def test_text_around_and_between_sections_is_kept() -> None:
    text = (
        f"Let me look.\n{SB} {call('functions.a:0', '{}')} {SE}\nbetween "
        f"{SB}{call('functions.b:1', '[1]')}{SE} after"
    )
    out = parse(text)
    assert calls(out) == [("functions.a:0", "a", "{}"), ("functions.b:1", "b", "[1]")]
    assert texts(out) == "Let me look.\n\nbetween  after"


def test_several_calls_with_spacing_and_newlines() -> None:
    second = call("functions.read:1", '{"path": "b"}')
    text = f'{SB}\n {CB} functions.read:0 {AB} {{"path": "a"}} {CE}\n{second}\n{SE}'
    assert calls(parse(text)) == [
        ("functions.read:0", "read", '{"path": "a"}'),
        ("functions.read:1", "read", '{"path": "b"}'),
    ]


def test_each_call_is_emitted_when_its_end_arrives() -> None:
    parser = KimiParser()
    first = parser.feed(f"{SB}{call('functions.a:0', '{}')}")
    assert calls(first) == [("functions.a:0", "a", "{}")]
    assert calls(parser.feed(f"{CB}functions.b:1{AB}{{}}")) == []
    assert calls(parser.feed(CE)) == [("functions.b:1", "b", "{}")]


@pytest.mark.parametrize(
    ("header", "name"),
    [
        pytest.param("functions.bash:15", "bash", id="kimi-header"),
        pytest.param("functions.mcp__github__search-issues:7", "mcp__github__search-issues", id="mcp-name"),
        pytest.param("functions.pkg.mod.fn:3", "pkg.mod.fn", id="dots-in-name"),
        pytest.param("functions.ns:fn:12", "ns:fn", id="colon-in-name"),
        pytest.param("weather:0", "weather", id="no-functions-prefix"),
        pytest.param("functions.foo", "foo", id="no-index"),
        pytest.param("foo", "foo", id="bare-name"),
    ],
)
def test_header_gives_name_and_id(header: str, name: str) -> None:
    assert name_from_header(header) == name
    assert calls(parse(call(header, "{}"))) == [(header, name, "{}")]


def test_empty_arguments_become_an_empty_object() -> None:
    assert calls(parse(f"{SB}{call('functions.now:0', '  ')}{SE}"))[0][2] == "{}"
    assert calls(parse(f"{SB}{CB}functions.now:0{CE}{SE}"))[0][2] == "{}"


def test_arguments_are_kept_byte_for_byte_inside_their_trim() -> None:
    args = '{"b": 1,   "a": "ü \\" \\\\ {}[]",\n "n": null}'
    assert calls(parse(call("functions.f:0", f"\n {args} \n")))[0][2] == args


# -- docs/behaviour.md "Damage", one test per row


def test_call_begin_without_section_opens_one_implicitly() -> None:
    out = parse(f"ok {call('functions.a:0', '{}')} done")
    assert calls(out) == [("functions.a:0", "a", "{}")]
    assert texts(out) == "ok  done"


def test_missing_call_end_is_closed_by_the_next_call_begin() -> None:
    text = f'{SB}{CB}functions.a:0{AB}{{"x": 1}}' + call("functions.b:1", "{}") + SE
    out = parse(text)
    assert calls(out) == [("functions.a:0", "a", '{"x": 1}'), ("functions.b:1", "b", "{}")]
    assert "implicit-close" in codes(out)


def test_missing_call_end_is_closed_by_the_section_end() -> None:
    out = parse(f'{SB}{CB}functions.a:0{AB}{{"x": 1}}{SE}tail')
    assert calls(out) == [("functions.a:0", "a", '{"x": 1}')]
    assert texts(out) == "tail"


def test_close_marker_inside_a_json_string_is_data() -> None:
    args = '{"cmd": "grep \'<|tool_call_end|>\' x"}'
    out = parse(f"{SB}{call('functions.bash:1', args)}{SE}")
    assert calls(out) == [("functions.bash:1", "bash", args)]


def test_close_marker_in_a_string_followed_by_a_marker_is_the_close() -> None:
    args = '{"cmd": "unterminated}'
    out = parse(f"{SB}{call('functions.bash:1', args)}{SE}after")
    assert calls(out) == [("functions.bash:1", "bash", args)]
    assert texts(out) == "after"
    assert "invalid-arguments" in codes(out)


def test_close_marker_in_a_string_at_end_of_input_is_the_close() -> None:
    args = '{"cmd": "oops}'
    assert calls(parse(f"{SB}{call('functions.bash:1', args)}")) == [("functions.bash:1", "bash", args)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"The {SB} token opens a section.", id="section-opener-in-prose"),
        pytest.param(f"Kimi writes {CB} before each call.", id="call-opener-in-prose"),
        pytest.param(f"{SB} and then words", id="prose-right-after-opener"),
        pytest.param(f"{CB}{'x' * 300}", id="header-too-long"),
        pytest.param(f"a {CB}<b>bold</b>", id="markup-after-opener"),
    ],
)
def test_opener_followed_by_prose_is_released_unchanged(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text


def test_prose_after_an_opener_is_released_without_waiting_for_more_input() -> None:
    parser = KimiParser()
    # One word after the opener could still be a call header (its call-begin marker lost);
    # the first space settles it.
    out = parser.feed(f"The {SB} marker is")
    assert texts(out) == f"The {SB} marker is"
    assert not parser.pending


@pytest.mark.parametrize("closer", [CE, SE, "<|tool_call_section_end|>"])
def test_orphan_closers_alone_on_a_line_are_dropped_with_a_notice(closer: str) -> None:
    out = parse(f"a\n{closer}\nb")
    assert texts(out) == "a\n\nb"
    assert [p.raw for p in out if isinstance(p, Markup)] == [closer]
    assert "orphan-marker" in codes(out)
    assert texts(parse(f"a{closer}b")) == f"a{closer}b"  # inside words: words


def test_end_of_input_inside_a_call_with_complete_arguments_recovers_it() -> None:
    out = parse(f'x{SB}{CB}functions.a:0{AB}{{"k": [1, 2]}}')
    assert calls(out) == [("functions.a:0", "a", '{"k": [1, 2]}')]
    assert texts(out) == "x"
    assert "recovered-call" in codes(out)


def test_end_of_input_inside_a_call_with_a_cut_off_end_marker_recovers_it() -> None:
    out = parse(f'{SB}{CB}functions.a:0{AB}{{"k": 1}}<|tool_call_e')
    assert calls(out) == [("functions.a:0", "a", '{"k": 1}')]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f'{SB}{CB}functions.a:0{AB}{{"k": [1, ', id="incomplete-arguments"),
        pytest.param(f"{SB}{CB}functions.a:0{AB}", id="no-arguments-yet"),
        pytest.param(f"{SB}{CB}functions.a", id="inside-header"),
    ],
)
def test_end_of_input_inside_a_call_with_incomplete_arguments_passes_raw_text(text: str) -> None:
    out = parse(text)
    assert calls(out) == []
    assert texts(out) == text
    assert "truncated-call" in codes(out)


@pytest.mark.parametrize("tail", ["", "  \n", "<|tool_calls_section_end|", "<|tool_ca"])
def test_dangling_opener_followed_only_by_whitespace_is_dropped(tail: str) -> None:
    out = parse(f"hi{SB}{tail}")
    assert texts(out) == "hi"
    assert "dangling-opener" in codes(out)


def test_truncated_section_end_after_calls_is_dropped_quietly() -> None:
    out = parse(f"{SB}{call('functions.a:0', '{}')}<|tool_calls_section_end|")
    assert calls(out) == [("functions.a:0", "a", "{}")]
    assert texts(out) == ""
    assert "dangling-opener" not in codes(out)


def test_section_over_the_cap_is_released_as_text_and_scanning_resumes() -> None:
    big = f'{SB}{CB}functions.a:0{AB}{{"data": "{"x" * 200}"}}'
    parser = KimiParser(max_section_bytes=100)
    out = feed_pieces(parser, [big, " then ", call("functions.b:1", "{}")])
    assert texts(out) == big + " then "
    assert calls(out) == [("functions.b:1", "b", "{}")]
    assert "section-cap" in codes(out)
    assert rejoin(out) == big + " then " + call("functions.b:1", "{}")


def test_singular_section_spelling_is_accepted() -> None:
    text = f"<|tool_call_section_begin|>{call('functions.a:0', '{}')}<|tool_call_section_end|>"
    assert calls(parse(text)) == [("functions.a:0", "a", "{}")]


def test_header_streamed_in_pieces_like_real_logs() -> None:
    parser = KimiParser()
    tokens = [SB, CB, " functions", ".task", ":", "45", AB, '{"', "q", '":', ' "', "x", '"}', CE, SE]
    out = feed_pieces(parser, tokens)
    assert calls(out) == [("functions.task:45", "task", '{"q": "x"}')]


def test_unicode_text_and_arguments_survive() -> None:
    text = "日本語 🎉 " + call("functions.say:0", '{"msg": "héllo — 世界"}') + " fin ✓"
    out = parse(text)
    assert texts(out) == "日本語 🎉  fin ✓"
    assert calls(out)[0][2] == '{"msg": "héllo — 世界"}'


def test_feed_after_flush_raises() -> None:
    parser = KimiParser()
    parser.flush()
    with pytest.raises(RuntimeError):
        parser.feed("x")


# -- property: any chunking, same result; nothing lost

_prose = st.text(alphabet=st.sampled_from('ab <|>{}"\\:\n_.é'), max_size=12)
_json_value = json_values('xy"\\<|>_')


@st.composite
def kimi_texts(draw: st.DrawFn) -> str:
    import json

    parts = []
    for _ in range(draw(st.integers(0, 3))):
        parts.append(draw(_prose))
        n = draw(st.integers(1, 2))
        section = [call(f"functions.f{i}:{i}", json.dumps(draw(_json_value))) for i in range(n)]
        parts.append(SB + draw(st.sampled_from(["", " ", "\n"])).join(section) + SE)
    parts.append(draw(_prose))
    return "".join(parts)


@settings(max_examples=150, deadline=None)
@given(text=kimi_texts(), data=st.data())
def test_any_chunking_gives_the_same_result_and_loses_nothing(text: str, data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    split_out = normalize(feed_pieces(KimiParser(), pieces))
    whole_out = normalize(feed_pieces(KimiParser(), [text]))
    assert without_notices(split_out) == without_notices(whole_out)
    assert rejoin(split_out) == text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"{SB}{call('functions.a:0', '{}')}", id="after-a-call"),
        pytest.param(f'{SB}{CB}functions.a:0{AB}{{"k": 1}}', id="recovered-call"),
        pytest.param(f"hi{SB} ", id="dangling-opener"),
    ],
)
def test_nothing_is_pending_after_flush(text: str) -> None:
    parser = KimiParser()
    parser.feed(text)
    parser.flush()
    assert not parser.pending
