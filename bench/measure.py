"""How bench/ measures: run a child on a stream and time it, trace memory in process, ping-pong events.

Every bench script takes its clocks from here, so all of them measure the same way.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

import streams

HERE = Path(__file__).resolve().parent
MB = 1 << 20


def filter_command() -> list[str]:
    """The installed `sse-rewrite` command beside this interpreter, else `python -m sse_rewrite`."""
    script = Path(sys.executable).parent / "sse-rewrite"
    if script.exists():
        return [str(script)]
    found = shutil.which("sse-rewrite")
    return [found] if found else [sys.executable, "-m", "sse_rewrite"]


def write(path: Path, chunks: Iterable[bytes]) -> Path:
    """Write a generated stream to `path`."""
    with path.open("wb") as sink:
        for chunk in chunks:
            sink.write(chunk)
    return path


# Measured children may write bytecode (into __pycache__, as usual): an installed
# package has its .pyc files, and PYTHONDONTWRITEBYTECODE would make every start
# recompile the package, measuring the compiler rather than the program.
ENV: Final = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str], stdin: Iterable[bytes] | None = None, cpu: bool = False) -> tuple[float, int]:
    """Run `command` with stdout to /dev/null; return (seconds, peak RSS in KiB): wall time,
    or with `cpu` the child's CPU time (user + system), which other jobs on a busy
    machine disturb much less.

    With `stdin`, those chunks are written to the child's standard input as it runs.
    """
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # hostile inputs draw notices by design
        env=ENV,
    )
    if stdin is not None:
        assert child.stdin is not None
        for chunk in stdin:
            child.stdin.write(chunk)
        child.stdin.close()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = usage.ru_utime + usage.ru_stime if cpu else time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {child.returncode}")
    return elapsed, usage.ru_maxrss


def best(repeats: int, *commands: list[str], cpu: bool = False) -> list[float]:
    """Minimum time (wall, or CPU with `cpu`) of each command over `repeats` interleaved runs."""
    times = [float("inf")] * len(commands)
    for _ in range(repeats):
        for i, command in enumerate(commands):
            times[i] = min(times[i], run(command, cpu=cpu)[0])
    return times


def held_memory(chunks: Iterator[bytes]) -> tuple[float, float, int]:
    """Rewrite `chunks` in-process: (MB the core holds between reads, MB peak inside a read, bytes out)."""
    from sse_rewrite import StreamRewriter

    rewriter = StreamRewriter()
    written = held = peak = 0
    tracemalloc.start()
    for chunk in chunks:  # the read itself is traced too: leave it out
        before = tracemalloc.get_traced_memory()[0] - len(chunk)
        tracemalloc.reset_peak()
        written += sum(len(o) for o in rewriter.feed(chunk) if isinstance(o, bytes))
        current, top = tracemalloc.get_traced_memory()
        held, peak = max(held, current - len(chunk)), max(peak, top - before)
    written += sum(len(o) for o in rewriter.flush() if isinstance(o, bytes))
    tracemalloc.stop()
    return held / MB, peak / MB, written


def reads(chunks: Iterable[bytes], size: int = 65536) -> Iterator[bytes]:
    """Re-cut a stream into reads of `size` bytes, as the CLI's read1 would see it."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        while len(pending) >= size:
            yield pending[:size]
            pending = pending[size:]
    if pending:
        yield pending


class Pinger:
    """A filter child on pipes: `exchange()` writes one event and waits for its output."""

    def __init__(self, command: list[str]) -> None:
        self.child = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=ENV
        )
        assert self.child.stdin is not None and self.child.stdout is not None
        self.writer, self.reader = self.child.stdin.fileno(), self.child.stdout.fileno()
        self.ping = streams.ping_event()
        self.times: list[float] = []

    def exchange(self) -> None:
        """One round trip, timed."""
        started = time.perf_counter()
        os.write(self.writer, self.ping)
        got = 0
        while got < len(self.ping):
            got += len(os.read(self.reader, 65536))
        self.times.append(time.perf_counter() - started)

    def close(self) -> float:
        """End the child; return the median round trip after the warm-up."""
        assert self.child.stdin is not None
        self.child.stdin.close()
        self.child.wait()
        return statistics.median(self.times[20:])  # the first ones resolve the format, allocate


def ping_pong(cli: list[str], count: int) -> tuple[float, float]:
    """Median round trips (ours, echo's) with both children running, exchanges interleaved."""
    echo, ours = Pinger([sys.executable, str(HERE / "echo.py")]), Pinger(cli)
    for _ in range(20 + count):
        echo.exchange()
        ours.exchange()
    return ours.close(), echo.close()
