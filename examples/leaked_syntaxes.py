"""One tool call written the way each model family leaks it, for the fake upstream's `--syntax`.

Each function takes the tool's name, its arguments and the number of calls made so far
(Kimi numbers its ids with it) and gives the text the model writes. docs/behaviour.md says
how sse-rewrite reads each syntax.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

Arguments = dict[str, Any]
MARK = "\uff5cDSML\uff5c"  # DSML's marker: its bars are U+FF5C FULLWIDTH VERTICAL LINE

# A special token streams as one token; the rest is cut into words, punctuation and spaces.
_TOKEN = re.compile(r'<\|[A-Za-z_]+\|>|<\|tool_call>|<tool_call\|>|<\|"\|>|</?\uff5cDSML\uff5c'
                    r"|\[TOOL_CALLS\]|\[ARGS\]|\s*[A-Za-z0-9]+|\s*[^A-Za-z0-9\s<]+|\s*<|\s+")


def tokens(text: str) -> list[str]:
    """`text` cut the way a provider streams it: a special token whole, words and punctuation apart."""
    return _TOKEN.findall(text)


def _raw(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def kimi(name: str, arguments: Arguments, counter: int) -> str:
    """Kimi K2's tool-call section."""
    return ("<|tool_calls_section_begin|><|tool_call_begin|>"
            f"functions.{name}:{counter}<|tool_call_argument_begin|>{json.dumps(arguments)}"
            "<|tool_call_end|><|tool_calls_section_end|>")


def kimi_stripped(name: str, arguments: Arguments, counter: int) -> str:
    """Kimi K2's call with its special tokens stripped by the server (`skip_special_tokens`)."""
    return f"functions.{name}:{counter}{json.dumps(arguments)}"


def dsml(name: str, arguments: Arguments, counter: int) -> str:
    """DeepSeek V3.2's DSML block, strings raw and other values JSON."""
    parameters = "".join(
        f'<{MARK}parameter name="{key}" string="{str(isinstance(value, str)).lower()}">'
        f"{_raw(value)}</{MARK}parameter>\n" for key, value in arguments.items())
    return (f'\n\n<{MARK}function_calls>\n<{MARK}invoke name="{name}">\n{parameters}'
            f"</{MARK}invoke>\n</{MARK}function_calls>")


def harmony(name: str, arguments: Arguments, counter: int) -> str:
    """gpt-oss's analysis message, then its call on the commentary channel."""
    return (f"<|channel|>analysis<|message|>Need to use function {name}.<|end|>"
            f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
            f"<|message|>{json.dumps(arguments)}<|call|>")


def harmony_stripped(name: str, arguments: Arguments, counter: int) -> str:
    """The same with its special tokens stripped by the server (gpt-oss ids; under any id its call from
    `=functions.NAME`, a declared tool, the text before it kept)."""
    return (f"analysisNeed to use function {name}.assistantcommentary to=functions.{name} json"
            f"{json.dumps(arguments)}")


def qwen3_coder(name: str, arguments: Arguments, counter: int) -> str:
    """Qwen3-Coder's XML call, each parameter's value raw on its own lines."""
    parameters = "".join(f"<parameter={key}>\n{_raw(value)}\n</parameter>\n"
                         for key, value in arguments.items())
    return f"\n<tool_call>\n<function={name}>\n{parameters}</function>\n</tool_call>"


def minimax(name: str, arguments: Arguments, counter: int) -> str:
    """MiniMax M2's invoke block."""
    parameters = "".join(f'<parameter name="{key}">{_raw(value)}</parameter>\n'
                         for key, value in arguments.items())
    return f'\n<minimax:tool_call>\n<invoke name="{name}">\n{parameters}</invoke>\n</minimax:tool_call>'


def gemma4(name: str, arguments: Arguments, counter: int) -> str:
    """Gemma 4's call, strings between its quote tokens."""
    values = ",".join(f'{key}:<|"|>{value}<|"|>' if isinstance(value, str) else f"{key}:{json.dumps(value)}"
                      for key, value in arguments.items())
    return f"<|tool_call>call:{name}{{{values}}}<tool_call|>"


def mistral(name: str, arguments: Arguments, counter: int) -> str:
    """Mistral v11's call: the name, then its JSON arguments."""
    return f"[TOOL_CALLS]{name}[ARGS]{json.dumps(arguments)}"


def _call(name: str, arguments: Arguments) -> str:
    """A JSON call object, as the list syntaxes write it."""
    return json.dumps({"name": name, "arguments": arguments})


def hunyuan(name: str, arguments: Arguments, counter: int) -> str:
    """Tencent Hunyuan A13B's list of calls."""
    return f"\n<tool_calls>[{_call(name, arguments)}]</tool_calls>\n"


def granite(name: str, arguments: Arguments, counter: int) -> str:
    """IBM Granite 3.0's token, then a list of calls."""
    return f"<|tool_call|>[{_call(name, arguments)}]"


def nemotron(name: str, arguments: Arguments, counter: int) -> str:
    """NVIDIA Nemotron's list of calls between its tags."""
    return f"<TOOLCALL>[{_call(name, arguments)}]</TOOLCALL>"


def cohere(name: str, arguments: Arguments, counter: int) -> str:
    """Cohere Command A's action list."""
    action = {"tool_call_id": str(counter), "tool_name": name, "parameters": arguments}
    return f"<|START_ACTION|>[{json.dumps(action)}]<|END_ACTION|>"


def olmo(name: str, arguments: Arguments, counter: int) -> str:
    """AI2 Olmo 3's pythonic call (JSON strings and numbers are Python literals too)."""
    values = ", ".join(f"{key}={json.dumps(value)}" for key, value in arguments.items())
    return f"\n<function_calls>{name}({values})</function_calls>"


def glm(name: str, arguments: Arguments, counter: int) -> str:
    """GLM-4.5's call: its name, then key/value tags (read under any id whose request declares the tool)."""
    pairs = "".join(f"<arg_key>{key}</arg_key>\n<arg_value>{_raw(value)}</arg_value>\n"
                    for key, value in arguments.items())
    return f"\n<tool_call>{name}\n{pairs}</tool_call>"


def llama(name: str, arguments: Arguments, counter: int) -> str:
    """Llama 3's JSON call as the whole answer (read under any id whose request declares the tool)."""
    return json.dumps({"name": name, "parameters": arguments})


def kimi_k3_sep(name: str, arguments: Arguments, counter: int) -> str:
    """Kimi K3's XTML with its `<|open|>`/`<|close|>` tokens dropped, `<|sep|>` left (Kimi ids; under any
    id from its `<|sep|>call `, `tools` kept as text)."""
    values = "".join(f'argument key="{key}" type="string"<|sep|>{_raw(value)} argument<|sep|>'
                     for key, value in arguments.items())
    return f'tools<|sep|>call tool="{name}" index="{counter}"<|sep|>{values}call<|sep|>tools<|sep|>'


LEAKS: dict[str, Callable[[str, Arguments, int], str]] = {
    "kimi": kimi, "dsml": dsml, "harmony": harmony, "harmony-stripped": harmony_stripped,
    "qwen3-coder": qwen3_coder, "minimax": minimax,
    "gemma4": gemma4, "mistral": mistral, "hunyuan": hunyuan, "granite": granite, "nemotron": nemotron,
    "cohere": cohere, "olmo": olmo, "glm": glm, "kimi-k3-sep": kimi_k3_sep, "llama": llama,
    "kimi-stripped": kimi_stripped}
WHOLE_ANSWERS = frozenset({"llama"})
"""Syntaxes read only as a whole answer: no prose comes before their call."""
