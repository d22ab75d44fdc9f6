"""Kimi and DeepSeek special tokens are restored whatever the stream's model id says.

Gateways answer with the alias a client asked for (`gpt-4o`, `claude-sonnet-4-5`,
`my-agent`) and routers map Claude names onto Kimi. A differential test: a native
tool-call stream, leaked in Kimi's and DeepSeek's shapes and relabelled with a dozen
model ids, comes out exactly as under the Kimi or DeepSeek id (its `model` field aside).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from sse_rewrite.cli import cli
from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.routing import FAMILIES, Family
from sse_rewrite.stream.events import Text, ToolCall
from tests.chunking import field_stream, rewrite_stream
from tests.formats.damage_rows import DEEPSEEK, KIMI
from tests.oracles import openai_final

CALLS = [("get_weather", {"city": "Tokyo"}), ("read_file", {"path": "src/a.py", "limit": 200})]
PROSE = "Let me check the weather, then read the file."
RELABELS = [
    "gpt-4o", "openai/gpt-5", "o3-mini", "claude-sonnet-4-5", "anthropic/claude-sonnet-4",
    "gemini-2.5-flash", "google/gemini-2.5-pro", "z-ai/glm-4.6", "zhipuai/glm-4.5-air",
    "my-agent", "acme/router-default", "",
]  # fmt: skip
REFERENCE = {"kimi": "moonshotai/kimi-k2.5", "deepseek": "deepseek/deepseek-chat-v3.1"}


def pieces(text: str, size: int = 4) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def native_stream(model: str) -> bytes:
    """The stream as a provider with native tool calls sends it."""
    deltas: list[dict[str, object]] = [{"content": p} for p in pieces(PROSE)]
    for index, (name, arguments) in enumerate(CALLS):
        head = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": name}}
        deltas.append({"tool_calls": [{**head, "function": {"name": name, "arguments": ""}}]})
        deltas += [
            {"tool_calls": [{"index": index, "function": {"arguments": p}}]}
            for p in pieces(json.dumps(arguments))
        ]
    return field_stream(deltas, finish="tool_calls", model=model)


def leaked_stream(shape: str, field: str, model: str) -> bytes:
    """The same answer with its calls leaked as special tokens, one marker or piece per chunk."""
    t = KIMI if shape == "kimi" else DEEPSEEK
    tokens = [*pieces(PROSE), t["sb"]]
    for index, (name, arguments) in enumerate(CALLS):
        header = f" functions.{name}:{index}" if shape == "kimi" else name
        tokens += [t["cb"], *pieces(header, 3), t["ab"], *pieces(json.dumps(arguments)), t["ce"]]
    tokens.append(t["se"])
    return field_stream([{field: token} for token in tokens], model=model)


def relabel(body: bytes, old: str, new: str) -> bytes:
    return body.replace(b'"model":' + orjson.dumps(old), b'"model":' + orjson.dumps(new))


@pytest.mark.parametrize("field", ["content", "reasoning"])
@pytest.mark.parametrize("shape", ["kimi", "deepseek"])
def test_leaked_tokens_come_out_the_same_under_any_model_id(shape: str, field: str) -> None:
    reference = REFERENCE[shape]
    expected = rewrite_stream(leaked_stream(shape, field, reference))
    final = openai_final(expected).choices[0]
    assert [(c.function.name, json.loads(c.function.arguments)) for c in final.message.tool_calls] == [
        (name, arguments) for name, arguments in CALLS
    ]
    assert final.finish_reason == "tool_calls"
    native = openai_final(native_stream(reference)).choices[0].message
    assert [(c.function.name, c.function.arguments) for c in final.message.tool_calls] == [
        (c.function.name, c.function.arguments) for c in native.tool_calls
    ]
    for model in RELABELS:
        out = rewrite_stream(leaked_stream(shape, field, model))
        assert relabel(out, model, reference) == expected, model


@pytest.mark.parametrize("model", RELABELS)
def test_a_native_tool_call_stream_passes_byte_for_byte_under_any_model_id(model: str) -> None:
    stream = native_stream(model)
    assert rewrite_stream(stream) == stream


def test_format_kimi_reads_kimi_alone_and_none_reads_nothing() -> None:
    deepseek = leaked_stream("deepseek", "content", "gpt-4o")
    assert rewrite_stream(deepseek, format="kimi") == deepseek
    kimi = leaked_stream("kimi", "content", "gpt-4o")
    assert rewrite_stream(kimi, format="deepseek") == kimi
    assert rewrite_stream(kimi, format="none") == kimi
    assert rewrite_stream(kimi, format="kimi") == rewrite_stream(kimi)


@pytest.mark.parametrize(
    ("model", "why"),
    [
        pytest.param("gpt-4o", "model 'gpt-4o' sends native tool_calls", id="native"),
        pytest.param("my-agent", "model 'my-agent' names no known family", id="alias"),
        pytest.param("z-ai/glm-4.6", "GLM tool-call tags: model 'z-ai/glm-4.6' contains 'glm'", id="glm"),
    ],
)
def test_stats_say_why_each_parser_is_on(model: str, why: str) -> None:
    result = CliRunner().invoke(cli, ["--stats"], input=leaked_stream("kimi", "content", model))
    assert result.exit_code == 0
    assert "Kimi and DeepSeek special tokens: recognized in every stream" in result.stderr
    assert why in result.stderr
    assert "tool calls 2" in result.stderr


SSE_LOGS = Path(__file__).parents[2] / "sse_logs"
LEAKING_CAPTURES = sorted(
    p
    for p in [*SSE_LOGS.glob("kimi-*.sse"), *SSE_LOGS.glob("deepseek-*.sse")]
    if not p.with_suffix(".sse.args").exists()
)


@pytest.mark.parametrize("capture", LEAKING_CAPTURES, ids=lambda p: p.stem)
def test_every_bundled_kimi_and_deepseek_capture_is_restored_under_other_ids(capture: Path) -> None:
    raw = capture.read_bytes()
    original = re.search(rb'"model": ?("[^"]*")', raw)  # compact or spaced JSON
    assert original is not None
    # (`--think auto` follows the model id by design: off here, the calls alone are compared)
    expected = rewrite_stream(raw, think="off")
    for model in ("gpt-4o", "anthropic/claude-sonnet-4", "z-ai/glm-4.6", "my-agent"):
        label = original.group(0).replace(original.group(1), orjson.dumps(model))
        out = rewrite_stream(raw.replace(original.group(0), label), think="off")
        restored = out.replace(label, original.group(0))  # passed through as it came
        restored = restored.replace(
            b'"model":' + orjson.dumps(model), b'"model":' + original.group(1)
        )  # rebuilt
        assert restored == expected, model


MARKED_CALLS = [
    'Done. [TOOL_CALLS] [{"name": "f", "arguments": {}}]',  # Mistral's `[TOOL_CALLS]`: no `<` at all
    "Done. <|tool_call_start|>[f()]<|tool_call_end|>",  # LFM2
]


@pytest.mark.parametrize("text", MARKED_CALLS)
@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.format)
def test_every_familys_id_reads_the_markers_no_prose_holds(family: Family, text: str) -> None:
    for texts in ([text], list(text)):
        parser = FORMATS[family.format]()
        out = [piece for chunk in texts for piece in parser.feed(chunk)] + parser.flush(finished=True)
        assert [(c.name, c.arguments) for c in out if isinstance(c, ToolCall)] == [("f", "{}")], texts
        assert "".join(p.text for p in out if isinstance(p, Text)) == "Done. "
