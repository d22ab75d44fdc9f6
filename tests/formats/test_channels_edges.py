"""The channel and token syntaxes at their edges: which ids read what, the cap, invalid UTF-8,
and `--stream-arguments` (docs/behaviour.md, "Channel and token syntaxes" and "Damage")."""

from __future__ import annotations

import orjson
import pytest

from sse_rewrite.body import rewrite_completion
from sse_rewrite.formats import FORMATS, select_format
from sse_rewrite.rewrite_options import RewriteOptions
from sse_rewrite.stream.events import Reasoning
from tests.chunking import calls, codes, feed_pieces, rejoin, texts
from tests.formats.channel_rows import PARSERS, ROWS
from tests.formats.harness import cases, invalid_utf8_replaced_only_where_rewritten, prose_released_at_once
from tests.formats.streamed import checked


@pytest.mark.parametrize(
    ("model", "picked"),
    [
        ("openai/gpt-oss-20b", "gpt-oss+special-tokens"),  # (`openai/` alone would mean native tool_calls)
        ("gpt-oss:120b", "gpt-oss+special-tokens"),
        ("@cf/openai/gpt-oss-120b", "gpt-oss+special-tokens"),
        ("ByteDance-Seed/Seed-OSS-36B-Instruct", "seed+special-tokens"),
        ("moonshotai/Kimi-K2-Instruct-0905", "kimi+deepseek"),
        ("gpt-4o", "native+special-tokens"),
    ],
)
def test_model_ids_pick_their_syntax(model: str, picked: str) -> None:
    name, why = select_format(model, "auto")
    assert name == picked
    assert "harmony" in why


@pytest.mark.parametrize(
    "name", ["native+special-tokens", "special-tokens", "qwen+special-tokens", "kimi+deepseek"]
)
def test_distinctive_markers_are_read_under_any_id_and_stripped_forms_are_not(name: str) -> None:
    for text in ("analysisUser says hi.assistantfinalHello!", 'See functions.read:0{"p": 1} here'):
        out = feed_pieces(FORMATS[name](), [text])
        assert (texts(out), calls(out)) == (
            (text, [])
            if "analysis" in text or name != "kimi+deepseek"
            else ("See  here", [("functions.read:0", "read", '{"p": 1}')])
        )
    for fmt in ("harmony", "seed", "kimi-k3"):
        text, expected, *_ = next(iter(ROWS[fmt].values()))
        assert [c[1:] for c in calls(feed_pieces(FORMATS[name](), [text]))] == expected, (name, fmt)


CAP = {  # an open call, then the later call read after the released text
    "harmony": (
        '<|channel|>commentary to=functions.a<|message|>{"d": "',
        "<|channel|>commentary to=functions.b<|message|>{}<|call|>",
    ),
    "gpt-oss+special-tokens": (
        'analysisGo.assistantcommentary to=functions.a json{"d": "',
        "assistantcommentary to=functions.b json{}",
    ),
    "seed": (
        "<seed:tool_call><function=a><parameter=d>",
        "<seed:tool_call><function=b></function></seed:tool_call>",
    ),
    "kimi-k3": (
        '<|open|>tools<|sep|><|open|>call tool="a" index="1"<|sep|><|open|>argument key="d"<|sep|>',
        '<|open|>call tool="b" index="2"<|sep|><|close|>call<|sep|>',
    ),
    "kimi+deepseek": ('functions.a:0{"d": "', "functions.b:1{}"),
}


@pytest.mark.parametrize("name", list(CAP))
def test_a_call_over_the_cap_is_released_and_scanning_resumes(name: str) -> None:
    opener, later = CAP[name]
    held = opener + "x" * 200
    out = feed_pieces(FORMATS[name](100), [held, " then\n", later])
    assert held.removeprefix("analysisGo.") in texts(out) + "".join(getattr(p, "text", "") for p in out)
    assert [c[1] for c in calls(out)] == ["b"]
    assert "section-cap" in codes(out)
    assert rejoin(out) == held + " then\n" + later


ONE_CALL = {
    "harmony": "<|channel|>commentary to=functions.b<|message|>{}<|call|>",
    "seed": "<seed:tool_call><function=b></function></seed:tool_call>",
    "kimi-k3": '<|open|>tools<|sep|><|open|>call tool="b" index="1"<|sep|><|close|>call<|sep|>'
    "<|close|>tools<|sep|>",
}


