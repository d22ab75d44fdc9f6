"""Benchmark sse-rewrite against baselines measured in the same run; exit 1 on a missed target.

Usage: `python bench/run.py [--quick]` from the project root, with sse-rewrite installed
in the running interpreter's environment. See bench/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shapes
import streams
from measure import ENV, HERE, MB, best, filter_command, held_memory, ping_pong, reads, run, write


@dataclass(frozen=True)
class Sizes:
    """Stream sizes for one mode."""

    throughput: int
    section_chars: int
    memory_small: int
    memory_large: int
    hostile: int
    flood: int
    long_line: int
    pings: int
    repeats: int


FULL = Sizes(45 * MB, 250_000, 20 * MB, 200 * MB, 100 * MB, 1_000_000, 50 * MB, 2000, 3)
QUICK = Sizes(15 * MB, 20_000, 2 * MB, 20 * MB, 20 * MB, 100_000, 5 * MB, 500, 2)


@dataclass(frozen=True)
class Row:
    """One line of the report: a figure, its value, and the target it is held to."""

    figure: str
    value: float
    limit: float
    unit: str = "x"
    note: str = ""

    @property
    def ok(self) -> bool:
        """Whether the target is met."""
        return self.value <= self.limit


def throughput(tmp: Path, sizes: Sizes, cli: list[str], only: str = "") -> list[Row]:
    """Filter time against the orjson round-trip baseline per stream shape, and section scaling.

    Every shape runs tool-heavy and plain, each with the accelerators on (the default)
    and, where the filter has the switch, off (`ACCELERATORS_OFF`). Times are CPU time
    (user + system) of each child: other jobs on the machine disturb them much less.
    """
    baseline = [sys.executable, str(HERE / "baseline.py")]
    rows = []
    off = accelerators_off(cli, write(tmp / "one.sse", [streams.ping_event()]))
    for shape in (s for s in shapes.SHAPES if only in s.name):
        for kind, make, limit in (("tool-heavy", shape.heavy, 1.5), ("no-syntax", shape.plain, 1.0)):
            path = write(tmp / "shape.sse", make(sizes.throughput))
            commands = [[*cli, str(path)], [*baseline, str(path)]]
            if off:
                commands.append([*cli, *off, str(path)])
            ours, base, *rest = best(sizes.repeats, *commands, cpu=True)
            size = path.stat().st_size / MB
            rows.append(Row(f"{kind}: {shape.name}", ours / base, limit,
                            note=f"{size:.0f} MB: {ours:.2f}s vs {base:.2f}s"))
            for slow in rest:
                rows.append(Row(f"  accelerators off, {kind}", slow / base, 2.0, note=f"{slow:.2f}s"))
            path.unlink()
    one = write(tmp / "one.sse", [streams.ping_event()])
    small = write(tmp / "section-1.sse", streams.one_char_section(sizes.section_chars))
    large = write(tmp / "section-2.sse", streams.one_char_section(2 * sizes.section_chars))
    start, t1, t2 = best(sizes.repeats, [*cli, str(one)], [*cli, str(small)], [*cli, str(large)])
    rows.append(Row("1-char section, doubled", (t2 - start) / (t1 - start), 2.2,
                    note=f"{sizes.section_chars} -> {2 * sizes.section_chars} chars, start-up subtracted"))
    return rows


ACCELERATORS_OFF: Final = ("--no-token-runs", "--no-plain-runs")
"""The filter's options that switch every accelerator off."""


def accelerators_off(cli: list[str], one: Path) -> tuple[str, ...]:
    """`ACCELERATORS_OFF` when the installed filter takes those options, else nothing."""
    tried = subprocess.run([*cli, *ACCELERATORS_OFF, str(one)], capture_output=True, env=ENV)
    return ACCELERATORS_OFF if tried.returncode == 0 else ()


def memory(sizes: Sizes, cli: list[str]) -> list[Row]:
    """Peak RSS of the filter on a small and a large tool-heavy stream fed through a pipe."""
    _, small = run(cli, streams.tool_heavy(sizes.memory_small))
    _, large = run(cli, streams.tool_heavy(sizes.memory_large))
    note = (f"{sizes.memory_small // MB} MB stream: {small / 1024:.1f} MB, "
            f"{sizes.memory_large // MB} MB stream: {large / 1024:.1f} MB")
    return [Row("peak RSS growth, 10x stream", (large - small) / 1024, 10, " MB", note)]


