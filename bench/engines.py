"""`--stream-arguments` beside the serving engines' own streaming tool parsers, per delta.

Usage: `bash bench/engines_env.sh` once (the engines' environment), then
`/work/benchenv-engines/bin/python bench/engines.py [--sizes 512,2048,8192,20480] [--syntax NAME]
[--repeats 5] [--instructions]` from the project root. Never a test dependency.

Each turn is `deltas.py`'s: a sentence of prose and three calls, each writing SIZE bytes of
arguments, one token (about 4 characters) per delta. Ours is fed the SSE events one at a
time, as `deltas.py` feeds it (`StreamRewriter`, accelerators on, `--stream-arguments`);
each engine parser is fed the same tokens as text deltas, the way its server calls it, with
no JSON around them. Printed: µs a delta (best of the repeats, CPU time of this process)
for ours, for the floor (an orjson decode and encode of each event: what any proxy pays),
ours above the floor, and each engine's, with the fastest engine's ratio to ours above the
floor. An engine that cannot be built here prints why, and the rest go on. With `--instructions`,
callgrind's counts a delta instead of time (a loaded machine moves time by ±50 %, counts not at
all): each feed runs once uncounted (patterns compiled, caches filled: what a server pays once),
then once counted, all in one process per syntax and size. On amd64 Linux, callgrind instruments only
the counted feeds (`instrument`): the imports (torch) and the uncounted runs go at valgrind's plain
speed (a row that took 8 minutes takes 2 to 4 on a shared machine, torch's import most of it).
"""

from __future__ import annotations

import argparse
import ctypes
import itertools
import math
import mmap
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
import orjson  # noqa: E402 (after the path: bench/ and the project)
from deltas import SYNTAXES, feed_time, file_text, turn_events  # noqa: E402
from streams import PROSE, tokens  # noqa: E402

TOOL = {"type": "function", "function": {"name": "write_file", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
    "required": ["path", "content"]}}}
"""The one tool every turn calls, as a request declares it."""

SGLANG = {"kimi": "kimi_k2", "deepseek": "deepseekv31", "hermes": "hermes", "qwen3-coder": "qwen3_coder",
          "glm": "glm45", "dsml": "deepseekv32", "minimax": "minimax-m2", "harmony": "gpt-oss",
          "mistral": "mistral"}
"""SGLang's detector name for each syntax of `deltas.SYNTAXES` it reads."""

VLLM = {"kimi": "kimi_k2", "deepseek": "deepseek_v31", "hermes": "hermes", "qwen3-coder": "qwen3_coder",
        "glm": "glm45", "dsml": "deepseek_v32", "minimax": "minimax_m2", "harmony": "openai",
        "mistral": "mistral"}
"""vLLM's tool parser name for each syntax it reads."""

Feed = Callable[[list[str]], None]
"""Feeds one turn's text deltas to a fresh parser, and ends it."""


def turn_tokens(syntax: str, size: int) -> list[str]:
    """The text deltas of `turn_events(syntax, size)`, one a delta."""
    _, call, section = SYNTAXES[syntax]
    content = file_text(size)
    calls = [call(i, "write_file", {"path": f"src/module_{i}.py", "content": content}) for i in range(3)]
    return [*tokens(PROSE), *section(calls)]


def sglang_feed(name: str) -> Feed:
    """SGLang's `FunctionCallParser` for detector `name`, as its chat server streams."""
    from sglang.srt.entrypoints.openai.protocol import Tool
    from sglang.srt.function_call.function_call_parser import FunctionCallParser

    tools = [Tool.model_validate(TOOL)]
    FunctionCallParser(tools, name)  # (fails here, not in the timing, if it cannot be built)

    def feed(deltas: list[str]) -> None:
        parser = FunctionCallParser(tools, name)
        for delta in deltas:
            parser.parse_stream_chunk(delta)
        parser.parse_stream_end()

    return feed


