"""Write the bundled captures in this directory, deterministically.

Run `python sse_logs/make_captures.py`, then `sse-rewrite diff --update` for the goldens.
Every capture is built here in the shapes real servers send (OpenRouter's Kimi streams,
an OpenAI-compatible host, a non-streaming body); nothing depends on a clock or a random
source, so re-running it rewrites identical bytes. `README.md` says what each covers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
CB, AB, CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
KEEPALIVE = b": OPENROUTER PROCESSING\n\n"
DONE = b"data: [DONE]\n\n"
CREATED = 1763900000
_TOKEN = re.compile(r"<\|[a-z_]+\|>|\s+(?=<\|)|\s*[A-Za-z0-9]+|\s*[^A-Za-z0-9\s<]+|\s*<|\s+")


def call(header: str, arguments: str) -> str:
    """One complete Kimi call."""
    return f"{CB}{header}{AB}{arguments}{CE}"


def section(*calls: str) -> str:
    """A Kimi tool-call section around `calls`."""
    return SB + "".join(calls) + SE


def tokens(text: str) -> list[str]:
    """`text` cut the way Kimi streams it: a marker per token, words and punctuation apart."""
    pieces = _TOKEN.findall(text)
    assert "".join(pieces) == text
    return pieces


def cut(text: str, size: int) -> list[str]:
    """`text` re-chunked every `size` characters, markers split wherever they fall."""
    return [text[i : i + size] for i in range(0, len(text), size)]


class OpenRouter:
    """Builds OpenRouter-shaped chunks: role on every delta, reasoning mirrored in details."""

    def __init__(self, stream_id: str, model: str = "moonshotai/kimi-k2.5", *, spaced: bool = False):
        self.stream_id, self.model, self.spaced = stream_id, model, spaced

    def event(self, obj: dict[str, Any], line_end: str = "\n") -> bytes:
        """One `data:` event."""
        separators = (", ", ": ") if self.spaced else (",", ":")
        data = json.dumps(obj, ensure_ascii=False, separators=separators)
        return f"data: {data}{line_end}{line_end}".encode()

    def chunk(self, delta: dict[str, Any], finish: str | None = None, index: int = 0,
              **extra: Any) -> dict[str, Any]:
        """A chat.completion.chunk with one choice."""
        choice = {"index": index, "delta": delta, "finish_reason": finish, "native_finish_reason": finish}
        return {"id": self.stream_id, "object": "chat.completion.chunk", "created": CREATED,
                "model": self.model, "provider": "Chutes", "choices": [choice], **extra}

    def text(self, field: str, token: str, index: int = 0) -> dict[str, Any]:
        """A chunk carrying `token` in `field` (reasoning fields mirrored in reasoning_details)."""
        delta: dict[str, Any] = {"content": "", "role": "assistant"}
        delta[field] = token
        if field != "content":
            delta["reasoning_details"] = [
                {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
            ]
        return self.chunk(delta, index=index)

    def events(self, parts: list[tuple[str, str]], finish: str | None = "stop", *,
               usage: bool = True, done: bool = True, line_end: str = "\n") -> bytes:
        """A whole stream: keep-alives, one chunk per (field, token), finish, usage, DONE."""
        out = [KEEPALIVE.replace(b"\n", line_end.encode())] * 3
        out += [self.event(self.text(field, token), line_end) for field, token in parts]
        if finish is not None:
            out.append(self.event(self.chunk({"content": "", "role": "assistant"}, finish), line_end))
        if usage:
            out.append(self.event(self.usage(), line_end))
        if done:
            out.append(DONE.replace(b"\n", line_end.encode()))
        return b"".join(out)

    def usage(self) -> dict[str, Any]:
        """The usage-only chunk OpenRouter sends before [DONE] (`choices: []`)."""
        return {"id": self.stream_id, "object": "chat.completion.chunk", "created": CREATED,
                "model": self.model, "provider": "Chutes", "choices": [],
                "usage": {"prompt_tokens": 212, "completion_tokens": 87, "total_tokens": 299,
                          "cost": 0.00021, "is_byok": False,
                          "prompt_tokens_details": {"cached_tokens": 0},
                          "completion_tokens_details": {"reasoning_tokens": 31}}}


def on(field: str, text: str) -> list[tuple[str, str]]:
    """Kimi-style tokens of `text`, all in `field`."""
    return [(field, token) for token in tokens(text)]


WEATHER = call("functions.get_weather:0", '{"city": "Tōkyō", "unit": "celsius"}')
THINK = "The user wants the weather in Tokyo. I should call the weather tool."


def captures() -> dict[str, bytes]:
    """Every capture by file name."""
    out: dict[str, bytes] = {}
    s = OpenRouter("gen-1763900000-kimiOneTokenPerChunk")
    out["kimi-one-token-per-chunk.sse"] = s.events(
        on("reasoning", THINK) + on("content", "I'll check the weather in Tokyo. " + section(WEATHER))
    )

    s = OpenRouter("gen-1763900001-kimiSplitMidMarker")
    text = ("Reading both files." + section(call("functions.read:0", '{"path": "a.txt"}'),
                                           call("functions.read:1", '{"path": "b.txt"}'))
            + " Done reading.")
    out["kimi-split-mid-marker.sse"] = s.events([("content", piece) for piece in cut(text, 7)])

    s = OpenRouter("gen-1763900002-kimiParallelCalls")
    text = "Let me look around.\n" + SB + "\n" + "\n".join([
        " " + call("functions.list_dir:0", ' {"path": "."} ') + " ",
        call("functions.read_file:1", '{"path": "src/main.py", "range": {"start": 1, "end": 40}}'),
        call("functions.bash:2", '{"cmd": "grep -n \\"TODO\\" -r src | head -n 5"}'),
    ]) + "\n" + SE
    out["kimi-parallel-calls.sse"] = s.events(on("content", text))

    s = OpenRouter("gen-1763900003-kimiTwoSections")
    text = ("First I'll search." + section(call("functions.search:0", '{"q": "sse spec"}'))
            + "\n\nNow two fetches." + section(call("functions.fetch:1", '{"url": "https://a.example/"}'),
                                               call("functions.fetch:2", '{"url": "https://b.example/"}'))
            + "\n\nI'll summarize once they return.")
    out["kimi-two-sections.sse"] = s.events(on("content", text))

    s = OpenRouter("gen-1763900004-kimiThinkingReasoning", "moonshotai/kimi-k2-thinking")
    out["kimi-k2-thinking-reasoning.sse"] = s.events(
        on("reasoning", THINK + section(WEATHER) + " Waiting for the tool.")
        + on("content", "Checking the weather now.")
    )

    out["kimi-reasoning-content-compat.sse"] = _compat()

    s = OpenRouter("gen-1763900006-keepaliveUsage")
    parts = [s.event(s.text("content", token)) for token in tokens("Sure. " + section(WEATHER))]
    middle = len(parts) // 2
    out["openrouter-keepalive-usage.sse"] = b"".join(
        [KEEPALIVE, *parts[:middle], KEEPALIVE, KEEPALIVE, *parts[middle:], KEEPALIVE,
         s.event(s.chunk({"content": "", "role": "assistant"}, "stop")), s.event(s.usage()), DONE]
    )

    s = OpenRouter("gen-1763900007-kimiCrlf")
    out["kimi-crlf.sse"] = s.events(
        on("content", "Line one.\r\nRunning it. " + section(call("functions.bash:0", '{"cmd": "make"}'))
           + " Started."), line_end="\r\n")

    s = OpenRouter("gen-1763900008-kimiTruncated")
    text = "Writing the file. " + SB + CB + "functions.write:0" + AB + '{"path": "x.md", "text": "# Ti'
    whole = s.events(on("content", text), finish=None, usage=False, done=False)
    partial = s.event(s.text("content", "tle"))
    out["kimi-truncated-in-section.sse"] = whole + partial[: len(partial) // 2]

    s = OpenRouter("gen-1763900009-kimiLengthCutoff")
    out["kimi-length-cutoff.sse"] = s.events(
        on("content", "Saving. " + SB + CB + 'functions.save:0' + AB + '{"id": 7, "final": true}'),
        finish="length")

    s = OpenRouter("gen-1763900010-errorMidStream")
    error = s.chunk({"content": "", "role": "assistant"}, "error",
                    error={"code": 502, "message": "Provider returned error",
                           "metadata": {"provider_name": "Chutes", "raw": "upstream connection reset"}})
    out["openrouter-error-mid-stream.sse"] = (
        s.events(on("content", "Let me run that. " + SB + CB + "functions.bash"),
                 finish=None, usage=False, done=False) + s.event(error))

    out["openrouter-native-tool-calls.sse"] = _native()

    out["kimi-completion-body.json"] = _completion()

    s = OpenRouter("gen-1763900013-kimiIdStyleOpenai")
    out["kimi-id-style-openai.sse"] = s.events(on("content", section(
        call("functions.get_weather:5", '{"city": "Oslo"}'), call("functions.get_time:6", "{}"))))

    s = OpenRouter("gen-1763900014-kimiFormatNone")
    out["kimi-format-none.sse"] = s.events(on("content", "Raw. " + section(WEATHER)))

    s = OpenRouter("gen-1763900015-kimiDamaged")
    text = ("Mentioning `" + SB + "` in prose is not a call. A stray " + CE + " marker. "
            + CB + "weather:0" + AB + '{"city": "Lima"}'
            + CB + "functions.mcp__github__search-issues:7" + AB + '{"q": "is:open"}' + SE
            + " After.")
    out["kimi-damaged-syntax.sse"] = s.events(on("content", text))

    s = OpenRouter("gen-1763900016-kimiTwoChoices")
    events = [KEEPALIVE]
    first, second = tokens("A: " + section(WEATHER)), tokens("B: no tools needed.")
    for i in range(max(len(first), len(second))):
        for index, pieces in enumerate((first, second)):
            if i < len(pieces):
                events.append(s.event(s.text("content", pieces[i], index)))
    events += [s.event(s.chunk({"content": "", "role": "assistant"}, "stop", index)) for index in (0, 1)]
    out["kimi-two-choices.sse"] = b"".join([*events, DONE])
    return out


def _compat() -> bytes:
    """An OpenAI-compatible host: spaced JSON, a role-only first chunk, reasoning_content."""
    s = OpenRouter("gen-1763900005-compatReasoningContent", spaced=True)
    head = {"id": "chatcmpl-0c0ffee", "object": "chat.completion.chunk", "created": CREATED,
            "model": "moonshotai/kimi-k2.5",
            "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
    out = [s.event(head) + b"\n"]
    for token in tokens("I need the forecast for Florence." + section(
            call("functions.get_forecast:0", '{"city": "Florence, Italy", "days": 3}'))):
        delta = {"content": "", "role": "assistant", "reasoning_details": [
            {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}],
            "reasoning_content": token}
        out.append(s.event(s.chunk(delta)))
    out.append(s.event(s.chunk({"content": "", "role": "assistant"}, "stop")))
    return b"".join([*out, DONE])


def _native() -> bytes:
    """Native OpenAI tool_calls deltas, streamed in fragments: must pass untouched."""
    s = OpenRouter("gen-1763900011-nativeToolCalls")
    out = [KEEPALIVE] + [s.event(s.text("reasoning", t)) for t in tokens("Two lookups, in parallel.")]
    for index, (name, args) in enumerate([("get_weather", '{"city": "Paris"}'),
                                          ("get_time", '{"tz": "Europe/Paris"}')]):
        first = {"index": index, "id": f"{name}:{index}", "type": "function",
                 "function": {"name": name, "arguments": ""}}
        out.append(s.event(s.chunk({"content": None, "role": "assistant", "tool_calls": [first]})))
        for piece in cut(args, 5):
            fragment = {"index": index, "function": {"arguments": piece}}
            out.append(s.event(s.chunk({"content": None, "role": "assistant", "tool_calls": [fragment]})))
    out += [s.event(s.chunk({"content": "", "role": "assistant"}, "tool_calls")), s.event(s.usage()), DONE]
    return b"".join(out)


def _completion() -> bytes:
    """A non-streaming chat.completion body with leaked calls in message.content."""
    body = {
        "id": "gen-1763900012-kimiCompletionBody", "object": "chat.completion", "created": CREATED,
        "model": "moonshotai/kimi-k2.5", "provider": "Chutes",
        "choices": [{"index": 0, "logprobs": None, "finish_reason": "stop", "native_finish_reason": "stop",
                     "message": {"role": "assistant", "reasoning": "Two files to read.",
                                 "content": "Reading them now." + section(
                                     call("functions.read:0", '{"path": "README.md"}'),
                                     call("functions.read:1", '{"path": "setup.cfg"}'))}}],
        "usage": {"prompt_tokens": 90, "completion_tokens": 40, "total_tokens": 130},
    }
    return json.dumps(body, ensure_ascii=False, indent=2).encode() + b"\n"


SIDECARS = {
    "kimi-id-style-openai.sse": "--id-style openai\n",
    "kimi-format-none.sse": "# passthrough check: rewriting switched off\n--format none\n",
}


def main() -> None:
    """Write every capture and options sidecar."""
    for name, data in captures().items():
        (HERE / name).write_bytes(data)
    for name, args in SIDECARS.items():
        (HERE / f"{name}.args").write_text(args, encoding="utf-8")


if __name__ == "__main__":
    main()
