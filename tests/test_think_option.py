"""`--think`: `<think>` reasoning leaked into content moves to the reasoning field, tool
syntax inside it is still repaired, at every cut, with accelerators on and off; the openai
SDK assembles `message.reasoning_content` and `message.content` from the result."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sse_rewrite.body import rewrite_completion
from sse_rewrite.stream.assemble import assemble as assembled
from sse_rewrite.stream.rewrite import RewriteOptions
from tests.chunking import chunk_event, cut, field_stream, rewrite_stream, token_stream
from tests.formats.damage_rows import ROWS
from tests.fuzzing import assemble, cut_points, pieces

pytestmark = pytest.mark.usefixtures("accelerators")

K = "<|tool_call_begin|>functions.ls:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
LEAK = f"Sure.<think>Let me look {K} first.</think>The answer."
KIMI_THINKING = "moonshotai/kimi-k2-thinking"


def final(stream: bytes) -> tuple[str, str, list[tuple[str, str]], str | None]:
    """Content, reasoning, calls (name, arguments) and finish reason, as a client assembles them
    (`assemble`; test_assemble.py holds it to the openai SDK)."""
    choice = assembled(stream).choices[0]
    calls = [(c.name, c.arguments) for _, c in sorted(choice.calls.items())]
    text = choice.text
    return text.get("content", ""), text.get("reasoning_content", ""), calls, choice.finish_reason


def stream_of(pieces: list[str], model: str, field: str = "content") -> bytes:
    return token_stream(pieces, field=field, model=model)


def test_think_tags_move_to_reasoning_and_calls_in_them_are_repaired_at_every_cut() -> None:
    expected = ("Sure.The answer.", "Let me look  first.", [("ls", "{}")], "tool_calls")
    for point in range(1, len(LEAK)):
        assert final(rewrite_stream(stream_of(cut(LEAK, [point]), KIMI_THINKING))) == expected, point
    for size in (1, 3):
        pieces = [LEAK[i : i + size] for i in range(0, len(LEAK), size)]
        for options in ({}, {"stream_arguments": True}):
            assert final(rewrite_stream(stream_of(pieces, KIMI_THINKING), **options)) == expected


def test_think_off_and_models_that_write_no_tags_leave_them_in_content() -> None:
    text = "a <think>b</think> c"
    for model, options in ((KIMI_THINKING, {"think": "off"}), ("moonshotai/kimi-k2.5", {})):
        out = final(rewrite_stream(stream_of(cut(text, [3, 9]), model), **options))
        assert out == (text, "", [], "stop")
    assert final(rewrite_stream(stream_of([text], "any-model"), think="on"))[:2] == ("a  c", "b")


@pytest.mark.parametrize("model", ["deepseek/deepseek-r1", "z-ai/glm-4.7", "minimax/minimax-m2"])
def test_an_opener_in_the_prompt_or_in_the_output_gives_the_same_reasoning(model: str) -> None:
    expected = ("4.", "Let me add 2 and 2.", [], "stop")
    for text in ("<think>Let me add 2 and 2.</think>4.", "Let me add 2 and 2.</think>4."):
        for size in (1, 3, len(text)):
            assert final(rewrite_stream(stream_of([text[i : i + size] for i in range(0, len(text), size)],
                                                  model))) == expected, (text, size)  # fmt: skip
        choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        body = orjson.dumps({"id": "x", "object": "chat.completion", "model": model, "choices": [choice]})
        message = orjson.loads(rewrite_completion(body)[0])["choices"][0]["message"]
        assert (message["content"], message["reasoning_content"]) == expected[:2]


def test_a_closer_first_in_content_ends_the_reasoning_the_provider_sent() -> None:
    deltas = [{"content": ""}, {"reasoning_content": "Let me"}, {"reasoning_content": " add."},
              {"content": "</thi"}, {"content": "nk>"}, {"content": "\n\n4."}]  # fmt: skip
    for model, options in (("deepseek/deepseek-r1", {}), ("z-ai/glm-4.7", {"think": "on"})):
        out = final(rewrite_stream(field_stream(deltas, model=model), **options))
        assert out == ("\n\n4.", "Let me add.", [], "stop")
    # off, or a template that does not open the tag in the prompt: untouched
    for model, options in (("deepseek/deepseek-r1", {"think": "off"}), ("any-model", {"think": "on"})):
        out = final(rewrite_stream(field_stream(deltas, model=model), **options))
        assert out[:2] == ("</think>\n\n4.", "Let me add.")


def test_an_r1_answer_may_begin_inside_its_reasoning() -> None:
    text = "First, the user asks.</think>\n\nHello!"
    for point in range(1, len(text)):
        out = final(rewrite_stream(stream_of(cut(text, [point]), "deepseek/deepseek-r1")))
        assert out == ("\n\nHello!", "First, the user asks.", [], "stop"), point


def test_a_provider_that_splits_reasoning_itself_keeps_its_answer_in_content() -> None:
    stream = field_stream([{"reasoning_content": "thinking"}, {"content": "Hello"}, {"content": " there"}],
                          model="deepseek/deepseek-r1")  # fmt: skip
    assert final(rewrite_stream(stream)) == ("Hello there", "thinking", [], "stop")
    assert rewrite_stream(stream) == stream


def test_the_stream_s_own_reasoning_field_receives_the_moved_text() -> None:
    stream = field_stream([{"reasoning": "a"}, {"content": "<think>b</think>c"}], model=KIMI_THINKING)
    out = rewrite_stream(stream)
    assert b'"reasoning":"b"' in out and b'"reasoning_content"' not in out


def test_a_tag_prefix_held_at_the_end_comes_out_as_content() -> None:
    held = chunk_event({"content": "x <thi"}, model=KIMI_THINKING)
    finish = chunk_event({}, "stop", model=KIMI_THINKING) + b"data: [DONE]\n\n"
    for stream in (held + finish, held):  # closed by a finish_reason, or by the end of input
        assert final(rewrite_stream(stream))[:2] == ("x <thi", "")


def test_a_whole_completion_body_is_split_too() -> None:
    body = orjson.dumps({"id": "c", "object": "chat.completion", "model": KIMI_THINKING, "choices": [
        {"index": 0, "message": {"role": "assistant", "content": LEAK}, "finish_reason": "stop"}]})
    out, _, calls = rewrite_completion(body)
    message = orjson.loads(out)["choices"][0]["message"]
    assert (message["content"], message["reasoning_content"]) == ("Sure.The answer.", "Let me look  first.")
    assert calls == 1
    assert message["tool_calls"][0]["function"]["name"] == "ls"
    kept = orjson.loads(rewrite_completion(body, RewriteOptions(think="off"))[0])["choices"][0]["message"]
    assert kept["content"] == "Sure.<think>Let me look  first.</think>The answer."
    assert "reasoning_content" not in kept


ROW_CASES = [pytest.param(fmt, row, id=f"{fmt}-{row}") for fmt, rows in ROWS.items() for row in rows]


@pytest.mark.parametrize("size", [3, None], ids=["3-chars", "one-chunk"])
@pytest.mark.parametrize(("fmt", "row"), ROW_CASES)
def test_every_damage_row_inside_think_tags_is_read_as_in_reasoning(
    fmt: str, row: str, size: int | None
) -> None:
    text, expected_calls, kept, _ = ROWS[fmt][row]
    content = f"<think>{text}</think>answer"
    pieces = [content] if size is None else [content[i : i + size] for i in range(0, len(content), size)]
    for options in ({}, {"stream_arguments": True}):
        out = final(rewrite_stream(stream_of(pieces, "any-model"), format=fmt, think="on", **options))
        # (a stop sequence's rows close their last value: `</think>` ending the field then ends a call
        # whose values are complete, recovered as at a normal finish; docs/behaviour.md, "Damage")
        cut = row == "eof-in-call-incomplete" or (
            row.startswith("stop-") and "open" in row and fmt in ("qwen3-coder", "glm")
        )
        if options and cut and fmt != "text":
            # (announced, then broken: completed as written; `</think>` ended its field)
            assert out[2] and out[2][0][0] == "f"
            continue
        if cut and row.startswith("stop-"):  # `</think>` cut its value, not a stop sequence: text
            assert out == ("answer", text, [], "stop")
            continue
        assert out == ("answer", kept, expected_calls, "tool_calls" if expected_calls else "stop")


TAGGED_ARGS = '{"path": "p.md", "text": "Wrap it in <think> and </think> tags."}'
WRITES = f'<think>Plan.</think>Writing.<tool_call>{{"name": "write", "arguments": {TAGGED_ARGS}}}</tool_call>'


OPENS_CALL_AND_TAGS = WRITES.index("tags.")  # the first chunk opens the call and holds both tags


@pytest.mark.parametrize("size", [1, 3, 7, OPENS_CALL_AND_TAGS, len(WRITES)])
def test_tags_inside_a_tool_call_are_its_arguments_not_reasoning(size: int) -> None:
    # also when the chunk that opens the call holds the tags, the call going on in the
    # next chunk or closing in the same one (the whole text in one chunk)
    pieces = [WRITES[i : i + size] for i in range(0, len(WRITES), size)]
    for options in ({}, {"stream_arguments": True}):
        out = final(rewrite_stream(stream_of(pieces, "qwen/qwen3-32b"), **options))
        assert out == ("Writing.", "Plan.", [("write", TAGGED_ARGS)], "tool_calls"), options


def test_tags_inside_a_tool_call_of_a_whole_body_are_its_arguments() -> None:
    message = {"role": "assistant", "content": WRITES + " Done."}
    body = orjson.dumps({"id": "c", "object": "chat.completion", "model": "qwen/qwen3-32b",
                         "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    message = orjson.loads(rewrite_completion(body)[0])["choices"][0]["message"]
    assert (message["content"], message["reasoning_content"]) == ("Writing. Done.", "Plan.")
    assert message["tool_calls"][0]["function"]["arguments"] == TAGGED_ARGS


def test_a_call_inside_the_reasoning_of_one_chunk_moves_with_it() -> None:
    text = f"<think>Look {K} then answer.</think>It is done."
    out = final(rewrite_stream(stream_of([text], KIMI_THINKING)))
    assert out == ("It is done.", "Look  then answer.", [("ls", "{}")], "tool_calls")


@pytest.mark.parametrize("fmt", ["none", "hermes"])
def test_a_tag_split_over_events_is_one_tag_with_or_without_a_tool_format(fmt: str) -> None:
    tokens = ["a <", "th", "ink>b</think>c", " plain <", " not a tag"]
    out = final(rewrite_stream(stream_of(tokens, "m"), format=fmt, think="on"))
    assert out == ("a c plain < not a tag", "b", [], "stop")


TAG_BITS = ["<think>", "</think>", "<", "</", "<th", "think>", "plan ", "answer ", " ", "\n"]


@settings(max_examples=150, deadline=None)
@given(fmt=st.sampled_from(["none", "hermes", "kimi"]), bits=st.lists(st.sampled_from(TAG_BITS), max_size=10),
       points=cut_points)
@example(fmt="hermes", bits=["<think>", "</think>", "<th"], points=[14, 16])  # `<` of the last event lost
@example(fmt="none", bits=["a <think>", "b"], points=[3])  # `--format none` read no tag split over events
@example(fmt="hermes", bits=["<think>", "<", "</think>"], points=[9])  # the split's choice was not sent
def test_tags_come_out_the_same_in_any_chunking(fmt: str, bits: list[str], points: list[int]) -> None:
    text = "".join(bits)
    whole = assemble(rewrite_stream(stream_of([text], "m"), format=fmt, think="on"))
    cut_up = assemble(rewrite_stream(stream_of(pieces(text, points), "m"), format=fmt, think="on"))
    assert cut_up == whole


def _two_choices(first: list[str], second: list[str], model: str) -> bytes:
    """Choice 0's tokens, then choice 1's (its first event while choice 0 holds nothing), each ends."""
    events = []
    for index, tokens in enumerate((first, second)):
        deltas = [{"role": "assistant", "content": token} for token in tokens]
        events += [chunk_event(delta, model=model, choice=index) for delta in deltas]
        events.append(chunk_event({"content": ""}, "stop", model=model, choice=index))
    return b"".join(events) + b"data: [DONE]\n\n"


@pytest.mark.parametrize(
    ("model", "second", "expected"),
    [
        pytest.param("z-ai/glm-4.7", ["Hmm, ", "two", ".</think>", "Yes."], ("Yes.", "Hmm, two."),
                     id="prompt-opened-think-second-choice"),
        pytest.param("z-ai/glm-4.7", ["Hmm", ".</think>", "Yes."], ("Yes.", "Hmm."),
                     id="prompt-opened-think-second-choice-closer-in-its-second-event"),
    ],
)  # fmt: skip
def test_a_choice_that_first_appears_while_the_stream_is_idle_is_read_from_its_start(
    model: str, second: list[str], expected: tuple[str, str]
) -> None:
    # choice 0 is done (nothing held) when choice 1's first event comes: it must still be read
    body = _two_choices(["One.</think>", "Done."], second, model)
    rewritten = rewrite_stream(body)
    by_choice: dict[int, dict[str, str]] = {}
    for line in rewritten.split(b"\n\n"):
        if line.startswith(b"data: {"):
            for choice in orjson.loads(line[6:])["choices"]:
                fields = by_choice.setdefault(choice["index"], {})
                for key, value in choice["delta"].items():
                    if isinstance(value, str) and key != "role":
                        fields[key] = fields.get(key, "") + value
    content, thought = expected
    assert by_choice[1].get("content", "").strip() == content.strip()
    assert by_choice[1].get("reasoning_content", "") == thought
