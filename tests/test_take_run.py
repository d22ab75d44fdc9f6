"""`ChoiceState.take_run`: the token runs' absorbs and feeds ahead of one run in one call, against
the same run asked one call a text (`absorb_texts`, as `ChoiceState` had it, then `feed_ahead` on
the text it declined, in turn), over the think-block shapes (MiniMax M2 without a block and after
one, GLM in a block and in its own reasoning field), stripped harmony's analysis and calls, and
random cuts of their texts and of the stream's reads: the same bytes, the same notices, and the
general path's."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.stream.choice_state import ChoiceState
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.fuzzing import pieces

GLM, MINIMAX, GPT_OSS = "z-ai/glm-4.7", "minimax/minimax-m2.1", "openai/gpt-oss-120b"
THOUGHT = ["Let ", "me l", "ook", " é", '"', "\\", "\n", "`x`", "|", " ok", "[", "]"]
MINIMAX_CALL = ["<minimax:tool_call>", "\n", "<invoke", " name", '="', "bash", '">', "\n", "<parameter",
                " name", '="', "cmd", '">', "ls", " -la", " src", "/", " && ", "echo", " ok", "</parameter>",
                "\n", "<parameter", " name", '="', "n", '">', "1", "</parameter>", "\n", "</invoke>", "\n",
                "</minimax:tool_call>"]
GLM_CALL = ["<tool_call>", "bash", "\n", "<arg_key>", "cmd", "</arg_key>", "\n", "<arg_value>", "ls",
            " -la", "</arg_value>", "\n", "<arg_key>", "n", "</arg_key>", "\n", "<arg_value>", "1",
            "</arg_value>", "\n", "</tool_call>"]
HARMONY_CALL = ["assistant", "commentary", " to", "=functions", ".bash", " json", '{"cmd"', ': "ls', ' -la"',
                "}"]
SHAPES = {  # model, field, texts
    "minimax-no-block": (MINIMAX, "content", [*THOUGHT, *MINIMAX_CALL, *THOUGHT, *MINIMAX_CALL, "Done."]),
    "minimax-block": (MINIMAX, "content", [*THOUGHT, "</think>", "\n\n", *THOUGHT, *MINIMAX_CALL * 2]),
    "minimax-cut": (MINIMAX, "content", [*MINIMAX_CALL, *MINIMAX_CALL[:15]]),
    "glm-block": (GLM, "content", [*THOUGHT, *GLM_CALL, "</think>", *THOUGHT, *GLM_CALL * 2]),
    "glm-own-field": (GLM, "reasoning_content", [*THOUGHT, *GLM_CALL, *THOUGHT, *GLM_CALL * 2]),
    "glm-own-field-empty-texts": (GLM, "reasoning_content", [*GLM_CALL[:5], "", *GLM_CALL[5:], "", "x"]),
    "stripped-harmony": (GPT_OSS, "content", ["analysis", *THOUGHT, "y la", "yout", *HARMONY_CALL, *THOUGHT,
                                              "a", "c", "assi", *HARMONY_CALL, "Done."]),
    "stripped-harmony-held-header": (GPT_OSS, "content", [  # (held starts that go on, and one that stops)
        "analysis", *THOUGHT, "assistant", "comm", "entary", " t", "o=", "functio", "n", *THOUGHT,
        "commentary", " to", "=functions", ".bash", '{"cmd": 1}', "assistant", "commentary", " to",
        "=functions.", "x", "{}"]),
}


def stream(model: str, field: str, texts: list[str], finish: str = "stop") -> bytes:
    """`texts` in `field` under `model`, one an event, then `finish`."""
    def event(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        chunk = {"id": "gen-1", "model": model, "choices": [choice]}
        return b"data: " + orjson.dumps(chunk) + b"\n\n"

    body = [event({"role": "assistant", field: text}) for text in texts]
    head = event({"role": "assistant", "content": ""})
    return b"".join([head, *body, event({}, finish), b"data: [DONE]\n\n"])


def absorb_texts(self: ChoiceState, name: str, texts: list[str]) -> int:
    """`ChoiceState.absorb_texts` before `take_run`: the field's `ToolSyntax.absorb` (inside a think
    block, content's `_absorb_moved`), up to an empty text."""
    if name == "content" and self._thinking and not (self._undecided.runs or self._fed is not None):
        return self._absorb_moved(texts)
    parser = self._parsers.get(name)
    if parser is None or self._undecided.runs or self._splits(name) or self._fed is not None:
        return 0
    if "" in texts:
        texts = texts[: texts.index("")]
    self._last_field = name
    return parser.absorb(texts)


def one_a_call(self: ChoiceState, name: str, texts: list[str], start: int) -> int:
    """What the token runs asked before `take_run`: `absorb_texts`, then `feed_ahead`, one call each."""
    count = start + absorb_texts(self, name, texts[start:])
    while count < len(texts) and self.feed_ahead(name, texts[count]):
        count += 1
        count += absorb_texts(self, name, texts[count:])
    return count


def rewritten(data: bytes, reads: list[int], on: bool = True, **options: Any) -> tuple[bytes, list[object]]:
    """The bytes written and the notices, `data` cut into `reads` (`fuzzing.pieces`)."""
    rewriter = StreamRewriter(RewriteOptions(plain_runs=on, token_runs=on, **options))
    out = [item for piece in pieces(data, reads) for item in rewriter.feed(piece)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if not isinstance(o, bytes)]


def recut(texts: list[str], sizes: list[int]) -> list[str]:
    """The texts joined and cut again, `sizes` characters a text in turn (a marker may be split)."""
    whole, out, at = "".join(texts), [], 0
    for i in range(len(whole)):
        if at >= len(whole):
            break
        size = sizes[i % len(sizes)]
        out.append(whole[at : at + size])
        at += size
    return out


def compare(data: bytes, reads: list[int], **options: Any) -> int:
    """Asserts the one-call runs equal the one-a-call ones and the general path; how many texts
    beyond the first a `take_run` took (the runs it was asked)."""
    taken: list[int] = []
    take_run = ChoiceState.take_run

    def counted(self: ChoiceState, name: str, texts: list[str], start: int) -> int:
        taken.append(take_run(self, name, texts, start) - start)
        return start + taken[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceState, "take_run", counted)
        fast = rewritten(data, reads, **options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChoiceState, "take_run", one_a_call)
        assert rewritten(data, reads, **options) == fast
    assert rewritten(data, reads, False, **options) == fast
    return sum(max(0, t - 1) for t in taken)


OPTIONS = [pytest.param({}, id="openai"), pytest.param({"to": "anthropic"}, id="anthropic")]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_run_taken_in_one_call_is_the_run_taken_one_call_a_text(
    shape: str, options: dict[str, Any]
) -> None:  # fmt: skip
    model, field, texts = SHAPES[shape]
    data = stream(model, field, texts, "length" if shape.endswith("cut") else "stop")
    assert compare(data, [len(data)], **options) > 0  # (runs of several texts were taken in one call)
    compare(data, [97, 1000], **options)


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(list(SHAPES)), sizes=st.lists(st.integers(1, 12), min_size=1, max_size=5),
       reads=st.lists(st.integers(0, 1 << 12), max_size=5))
def test_random_cuts_of_the_texts_and_reads_take_the_same(
    shape: str, sizes: list[int], reads: list[int]
) -> None:  # fmt: skip
    model, field, texts = SHAPES[shape]
    compare(stream(model, field, recut(texts, sizes)), reads)
