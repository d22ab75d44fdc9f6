"""Instructions the core executes per stream shape, against the baseline's (valgrind's callgrind).

On a shared machine timings wobble by ±30 %; instruction counts do not (string hashing is
fixed with PYTHONHASHSEED=0, so dict layouts repeat). For every shape of `shapes.SHAPES`
(tool-heavy, or `--plain`), the baseline loop (orjson load and dump of every `data:` line,
as `baseline.py` does, in process), and the core with the accelerators on and off, run in
process under callgrind on a stream of `--size-mb` and on one event; the difference is the
stream's cost, start-up excluded (the format parts a stream imports on its first
marker, `sse_rewrite/formats/machines/_lazy.py`, are imported up front in both runs). With `OLD` (a
directory holding another version's `sse_rewrite`, as for `ab.py`) the old core is counted
too. Instructions are not time (cache misses and branches differ), but a change that removes
work shows here in one run.

Usage: `python bench/instructions.py [OLD] [--size-mb 1] [--plain] [--shape NAME] [--stream-arguments]
[--batch [--warm]]` (needs `valgrind`; about a minute per shape; `--batch`: one callgrind run per core
for all the shapes, each counted alone between dumps, see `batch`; `--warm`: each stream after an
uncounted first run of it, the cost of a process's next stream, what serve pays).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import shapes

HERE = Path(__file__).resolve().parent
MB = 1 << 20

_SETUP = """
import sys
sys.path.insert(0, {here!r})
import shapes
shape = next(s for s in shapes.SHAPES if s.name == {shape!r})
data = b"".join(getattr(shape, {kind!r})({size})) if {size} else shape.event("x")
"""
_BASELINE = """
import io, orjson
for line in io.BytesIO(data):
    if line.startswith(b"data: {"):
        line = b"data: " + orjson.dumps(orjson.loads(line[6:])) + b"\\n"
"""
PRELOAD = """
try:  # the format parts a stream imports on its first marker: start-up, in both runs
    from sse_rewrite.formats.machines._lazy import LazyComposition
except ImportError:  # (a core from before the lazy registry imports them all up front)
    LazyComposition = None
for composition in LazyComposition.__subclasses__() if LazyComposition else ():
    composition.composition()
try:  # the compositions model ids pick (Llama, Mistral, gpt-oss...), imported on a stream's first event:
    import sse_rewrite.formats.catalogue.routing_wrapped  # else the one-event run pays their import,
except ImportError:  # and the stream's cost, the difference, is short of it (a plain stream below 0x)
    pass
"""
_CORE = PRELOAD + """
try:
    from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
except ImportError:  # (a core from before the stream/ package: its modules at the root)
    from sse_rewrite.rewrite import RewriteOptions, StreamRewriter
rewriter = StreamRewriter(RewriteOptions(plain_runs={on}, token_runs={on}, stream_arguments={stream}))
for i in range(0, len(data), 65536):
    rewriter.feed(data[i : i + 65536])
rewriter.flush()
"""


def instructions(code: str, path: str | None) -> int:
    """Instructions callgrind counts for `python -c code` (with `path` first on sys.path)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if path is not None:
        code = f"import sys\nsys.path.insert(0, {path!r})\n" + code
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        env=env, capture_output=True, text=True, cwd="/",
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def compiled(tree: str) -> None:
    """Compile `tree`'s package with this interpreter, over whatever bytecode it has: another patch
    release's (the same magic number) counts otherwise (3.11.2's bytecode of one tree counted 3.5 %
    above 3.11.7's, so two copies of one commit differed by that much)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-f", f"{tree}/sse_rewrite"], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def cost(shape: str, kind: str, size: int, body: str, path: str | None) -> int:
    """Instructions for the stream minus those for one event: the stream's own cost."""
    def run(n: int) -> int:
        return instructions(_SETUP.format(here=str(HERE), shape=shape, kind=kind, size=n) + body, path)

    return run(size) - run(0)


_REGION = """
import gc, itertools
def region(body):
    exec(body, globals())
def counted(body):  # one callgrind dump: the instructions run inside `starmap_next` (see `batch`)
    gc.collect()  # (uncounted: else a full collection the runs before made due falls in this count)
    list(itertools.starmap(region, [(body,)]))
"""


