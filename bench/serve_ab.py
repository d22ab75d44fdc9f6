"""Two versions of `sse-rewrite serve` side by side, in front of one fake upstream, in the same run.

`OLD` is a directory holding another version's `sse_rewrite` package (for instance
`git archive main sse_rewrite | tar -x -C OLD`); its serve runs with `PYTHONPATH=OLD`, the
new one from the installed package. Each round reads `--streams` concurrent streams of
`--prose` words through the old serve, then the same through the new one; each serve's CPU
time (`/proc/PID/stat`) per relayed event and the wall time are kept, and the figures are
the best of the rounds, new over old (CPU time: less disturbed by other jobs than wall time).

Usage: `python bench/serve_ab.py OLD [--rounds 5] [--streams 50] [--prose 2000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

from serve import UPSTREAM, concurrent, cpu_seconds, start


def main() -> None:
    """Print the new serve's CPU per event and wall time as ratios to the old one's."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("old", type=Path, help="a directory holding the old version's sse_rewrite package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--streams", type=int, default=50)
    parser.add_argument("--prose", type=int, default=2000)
    args = parser.parse_args()
    if not (args.old / "sse_rewrite").is_dir():
        raise SystemExit(f"{args.old} holds no sse_rewrite package")
    logs = Path(tempfile.mkdtemp(prefix="bench-serve-ab-"))
    fake, upstream = start([sys.executable, str(UPSTREAM), "--port", "0", "--lifetime", "900"], logs / "fake")
    serve = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", upstream, "--port", "0"]
    os.environ["PYTHONPATH"] = str(args.old.resolve())
    old, old_url = start(serve, logs / "old")
    del os.environ["PYTHONPATH"]
    new, new_url = start(serve, logs / "new")
    cpu: dict[str, list[float]] = {"old": [], "new": []}
    wall: dict[str, list[float]] = {"old": [], "new": []}
    try:
        for _ in range(args.rounds):
            for name, process, url in (("old", old, old_url), ("new", new, new_url)):
                before = cpu_seconds(process.pid)
                took, events = asyncio.run(concurrent(url, args.streams, args.prose))
                cpu[name].append((cpu_seconds(process.pid) - before) / events * 1e6)
                wall[name].append(took)
    finally:
        for process in (old, new, fake):
            process.terminate()
            process.wait(30)
        shutil.rmtree(logs)
    for label, values, unit in (("serve CPU per event", cpu, "us"), ("wall time", wall, "s")):
        best_old, best_new = min(values["old"]), min(values["new"])
        print(f"{label:<22} old {best_old:.3f} {unit}, new {best_new:.3f} {unit}: {best_new / best_old:.3f}x"
              f"  (rounds: old {', '.join(f'{v:.2f}' for v in values['old'])};"
              f" new {', '.join(f'{v:.2f}' for v in values['new'])})")


if __name__ == "__main__":
    main()
