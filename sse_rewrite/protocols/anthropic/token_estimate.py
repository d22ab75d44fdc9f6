"""The local answer to `count_tokens`: an estimate from a translated request's characters.

No tokenizer: the rule of thumb most gateways use (characters ÷ 4), which errs by tens of
percent either way; enough for a client's context budget, and it never calls the upstream.
"""

from __future__ import annotations

# typing is imported for type checkers only, as in the core (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

IMAGE_TOKENS: Final = 1600
"""`estimate_tokens` counts an image as this many tokens (Anthropic's cost of a ~1.15 MP image)."""


def estimate_tokens(request: dict[str, Any]) -> int:
    """A local input-token estimate for a translated request, as `count_tokens` answers it.

    Characters of every string value in `messages` and `tools` (texts, roles, ids, names,
    arguments, schemas; not JSON keys) divided by 4 and rounded up, plus `IMAGE_TOKENS`
    for each image, whose URL or data is not counted.
    """
    characters, images = 0, 0
    pending: list[Any] = [request.get("messages"), request.get("tools")]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            characters += len(value)
        elif isinstance(value, list):
            pending += value
        elif isinstance(value, dict) and value.get("type") == "image_url":
            images += 1
        elif isinstance(value, dict):
            pending += value.values()
    return -(-characters // 4) + IMAGE_TOKENS * images
