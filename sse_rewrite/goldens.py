"""Captures and their goldens: replay a capture, compare with its golden, explain the change.

A capture is `sse_logs/NAME.sse` (raw bytes as `curl -N` saved them) or `NAME.json` (a
non-streaming body). Beside it: `NAME.sse.golden`, the filter's output; optionally
`NAME.sse.args`, the options it runs with (`--format kimi`, parsed by `options.py`), and
`NAME.sse.tools`, the request's tools (JSON, as `--tools` reads them).
`run`, `compare` and `summarize` are pure; `replay` and `check` read and write the files.
`sse-rewrite diff`, `replay` and the test suite all go through `replay`.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .options import OptionsError, parse_option_args, read_tools
from .stream.assemble import Assembled, assemble
from .stream.events import Notice
from .stream.rewrite import RewriteOptions, Stats, StreamRewriter

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal

    Status = Literal["pass", "fail", "missing", "error", "created", "updated", "unchanged"]
    """What `check` found: the first four when comparing, the last three with `update`."""

CAPTURE_SUFFIXES: Final = (".sse", ".json")
"""A file with one of these suffixes in a capture directory is a capture."""
GOLDEN_SUFFIX: Final = ".golden"
"""Appended to a capture's name for its golden."""
ARGS_SUFFIX: Final = ".args"
"""Appended to a capture's name for its options sidecar."""
TOOLS_SUFFIX: Final = ".tools"
"""Appended to a capture's name for its tools sidecar (the request's tools, JSON)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """One run of the filter over a capture: output bytes, notices, counters."""

    output: bytes
    notices: list[Notice]
    stats: Stats
    options: RewriteOptions


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of checking (or updating) one capture against its golden."""

    capture: Path
    status: Status
    detail: str = ""
    diff: str = ""


def golden_path(capture: Path) -> Path:
    """Where the golden of `capture` lives."""
    return capture.with_name(capture.name + GOLDEN_SUFFIX)


def args_path(capture: Path) -> Path:
    """Where the options sidecar of `capture` lives."""
    return capture.with_name(capture.name + ARGS_SUFFIX)


def tools_path(capture: Path) -> Path:
    """Where the tools sidecar of `capture` lives."""
    return capture.with_name(capture.name + TOOLS_SUFFIX)


def find_captures(paths: Iterable[Path]) -> list[Path]:
    """Captures named by `paths`: a directory gives its captures, sorted; a file is one.

    A golden or sidecar file stands for its capture.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix in CAPTURE_SUFFIXES and p.is_file())
        else:
            for suffix in (GOLDEN_SUFFIX, ARGS_SUFFIX, TOOLS_SUFFIX):
                path = path.with_name(path.name.removesuffix(suffix))
            found.append(path)
    return list(dict.fromkeys(found))


def run(data: bytes, options: RewriteOptions) -> Replay:
    """Rewrite `data` as the filter would; sans-IO."""
    rewriter = StreamRewriter(options)
    out = rewriter.feed(data) + rewriter.flush()
    output = b"".join(item for item in out if isinstance(item, bytes))
    notices = [item for item in out if isinstance(item, Notice)]
    return Replay(output, notices, rewriter.stats, options)


def load_options(capture: Path) -> RewriteOptions:
    """The options in `capture`'s sidecars, or the defaults. Raises OSError, OptionsError."""
    sidecar, tools = args_path(capture), tools_path(capture)
    options = RewriteOptions()
    if sidecar.exists():
        options = parse_option_args(sidecar.read_text(encoding="utf-8"), str(sidecar))
    if tools.exists():
        try:
            options = dataclasses.replace(options, tools=read_tools(tools.read_bytes()))
        except ValueError as error:
            raise OptionsError(f"{tools}: {error}") from None
    return options


def replay(capture: Path, overrides: Mapping[str, Any] | None = None) -> Replay:
    """Run the filter over a capture with its sidecar options, then `overrides`.

    Raises OSError, OptionsError.
    """
    options = dataclasses.replace(load_options(capture), **(overrides or {}))
    return run(capture.read_bytes(), options)


