"""No answer stranded in the reasoning field (docs/behaviour.md, "Think tags").

An id whose prompt opens the think block starts inside the reasoning; when no `</think>` comes
before a normal finish, the model answered without thinking: what moved to the reasoning field
is sent again as the answer, read back by the official SDKs in all three output protocols, one
token per chunk and at random cuts.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import openai
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.body import rewrite_completion
from sse_rewrite.stream.content_thinking import ContentThinking
from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.chunking import chunk_event, cut, token_stream
from tests.oracles import anthropic_final, openai_final
from tests.test_responses import sdk_events

CALL = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"

# (model, content tokens, finish, reasoning the client sees, answer it sees, calls, re-sent?)
ROWS = [
    pytest.param("z-ai/glm-5.3", ["The", " answer", " is", " 4."], "stop",
                 "The answer is 4.", "The answer is 4.", [], True, id="glm-5.3-answer-without-thinking"),
    pytest.param("minimax/minimax-m2.5", ["Hello", "!"], "stop", "Hello!", "Hello!", [], True,
                 id="minimax-m2"),
    pytest.param("deepseek/deepseek-r1", ["4", "."], "stop", "4.", "4.", [], True, id="r1"),
    pytest.param("z-ai/glm-5.3", ["Let me check.", *CALL], "stop", "Let me check.", "Let me check.",
                 [("get_weather", {"city": "Paris"})], True, id="glm-5.3-call-made-in-reasoning"),
    pytest.param("z-ai/glm-5.3", ["Let me", " add.", "</think>", "4."], "stop", "Let me add.", "4.", [],
                 False, id="closer-came"),
    pytest.param("z-ai/glm-5.3", ["<think>", "Let me", " add."], "stop", "Let me add.", "", [], False,
                 id="explicit-think-is-reasoning"),
    pytest.param("z-ai/glm-5.3", ["The", " answer"], "length", "The answer", "", [], False,
                 id="cut-by-length-may-still-think"),
    pytest.param("qwen/qwen3-32b", ["The", " answer"], "stop", "", "The answer", [], False,
                 id="prompt-opens-nothing"),
]


def rewritten(data: bytes, points: list[int] | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """`data` through the rewriter, fed whole or cut at `points`."""
    rewriter = StreamRewriter(RewriteOptions(**options))
    bounds = [] if points is None else points
    parts = [data[a:b] for a, b in zip([0, *bounds], [*bounds, len(data)], strict=True)]
    out = [item for part in parts for item in rewriter.feed(part)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def openai_seen(body: bytes) -> tuple[str, str, list[tuple[str, Any]], str]:
    """(reasoning, answer, calls, finish) as the openai SDK assembles them."""
    try:
        choice = openai_final(body).choices[0]
    except openai.LengthFinishReasonError as error:  # (the SDK's parse step refuses a cut answer)
        choice = error.completion.choices[0]
    message = choice.message
    reasoning = (message.model_extra or {}).get("reasoning_content") or ""
    calls = [(c.function.name, orjson.loads(c.function.arguments)) for c in message.tool_calls or []]
    return reasoning, message.content or "", calls, choice.finish_reason


@pytest.mark.parametrize(("model", "tokens", "finish", "reasoning", "answer", "calls", "resent"), ROWS)
def test_openai_one_token_per_chunk(model: str, tokens: list[str], finish: str, reasoning: str, answer: str,
                                    calls: list[Any], resent: bool) -> None:
    body, notices = rewritten(token_stream(tokens, finish=finish, model=model))
    seen = openai_seen(body)
    assert seen[:3] == (reasoning, answer, calls)
    assert ("stranded-answer" in {n.code for n in notices}) == resent
    assert seen[3] == ("tool_calls" if calls else finish)


@pytest.mark.parametrize(("model", "tokens", "finish", "reasoning", "answer", "calls", "resent"), ROWS)
def test_anthropic_a_text_block_after_the_thinking(model: str, tokens: list[str], finish: str, reasoning: str,
                                                   answer: str, calls: list[Any], resent: bool) -> None:
    body, _ = rewritten(token_stream(tokens, finish=finish, model=model), to="anthropic")
    blocks = [(b.type, b.thinking if b.type == "thinking" else b.text if b.type == "text" else b.name)
              for b in anthropic_final(body).content]
    kinds = [kind for kind, _ in blocks]
    assert "".join(text for kind, text in blocks if kind == "thinking") == reasoning
    assert "".join(text for kind, text in blocks if kind == "text") == answer
    if resent:  # the answer's text block comes after the thinking
        assert kinds.index("text") > kinds.index("thinking")


@pytest.mark.parametrize(("model", "tokens", "finish", "reasoning", "answer", "calls", "resent"), ROWS)
def test_responses_a_message_item_after_the_reasoning(model: str, tokens: list[str], finish: str,
                                                      reasoning: str, answer: str, calls: list[Any],
                                                      resent: bool) -> None:
    body, _ = rewritten(token_stream(tokens, finish=finish, model=model), to="responses")
    seen, response = sdk_events(body)
    if isinstance(response, RuntimeError):  # (cut by length: an incomplete response)
        response = seen[-1].response
    output = [(item.type, item.content[0].text if item.type in ("message", "reasoning") else item.name)
              for item in response.output]
    assert "".join(text for kind, text in output if kind == "reasoning") == reasoning
    assert "".join(text for kind, text in output if kind == "message") == answer
    if resent:
        kinds = [kind for kind, _ in output]
        assert kinds.index("message") > kinds.index("reasoning")


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([row.values for row in ROWS]), st.lists(st.integers(min_value=1), max_size=8))
def test_the_same_at_random_cuts(row: tuple[Any, ...], points: list[int]) -> None:
    model, tokens, finish, reasoning, answer, calls, _ = row
    text = "".join(tokens)
    pieces = cut(text, [p % len(text) for p in points])
    stream = token_stream([p for p in pieces if p], finish=finish, model=model)
    body, _ = rewritten(stream, sorted({p % len(stream) for p in points} - {0}))
    assert openai_seen(body)[:3] == (reasoning, answer, calls)


def test_one_choice_of_two_is_stranded() -> None:
    model = "z-ai/glm-5.3"
    turns = [(0, "plan"), (1, "Four"), (0, "</think>"), (1, "."), (0, "4.")]
    stream = b"".join(chunk_event({"content": token}, choice=choice, model=model) for choice, token in turns)
    stream += chunk_event({}, "stop", model=model) + chunk_event({}, "stop", choice=1, model=model)
    body, notices = rewritten(stream + b"data: [DONE]\n\n")
    choices = openai_final(body).choices
    assert [(c.message.content, (c.message.model_extra or {}).get("reasoning_content")) for c in choices] == [
        ("4.", "plan"), ("Four.", "Four.")]
    assert [n.code for n in notices].count("stranded-answer") == 1


def test_past_the_section_cap_only_a_notice() -> None:
    tokens = ["word "] * 40  # 200 bytes, over a cap of 64: not held, not re-sent
    body, notices = rewritten(token_stream(tokens, model="z-ai/glm-5.3"), max_section_bytes=64)
    reasoning, answer, _, _ = openai_seen(body)
    assert (reasoning, answer) == ("word " * 40, "")
    [notice] = [n for n in notices if n.code == "stranded-answer"]
    assert "200 bytes" in notice.message and "too long" in notice.message


def test_a_request_with_thinking_off_keeps_the_answer_in_content() -> None:
    body, notices = rewritten(token_stream(["The", " answer"], model="z-ai/glm-5.3"), prompt_think=False)
    assert openai_seen(body)[:2] == ("", "The answer")
    assert not notices


def test_a_whole_body_gets_its_answer_too() -> None:
    message = {"role": "assistant", "content": "The answer is 4."}
    completion = {"id": "c", "object": "chat.completion", "model": "z-ai/glm-5.3",
                  "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    body, notices, _ = rewrite_completion(orjson.dumps(completion))
    out = orjson.loads(body)["choices"][0]["message"]
    assert (out["reasoning_content"], out["content"]) == ("The answer is 4.", "The answer is 4.")
    assert [n.code for n in notices] == ["stranded-answer"]


@contextlib.contextmanager
def parsers_made() -> Iterator[list[object]]:
    """While open, each parser a stream's format makes (`stream_format._parser_factory`)."""
    from sse_rewrite.stream import stream_format

    made: list[object] = []
    factory = stream_format._parser_factory

    def counted(*args: Any) -> Any:
        make = factory(*args)
        return lambda: made.append(make()) or made[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream_format, "_parser_factory", counted)
        yield made


