"""The cost of `--stream-arguments` and `--think` on the tool-heavy stream shapes.

Usage: `python bench/options.py [--quick] [--shape NAME]` from the project root. For each
tool-heavy shape of `shapes.SHAPES` (a third of `run.py`'s throughput size), the filter
runs with its defaults and with each of `OPTIONS`, interleaved, best of `repeats` runs,
in CPU time (user + system: other jobs on a busy machine disturb it less than wall time).
Each row is a ratio to the default measured in the same run. There is no target: the
options trade speed for latency (streamed arguments) or for a cleaner answer (`--think`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shapes
from measure import MB, best, filter_command, write
from run import FULL, QUICK

OPTIONS: Final = (("--stream-arguments",), ("--think", "on"), ("--stream-arguments", "--think", "on"))
"""The option sets measured against the default."""


def main() -> None:
    """Print one row per shape and option set: the ratio to the default."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller streams")
    parser.add_argument("--shape", default="", help="only the shapes whose name contains this")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    cli = filter_command()
    print(f"{'options':<40} {'shape':<44} {'ratio':>6}  CPU seconds")
    with tempfile.TemporaryDirectory(prefix="sse-bench-") as tmp:
        for shape in (s for s in shapes.SHAPES if args.shape in s.name):
            path = write(Path(tmp) / "shape.sse", shape.heavy(sizes.throughput // 3))
            commands = [[*cli, str(path)], *([*cli, *options, str(path)] for options in OPTIONS)]
            default, *timed = best(sizes.repeats, *commands, cpu=True)
            size = path.stat().st_size / MB
            for options, seconds in zip(OPTIONS, timed, strict=True):
                print(f"{' '.join(options):<40} {shape.name:<44} {seconds / default:>5.2f}x  "
                      f"{seconds:.2f} vs {default:.2f} default ({size:.0f} MB)")
            path.unlink()


if __name__ == "__main__":
    main()
