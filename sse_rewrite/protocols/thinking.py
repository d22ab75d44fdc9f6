"""Whether a request turned the model's thinking off (docs/behaviour.md, "Think tags").

A model whose prompt opens its think block (R1, GLM-4.7+, MiniMax M2...) is assumed to start its
output inside that block; with thinking off its prompt does not open it, and its answer must stay
in `content`. `serve` reads each request with these and sets `RewriteOptions.prompt_think`.
"""

from __future__ import annotations

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_TEMPLATE_SWITCHES: Final = ("enable_thinking", "thinking")
"""`chat_template_kwargs` keys that switch thinking (Qwen3 and GLM templates; DeepSeek V3.1+)."""


def thinking_off(body: dict[str, Any]) -> bool:
    """Whether a chat.completions or Responses request turns thinking off: `reasoning_effort`
    `none`, `thinking.type` `disabled`, a `chat_template_kwargs` switch false, or OpenRouter's
    `reasoning` with `enabled` false, `exclude` true or `effort` `none`."""
    if body.get("reasoning_effort") == "none":
        return True
    thinking = body.get("thinking")
    if isinstance(thinking, dict) and thinking.get("type") == "disabled":
        return True
    switches = body.get("chat_template_kwargs")
    if isinstance(switches, dict) and any(switches.get(key) is False for key in _TEMPLATE_SWITCHES):
        return True
    reasoning = body.get("reasoning")
    if not isinstance(reasoning, dict):
        return False
    off = reasoning.get("enabled") is False or reasoning.get("exclude") is True
    return off or reasoning.get("effort") == "none"


def anthropic_thinking_off(body: dict[str, Any]) -> bool:
    """Whether a Messages request leaves thinking off: no `thinking`, or `thinking.type` `disabled`."""
    thinking = body.get("thinking")
    return not isinstance(thinking, dict) or thinking.get("type") == "disabled"