def test_the_stranded_answer_is_read_by_the_parser_the_choice_made_first() -> None:
    # (one parser fewer a stream: the one the choice made to ask `reads_from_start`, unfed till then)
    with parsers_made() as made:
        body, _ = rewritten(token_stream(["Four", "."], model="z-ai/glm-5.3"))
    assert openai_seen(body)[:2] == ("Four.", "Four.")
    assert len(made) == 2  # (the reasoning field's, and the first: the answer's)


def test_after_the_closer_the_content_is_read_by_the_parser_the_choice_made_first() -> None:
    # (two parsers fewer a think stream: a closer alone is split with no parser reading ahead, and
    # once no answer can be stranded, the unfed one made first reads the content)
    with parsers_made() as made:
        tokens = ["Let me", " check.", "</think>", "Sure.", *CALL]
        body, _ = rewritten(token_stream(tokens, model="z-ai/glm-5.3"))
    assert openai_seen(body)[:3] == ("Let me check.", "Sure.", [("get_weather", {"city": "Paris"})])
    assert len(made) == 2  # (the first, the content's; the reasoning field's)


@pytest.mark.parametrize(("model", "tokens", "read"), [
    pytest.param("z-ai/glm-5.3", ["The", " answer", " is", " 4."], False, id="no-marker-lead"),
    pytest.param("minimax/minimax-m2.5", ["Let me", " think"], False, id="no-letter-led-word"),
    pytest.param("minimax/minimax-m2.5", ["Let me", " think, m"], True, id="a-word-start-at-the-end"),
    pytest.param("minimax/minimax-m2.5", ["see ", "minimax:tool_call>"], True, id="a-letter-led-word"),
    pytest.param("z-ai/glm-5.3", ["a < b", "."], True, id="a-lead"),
])
def test_a_stranded_answer_no_marker_may_begin_in_is_unread(
    model: str, tokens: list[str], read: bool
) -> None:
    # (a fresh parser would hand it back whole: `choice_thoughts.hands_back`)
    from sse_rewrite.formats import FORMATS, select_format
    from sse_rewrite.stream import choice

    syntax = FORMATS[select_format(model, "auto")[0] or ""]
    getattr(syntax, "composition", lambda: None)()  # (built, as after a process's first marker)
    asked: list[bool] = []
    hands_back = choice.hands_back

    def counted(parser: Any, text: str) -> bool:
        asked.append(hands_back(parser, text))
        return asked[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(choice, "hands_back", counted)
        body, _ = rewritten(token_stream(tokens, model=model))
    answer = "".join(tokens)
    assert openai_seen(body)[:2] == (answer, answer)
    assert asked == [not read]


@contextlib.contextmanager
def texts_fed() -> Iterator[list[list[str]]]:
    """While open, the texts fed to each parser a stream's format makes, a list a parser."""
    from sse_rewrite.stream import stream_format

    fed: list[list[str]] = []
    factory = stream_format._parser_factory

    def counted(*args: Any) -> Any:
        make = factory(*args)

        def made() -> Any:
            parser, texts = make(), []
            fed.append(texts)
            feed = parser.feed
            parser.feed = lambda text: texts.append(text) or feed(text)
            return parser
        return made

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream_format, "_parser_factory", counted)
        yield fed


