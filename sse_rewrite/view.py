"""Render a replayed capture for people (`replay --view`) or scripts (`replay --json`).

`view_lines` lays the assembled result out as styled lines: the same lines are printed
through rich on a terminal and as plain text when piped. Nothing here does I/O.
"""

from __future__ import annotations

import dataclasses
import json
import re

import orjson

from .goldens import Replay
from .stream.assemble import Assembled, assemble, to_json

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

_LINE_END: Final = re.compile(r"\r\n|\r|\n")

Line = tuple[str, str]
"""One output line and its rich style ("" for none)."""


def view_lines(name: str, replay: Replay) -> list[Line]:
    """The assembled outcome of one replay as styled lines."""
    result = assemble(replay.output)
    stats = replay.stats
    lines: list[Line] = [(f"== {name}  (format {stats.format or 'none'}: {stats.format_reason})", "bold")]
    for choice in sorted(result.choices.values(), key=lambda c: c.index):
        lines.append((f"choice {choice.index}  finish_reason: {choice.finish_reason}", "bold cyan"))
        for field, text in choice.text.items():
            lines.append((f"  {field} ({len(text)} chars):", "cyan"))
            lines += [(f"    | {line}", "") for line in _LINE_END.split(text)]
        for call in sorted(choice.calls.values(), key=lambda c: c.index):
            lines.append((f"  tool call {call.index}: {call.name}  id {call.id}", "green"))
            lines += [(f"    {line}", "") for line in _pretty(call.arguments).split("\n")]
    lines += [(f"error: {json.dumps(error, ensure_ascii=False)}", "red") for error in result.errors]
    if result.usage is not None:
        lines.append((f"usage: {json.dumps(result.usage, ensure_ascii=False)}", "dim"))
    lines += [(f"warning: {n.code}: {n.message}", "yellow") for n in replay.notices]
    calls = sum(len(c.calls) for c in result.choices.values())
    lines.append((
        f"events in {stats.events_in}, out {stats.events_out} ({stats.passed_through} unchanged); "
        f"calls {calls}; warnings {len(replay.notices)}"
        + ("" if result.done or result.body or not result.events else "; no [DONE]"),
        "dim",
    ))
    return lines


def view_text(name: str, replay: Replay) -> str:
    """`view_lines` as plain text."""
    return "".join(line + "\n" for line, _ in view_lines(name, replay))


def view_json(name: str, replay: Replay) -> dict[str, Any]:
    """The same content as a JSON-ready dict."""
    assembled: Assembled = assemble(replay.output)
    return {
        "capture": name,
        "options": {**dataclasses.asdict(replay.options),
                    "tools": None if replay.options.tools is None else replay.options.tools.names()},
        "stats": dataclasses.asdict(replay.stats),
        "warnings": [{"code": n.code, "message": n.message} for n in replay.notices],
        **to_json(assembled),
    }


def _pretty(arguments: str) -> str:
    """Arguments indented when they are JSON; as written (marked) when not."""
    try:
        value = orjson.loads(arguments)
    except orjson.JSONDecodeError:
        return f"{arguments}  (not valid JSON)"
    return json.dumps(value, indent=2, ensure_ascii=False)
