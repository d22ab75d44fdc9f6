"""Reasoning markers: how models mark the reasoning they leak into `content`, as data.

One `ReasoningMarkers` per way of marking (FORMATS-2.md §I): the spellings that open and close
the reasoning, the ids it is read for, the ids whose prompt opens it (their output starts
inside), and the tags that wrap the answer after it (markup: dropped, their text kept). The
think machinery (`stream/think.py`) reads every declaration that applies to a stream at once.
Markers prose cannot contain (special tokens, `◁think▷`) are read in every stream; word-like
ones (`<think>`, Granite's phrases, `<answer>`, `[BEGIN FINAL RESPONSE]`) only under their ids.
A spelling ending in `:…>` takes a checkpoint suffix (`<think:opensource>`), which its closer
repeats (`</think:opensource>`).
"""

from __future__ import annotations

from dataclasses import dataclass

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

SUFFIXED: Final = ":…>"
"""The end of a spelling whose checkpoint suffix varies (`<think:…>`: `<think:6124c78e>`)."""


@dataclass(frozen=True, slots=True)
class ReasoningMarkers:
    """One way of marking reasoning in content: `opens` (empty: only a prompt opens it) and
    `closes` (any close ends what any open began), the lowered id substrings it is read for
    (`ids`, empty: every stream), the ids whose prompt opens it (`starts_inside`), and the
    answer's wrapper tags after it (`answer`)."""

    name: str
    opens: tuple[str, ...]
    closes: tuple[str, ...]
    ids: tuple[str, ...] = ()
    starts_inside: tuple[str, ...] = ()
    answer: tuple[str, ...] = ()


THINK: Final = ReasoningMarkers(
    "think", ("<think>",), ("</think>",),
    ids=("deepseek-r1", "r1-", "-r1", "reasoner", "qwen3", "qwq", "glm-4.", "glm-5", "glm-z1", "thinking",
         "deepseek-v3.2", "deepseek.v3.2", "deepseek-v4", "minimax-m2"),
    starts_inside=("deepseek-r1", "r1-", "-r1", "reasoner", "qwq", "thinking-2507", "glm-4.7", "glm-5",
                   "minimax-m2"),
)  # fmt: skip
"""DeepSeek-R1, Qwen3, QwQ, GLM-4.5+, MiniMax M2, Kimi-Thinking; R1-style templates open it."""

_OPENED: Final = ("step-3", "step3", "step-5", "nemotron-nano-9b-v2", "nemotron-nano-12b-v2", "reka-edge",
                  "spark-2.5", "spark2.5", "ling-3", "iquest", "gigachat3.5", "gigachat-3.5",
                  "ernie-4.5-21b-a3b-thinking", "ernie-4.5-thinking", "olmo-3-7b-think", "olmo-3-32b-think",
                  "olmo-3.1-32b-think")  # fmt: skip
PROMPT_OPENS_THINK: Final = ReasoningMarkers(
    "think-opened-by-the-prompt", ("<think>",), ("</think>",), ids=_OPENED, starts_inside=_OPENED,
)
"""Step-3/3.5/3.7/5, Nemotron Nano v2, Reka Edge, Spark 2.5, Ling 3, IQuest Q1, GigaChat 3.5,
ERNIE 4.5 Thinking, Olmo 3 Think: the prompt opens `<think>`, only `</think>` appears."""

_RESPONSE: Final = ("<response>", "</response>")  # (Granite 3.3's and ERNIE 4.5's answer)
MARKERS: Final = (
    THINK,
    PROMPT_OPENS_THINK,
    ReasoningMarkers("kimi-vl", ("◁think▷",), ("◁/think▷",)),
    ReasoningMarkers("cohere", ("<|START_THINKING|>",), ("<|END_THINKING|>",),
                     starts_inside=("command-a-reasoning",)),
    ReasoningMarkers("apertus", ("<|inner_prefix|>",), ("<|inner_suffix|>",)),
    ReasoningMarkers("k2-horizon", ("<ifm|think>", "<ifm|think_fast>", "<ifm|think_faster>"),
                     ("</ifm|think>", "</ifm|think_fast>", "</ifm|think_faster>"),
                     starts_inside=("k2-horizon",)),
    ReasoningMarkers("plamo", ("<|plamo:begin_think:plamo|>",), ("<|plamo:end_think:plamo|>",),
                     starts_inside=("plamo-3", "plamo3")),
    ReasoningMarkers("hy", ("<think" + SUFFIXED,), ("</think" + SUFFIXED,), ids=("hy3", "hy4", "hunyuan")),
    ReasoningMarkers("hunyuan-a13b", ("<think>",), ("</think>",), ids=("hunyuan-a13b",),
                     answer=("<answer>", "</answer>")),
    ReasoningMarkers("granite-3.2", ("Here is my thought process:", "Here's my thought process:"),
                     ("Here is my response:", "Here's my response:"), ids=("granite-3.2",)),
    ReasoningMarkers("granite-3.3", ("<think>",), ("</think>",), ids=("granite-3.3",), answer=_RESPONSE),
    ReasoningMarkers("ernie-4.5", ("<think>",), ("</think>",), ids=("ernie-4.5",), answer=_RESPONSE),
    ReasoningMarkers("apriel", (), ("[BEGIN FINAL RESPONSE]",), ids=("apriel",), starts_inside=("apriel",),
                     answer=("[END FINAL RESPONSE]",)),
    ReasoningMarkers("longcat", ("<longcat_think>",), ("</longcat_think>",)),
    ReasoningMarkers("solar-open", ("<|think|>",), ("<|end|>",)),
)  # fmt: skip
"""Every declaration, `THINK` first (docs/behaviour.md, "Think tags")."""