def vllm_feed(name: str) -> Feed:
    """vLLM's tool parser `name`, fed as its chat server streams (text and token ids so far)."""
    from engine_tokenizer import Tokenizer
    from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
    from vllm.tool_parsers import ToolParserManager

    parser_type = ToolParserManager.get_tool_parser(name)
    request = ChatCompletionRequest(model="m", messages=[{"role": "user", "content": "hi"}], tools=[TOOL])
    tokenizer = Tokenizer(t for syntax in SYNTAXES for t in turn_tokens(syntax, 512))
    parser_type(tokenizer, request.tools) if "tools" in parser_type.__init__.__code__.co_varnames \
        else parser_type(tokenizer)

    def feed(deltas: list[str]) -> None:
        parser = parser_type(tokenizer)
        request.tools and parser.adjust_request(request)
        text, ids = "", []
        for delta in deltas:
            new = [tokenizer.id_of(delta)]
            parser.extract_tool_calls_streaming(text, text + delta, delta, ids, ids + new, new, request)
            text += delta
            ids += new
        end = getattr(parser, "finish_streaming", None)
        end and end()

    return feed


def floor_time(events: list[bytes]) -> float:
    """CPU seconds of an orjson decode and encode of each event's payload."""
    loads, dumps = orjson.loads, orjson.dumps
    started = time.process_time()
    for event in events:
        if event[6:7] == b"{":
            dumps(loads(event[6:]))
    return time.process_time() - started


def best(run: Callable[[], float], repeats: int) -> float:
    """The least of `repeats` runs' seconds."""
    return min(run() for _ in range(repeats))


def engine_time(feed: Feed, deltas: list[str]) -> float:
    started = time.process_time()
    feed(deltas)
    return time.process_time() - started


def engines(syntax: str, only: str = "") -> list[tuple[str, Feed | str]]:
    """Each engine's feed for `syntax` (those whose name holds `only`), or why it cannot be built here."""
    out: list[tuple[str, Feed | str]] = []
    for engine, names, make in (("sglang", SGLANG, sglang_feed), ("vllm", VLLM, vllm_feed)):
        if syntax in names and only in engine:
            try:
                out.append((f"{engine}:{names[syntax]}", make(names[syntax])))
            except Exception as error:
                out.append((f"{engine}:{names[syntax]}", f"{type(error).__name__}: {error}"[:120]))
    return out


INSTRUMENT_LATER = platform.machine() == "x86_64" and sys.platform == "linux"
"""Whether callgrind starts without instrumenting, and the counted process starts it after its imports
and warm runs (`instrument`): the engines' imports (torch) and the warm runs then go at
valgrind's plain speed, several times callgrind's. The counts are the same either way (checked to the
instruction on a warm feed)."""

CLIENT_REQUEST = bytes.fromhex(
    "4889f8" "4889f2" "48c1c703" "48c1c70d" "48c1c73d" "48c1c733" "4887db" "4889d0" "c3")
"""amd64 code for `f(args, default)`: `rax` = args, `rdx` = default, valgrind's special preamble (rotate
`rdi` by 3, 13, 61, 51 bits: by 128, so unchanged) and `xchg rbx, rbx`, then return `rdx`. Run on
valgrind, it makes the client request `args[0]`; run natively it does nothing (`valgrind.h`,
`VALGRIND_DO_CLIENT_REQUEST_EXPR` for amd64)."""

START_INSTRUMENTATION, STOP_INSTRUMENTATION = 0x43540004, 0x43540005
"""`VG_USERREQ__START_INSTRUMENTATION` and `STOP_…` (`callgrind.h`: tool base 'C', 'T', then the
fifth and sixth requests)."""


def instrument(on: bool) -> None:
    """Ask callgrind (run with `--instr-atstart=no`) to start or stop instrumenting; natively, nothing."""
    if not INSTRUMENT_LATER:
        return
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(CLIENT_REQUEST)
    request = ctypes.CFUNCTYPE(ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong)(
        ctypes.addressof(ctypes.c_char.from_buffer(page)))
    args = (ctypes.c_ulong * 6)(START_INSTRUMENTATION if on else STOP_INSTRUMENTATION, 0, 0, 0, 0, 0)
    request(ctypes.addressof(args), 0)


_COUNTED = """
import gc, itertools, sys
sys.path.insert(0, {here!r})
from engines import engines, feed_time, floor_time, instrument, turn_events, turn_tokens
for syntax, size in {rows!r}:
    events, deltas = turn_events(syntax, size), turn_tokens(syntax, size)
    feeds = [("floor", lambda: floor_time(events)), ("ours", lambda: feed_time(events, True))]
    feeds += [(name, lambda f=feed: f(deltas)) for name, feed in engines(syntax, {only!r})
              if not isinstance(feed, str)]
    for name, run in feeds:
        run()
    instrument(True)
    for name, run in feeds:
        print(syntax, size, len(deltas), name, flush=True)
        gc.collect()
        list(itertools.starmap(run, [()]))
    instrument(False)
"""