def batch(shapes_: list[str], kind: str, size: int, body: str, path: str | None,
          warm: bool = False) -> list[int]:  # fmt: skip
    """`cost` of every shape in one callgrind process (instructions collected only inside
    `itertools.starmap`'s `starmap_next`, a dump after each call): for each shape, its one-event
    run then its stream, each counted alone; the stream minus the event, as `cost`. Start-up is
    paid once, so a table costs a run per core rather than two per shape and core. Each count
    starts after an uncounted full collection: one the runs before made due (a pass over every
    object start-up made, millions of instructions) would fall in whichever count came next, by
    chance (±0.3x on a 0.1 MB shape); the count's own collections are counted. `warm`: each
    shape's stream runs once uncounted first, so what a process pays once (a pattern compiled on
    first use, a cache filled) is out of the count: the cost of a process's next stream."""
    lines = ["import sys", f"sys.path.insert(0, {str(HERE)!r})", "import shapes", _REGION]
    if body is not _BASELINE:  # (imports and the format parts, once: outside every count)
        lines += [PRELOAD, "data = b''", body]
    if path is not None:
        lines.insert(0, f"import sys\nsys.path.insert(0, {path!r})")
    for name in shapes_:
        lines.append(f"shape = next(s for s in shapes.SHAPES if s.name == {name!r})")
        if warm:
            lines += [f"data = b''.join(getattr(shape, {kind!r})({size}))", body]
        for n in (0, size):
            setup = f"data = b''.join(getattr(shape, {kind!r})({n})) if {n} else shape.event('x')"
            lines += [setup, f"counted({body!r})"]
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=starmap_next",
             "--dump-after=starmap_next", f"--callgrind-out-file={out}/cg", sys.executable, "-c",
             "\n".join(lines)], env=env, capture_output=True, text=True, cwd="/",
        )
        if done.returncode != 0:
            raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
        dumps = sorted(Path(out).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        totals = [int(re.search(r"^totals: (\d+)", p.read_text(), re.M).group(1))  # type: ignore[union-attr]
                  for p in dumps]
    counts = [t for t in totals if t > 10_000]  # (each call's closing `StopIteration` dump: a few hundred)
    return [stream - event for event, stream in zip(counts[::2], counts[1::2], strict=True)]


def main() -> None:
    """Print per shape: the baseline's instructions, and each core's as a ratio to them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", type=Path, nargs="?", help="a directory holding another sse_rewrite")
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--plain", action="store_true", help="the no-syntax streams")
    parser.add_argument("--shape", default="", help="only the shapes whose name contains this")
    parser.add_argument("--stream-arguments", action="store_true", help="the cores stream arguments")
    parser.add_argument("--batch", action="store_true", help="every shape in one callgrind run per core")
    parser.add_argument("--warm", action="store_true",
                        help="with --batch: count each shape's stream after an uncounted first run of it")
    args = parser.parse_args()
    kind, size = ("plain" if args.plain else "heavy"), int(args.size_mb * MB)
    # (this tree's package, named: run at `/`, the interpreter would import the one it has installed)
    cores = [("new", str(HERE.parent))] + ([("old", str(args.old.resolve()))] if args.old else [])
    for _, path in cores:
        compiled(path)
    print(f"{'stream':45} {'baseline':>9}  " + "  ".join(f"{n} on  {n} off" for n, _ in cores))
    if args.batch:
        names = [s.name for s in shapes.SHAPES if args.shape in s.name]
        bases = batch(names, kind, size, _BASELINE, None, args.warm)
        runs = [batch(names, kind, size, _CORE.format(on=on, stream=args.stream_arguments), path, args.warm)
                for _, path in cores for on in (True, False)]
        for i, name in enumerate(names):
            cells = "  ".join(f"{run[i] / bases[i]:5.2f}x" for run in runs)
            print(f"{kind} {name:39} {bases[i] / 1e6:8.1f}M  {cells}", flush=True)
        return
    for shape in (s.name for s in shapes.SHAPES if args.shape in s.name):
        base = cost(shape, kind, size, _BASELINE, None)
        stream = args.stream_arguments
        ratios = [cost(shape, kind, size, _CORE.format(on=on, stream=stream), path) / base
                  for _, path in cores for on in (True, False)]
        cells = "  ".join(f"{r:5.2f}x" for r in ratios)
        print(f"{kind} {shape:39} {base / 1e6:8.1f}M  {cells}", flush=True)


if __name__ == "__main__":
    main()
