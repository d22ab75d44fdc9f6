"""The cost of one delta in process, per syntax and arguments size, as a live stream arrives.

Usage: `python bench/deltas.py [--sizes 2,8,20,64] [--syntax NAME] [--repeats 3]` from the
project root; `--instructions [OLD]` counts instructions instead (callgrind, one size).

Each turn is a sentence of prose and three calls, each writing a file of SIZE KB, one token
(about 4 characters) per delta, in the OpenRouter envelope under the syntax's model id (so
`auto` picks its format). The rewriter (`StreamRewriter`, accelerators on) is fed one SSE
event at a time, as a live stream arrives, once in the default mode (each call sent whole)
and once with `--stream-arguments`. Printed: µs a delta (best of the repeats, CPU time of
this process), their ratio, and growth per doubling of the size (time ratio between sizes,
to the power 1/log2 of the size ratio: 2.0 is linear). With `--instructions`, callgrind's
count for the feeding alone, per delta,
at `--size` KB, for this tree and for `OLD` (a directory holding another `sse_rewrite`);
a run fed only the first event is subtracted (start-up, imports, building the events; both
import the format parts a stream imports on its first marker, `instructions.PRELOAD`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shapes
import streams
from shapes import model_event
from streams import tokens

from sse_rewrite.formats.catalogue.deepseek import MARKERS
from sse_rewrite.formats.machines._section_base import Token

DEEPSEEK = {role: marker.decode() for marker, role in MARKERS.items()}
"""DeepSeek V3.1's tokens by role."""

CODE = (
    "def handler(event, context):\n"
    "    \"\"\"Answer one request.\"\"\"\n"
    "    name = event.get('name', \"world\")\t# a tab, a quote\n"
    "    return {\"status\": 200, \"body\": f\"hello {name}\\n\", \"path\": \"C:\\\\tmp\"}\n\n"
)


