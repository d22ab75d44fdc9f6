"""--to gemini: rewritten chunks as Gemini events and bodies, read back by the official google-genai SDK."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import orjson
import pytest
from click.testing import CliRunner
from google import genai
from google.genai import errors, types

from sse_rewrite import goldens
from sse_rewrite.cli import cli
from sse_rewrite.protocols.gemini.events import GeminiEmitter
from sse_rewrite.protocols.gemini.output import GeminiOutput
from sse_rewrite.protocols.gemini.whole import completion_response
from sse_rewrite.stream.events import Notice
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from tests.anthropic_streams import CONTENT, REASONING, kimi_stream, native_stream

SSE_LOGS = Path(__file__).parent.parent / "sse_logs"
Seen = tuple[list[types.GenerateContentResponse], Exception | None]


def sdk(body: bytes, content_type: str = "text/event-stream") -> genai.Client:
    """A google-genai client whose every request is answered with `body`."""
    transport = httpx2.MockTransport(
        lambda request: httpx2.Response(200, headers={"content-type": content_type}, content=body)
    )
    options = types.HttpOptions(
        base_url="http://oracle.invalid",
        httpx_client=httpx2.Client(transport=transport),
        retry_options=types.HttpRetryOptions(attempts=1),
    )
    return genai.Client(api_key="x", http_options=options)


def sdk_stream(body: bytes) -> Seen:
    """The SDK's chunks for an SSE body, and the error it raised (None if it raised none)."""
    seen: list[types.GenerateContentResponse] = []
    try:
        seen.extend(sdk(body).models.generate_content_stream(model="m", contents="x"))
    except errors.APIError as error:
        return seen, error
    return seen, None


def parts(chunks: list[types.GenerateContentResponse]) -> list[tuple[str, Any]]:
    """The chunks' parts, adjacent texts of a kind merged: ("thought" | "text", text) or ("call", ...)."""
    out: list[tuple[str, Any]] = []
    for chunk in chunks:
        for candidate in chunk.candidates or []:
            for part in (candidate.content.parts if candidate.content else None) or []:
                if part.function_call is not None:
                    call = part.function_call
                    out.append(("call", (call.name, call.args, call.id)))
                elif part.text:
                    kind = "thought" if part.thought else "text"
                    if out and out[-1][0] == kind:
                        out[-1] = (kind, out[-1][1] + part.text)
                    else:
                        out.append((kind, part.text))
    return out


KIMI_PARTS = [
    ("thought", "Let me look. "),
    ("call", ("bash", {"cmd": "ls -la"}, "functions.bash:0")),
    ("thought", " Now answer."),
    ("text", "Here you go."),
    ("call", ("read", {"path": "a.txt"}, "functions.read:1")),
]


def run(stream: bytes, size: int | None = None, **options: Any) -> tuple[bytes, list[Notice]]:
    """`stream` rewritten to Gemini events, fed whole or `size` bytes at a time."""
    rewriter = StreamRewriter(RewriteOptions(to="gemini", **options), GeminiOutput())
    pieces = [stream] if size is None else [stream[i : i + size] for i in range(0, len(stream), size)]
    out = [item for piece in pieces for item in rewriter.feed(piece)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes)), [o for o in out if isinstance(o, Notice)]


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    """One chunk event of stream `s1`."""
    body = {
        "id": "s1",
        "model": "m",
        "created": 1,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }
    return b"data: " + orjson.dumps(body) + b"\n\n"


@pytest.mark.parametrize("size", [None, 1, 7], ids=["whole", "byte-by-byte", "seven-bytes"])
def test_kimi_leaks_in_reasoning_and_content_become_parts_the_sdk_reads(size: int | None) -> None:
    out, _ = run(kimi_stream([REASONING], [CONTENT]), size)
    seen, error = sdk_stream(out)
    assert error is None and parts(seen) == KIMI_PARTS
    last = seen[-1]
    assert last.candidates is not None and last.candidates[0].finish_reason == types.FinishReason.STOP
    assert last.usage_metadata is not None and last.usage_metadata.total_token_count is not None
    assert b"[DONE]" not in out and not [line for line in out.splitlines() if line.startswith(b":")]


def test_the_output_is_the_same_for_any_chunking() -> None:
    stream = kimi_stream([REASONING], [CONTENT])
    whole = sdk_stream(run(stream)[0])[0]
    assert all(parts(sdk_stream(run(stream, size)[0])[0]) == parts(whole) for size in (1, 2, 3, 5, 64))


def test_native_calls_are_function_call_parts_with_their_args() -> None:
    seen, error = sdk_stream(run(native_stream())[0])
    assert error is None and parts(seen) == [
        ("thought", "Add, then multiply."),
        ("call", ("add", {"a": 1, "b": 2}, "functions.add:0")),
        ("call", ("mul", {"a": 3}, "call_9")),
    ]


def test_usage_counts_thinking_apart() -> None:
    usage = {
        "prompt_tokens": 100,
        "completion_tokens": 30,
        "total_tokens": 130,
        "completion_tokens_details": {"reasoning_tokens": 12},
        "prompt_tokens_details": {"cached_tokens": 64},
    }
    stream = (
        chunk({"content": "hi"})
        + chunk({}, "stop")
        + chunk({}, choices=[], usage=usage)
        + b"data: [DONE]\n\n"
    )
    seen, _ = sdk_stream(run(stream)[0])
    metadata = seen[-1].usage_metadata
    assert metadata is not None
    assert (
        metadata.prompt_token_count,
        metadata.candidates_token_count,
        metadata.thoughts_token_count,
        metadata.cached_content_token_count,
        metadata.total_token_count,
    ) == (100, 18, 12, 64, 130)


