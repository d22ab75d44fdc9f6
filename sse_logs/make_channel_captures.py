"""Write the captures of the channel and token syntaxes (harmony, Seed-OSS, Kimi K3), one token
per chunk as the providers stream them (deterministic: same bytes every run).

    python sse_logs/make_channel_captures.py
    sse-rewrite diff --update sse_logs/harmony-*.sse sse_logs/seed-*.sse sse_logs/kimi-k3-*.sse

Each is shaped like `make_format_captures.py`'s: a keep-alive comment, a role chunk, one chunk
per model token, a closing chunk with `finish_reason`, a usage-only chunk and `data: [DONE]`.
"""

from __future__ import annotations

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

CAPTURES = {
    "harmony-call": ("openai/gpt-oss-20b", deltas(HARMONY_CALL)),
    "harmony-final-in-reasoning": ("gpt-4o", deltas(HARMONY_FINAL, "reasoning")),
    "harmony-stripped": ("gpt-oss:120b", deltas(HARMONY_STRIPPED)),
    "seed-oss": ("ByteDance-Seed/Seed-OSS-36B-Instruct", deltas(SEED)),
    "kimi-k3-xtml": ("moonshotai/kimi-k3", deltas(K3)),
    "stripped-kimi-k3-sep": ("moonshotai/kimi-k3", deltas(K3_SEP_ONLY)),
    "stripped-kimi-k2": ("moonshotai/Kimi-K2-Instruct-0905", deltas(KIMI_STRIPPED)),
}

if __name__ == "__main__":
    write_captures({name: (model, chunks, "stop") for name, (model, chunks) in CAPTURES.items()}, {}, stream)
