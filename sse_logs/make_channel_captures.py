"""Write the captures of the channel and token syntaxes (harmony, Seed-OSS, Kimi K3, Muse, Beam),
one token per chunk as the providers stream them (deterministic: same bytes every run).

    python sse_logs/make_channel_captures.py
    sse-rewrite diff --update sse_logs/harmony-*.sse sse_logs/seed-*.sse sse_logs/kimi-k3-*.sse ...

Each is shaped like `make_format_captures.py`'s: a keep-alive comment, a role chunk, one chunk
per model token, a closing chunk with `finish_reason`, a usage-only chunk and `data: [DONE]`.
"""

from __future__ import annotations

import re
from typing import Any

from make_format_captures import deltas, event, write_captures

CREATED = 1764000000


def stream(name: str, model: str, chunks: list[dict[str, Any]], finish: str) -> str:
    """Groq's envelope: no `native_finish_reason`, the role in the first chunk only."""
    base = {
        "id": f"gen-{CREATED}-{name}",
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "provider": "Groq",
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    parts = [": OPENROUTER PROCESSING\n\n", event(chunk({"role": "assistant", "content": ""}))]
    parts += [event(chunk(delta)) for delta in chunks]
    parts.append(event(chunk({"content": ""}, finish)))
    parts.append(event({**base, "choices": [], "usage": {"prompt_tokens": 90, "completion_tokens": 40}}))
    return "".join(parts) + "data: [DONE]\n\n"


HARMONY_CALL = [
    "<|channel|>",
    "analysis",
    "<|message|>",
    "Need",
    " the",
    " weather",
    " in",
    " Paris",
    ".",
    "<|end|>",
    "<|start|>",
    "assistant",
    "<|channel|>",
    "commentary",
    " to",
    "=functions",
    ".get",
    "_weather",
    " <|constrain|>",
    "json",
    "<|message|>",
    '{"',
    "location",
    '":"',
    "Paris",
    '"}',
    "<|call|>",
]
HARMONY_FINAL = [
    "<|channel|>",
    "analysis",
    "<|message|>",
    "User",
    " says",
    " hi",
    ".",
    "<|end|>",
    "<|start|>",
    "assistant",
    "<|channel|>",
    "final",
    "<|message|>",
    "Hello",
    "!",
    " How",
    " can",
    " I",
    " help",
    "?",
    "<|return|>",
]
HARMONY_STRIPPED = [
    "analysis",
    "User",
    " wants",
    " the",
    " files",
    ".",
    "assistant",
    "commentary",
    " to",
    "=functions",
    ".shell",
    " json",
    '{"',
    "cmd",
    '":["',
    "ls",
    '"]}',
]
SEED = [
    "<seed:think>",
    "Check",
    " Dallas",
    ".",
    "</seed:think>",
    "Checking",
    ".",
    "<seed:tool_call>",
    "\n",
    "<function=",
    "get",
    "_weather",
    ">\n",
    "<parameter=",
    "city",
    ">\n",
    "Dallas",
    "\n",
    "</parameter>",
    "\n",
    "<parameter=",
    "days",
    ">\n",
    "3",
    "\n",
    "</parameter>",
    "\n",
    "</function>",
    "\n",
    "</seed:tool_call>",
]
K3 = [
    "Sure",
    ".",
    "<|open|>",
    "tools",
    "<|sep|>",
    "<|open|>",
    "call",
    ' tool="',
    "bash",
    '" index="',
    "1",
    '"',
    "<|sep|>",
    "<|open|>",
    "argument",
    ' key="',
    "command",
    '" type="',
    "string",
    '"',
    "<|sep|>",
    "ls",
    " -la",
    "<|close|>",
    "argument",
    "<|sep|>",
    "<|close|>",
    "call",
    "<|sep|>",
    "<|close|>",
    "tools",
    "<|sep|>",
]
K3_SEP_ONLY = [  # (`<|open|>` and `<|close|>` dropped by the server, `<|sep|>` left)
    *K3[:2],
    *(token for token in K3[3:] if token not in ("<|open|>", "<|close|>")),
]

KIMI_STRIPPED = [
    "Let",
    " me",
    " read",
    " both",
    ".",
    "functions",
    ".read",
    "_file",
    ":",
    "0",
    '{"',
    "path",
    '":"',
    "a",
    ".py",
    '"}',
    "functions",
    ".read",
    "_file",
    ":",
    "1",
    '{"',
    "path",
    '":"',
    "b",
    ".py",
    '"}',
]

_TOKEN = re.compile(r"<\|[a-z]+\|>|</?[\w:]+| ?\w+|\s+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """One token a word (with the space before it), a special token, a tag's opening word, spacing or
    punctuation."""
    out = _TOKEN.findall(text)
    assert "".join(out) == text
    return out


MUSE_SPARK = (  # (the prompt ends `<|start|>assistant`: the model writes the first header's ` to=`)
    " to=self<|message|>The user wants the weather in Paris; call the tool.<|eom|>"
    "<|start|>assistant to=get_weather<|message|><atem:function_calls>\n"
    '<atem:invoke name="get_weather">\n<atem:parameter name="city">Paris</atem:parameter>\n'
    '<atem:parameter name="days">2</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>'
    "<|start|>assistant to=user<|message|>Checking the forecast now.<|eot|>"
)
MUSE_GLIMMER = (
    " to=self<|message|>A file listing first.<|eom|><|start|>assistant to=bash<|message|>"
    '<atem:function_calls><atem:invoke name="bash"><atem:parameter name="command">ls -la</atem:parameter>'
    "</atem:invoke></atem:function_calls><|eom|><|start|>assistant<|message|>Listing it.<|eot|>"
)
BEAM = (
    "<|channel|>analysis<|message|>Two files to read.<|end|><|start|>assistant to=read_file<|channel|>analysis "
    '<|constrain|>xml<|message|><rfl:parameter name="path">\n src/a.py\n</rfl:parameter>\n'
    '<rfl:parameter name="lines">\n40\n</rfl:parameter><|call|><|start|>assistant to=read_file<|channel|>analysis '
    '<|constrain|>xml<|message|><rfl:parameter name="path">\nsrc/b.py\n</rfl:parameter><|call|>'
    "<|channel|>final<|message|>Reading both.<|return|>"
)

CAPTURES = {
    "harmony-call": ("openai/gpt-oss-20b", deltas(HARMONY_CALL)),
    "harmony-final-in-reasoning": ("gpt-4o", deltas(HARMONY_FINAL, "reasoning")),
    "harmony-stripped": ("gpt-oss:120b", deltas(HARMONY_STRIPPED)),
    "seed-oss": ("ByteDance-Seed/Seed-OSS-36B-Instruct", deltas(SEED)),
    "kimi-k3-xtml": ("moonshotai/kimi-k3", deltas(K3)),
    "stripped-kimi-k3-sep": ("moonshotai/kimi-k3", deltas(K3_SEP_ONLY)),
    "stripped-kimi-k2": ("moonshotai/Kimi-K2-Instruct-0905", deltas(KIMI_STRIPPED)),
    "muse-spark": ("meta-models/Muse-Spark-Open-816B-A42B-NVFP4", deltas(tokens(MUSE_SPARK))),
    "muse-glimmer": ("meta-models/Muse-Glimmer-30B", deltas(tokens(MUSE_GLIMMER))),
    "beam-calls": ("reflection/Beam-1.0-501B-A23B-NVFP4", deltas(tokens(BEAM))),
}

if __name__ == "__main__":
    write_captures({name: (model, chunks, "stop") for name, (model, chunks) in CAPTURES.items()}, {}, stream)