@pytest.mark.parametrize(
    ("finish", "reason"),
    [
        pytest.param("stop", "STOP", id="stop"),
        pytest.param("tool_calls", "STOP", id="calls-end-with-stop"),
        pytest.param("length", "MAX_TOKENS", id="length"),
        pytest.param("content_filter", "SAFETY", id="the-providers-filter"),
        pytest.param("eos", "STOP", id="unknown"),
    ],
)
def test_finish_reasons(finish: str, reason: str) -> None:
    out, notices = run(chunk({"content": "hi"}) + chunk({}, finish))
    seen, _ = sdk_stream(out)
    assert seen[-1].candidates is not None and seen[-1].candidates[0].finish_reason == reason
    assert [n.code for n in notices if n.code == "unknown-finish"] == (
        ["unknown-finish"] if finish == "eos" else []
    )


def test_no_safety_is_invented_for_a_stream_that_just_ends() -> None:
    out, notices = run(chunk({"content": "cut"}))
    assert [n.code for n in notices] == ["no-finish"]
    assert b'"finishReason":"STOP"' in out and b"SAFETY" not in out


def test_an_error_chunk_is_a_google_error_the_sdk_raises_and_open_calls_do_not_run() -> None:
    stream = chunk(
        {
            "content": "Calling",
            "tool_calls": [
                {
                    "index": 0,
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "bash", "arguments": '{"cmd": '},
                }
            ],
        }
    )
    stream += b'data: {"error": {"message": "overloaded", "code": 503}}\n\n'
    out, notices = run(stream)
    seen, error = sdk_stream(out)
    assert isinstance(error, errors.ServerError) and (error.code, error.status) == (503, "UNAVAILABLE")
    assert error.message == "overloaded" and parts(seen) == [("text", "Calling")]
    assert [n.code for n in notices] == ["open-calls-dropped", "stream-error"]


def test_arguments_that_are_no_object_become_empty_args_with_a_notice() -> None:
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "f", "arguments": "[1, 2]"}}
    out, notices = run(chunk({"tool_calls": [call]}) + chunk({}, "tool_calls"))
    assert parts(sdk_stream(out)[0]) == [("call", ("f", {}, "c1"))]
    assert [n.code for n in notices] == ["tool-args-not-object"]


def test_an_empty_stream_is_a_notice_and_feed_after_flush_raises() -> None:
    emitter = GeminiEmitter()
    assert [n.code for n in emitter.flush() if isinstance(n, Notice)] == ["empty-stream"]
    with pytest.raises(RuntimeError):
        emitter.feed({"choices": []})


def test_the_cli_writes_gemini_events() -> None:
    result = CliRunner().invoke(cli, ["--to", "gemini"], input=kimi_stream([REASONING], [CONTENT]))
    assert result.exit_code == 0 and parts(sdk_stream(result.stdout_bytes)[0]) == KIMI_PARTS


def test_the_reasoning_golden_reads_back_with_both_calls() -> None:
    seen, error = sdk_stream((SSE_LOGS / "gemini-kimi-reasoning-tool.sse.golden").read_bytes())
    assert error is None
    kinds = [kind for kind, _ in parts(seen)]
    assert kinds == ["thought", "call", "thought", "text", "call"]
    assert [value[0] for kind, value in parts(seen) if kind == "call"] == ["bash", "read_file"]
    assert seen[-1].usage_metadata is not None and seen[-1].usage_metadata.thoughts_token_count == 41


def test_the_length_golden_ends_with_max_tokens_and_the_cut_off_call_as_text() -> None:
    seen, error = sdk_stream((SSE_LOGS / "gemini-kimi-length-cutoff.sse.golden").read_bytes())
    assert error is None and {kind for kind, _ in parts(seen)} == {"text"}  # (never a call at `length`)
    assert (
        seen[-1].candidates is not None
        and seen[-1].candidates[0].finish_reason == types.FinishReason.MAX_TOKENS
    )


def test_the_error_golden_raises_the_providers_error_after_the_held_text() -> None:
    seen, error = sdk_stream((SSE_LOGS / "gemini-openrouter-error-mid-stream.sse.golden").read_bytes())
    assert isinstance(error, errors.ServerError) and error.message == "Provider returned error"
    assert [kind for kind, _ in parts(seen)] == ["text"]  # the held call header went out as text


def test_the_whole_body_golden_is_the_sdks_response_and_the_streams_parts() -> None:
    golden = (SSE_LOGS / "gemini-kimi-completion-body.json.golden").read_bytes()
    response = sdk(golden, "application/json").models.generate_content(model="m", contents="x")
    assert [(c.id, c.name, c.args) for c in response.function_calls or []] == [
        ("functions.read:0", "read", {"path": "README.md"}),
        ("functions.read:1", "read", {"path": "setup.cfg"}),
    ]
    assert parts([response])[:2] == [("thought", "Two files to read."), ("text", "Reading them now.")]
    rewritten = orjson.loads(
        CliRunner().invoke(cli, [str(SSE_LOGS / "kimi-completion-body.json")]).stdout_bytes
    )
    assert orjson.dumps(completion_response(rewritten)[0]) + b"\n" == golden
    error, status, _ = completion_response({"error": {"message": "slow down", "code": 429}})
    assert (error, status) == (
        {"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED"}},
        429,
    )


def test_a_changed_gemini_golden_is_explained_by_its_parts() -> None:
    golden = (SSE_LOGS / "gemini-kimi-reasoning-tool.sse.golden").read_bytes()
    changed = golden.replace(b"ls -la", b"ls -l").replace(b'"text":"I\'ll"', b'"text":"I"')
    assert goldens.compare(golden, changed)[1] == "content lost 3 chars; call 0 arguments differ"