def instructions_a_delta(rows: list[tuple[str, int]], only: str = "") -> list[tuple[str, int, str, float]]:
    """(syntax, size, name, instructions a delta) of the floor, ours and each engine (whose name holds
    `only`) for each (syntax, size) of `rows`, warm, in one callgrind process (the engines' imports are
    slow under it; see the module docstring)."""
    code = _COUNTED.format(here=str(HERE), rows=rows, only=only)
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--instr-atstart={'no' if INSTRUMENT_LATER else 'yes'}",
             "--collect-atstart=no", "--toggle-collect=starmap_next",
             "--dump-after=starmap_next", f"--callgrind-out-file={out}/cg", sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, cwd=HERE.parent,
        )
        if done.returncode != 0:
            raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
        dumps = sorted(Path(out).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        totals = [int(re.search(r"^totals: (\d+)", p.read_text(), re.M).group(1))  # type: ignore[union-attr]
                  for p in dumps]  # fmt: skip
    counts = [t for t in totals if t > 10_000]  # (each call's closing `StopIteration` dump: a few hundred)
    labels = [line.split() for line in done.stdout.splitlines()]
    return [(syntax, int(size), name, count / int(deltas))
            for (syntax, size, deltas, name), count in zip(labels, counts, strict=True)]


def print_instructions(rows: list[tuple[str, int]], only: str = "") -> None:
    """`--instructions`: ours above the floor beside each engine, instructions a delta, a row a size."""
    found: dict[tuple[str, int], dict[str, float]] = {}
    for syntax, size, name, count in instructions_a_delta(rows, only):
        found.setdefault((syntax, size), {})[name] = count
    for (syntax, size), counts in found.items():
        above = counts.pop("ours") - counts.pop("floor")
        row = [f"{syntax:<12} {size:>6} B  ours above the floor {above / 1000:6.1f}k"]
        row += [f"{name} {count / 1000:6.1f}k" for name, count in counts.items()]
        if counts:
            row.append(f"fastest/ours-above {min(counts.values()) / above:5.2f}x")
        print("  ".join(row), flush=True)


def main() -> None:
    """Print µs a delta per syntax and size: ours, the floor, ours above it, each engine's."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="512,2048,8192,20480", help="bytes of arguments per call")
    parser.add_argument("--syntax", default="", help="only the syntaxes whose name contains this")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="callgrind's counts, not time")
    parser.add_argument("--engine", default="", help="only the engines whose name holds this (sglang, vllm)")
    args = parser.parse_args()
    if args.instructions:
        syntaxes, sizes = [s for s in SYNTAXES if args.syntax in s], [int(s) for s in args.sizes.split(",")]
        print_instructions(list(itertools.product(syntaxes, sizes)), args.engine)
        return
    for syntax in (s for s in SYNTAXES if args.syntax in s):
        built = engines(syntax, args.engine)
        for name, feed in built:
            if isinstance(feed, str):
                print(f"{syntax:<12} {name:<22} not measured: {feed}", flush=True)
        for size in (int(s) for s in args.sizes.split(",")):
            events, deltas = turn_events(syntax, size), turn_tokens(syntax, size)
            count = len(deltas)
            assert count == len(events) - 1, "one event a delta"
            ours = 1e6 * best(lambda e=events: feed_time(e, True), args.repeats) / count
            floor = 1e6 * best(lambda e=events: floor_time(e), args.repeats) / count
            row = [f"{syntax:<12} {size:>6} B {count:>6} deltas  ours {ours:6.2f}µ  floor {floor:5.2f}µ  "
                   f"above {ours - floor:6.2f}µ"]
            fastest = math.inf
            for name, feed in built:
                if not isinstance(feed, str):
                    try:
                        took = 1e6 * best(lambda f=feed, d=deltas: engine_time(f, d), args.repeats) / count
                    except Exception as error:
                        row.append(f"{name} failed ({type(error).__name__})")
                        continue
                    fastest = min(fastest, took)
                    row.append(f"{name} {took:7.2f}µ")
            if fastest < math.inf:
                row.append(f"fastest/ours-above {fastest / (ours - floor):5.2f}x")
            print("  ".join(row), flush=True)


if __name__ == "__main__":
    main()
