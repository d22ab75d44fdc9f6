"""Reasoning markers besides `<think>` (FORMATS-2.md §I, `formats/catalogue/reasoning.py`).

Each row is one marker under its ids, through the whole rewrite one character per chunk and cut
at every offset: the reasoning reaches the reasoning field, the answer stays in `content`, the
markers (and the answer's wrapper tags) are dropped. Word-like markers are read only under their
ids: under another id they are prose and stay text.
"""

from __future__ import annotations

import pytest

from sse_rewrite.formats.catalogue.reasoning import MARKERS, SUFFIXED
from sse_rewrite.stream.think_markers import partial
from tests.chunking import cut, rewrite_stream, token_stream
from tests.rewrite_runs import chunks, run, tool_call_deltas

# (model, content, reasoning field, content field)
ROWS = [
    pytest.param("moonshotai/Kimi-VL-A3B-Thinking", "◁think▷Look.◁/think▷Hi.", "Look.", "Hi.", id="kimi-vl"),
    pytest.param("openai/gpt-4o", "◁think▷Look.◁/think▷Hi.", "Look.", "Hi.", id="kimi-vl-token-under-any-id"),
    pytest.param("CohereLabs/command-a-reasoning-08-2025",
                 "<|START_THINKING|>Plan.<|END_THINKING|>Hi.", "Plan.",
                 "Hi.", id="cohere"),
    pytest.param("CohereLabs/command-a-reasoning-08-2025", "Plan.<|END_THINKING|>Hi.", "Plan.", "Hi.",
                 id="cohere-opened-by-the-prompt"),
    pytest.param("swiss-ai/Apertus-8B-Instruct-2509",
                 "<|inner_prefix|>Plan.<|inner_suffix|>Hi.", "Plan.", "Hi.",
                 id="apertus"),
    pytest.param("IFM/K2-Horizon-36B", "Plan.</ifm|think_fast>Hi.", "Plan.", "Hi.", id="k2-horizon-opened"),
    pytest.param("IFM/K2-Horizon-36B", "<ifm|think_faster>Plan.</ifm|think_faster>Hi.", "Plan.", "Hi.",
                 id="k2-horizon-faster"),
    pytest.param("openai/gpt-4o", "<ifm|think>Plan.</ifm|think>Hi.", "Plan.", "Hi.", id="k2-horizon-any-id"),
    pytest.param("pfnet/plamo-3-31b", "Plan.<|plamo:end_think:plamo|>Hi.", "Plan.", "Hi.", id="plamo-opened"),
    pytest.param("openai/gpt-4o",
                 "<|plamo:begin_think:plamo|>Plan.<|plamo:end_think:plamo|>Hi.", "Plan.", "Hi.",
                 id="plamo-any-id"),
    pytest.param("tencent/Hy4-preview",
                 "<think:6124c78e>Plan.</think:6124c78e>Hi.", "Plan.", "Hi.", id="hy4"),
    pytest.param("tencent/Hy3-preview", "<think:opensource>Plan.</think:opensource>Hi.", "Plan.", "Hi.",
                 id="hy3-suffixed"),
    pytest.param("tencent/Hy3-preview", "<think:opensource>Plan.</think:other>.</think:opensource>Hi.",
                 "Plan.</think:other>.", "Hi.", id="hy3-another-suffix-does-not-close"),
    pytest.param("tencent/Hunyuan-A13B-Instruct", "<think>\nPlan.\n</think>\n<answer>\nHi.\n</answer>",
                 "\nPlan.\n", "\n\nHi.\n", id="hunyuan-a13b-answer-wrapper"),
    pytest.param("ibm-granite/granite-3.2-8b-instruct",
                 "Here is my thought process:\nPlan.\nHere is my response:\nHi.", "\nPlan.\n", "\nHi.",
                 id="granite-3.2"),
    pytest.param("ibm-granite/granite-3.2-2b-instruct",
                 "Here's my thought process:\nPlan.\nHere's my response:\nHi.", "\nPlan.\n", "\nHi.",
                 id="granite-3.2-heres"),
    pytest.param("ibm-granite/granite-3.3-8b-instruct",
                 "<think>Plan.</think><response>Hi.</response>", "Plan.",
                 "Hi.", id="granite-3.3-response-wrapper"),
    pytest.param("baidu/ERNIE-4.5-21B-A3B-Thinking", "Plan.\n</think>\n\n<response>\nHi.\n</response>\n",
                 "Plan.\n", "\n\n\nHi.\n\n", id="ernie-4.5-thinking"),
    pytest.param("ServiceNow-AI/Apriel-1.6-15b-Thinker",
                 "Plan.\n[BEGIN FINAL RESPONSE]\nHi.\n[END FINAL RESPONSE]",
                 "Plan.\n", "\nHi.\n", id="apriel-1.6"),
    pytest.param("ServiceNow-AI/Apriel-1.6-15b-Thinker",
                 "Hi.", "Hi.", "Hi.", id="apriel-answer-without-reasoning"),
    pytest.param("meituan-longcat/LongCat-Flash-Chat",
                 "<longcat_think>Plan.</longcat_think>Hi.", "Plan.", "Hi.",
                 id="longcat"),
    pytest.param("upstage/Solar-Open-100B", "<|think|>Plan.<|end|>Hi.", "Plan.", "Hi.", id="solar-open"),
    *(pytest.param(model, "Plan.</think>Hi.", "Plan.", "Hi.", id=f"opened-by-the-prompt-{model}")
      for model in ("stepfun-ai/step3", "stepfun-ai/Step-3.5-Flash", "stepfun-ai/Step-3.7-Flash",
                    "stepfun-ai/Step-5-Preview", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "RekaAI/reka-edge-2603",
                    "Spark-2.5", "inclusionAI/Ling-3.0-flash", "IQuestLab/IQuest-Q1",
                    "ai-sage/GigaChat3.5-10B", "allenai/Olmo-3-7B-Think")),
]
PROSE = [
    pytest.param("openai/gpt-4o",
                 "Here is my thought process: none. Here is my response: ok.", id="granite-phrases"),
    pytest.param("ibm-granite/granite-3.3-8b-instruct",
                 "Here is my thought process: x. Here is my response: y.",
                 id="granite-3.2-phrases-under-granite-3.3"),
    pytest.param("openai/gpt-4o", "Wrap it in <answer>42</answer>.", id="answer-wrapper"),
    pytest.param("openai/gpt-4o", "Reply with <response>ok</response>.", id="response-wrapper"),
    pytest.param("mistralai/mistral-large",
                 "[BEGIN FINAL RESPONSE]ok[END FINAL RESPONSE]", id="apriel-brackets"),
    pytest.param("openai/gpt-4o", "<think:opensource>x</think:opensource>", id="suffixed-think"),
    pytest.param("openai/gpt-4o", "<longcat_thinker> and </think> alone", id="near-misses"),
]