@pytest.mark.parametrize(("model", "tokens", "answer"), [
    pytest.param("z-ai/glm-5.3", ["Let me check.", *CALL, " Done."], "Let me check. Done.", id="glm"),
    pytest.param("minimax/minimax-m2.5", ["Let me", " check.", *(
        '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
        "</invoke>\n</minimax:tool_call>"), " Done."], "Let me check. Done.", id="minimax-m2"),
])
def test_a_stranded_answer_is_what_the_reasoning_parser_left_not_read_again(
    model: str, tokens: list[str], answer: str
) -> None:
    # (that parser read the moved text alone: the text it gave back is the answer, kept as it went,
    # `ContentThinking.answer`; no parser reads the whole answer again)
    with texts_fed() as fed:
        body, notices = rewritten(token_stream(tokens, model=model))
    assert openai_seen(body)[:3] == (answer, answer, [("get_weather", {"city": "Paris"})])
    assert [n.code for n in notices] == ["stranded-answer"]
    assert all("".join(tokens) not in texts for texts in fed)


def _without_ids(body: bytes) -> bytes:
    """`body` with its call ids blanked (each stream makes its own)."""
    return re.sub(rb'"id": ?"[^"]*"', b'"id":""', body)


_LEAKS = [
    "Let me check.", "a < b", CALL, " Done.",
    '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n'
    "</minimax:tool_call>", "<invoke", "</tool_call>", "<arg_key>x", "`<tool_call>`\n",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["z-ai/glm-5.3", "minimax/minimax-m2.5"]),
       st.lists(st.sampled_from(_LEAKS), max_size=6), st.lists(st.integers(min_value=1), max_size=10),
       st.booleans(), st.sampled_from(["stop", "tool_calls"]))
def test_the_answer_kept_as_read_is_the_answer_read_again(
    model: str, parts: list[str], points: list[int], fast: bool, finish: str
) -> None:
    # (differential: the text the reasoning field's parser gave back, against a fresh parser's read,
    # at random token cuts and read cuts, the fast paths on and off)
    text = "".join(parts) or "x"
    tokens = [p for p in cut(text, [p % len(text) for p in points]) if p]
    stream = token_stream(tokens, finish=finish, model=model)
    cuts = sorted({p % len(stream) for p in points} - {0})
    options = {"plain_runs": fast, "token_runs": fast}
    kept = rewritten(stream, cuts, **options)
    answer = ContentThinking.answer
    with pytest.MonkeyPatch.context() as patch:  # (it declines: a fresh parser reads the answer again)
        patch.setattr(ContentThinking, "answer", lambda self, text: (answer(self, text), None)[1])
        again = rewritten(stream, cuts, **options)
    assert _without_ids(kept[0]) == _without_ids(again[0])
    assert kept[1] == again[1]
