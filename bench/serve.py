"""Benchmark `sse-rewrite serve` against the same fake upstream reached straight, in the same run.

Usage: `python bench/serve.py [--quick]` from the project root, with sse-rewrite installed in
the running interpreter's environment. The processes: the fake upstream
(`examples/leaky_upstream.py`), `sse-rewrite serve` in front of it, a plain aiohttp
passthrough (`passthrough.py`, the floor), claude-code-router when its `ccr` command is
installed (`npm i -g @musistudio/claude-code-router`; it reaches two more fakes, whose
default knobs stand for the `x-fake` header it does not pass on), and this client. Each
figure compares the client reading the fake through a proxy with reading it straight, the
runs interleaved so that a busy machine skews all alike. Exits 1 when a target is missed.

- added latency: the fake puts each prose word's send time in its text
  (`time.monotonic_ns()`, one clock for every process on Linux); the client subtracts it on
  arrival. Events are paced (`delay`); only prose events count (a held tool call waits for
  its end by design). First event: from sending the request to the first `data:` event.
  Per event, through every front, the passthrough and claude-code-router beside serve's
  OpenAI front.
- throughput: N concurrent streams of `prose` words and a leaked call each, wall time.
  The CPU time serve spent (`/proc/PID/stat`) per event it relayed is shown beside it and
  beside the paced runs (where each read carries one event, as from a live model).
- the fronts: the largest number of concurrent streams asked through serve's OpenAI
  (`/v1/chat/completions`), Anthropic (`/v1/messages`), Responses (`/v1/responses`) and
  Gemini (`/v1/models/M:streamGenerateContent`) fronts, through the passthrough and through
  claude-code-router's Anthropic bridge; each proxy's CPU time per upstream event, and its
  ratio to the passthrough's (target: every front <= 2.5x).
- peak RSS of the serve process (`VmHWM`) after the largest run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import orjson

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE.parent / "examples" / "leaky_upstream.py"
MODEL = "moonshotai/kimi-k2.5"
REQUEST = {"model": MODEL, "stream": True, "messages": [{"role": "user", "content": "$ ls"}]}
FRONTS = {  # each client protocol: its path under /v1 and the request asking for the same stream
    "openai": ("/chat/completions", REQUEST),
    "anthropic": ("/messages", {**REQUEST, "max_tokens": 4096}),
    "responses": ("/responses", {"model": MODEL, "stream": True, "input": "$ ls"}),
    "gemini": ("/models/gemini-bench:streamGenerateContent?alt=sse",  # (serve maps gemini-* to MODEL)
               {"contents": [{"role": "user", "parts": [{"text": "$ ls"}]}]}),
}
STAMP = re.compile(rb"word@(\d+)@")
"""The send time the fake put in a prose word's text (`stamp`); an event with several repeats
words sent before (the Responses front's `response.completed`), so it times no word."""


@dataclass(frozen=True)
class Sizes:
    """How much to run."""

    paced_events: int
    concurrency: tuple[int, ...]
    prose: int
    repeats: int


FULL = Sizes(paced_events=2000, concurrency=(20, 100), prose=3000, repeats=3)
QUICK = Sizes(paced_events=300, concurrency=(20, 100), prose=500, repeats=2)


def start(command: list[str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a server writing to `log` (a pipe nobody reads would fill); return it and its URL."""
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=sink, env={**os.environ, "NO_COLOR": "1"})
    deadline = time.monotonic() + 20
    while not (found := re.search(r"http://127\.0\.0\.1:\d+/v1", log.read_text())):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"{command} did not start: {log.read_text()}")
        time.sleep(0.05)
    return process, found.group()


async def one_stream(session: aiohttp.ClientSession, base_url: str, knobs: str,
                     front: str = "openai") -> tuple[float, list[float], int]:
    """Read one stream: (ms to the first data event, per-event latencies in ms, data events).
    `front` "ccr:PROVIDER": claude-code-router's Messages route to that provider (a fake whose
    default knobs are `knobs`)."""
    started = time.monotonic_ns()
    first = 0.0
    latencies: list[float] = []
    count = 0
    buffer = b""
    path, request = FRONTS[front.partition(":")[0].replace("ccr", "anthropic")]
    if front.startswith("ccr:"):
        request = {**request, "model": f"{front[4:]},{MODEL}"}
    async with session.post(base_url + path, json=request, headers={"x-fake": knobs}) as response:
        async for chunk in response.content.iter_any():
            now = time.monotonic_ns()
            buffer += chunk
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                if not event.startswith(b"data: {") and b"\ndata: {" not in event:
                    continue
                count += 1
                first = first or (now - started) / 1e6
                stamps = STAMP.findall(event)
                if len(stamps) == 1:  # (the Responses front's closing events repeat the whole text: not new)
                    latencies.append((now - int(stamps[0])) / 1e6)
    return first, latencies, count


def paced_knobs(events: int, requests: int) -> str:
    """The fake's knobs for `paced`."""
    return f"prose={events // requests},delay=0.001,stamp=1"


async def paced(base_url: str, events: int, requests: int, front: str = "openai",
                ) -> tuple[list[float], list[float], int]:  # fmt: skip
    """`requests` paced streams of `events` prose events in turn: first-event times, event
    latencies, data events received."""
    firsts: list[float] = []
    latencies: list[float] = []
    received = 0
    async with aiohttp.ClientSession() as session:
        for _ in range(requests):
            first, more, count = await one_stream(session, base_url, paced_knobs(events, requests), front)
            firsts.append(first)
            latencies += more
            received += count
    return firsts, latencies, received


async def concurrent(base_url: str, count: int, prose: int, front: str = "openai") -> tuple[float, int]:
    """`count` concurrent unpaced streams: (wall time, data events received)."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        started = time.perf_counter()
        streams = (one_stream(session, base_url, f"prose={prose}", front) for _ in range(count))
        results = await asyncio.gather(*streams)
        return time.perf_counter() - started, sum(events for _, _, events in results)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def peak_rss_mb(pid: int) -> float:
    """Peak resident set size of process `pid` so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass(frozen=True)
class Proxy:
    """A proxy in front of the fake: its process, its base URL, and the front asked through it."""

    process: subprocess.Popen[bytes]
    url: str
    front: str = "openai"


def free_port() -> int:
    """A port nothing listens on now (for claude-code-router, which takes its port from its config)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_ccr(logs: Path, fakes: dict[str, str]) -> tuple[subprocess.Popen[bytes], str] | str:
    """claude-code-router (`ccr start`, in the foreground) with one provider per fake (by name),
    in a home of its own under `logs`; its base URL is `/v1` on the port it listens on. A
    sentence saying why not when `ccr` is not installed or does not start. Returns it and its URL."""
    ccr = shutil.which("ccr")
    if ccr is None:
        return "claude-code-router not installed (npm i -g @musistudio/claude-code-router)"
    port, home = free_port(), logs / "ccr-home"
    providers = [{"name": name, "api_base_url": f"{url}/chat/completions", "api_key": "x", "models": [MODEL]}
                 for name, url in fakes.items()]
    config = {"PORT": port, "HOST": "127.0.0.1", "LOG": False, "NON_INTERACTIVE_MODE": True,
              "Providers": providers, "Router": {"default": f"{next(iter(fakes))},{MODEL}"}}
    (home / ".claude-code-router").mkdir(parents=True)
    (home / ".claude-code-router" / "config.json").write_bytes(orjson.dumps(config))
    with (logs / "ccr").open("wb") as sink:
        process = subprocess.Popen([ccr, "start"], stdout=sink, stderr=sink, cwd=home,
                                   env={**os.environ, "HOME": str(home)})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process, f"http://127.0.0.1:{port}/v1"
        time.sleep(0.2)
    process.kill()
    return f"claude-code-router did not start: {(logs / 'ccr').read_text()[-500:]}"


def fronts(sizes: Sizes, upstream: str, proxies: dict[str, Proxy],
           measure_cpu: bool) -> list[tuple[str, str, bool]]:
    """The concurrent streams through each proxy and front, against the same reads straight
    (interleaved): wall time, and each proxy's CPU per upstream event against the passthrough's."""
    count = max(sizes.concurrency)
    times: dict[str, list[float]] = {name: [] for name in ("straight", *proxies)}
    cpu_per_event: dict[str, list[float]] = {name: [] for name in proxies}
    for _ in range(sizes.repeats):
        wall, upstream_events = asyncio.run(concurrent(upstream, count, sizes.prose))
        times["straight"].append(wall)
        for name, proxy in proxies.items():
            cpu = cpu_seconds(proxy.process.pid)
            times[name].append(asyncio.run(concurrent(proxy.url, count, sizes.prose, proxy.front))[0])
            cpu_per_event[name].append((cpu_seconds(proxy.process.pid) - cpu) / upstream_events * 1e6)
    rows = []
    floor = min(cpu_per_event["passthrough"])
    for name in proxies:
        ratio = min(times[name]) / min(times["straight"])
        cpu, per_event = "", min(cpu_per_event[name])
        if measure_cpu or not name.startswith("serve"):
            cpu = f", CPU {per_event:.1f} us an upstream event = {per_event / floor:.2f}x the passthrough's"
        wall = f"{ratio:.2f}x ({min(times['straight']):.2f}s -> {min(times[name]):.2f}s)"
        target = name.startswith("serve") and measure_cpu
        ok = per_event <= 2.5 * floor or not target
        cpu += "  target <= 2.5x" if target else ""
        rows.append((f"{name}, {count} concurrent streams", wall + cpu, ok))
    return rows


def paced_fronts(sizes: Sizes, upstream: str, proxies: dict[str, Proxy]) -> list[tuple[str, str, bool]]:
    """Added latency per event at the median through each proxy and front, paced, interleaved."""
    latencies: dict[str, list[float]] = {name: [] for name in ("straight", *proxies)}
    for _ in range(sizes.repeats):
        latencies["straight"] += asyncio.run(paced(upstream, sizes.paced_events, 20))[1]
        for name, proxy in proxies.items():
            front = proxy.front.replace("ccr:fast", "ccr:paced")
            latencies[name] += asyncio.run(paced(proxy.url, sizes.paced_events, 20, front))[1]
    straight = percentile(latencies["straight"], 0.5)
    return [(f"added latency per event, p50, {name}",
             f"{percentile(latencies[name], 0.5) - straight:+.3f} ms ({straight:.3f} -> "
             f"{percentile(latencies[name], 0.5):.3f})", True) for name in proxies]


def main() -> None:
    """Run the figures and print them."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--workers", type=int, default=1, help="serve's --workers")
    arguments = parser.parse_args()
    sizes = QUICK if arguments.quick else FULL
    logs = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    fake, upstream = start([sys.executable, str(UPSTREAM), "--port", "0", "--lifetime", "900"], logs / "fake")
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", upstream, "--port", "0",
               "--workers", str(arguments.workers), "--model-map", f"gemini-*={MODEL}"]
    serve, through = start(command, logs / "serve")
    passthrough, floor_url = start([sys.executable, str(HERE / "passthrough.py"), "--upstream", upstream],
                                   logs / "passthrough")
    proxies = {"passthrough": Proxy(passthrough, floor_url)}
    proxies |= {f"serve {front} front": Proxy(serve, through, front) for front in FRONTS}
    processes = [serve, fake, passthrough]
    rows: list[tuple[str, str, bool]] = []
    fakes = {"fast": f"prose={sizes.prose}", "paced": paced_knobs(sizes.paced_events, 20)}
    for name, knobs in fakes.items():  # claude-code-router passes no x-fake header: fakes with those knobs
        process, fakes[name] = start([sys.executable, str(UPSTREAM), "--port", "0", "--lifetime", "900",
                                      "--knobs", knobs], logs / f"fake-{name}")
        processes.append(process)
    ccr = start_ccr(logs, fakes)
    if isinstance(ccr, str):
        rows.append(("claude-code-router", ccr, True))
    else:
        processes.append(ccr[0])
        proxies["claude-code-router"] = Proxy(ccr[0], ccr[1], "ccr:fast")
    try:
        firsts: dict[str, list[float]] = {"straight": [], "serve": []}
        events: dict[str, list[float]] = {"straight": [], "serve": []}
        paced_cpu: list[float] = []
        for _ in range(sizes.repeats):
            for name, url in (("straight", upstream), ("serve", through)):
                cpu = cpu_seconds(serve.pid)
                first, latencies, received = asyncio.run(paced(url, sizes.paced_events, 20))
                firsts[name] += first
                events[name] += latencies
                if name == "serve":
                    paced_cpu.append((cpu_seconds(serve.pid) - cpu) / received * 1e6)
        for label, values in (("first event", firsts), ("per event", events)):
            for cut, name in ((0.5, "p50"), (0.99, "p99")):
                added = percentile(values["serve"], cut) - percentile(values["straight"], cut)
                target = label == "per event" and name == "p50"
                straight = percentile(values["straight"], cut)
                through_serve = percentile(values["serve"], cut)
                rows.append((f"added latency, {label}, {name}",
                             f"{added:+.3f} ms ({straight:.3f} -> {through_serve:.3f})"
                             + ("  target <= 1 ms" if target else ""), added <= 1.0 or not target))
        if arguments.workers == 1:  # the workers' CPU is not the parent's
            rows.append(("  serve CPU per event, paced (1 event a read)",
                         f"{min(paced_cpu):.0f}-{max(paced_cpu):.0f} us", True))
        rss_idle = peak_rss_mb(serve.pid)
        for count in sizes.concurrency:
            times: dict[str, list[float]] = {"straight": [], "serve": []}
            cpu_per_event: list[float] = []
            for _ in range(sizes.repeats):
                for name, url in (("straight", upstream), ("serve", through)):
                    cpu = cpu_seconds(serve.pid)
                    wall, received = asyncio.run(concurrent(url, count, sizes.prose))
                    times[name].append(wall)
                    if name == "serve":
                        cpu_per_event.append((cpu_seconds(serve.pid) - cpu) / received * 1e6)
            ratio = min(times["serve"]) / min(times["straight"])
            rows.append((f"{count} concurrent streams of {sizes.prose} words",
                         f"{ratio:.2f}x ({min(times['straight']):.2f}s -> {min(times['serve']):.2f}s)"
                         "  target <= 1.5x", ratio <= 1.5))
            if arguments.workers == 1:  # the workers' CPU is not the parent's
                rows.append((f"  serve CPU per event, {count} streams",
                             f"{min(cpu_per_event):.1f}-{max(cpu_per_event):.1f} us", True))
        rows += fronts(sizes, upstream, proxies, measure_cpu=arguments.workers == 1)
        rows += paced_fronts(sizes, upstream, proxies)
        if arguments.workers == 1:  # with several, the figure would be the idle parent's
            rows.append(("serve peak RSS", f"{peak_rss_mb(serve.pid):.1f} MB after {max(sizes.concurrency)} "
                         f"concurrent streams ({rss_idle:.1f} MB before)", True))
    finally:
        for process in processes:
            process.terminate()
            process.wait(30)
        shutil.rmtree(logs)
    for figure, value, ok in rows:
        print(f"{'ok  ' if ok else 'MISS'} {figure:<48} {value}")
    sys.exit(0 if all(ok for _, _, ok in rows) else 1)


if __name__ == "__main__":
    main()
