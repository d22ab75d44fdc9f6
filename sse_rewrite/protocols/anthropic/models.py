"""Models on the Anthropic side: which upstream model a request goes to, and the models list.

`--model NAME` sends every request to one upstream model; `--model-map PATTERN=NAME`
(repeatable) sends requests whose model matches PATTERN to NAME, the first match winning;
a request that matches nothing keeps its model. `models_list` turns the upstream's
OpenAI `/models` answer into the shape of Anthropic's `GET /v1/models`.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from datetime import UTC, datetime

# typing is imported for type checkers only, as in the core (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_YEAR_10000: Final = 253402300800  # Unix seconds; `datetime` stops before it


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """`--model` (one upstream model for every request) and `--model-map` pairs, in order."""

    model: str | None = None
    model_map: tuple[tuple[str, str], ...] = ()


def parse_model_map(text: str) -> tuple[str, str]:
    """`PATTERN=NAME` as a pair; raises `ValueError` when there is no `=` or a side is empty."""
    pattern, equals, name = text.partition("=")
    if not equals or not pattern or not name:
        raise ValueError(f"{text!r}: expected PATTERN=NAME, e.g. 'claude-*-haiku-*=moonshotai/kimi-k2'")
    return pattern, name


def upstream_model(requested: str, choice: ModelChoice) -> str:
    """The upstream model: `choice.model`, else the first `model_map` match, else `requested`.

    Patterns are shell-style (`fnmatch.fnmatchcase`: `*`, `?`, `[seq]`), matched against
    the whole requested name, case-sensitively.
    """
    if choice.model:
        return choice.model
    matches = (name for pattern, name in choice.model_map if fnmatch.fnmatchcase(requested, pattern))
    return next(matches, requested)


def models_list(openai_list: Any) -> dict[str, Any]:
    """An OpenAI `{"data": [{"id", "created", ...}]}` list as Anthropic's models list.

    `created` (Unix seconds) becomes `created_at` (RFC 3339, UTC; the epoch when absent),
    the id doubles as `display_name`, and the list is one page (`has_more: false`).
    Entries without a string id are skipped.
    """
    entries = openai_list.get("data") if isinstance(openai_list, dict) else None
    models: list[dict[str, Any]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(model_id := entry.get("id"), str):
            continue
        created = entry.get("created")
        seconds = created if isinstance(created, int) and 0 < created < _YEAR_10000 else 0
        stamp = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        name = entry.get("name")  # OpenRouter gives a human name
        display = name if isinstance(name, str) else model_id
        models.append({"type": "model", "id": model_id, "display_name": display, "created_at": stamp})
    return {
        "data": models,
        "has_more": False,
        "first_id": models[0]["id"] if models else None,
        "last_id": models[-1]["id"] if models else None,
    }