def file_text(size: int) -> str:
    """About `size` bytes of source code, ending in a newline."""
    return (CODE * (size // len(CODE) + 1))[:size].rstrip("\n") + "\n"


Args = dict[str, str]


def kimi(number: int, name: str, args: Args) -> list[str]:
    return [streams.CALL_BEGIN, *tokens(f" functions.{name}:{number}", 3), streams.ARGUMENT_BEGIN,
            *tokens(json.dumps(args)), streams.CALL_END]


def kimi_section(calls: list[list[str]]) -> list[str]:
    return [streams.SECTION_BEGIN, *(t for call in calls for t in call), streams.SECTION_END]


def deepseek(number: int, name: str, args: Args) -> list[str]:
    begin, sep, end = DEEPSEEK[Token.CALL_BEGIN], DEEPSEEK[Token.ARGUMENT_BEGIN], DEEPSEEK[Token.CALL_END]
    return [begin, name, sep, *tokens(json.dumps(args)), end]


def deepseek_section(calls: list[list[str]]) -> list[str]:
    return [DEEPSEEK[Token.SECTION_BEGIN], *(t for call in calls for t in call), DEEPSEEK[Token.SECTION_END]]


def hermes(number: int, name: str, args: Args) -> list[str]:
    return ["<tool_call>", "\n", *tokens(json.dumps({"name": name, "arguments": args})), "\n", "</tool_call>"]


def qwen(number: int, name: str, args: Args) -> list[str]:
    out = ["<tool_call>", "\n", "<function=", name, ">", "\n"]
    for key, value in args.items():
        out += ["<parameter=", key, ">", "\n", *tokens(value), "\n", "</parameter>", "\n"]
    return [*out, "</function>", "\n", "</tool_call>"]


def glm(number: int, name: str, args: Args) -> list[str]:
    out = ["<tool_call>", name, "\n"]
    for key, value in args.items():
        out += ["<arg_key>", key, "</arg_key>", "\n", "<arg_value>", *tokens(value), "</arg_value>", "\n"]
    return [*out, "</tool_call>"]


BAR = "\uff5cDSML\uff5c"
"""DSML's bar (a full-width vertical line)."""


def dsml(number: int, name: str, args: Args) -> list[str]:
    out = [f"<{BAR}invoke", " name", '="', name, '">', "\n"]
    for key, value in args.items():
        out += [f"<{BAR}parameter", " name", '="', key, '"', " string", '="', "true", '">', *tokens(value),
                f"</{BAR}parameter>", "\n"]
    return [*out, f"</{BAR}invoke>", "\n"]


def dsml_block(calls: list[list[str]]) -> list[str]:
    return [f"<{BAR}tool_calls>", "\n", *flat(calls), f"</{BAR}tool_calls>"]


def minimax(number: int, name: str, args: Args) -> list[str]:
    out = ["<invoke", " name", '="', name, '">', "\n"]
    for key, value in args.items():
        out += ["<parameter", " name", '="', key, '">', *tokens(value), "</parameter>", "\n"]
    return [*out, "</invoke>", "\n"]


def minimax_block(calls: list[list[str]]) -> list[str]:
    """M2's template opens `<think>` in the prompt: the prose is its reasoning, then the calls."""
    return ["</think>", "\n\n", "<minimax:tool_call>", "\n", *flat(calls), "</minimax:tool_call>"]


def harmony(number: int, name: str, args: Args) -> list[str]:
    return ["<|start|>", "assistant", "<|channel|>", "commentary", " to", "=functions", f".{name}",
            " <|constrain|>", "json", "<|message|>", *tokens(json.dumps(args)), "<|call|>"]


def mistral(number: int, name: str, args: Args) -> list[str]:
    return ["[TOOL_CALLS]", name, "[ARGS]", *tokens(json.dumps(args))]


def flat(calls: list[list[str]]) -> list[str]:
    return [t for call in calls for t in call]


Syntax = tuple[str, Callable[[int, str, Args], list[str]], Callable[[list[list[str]]], list[str]]]
"""A syntax's model id, how it writes one call's tokens, and how it writes the calls' section."""

SYNTAXES: dict[str, Syntax] = {
    "kimi": ("moonshotai/kimi-k2", kimi, kimi_section),
    "deepseek": ("deepseek/deepseek-chat-v3.1", deepseek, deepseek_section),
    "hermes": ("nousresearch/hermes-4-70b", hermes, flat),
    "qwen3-coder": ("qwen/qwen3-coder", qwen, flat),
    "glm": ("z-ai/glm-4.6", glm, flat),
    "dsml": (shapes.DSML_MODEL, dsml, dsml_block),
    "minimax": ("minimax/minimax-m2", minimax, minimax_block),
    "harmony": (shapes.GPT_OSS_MODEL, harmony, flat),
    "mistral": (shapes.MISTRAL_MODEL, mistral, flat),
}
"""Every syntax measured; one more is one more row."""


def turn_events(syntax: str, size: int) -> list[bytes]:
    """One turn of `syntax`: prose, then three calls each writing `size` bytes, one token an event."""
    model, call, section = SYNTAXES[syntax]
    content = file_text(size)
    calls = [call(i, "write_file", {"path": f"src/module_{i}.py", "content": content}) for i in range(3)]
    event = model_event(model)
    return [event(t) for t in [*tokens(streams.PROSE), *section(calls)]] + [b"data: [DONE]\n\n"]


def feed_time(events: list[bytes], stream_arguments: bool) -> float:
    """CPU seconds to feed `events` one at a time to a fresh rewriter, and flush it."""
    from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter

    rewriter = StreamRewriter(RewriteOptions(stream_arguments=stream_arguments))
    started = time.process_time()
    for event in events:
        rewriter.feed(event)
    rewriter.flush()
    return time.process_time() - started


_CALLGRIND = """
import sys
sys.path.insert(0, {here!r})
from deltas import turn_events
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
events = turn_events({syntax!r}, {size})
rewriter = StreamRewriter(RewriteOptions(stream_arguments={stream}))
for event in events[: len(events) if {feed} else 1]:
    rewriter.feed(event)
rewriter.flush()
"""


def count_instructions(syntax: str, size: int, old: Path | None) -> None:
    """Print instructions per delta, both modes, for this tree (and `old`)."""
    from instructions import PRELOAD, instructions

    here = str(Path(__file__).resolve().parent)
    deltas = len(turn_events(syntax, size)) - 1
    # (this tree's package, named: run at `/`, the interpreter would import the one it has installed)
    trees = [("new", str(Path(here).parent)), *([("old", str(old.resolve()))] if old else [])]
    for label, path in trees:
        def run(feed: bool, stream: bool, path: str | None = path) -> int:
            code = PRELOAD + _CALLGRIND.format(here=here, syntax=syntax, size=size, feed=feed, stream=stream)
            return instructions(code, path)

        run(False, False)  # (compiles what the interpreter has not cached yet)
        default, streamed = (run(True, s) - run(False, s) for s in (False, True))
        print(f"{syntax:<12} {size:>6} B {label:>4}  default {default / deltas:>8.0f}  "
              f"--stream-arguments {streamed / deltas:>8.0f} instr./delta  ({streamed / default:.2f}x)",
              flush=True)


def main() -> None:
    """Print µs a delta per syntax, size and mode, with growth per doubling."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="2,8,20,64", help="KB of arguments per call")
    parser.add_argument("--syntax", default="", help="only the syntaxes whose name contains this")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--instructions", nargs="?", const="", default=None, metavar="OLD",
                        help="count instructions (callgrind) at --size, against OLD if given")
    parser.add_argument("--size", type=float, default=8, help="KB per call for --instructions (0.5: 512 B)")
    args = parser.parse_args()
    syntaxes = [s for s in SYNTAXES if args.syntax in s]
    if args.instructions is not None:
        old = Path(args.instructions) if args.instructions else None
        for syntax in syntaxes:
            count_instructions(syntax, int(args.size * 1024), old)
        return
    sizes = [int(s) * 1024 for s in args.sizes.split(",")]
    print(f"{'syntax':<12} {'KB':>4} {'deltas':>7} {'default':>9} {'streamed':>9} {'ratio':>6}"
          f"  growth per doubling (default, streamed)")
    for syntax in syntaxes:
        previous: tuple[int, float, float] | None = None
        for size in sizes:
            events = turn_events(syntax, size)
            best = [math.inf, math.inf]
            for _ in range(args.repeats):
                for i, streamed in enumerate((False, True)):
                    best[i] = min(best[i], feed_time(events, streamed))
            count = len(events) - 1
            default, streamed = (1e6 * b / count for b in best)
            growth = ""
            if previous is not None:
                doublings = math.log2(size / previous[0])
                pairs = zip(best, previous[1:], strict=True)
                growth = "  ".join(f"{(b / p) ** (1 / doublings):.2f}x" for b, p in pairs)
            print(f"{syntax:<12} {size // 1024:>4} {count:>7} {default:>8.2f}µ {streamed:>8.2f}µ "
                  f"{streamed / default:>5.2f}x  {growth}", flush=True)
            previous = (size, best[0], best[1])


if __name__ == "__main__":
    main()