def check(capture: Path, *, update: bool = False) -> Outcome:
    """Compare `capture`'s replay with its golden, or (re)write the golden with `update`."""
    golden = golden_path(capture)
    try:
        result = replay(capture)
        expected = golden.read_bytes() if golden.exists() else None
    except (OSError, OptionsError) as error:
        return Outcome(capture, "error", str(error))
    if update:
        if expected == result.output:
            return Outcome(capture, "unchanged")
        try:
            golden.write_bytes(result.output)
        except OSError as error:
            return Outcome(capture, "error", str(error))
        status: Status = "created" if expected is None else "updated"
        summary = "" if expected is None else summarize(assemble(expected), assemble(result.output))
        return Outcome(capture, status, summary)
    if expected is None:
        return Outcome(capture, "missing", f"no golden {golden.name}; run `sse-rewrite diff --update`")
    if expected == result.output:
        return Outcome(capture, "pass")
    diff, summary = compare(expected, result.output, golden.name)
    return Outcome(capture, "fail", summary, diff)


def compare(expected: bytes, actual: bytes, name: str = "golden") -> tuple[str, str]:
    """A unified diff of the two outputs as text, and a one-line summary of what changed."""
    before = expected.decode("utf-8", "replace").splitlines(keepends=True)
    after = actual.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"{name} (golden)", f"{name} (now)")
    diff = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    return diff, summarize(assemble(expected), assemble(actual))


def summarize(expected: Assembled, actual: Assembled) -> str:
    """What changed between two assembled results, in one line (`;`-separated)."""
    changes: list[str] = []
    many = len(expected.choices | actual.choices) > 1
    for index in sorted(expected.choices | actual.choices):
        prefix = f"choice {index}: " if many else ""
        old, new = expected.choices.get(index), actual.choices.get(index)
        if old is None or new is None:
            changes.append(f"choice {index} {'added' if old is None else 'lost'}")
            continue
        for name in dict.fromkeys([*old.text, *new.text]):
            change = _text_change(name, old.text.get(name, ""), new.text.get(name, ""))
            if change:
                changes.append(prefix + change)
        if len(old.calls) != len(new.calls):
            changes.append(f"{prefix}calls {len(old.calls)} → {len(new.calls)}")
        for i in sorted(old.calls.keys() & new.calls.keys()):
            a, b = old.calls[i], new.calls[i]
            if a.name != b.name:
                changes.append(f"{prefix}call {i} name {a.name} → {b.name}")
            if a.id != b.id:
                changes.append(f"{prefix}call {i} id {a.id} → {b.id}")
            if a.arguments != b.arguments:
                changes.append(f"{prefix}call {i} arguments differ")
        if old.finish_reason != new.finish_reason:
            changes.append(f"{prefix}finish_reason {old.finish_reason} → {new.finish_reason}")
    if expected.errors != actual.errors:
        changes.append(f"errors {len(expected.errors)} → {len(actual.errors)}")
    if expected.usage != actual.usage:
        changes.append("usage differs")
    if expected.done != actual.done:
        changes.append("[DONE] " + ("added" if actual.done else "lost"))
    if expected.events != actual.events:
        changes.append(f"events {expected.events} → {actual.events}")
    if changes:
        return "; ".join(changes)
    if not (expected.choices or actual.choices):
        return "output differs; it holds no choices or content blocks to compare (see the diff)"
    return "same assembled result; only the bytes differ"


def _text_change(name: str, old: str, new: str) -> str:
    if old == new:
        return ""
    if len(new) < len(old):
        return f"{name} lost {len(old) - len(new)} chars"
    if len(new) > len(old):
        return f"{name} gained {len(new) - len(old)} chars"
    return f"{name} text differs"


_LABELS: Final[dict[Status, str]] = {
    "pass": "PASS", "fail": "FAIL", "missing": "MISSING", "error": "ERROR",
    "created": "CREATED", "updated": "UPDATED", "unchanged": "same",
}


def report(outcomes: list[Outcome]) -> str:
    """The `diff` report: one table row per capture, then each mismatch's diff, then totals."""
    width = max((len(o.capture.name) for o in outcomes), default=0)
    rows = [f"{_LABELS[o.status]:<9} {o.capture.name:<{width}}  {o.detail}".rstrip() + "\n" for o in outcomes]
    diffs = [f"\n{o.capture.name}: {o.detail}\n{o.diff}" for o in outcomes if o.diff]
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    totals = ", ".join(f"{n} {status}" for status, n in counts.items())
    return "".join(rows) + "".join(diffs) + f"\n{len(outcomes)} captures: {totals or 'none'}\n"


def exit_code(outcomes: list[Outcome]) -> int:
    """2 if any capture or golden could not be read, else 1 if any mismatch, else 0."""
    statuses = {o.status for o in outcomes}
    if statuses & {"error", "missing"}:
        return 2
    return 1 if "fail" in statuses else 0