def fields(body: bytes) -> tuple[str, str]:
    """(reasoning field, content) of choice 0, joined over the chunks."""
    deltas = [choice["delta"] for chunk in chunks(body) for choice in chunk["choices"]]
    reasoning = "".join(d.get("reasoning_content") or d.get("reasoning") or "" for d in deltas)
    return reasoning, "".join(d.get("content") or "" for d in deltas)


@pytest.mark.parametrize(("model", "text", "reasoning", "content"), ROWS)
def test_one_character_per_chunk(model: str, text: str, reasoning: str, content: str) -> None:
    body, _ = run(token_stream(list(text), model=model))  # (also one byte per read)
    assert fields(body) == (reasoning, content)


@pytest.mark.parametrize(("model", "text", "reasoning", "content"), ROWS)
def test_every_cut(model: str, text: str, reasoning: str, content: str) -> None:
    for point in range(len(text) + 1):
        pieces = [piece for piece in cut(text, [point]) if piece]
        assert fields(rewrite_stream(token_stream(pieces, model=model))) == (reasoning, content), point


LINES_AFTER_REASONING = [
    pytest.param("<think>Plan.</think><response>f(a=1)\ng()</response>", "Plan.", "",
                 [("f", '{"a": 1}'), ("g", "{}")], id="in-the-response-wrapper"),
    pytest.param("<think>Plan.</think>\nf(a=1)", "Plan.", "\n", [("f", '{"a": 1}')], id="after-the-block"),
    pytest.param("<think>Plan.</think><response>Run f(a=1).</response>", "Plan.", "Run f(a=1).", [],
                 id="prose-is-text"),
]


@pytest.mark.parametrize(("text", "reasoning", "content", "made"), LINES_AFTER_REASONING)
def test_granite_33_call_lines_after_its_reasoning(
    text: str, reasoning: str, content: str, made: list
) -> None:
    """The whole-answer gate reads the answer after the stream's think split, at every cut."""
    for point in range(len(text) + 1):
        pieces = [piece for piece in cut(text, [point]) if piece]
        body = rewrite_stream(token_stream(pieces, model="ibm-granite/granite-3.3-8b-instruct"))
        deltas = [call["function"] for call in tool_call_deltas(body)]
        assert [(d["name"], d["arguments"]) for d in deltas] == made, point
        assert fields(body) == (reasoning, content), point


@pytest.mark.parametrize(("model", "text"), PROSE)
def test_prose_under_another_id_stays_text(model: str, text: str) -> None:
    for pieces in ([text], list(text)):
        assert fields(rewrite_stream(token_stream(pieces, model=model))) == ("", text)


def _partial_by_every_end(buf: str, pos: int, spellings: tuple[str, ...]) -> int:
    """`partial` by its definition: the longest end of `buf[pos:]` that a spelling (a suffixed
    one: its head, up to 40 suffix characters, then `>`) begins with, short of the whole."""
    for start in range(pos, len(buf)):
        tail = buf[start:]
        for spelling in spellings:
            if not spelling.endswith(SUFFIXED):
                if spelling.startswith(tail) and tail != spelling:
                    return len(tail)
                continue
            head = spelling[: -len(SUFFIXED)] + ":"
            rest = tail[len(head) :]
            if head.startswith(tail) or (tail.startswith(head) and len(rest) <= 40
                                         and all(c.isalnum() or c in "_.-" for c in rest)):  # fmt: skip
                return len(tail)
    return 0


_SPELLINGS = tuple(dict.fromkeys(s for m in MARKERS for s in (*m.opens, *m.closes, *m.answer)))


@pytest.mark.parametrize("buf", [
    pytest.param("plain text, no lead", id="no-lead"),
    pytest.param("a < b and <thi", id="cut-opener"),
    pytest.param("<think>x</thi", id="cut-closer"),
    pytest.param("x ◁/thi", id="cut-kimi-vl-closer"),
    pytest.param("x <think:6124c7", id="cut-suffix"),
    pytest.param("x <think:" + "a" * 41, id="suffix-too-long"),
    pytest.param("<<<<|START_THI", id="leads-in-a-row"),
    pytest.param("y " * 40 + "<|plamo:end_th", id="long-text-cut-end"),
    pytest.param("<|inner_suffix|>", id="a-whole-marker"),
])  # fmt: skip
@pytest.mark.parametrize("pos", [0, 3])
def test_partial_holds_the_end_its_definition_holds(buf: str, pos: int) -> None:
    assert partial(buf, pos, _SPELLINGS) == _partial_by_every_end(buf, pos, _SPELLINGS)
