"""Throughput of two versions of the filter side by side, each against the baseline in the same run.

`OLD` is a directory holding another version's `sse_rewrite` package (for instance
`git archive COMMIT sse_rewrite | tar -x -C OLD`); it runs as the installed `sse-rewrite`
with `PYTHONPATH=OLD`. For every shape, tool-heavy and plain, the baseline, the old and
the new filter, accelerators on and off, run interleaved; each figure is the best of
`--repeats` runs divided by the baseline's. Times are the children's CPU time (user +
system, from `wait4`), which other jobs on a shared machine disturb less than wall time;
`--wall` measures wall time as `run.py` does.

Usage: `python bench/ab.py OLD [--repeats 5] [--wall] [--size-mb 15] [--shape NAME]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import shapes
from measure import MB, best, filter_command, write
from run import ACCELERATORS_OFF

HERE = Path(__file__).resolve().parent


def main() -> None:
    """Print one line per stream: old and new, accelerators on and off, as ratios to the baseline."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", type=Path, help="a directory holding the old version's sse_rewrite package")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    parser.add_argument("--size-mb", type=int, default=15)
    parser.add_argument("--shape", default="", help="only the shapes whose name contains this")
    args = parser.parse_args()
    if not (args.old / "sse_rewrite").is_dir():
        raise SystemExit(f"{args.old} holds no sse_rewrite package")
    new = filter_command()
    old = ["env", f"PYTHONPATH={args.old.resolve()}", *new]
    off = list(ACCELERATORS_OFF)
    baseline = [sys.executable, str(HERE / "baseline.py")]
    clock = "wall" if args.wall else "CPU"
    print(f"{'stream':50} {'old on':>7} {'new on':>7} {'old off':>7} {'new off':>7}"
          f"  ({clock} time / baseline's, best of {args.repeats})")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in (s for s in shapes.SHAPES if args.shape in s.name):
            for kind, make in (("tool-heavy", shape.heavy), ("no-syntax", shape.plain)):
                path = str(write(Path(tmp) / "shape.sse", make(args.size_mb * MB)))
                commands = [baseline, old, new, [*old, *off], [*new, *off]]
                base, *times = best(args.repeats, *([*c, path] for c in commands), cpu=not args.wall)
                ratios = " ".join(f"{t / base:6.2f}x" for t in times)
                print(f"{kind + ': ' + shape.name:50} {ratios}  baseline {base:.2f}s", flush=True)


if __name__ == "__main__":
    main()