@pytest.mark.parametrize("fmt", list(ONE_CALL))
def test_invalid_utf8_is_replaced_only_in_rewritten_text(fmt: str) -> None:
    invalid_utf8_replaced_only_where_rewritten(fmt, ONE_CALL[fmt])


CASES = cases(ROWS)


@pytest.mark.parametrize(("fmt", "row"), CASES)
def test_streamed_arguments_keep_their_promises(fmt: str, row: str) -> None:
    """Streamed text is a prefix of the final arguments; a call that does not break comes out
    as without streaming (one that breaks after its announcement is completed as written)."""
    text = ROWS[fmt][row][0]
    name = PARSERS[fmt][0]
    reference = feed_pieces(FORMATS[name](), [text])
    for size in (None, 1, 4):
        pieces = [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)]
        out = feed_pieces(FORMATS[name](stream_arguments=True), pieces)
        got_calls, _, _ = checked(out)
        if not codes(out) & {"truncated-call", "section-cap"}:
            assert got_calls == calls(reference), size


def test_a_whole_body_gets_harmony_reasoning_in_its_reasoning_field() -> None:
    content = (
        "<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>commentary to=functions.f"
        ' json<|message|>{"a":1}<|call|>'
    )
    message = {"role": "assistant", "content": content}
    body = {"id": "x", "object": "chat.completion", "model": "openai/gpt-oss-20b",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}  # fmt: skip
    out, _, calls_made = rewrite_completion(orjson.dumps(body), RewriteOptions())
    choice = orjson.loads(out)["choices"][0]
    assert (choice["message"]["content"], choice["message"]["reasoning_content"]) == ("", "think")
    assert choice["message"]["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"a":1}'}
    assert (choice["finish_reason"], calls_made) == ("tool_calls", 1)


def test_seed_think_is_reasoning_only_where_seed_is_picked() -> None:
    text = "<seed:think>plan</seed:think>Answer"
    for name in ("seed", "seed+special-tokens"):
        out = feed_pieces(FORMATS[name](), [text[:7], text[7:]])
        assert (texts(out), "".join(p.text for p in out if isinstance(p, Reasoning))) == ("Answer", "plan")
    assert texts(feed_pieces(FORMATS["special-tokens"](), [text])) == text  # quoted in prose, say


PROSE = {
    "harmony": "The <|channel|> token names a channel, and",
    "seed": "The <seed:tool_call> tag wraps a call, and",
    "kimi-k3": "The <|open|> token opens a tag, and <|open|>tools<|sep|> a section, and",
    "kimi+deepseek": "Call functions.read:0{ with care, or functions.read as",
    "gpt-oss+special-tokens": "analysis of the <|channel|> token, and",
}


@pytest.mark.parametrize("name", list(PROSE))
def test_prose_after_an_opener_is_released_without_waiting(name: str) -> None:
    prose_released_at_once((name,), PROSE[name])


BACK_TO_BACK = {
    "harmony": '<|start|>assistant<|channel|>commentary to=functions.f json<|message|>{"a": "xxxx"}<|call|>',
    "seed": "<seed:tool_call><function=f><parameter=a>xxxxxxxx</parameter></function></seed:tool_call>",
    "kimi-k3": '<|open|>call tool="f" index="1"<|sep|><|open|>argument key="a"<|sep|>x<|close|>argument'
    "<|sep|><|close|>call<|sep|>",
    "kimi+deepseek": 'functions.f:0{"a": "xxxxxxxx"}',
    "dsml": '<｜DSML｜tool_calls><｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="true">xxxxxxxx'  # noqa: RUF001
    "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>",  # noqa: RUF001 (the invoke machine's, as Seed's)
}


@pytest.mark.parametrize("name", list(BACK_TO_BACK))
def test_calls_back_to_back_in_reads_that_end_inside_the_next_keep_the_buffer_small(name: str) -> None:
    call, parser, made = BACK_TO_BACK[name], FORMATS[name](), 0
    for i in range(3000):  # every read ends inside the next call: the parser never rests in plain text
        made += len(calls(parser.feed(call[25:] + call[:25] if i else call[:25])))
    assert made == 2999
    assert len(parser._scan.view) < 20_000  # type: ignore[attr-defined]  # (what a flood of calls left behind)
