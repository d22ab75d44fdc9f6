"""Text or call through serve's four fronts: issue #35's real cases, taken from the rows of
tests/formats/test_text_vs_call.py (which holds the rules): a stray `<|tool_call_end|>` ending the
message is dropped, a cut-off file write and elided arguments stay text, the spellings make their
calls, and syntax quoted as code (inline code, a fence of prose, a table row) stays text; and the
reports whose result depended on the chunking (tests/test_chunking_invariance.py `REPORTS`), and
an answer under an id whose prompt opens a think block that never came (docs/behaviour.md,
"Think tags": never stranded in the reasoning field).

An upstream of its own streams the answer cut one character, one token or a few characters
(random, seeded by the case) per chunk, and finishes with `stop`; each front takes each case at
another cut, so every case meets three cuts over the four fronts; in process, each case goes at
token and random cuts through each protocol the issue names (`--to`, the fronts' encoders). Each
front is read by its
official SDK (openai, anthropic, google-genai). Each case asks for its row's model id with the
row's name and cut after colons (routing reads the id before them), so the upstream knows which
answer to send and how to cut it.
"""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import orjson
import pytest
from aiohttp import web
from google import genai
from google.genai import types

from sse_rewrite.formats.catalogue.index import ENTRIES
from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.chunking import tokens
from tests.formats.test_text_vs_call import ROWS
from tests.oracles import anthropic_final, openai_final
from tests.serve.servers import Servers
from tests.test_responses import sdk_events

ISSUE_35 = (  # the real cases the issue names, and the quoted-syntax rule's
    "stray-end-token-ends-the-message", "message-of-only-a-section-end", "cut-off-write",
    "mistral-elided-arguments", "harmony-elided-arguments", "dsml-doubled-bars-and-a-space",
    "harmony-recipient-with-a-space", "qwen-open-parameter-ends-at-the-call-closer",
    "gemma-call-quoted-in-a-table-cell", "harmony-in-inline-code", "kimi-in-a-fenced-block-of-prose",
    "kimi-in-a-table-row", "a-message-that-is-one-fenced-block-is-a-call",
    "a-call-after-a-closed-code-span-is-a-call",
)
_M3 = ENTRIES[[entry.name for entry in ENTRIES].index("MiniMax M3")]
REPORTED = [  # (id, model, text, kept, calls): the filter's result on the whole text, stated
    ("kimi-stripped-alone", "moonshotai/kimi-k2.5", 'functions.read:0{"path": "/etc/hosts"}', "",
     [("read", {"path": "/etc/hosts"})]),
    ("minimax-m3-opener", "minimax/minimax-m3", _M3.example, _M3.kept, [("get_weather", {"city": "Paris"})]),
    ("minimax-m3-after-a-bracket", "minimax/minimax-m3",
     'Done.]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="f">]<]minimax[>[<a>1]<]minimax[>[</a>'
     "]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>", "Done.", [("f", {"a": 1})]),
    ("hermes-after-a-stray-token", "nousresearch/hermes-4-70b",
     'Sure.<|tool_call_end|>\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\nDone.',
     "Sure.<|tool_call_end|>\n\nDone.", [("f", {"a": 1})]),
    ("answer-under-an-unopened-think-block", "z-ai/glm-5.3", "The answer is 42.", "The answer is 42.", []),
    ("kimi-stripped-after-text", "moonshotai/kimi-k2.5",
     'Let me read it.functions.read:0{"path": "/etc/hosts"}', "Let me read it.",
     [("read", {"path": "/etc/hosts"})]),
]  # fmt: skip
_SOURCES = [
    *[(param.id, row.model, row.expected.text, row.expected.kept,
       [(name, orjson.loads(arguments)) for name, arguments in row.expected.calls])
      for param in ROWS if param.id in ISSUE_35 and (row := param.values[0])],
    *REPORTED,
]  # fmt: skip
CUTS = ("character", "token", "random")


def cases(front: int) -> list[Any]:
    """Every case for the `front`-th front, each at the cut that front takes for it."""
    return [pytest.param(f"{model}:{name}:{CUTS[(index + front) % len(CUTS)]}", text, kept, calls,
                         id=f"{name}-{CUTS[(index + front) % len(CUTS)]}")
            for index, (name, model, text, kept, calls) in enumerate(_SOURCES)]  # fmt: skip


def pieces(model: str, text: str) -> list[str]:
    """`text` cut as the case's model string says (its last field)."""
    cut = model.rpartition(":")[2]
    if cut == "character":
        return list(text)
    if cut == "token":
        return tokens(text)
    sizes = random.Random(zlib.crc32(model.encode()))
    ends = list(itertools.accumulate(sizes.randint(1, 12) for _ in text))
    return [text[start:end] for start, end in itertools.pairwise([0, *ends]) if start < len(text)]


USER: Any = [{"role": "user", "content": "go"}]


def chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    """One chat.completion.chunk event."""
    body = {"id": "gen-1", "object": "chat.completion.chunk", "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + orjson.dumps(body) + b"\n\n"


@pytest.fixture
def upstream(servers: Servers) -> Iterator[str]:
    """An upstream streaming the text the request's model names (`cases`), cut as it says."""
    answers = {case.values[0]: case.values[1] for front in range(4) for case in cases(front)}

    async def answer(request: web.Request) -> web.StreamResponse:
        model = (await request.json())["model"]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for piece in pieces(model, answers[model]):
            await response.write(chunk(model, {"role": "assistant", "content": piece}))
        await response.write(chunk(model, {}, "stop") + b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    yield servers.chat_upstream(answer)


def _calls(pairs: list[tuple[str, str | object]]) -> list[tuple[str, object]]:
    """(name, arguments as a JSON value) of each call, from arguments as text or as a value."""
    return [(name, orjson.loads(value) if isinstance(value, str) else value) for name, value in pairs]


@pytest.mark.parametrize(("model", "text", "kept", "calls"), cases(0))
def test_openai_chat_front(servers: Servers, upstream: str, model: str, text: str, kept: str,
                           calls: list[tuple[str, object]]) -> None:  # fmt: skip
    base_url, _ = servers.serve(upstream=upstream)
    sdk = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.chat.completions.stream(model=model, messages=USER) as stream:
        choice = stream.get_final_completion().choices[0]
    made = [(call.function.name, call.function.arguments) for call in choice.message.tool_calls or []]
    assert ((choice.message.content or ""), _calls(made)) == (kept, calls)
    assert choice.finish_reason == ("tool_calls" if calls else "stop")


@pytest.mark.parametrize(("model", "text", "kept", "calls"), cases(1))
def test_anthropic_messages_front(servers: Servers, upstream: str, model: str, text: str, kept: str,
                                  calls: list[tuple[str, object]]) -> None:  # fmt: skip
    base_url, _ = servers.serve(upstream=upstream, models=ModelChoice(model=model))
    sdk = anthropic.Anthropic(base_url=base_url.removesuffix("/v1"), api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.messages.stream(model="claude-x", max_tokens=64, messages=USER) as stream:
        message = stream.get_final_message()
    texts = "".join(block.text for block in message.content if block.type == "text")
    made = [(block.name, block.input) for block in message.content if block.type == "tool_use"]
    assert (texts, made) == (kept, calls)
    assert message.stop_reason == ("tool_use" if calls else "end_turn")


@pytest.mark.parametrize(("model", "text", "kept", "calls"), cases(2))
def test_responses_front(servers: Servers, upstream: str, model: str, text: str, kept: str,
                         calls: list[tuple[str, object]]) -> None:  # fmt: skip
    base_url, _ = servers.serve(upstream=upstream)
    sdk = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=10)
    with sdk, sdk.responses.stream(model=model, input="go") as stream:
        response = stream.get_final_response()
    made = [(item.name, item.arguments) for item in response.output if item.type == "function_call"]
    assert (response.output_text, _calls(made)) == (kept, calls)
    assert response.status == "completed"


@pytest.mark.parametrize(("model", "text", "kept", "calls"), cases(3))
def test_gemini_front(servers: Servers, upstream: str, model: str, text: str, kept: str,
                      calls: list[tuple[str, object]]) -> None:  # fmt: skip
    base_url, _ = servers.serve(upstream=upstream, models=ModelChoice(model=model))
    options = types.HttpOptions(base_url=base_url.removesuffix("/v1"), api_version="v1beta", timeout=10_000,
                                retry_options=types.HttpRetryOptions(attempts=1))  # fmt: skip
    with genai.Client(api_key="k", http_options=options) as sdk:
        chunks = list(sdk.models.generate_content_stream(model="gemini-2.5-pro", contents="go"))
    parts = [part for chunk in chunks for candidate in chunk.candidates or []
             for part in (candidate.content.parts if candidate.content else None) or []]  # fmt: skip
    texts = "".join(part.text or "" for part in parts if not part.thought)
    made = [(part.function_call.name, part.function_call.args) for part in parts if part.function_call]
    assert (texts, made) == (kept, calls)
    assert chunks[-1].candidates and chunks[-1].candidates[0].finish_reason == types.FinishReason.STOP


def seen_in(to: str, body: bytes) -> tuple[str, list[tuple[str, object]]]:
    """The answer's text and calls a client of protocol `to` assembles from `body` (its SDK)."""
    if to == "anthropic":
        blocks = anthropic_final(body).content
        return ("".join(b.text for b in blocks if b.type == "text"),
                [(b.name, b.input) for b in blocks if b.type == "tool_use"])  # fmt: skip
    if to == "responses":
        response = sdk_events(body)[1]
        made = [(item.name, item.arguments) for item in response.output if item.type == "function_call"]
        return response.output_text, _calls(made)
    message = openai_final(body).choices[0].message
    made = [(call.function.name, call.function.arguments) for call in message.tool_calls or []]
    return message.content or "", _calls(made)


IN_PROCESS = [pytest.param(*source, id=source[0]) for source in _SOURCES]


@pytest.mark.parametrize("cut", ["token", "random"])
@pytest.mark.parametrize(("name", "model", "text", "kept", "calls"), IN_PROCESS)
def test_every_case_at_token_and_random_cuts_in_each_fronts_protocol(
    name: str, model: str, text: str, kept: str, calls: list[tuple[str, object]], cut: str
) -> None:
    """Each case streamed one token a chunk and at random cuts, in process, encoded as each front
    the issue names encodes it (`--to`: openai, anthropic, responses) and read by its SDK: the tables
    above take each case through each front at one cut, this takes it at both on each."""
    cuts = pieces(f"{model}:{name}:{cut}", text)
    events = [chunk(model, {"role": "assistant", "content": piece}) for piece in cuts]
    stream = b"".join(events) + chunk(model, {}, "stop") + b"data: [DONE]\n\n"
    for to in ("openai", "anthropic", "responses"):
        rewriter = StreamRewriter(RewriteOptions(to=to))
        out = [*rewriter.feed(stream), *rewriter.flush()]
        assert seen_in(to, b"".join(item for item in out if isinstance(item, bytes))) == (kept, calls), to