def hostile(sizes: Sizes, cli: list[str]) -> list[Row]:
    """A huge unterminated section stays bounded; floods and a giant line run in linear time."""
    held, peak, written = held_memory(reads(streams.hostile_section(sizes.hostile)))
    _, rss = run(cli, streams.hostile_section(sizes.hostile))
    rows = [Row("hostile section: text held", held, 3, " MB",
                f"{sizes.hostile // MB} MB section, {written / MB:.0f} MB out; "
                f"transient peak {peak:.0f} MB (orjson), CLI RSS {rss / 1024:.0f} MB")]
    def doubled(make: Callable[[int], Iterable[bytes]], size: int) -> tuple[float, float, int]:
        """Best times of the filter reading `make(size)` and `make(2 * size)` through a pipe,
        runs interleaved so that a busy spell weighs on both; and the larger run's peak RSS."""
        half_chunks, full_chunks = list(make(size)), list(make(2 * size))  # made before any clock starts
        half = full = (float("inf"), 0)
        for _ in range(sizes.repeats + 2):
            half, full = min(half, run(cli, half_chunks)), min(full, run(cli, full_chunks))
        return half[0], full[0], full[1]

    half, full, rss = doubled(streams.marker_flood, sizes.flood // 2)
    rows.append(Row("marker flood, doubled", full / half, 2.2,
                    note=f"{sizes.flood} markers: {full:.2f}s, RSS {rss / 1024:.0f} MB"))
    # Both lines above glibc's 32 MiB mmap threshold: each run maps fresh pages for its
    # copies of the line; a 25 MB line's would come from reused heap memory instead.
    half, full, rss = doubled(streams.long_line, sizes.long_line)
    rows.append(Row("single long line, doubled", full / half, 2.2,
                    note=f"{sizes.long_line // MB} -> {2 * sizes.long_line // MB} MB line: "
                         f"{half:.2f}s -> {full:.2f}s, RSS {rss / 1024:.0f} MB"))
    return rows


def startup(tmp: Path, cli: list[str], repeats: int) -> list[Row]:
    """Start-up of `--version` and of a one-event run against `python -c "import orjson"`."""
    one = write(tmp / "one.sse", [streams.ping_event()])
    python, version, one_event = best(
        repeats, [sys.executable, "-c", "import orjson"], [*cli, "--version"], [*cli, str(one)]
    )
    return [
        Row("start-up: --version", version / python, 1.5, note=f"{version * 1000:.0f} ms"),
        Row("start-up: one-event run", one_event / python, 1.5,
            note=f"{one_event * 1000:.0f} ms vs import orjson {python * 1000:.0f} ms"),
    ]


def latency(cli: list[str], sizes: Sizes) -> list[Row]:
    """Added latency per event against the trivial echo filter.

    Both children run at once and take turns, so both see the same machine, and the
    median keeps the odd scheduler tick out. The figure is taken with everything on one
    CPU: unpinned, a round trip is dominated by waking the child on the other, idle,
    core, and whether the scheduler does that depends on how long the child ran, not on
    what it does. The unpinned medians are shown beside it.
    """
    free = ping_pong(cli, sizes.pings)
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(everywhere)})  # children inherit it
    try:
        ours, base = ping_pong(cli, sizes.pings)
    finally:
        os.sched_setaffinity(0, everywhere)
    return [Row("latency per event vs echo (1 CPU)", ours / base, 2.0,
                note=f"median {ours * 1e6:.0f} us vs {base * 1e6:.0f} us; "
                f"unpinned {free[0] * 1e6:.0f} us vs {free[1] * 1e6:.0f} us")]


def report(rows: list[Row], quick: bool) -> None:
    """Print the table: rich on a terminal, plain text otherwise."""
    title = f"sse-rewrite bench ({'quick' if quick else 'full'})"
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(title=title)
        for column in ("figure", "value", "target", "", "detail"):
            table.add_column(column)
        for row in rows:
            mark = "[green]ok[/]" if row.ok else "[red]MISSED[/]"
            value, target = f"{row.value:.2f}{row.unit}", f"<= {row.limit:g}{row.unit}"
            table.add_row(row.figure, value, target, mark, row.note)
        Console().print(table)
        return
    print(title)
    for row in rows:
        status = "ok" if row.ok else "MISSED"
        value, target = f"{row.value:.2f}{row.unit}", f"<= {row.limit:g}{row.unit}"
        print(f"{row.figure:<52} {value:>9} {target:>10}  {status:<6}  {row.note}")


def main() -> None:
    """Run every benchmark, print the table, exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller streams: runs in about a minute")
    parser.add_argument("--only", help="run one group: throughput, memory, hostile, startup, latency")
    parser.add_argument("--shape", help="throughput: only the shapes whose name contains this")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    cli = filter_command()
    groups: dict[str, Callable[[Path], list[Row]]] = {
        "throughput": lambda tmp: throughput(tmp, sizes, cli, args.shape or ""),
        "memory": lambda tmp: memory(sizes, cli),
        "hostile": lambda tmp: hostile(sizes, cli),
        "startup": lambda tmp: startup(tmp, cli, 5 * sizes.repeats),
        "latency": lambda tmp: latency(cli, sizes),
    }
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="sse-bench-") as tmp:
        run([*cli, str(write(Path(tmp) / "one.sse", [streams.ping_event()]))])  # bytecode cache
        for name, group in groups.items():
            if args.only in (None, name):
                rows += group(Path(tmp))
    report(rows, args.quick)
    sys.exit(0 if all(row.ok for row in rows) else 1)


if __name__ == "__main__":
    main()
