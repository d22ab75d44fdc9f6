"""Instructions a prose stream costs where the request's tools are known, per tree (callgrind).

What the request's tools add to `auto` (`formats/catalogue/declared.py`) is read under every model
id, so a part it adds is paid by every stream of a request that declares tools, most of them prose.
This counts that: a `--size-mb` stream of `--model` content events, one word-sized token each (a
space and a word, a number or a run of punctuation, as a tokenizer cuts prose), rewritten by a
`StreamRewriter` with two tools known (`read`, `write`), warm (each stream run once uncounted first),
the one-event stream's count taken off (start-up and the format parts' import are out of it, as in
`instructions.py`). `--prose plain` is the paragraph `shapes.py` repeats; `--prose openers` holds
the words the stripped forms open with, unquoted, as prose says them (`functions`, `tools`, `call:`,
`analysis`, ` of`, ` to`, and `functions.write` once, no call after it); `--prose tags` quotes the tags
prose can contain (`<tool_call>`, `<tool_calls>` and their closers, no call), which the parts it adds
try one after another (`_compose._hand_on`).

Usage: `python bench/declared_prose.py TREE [TREE ...] [--prose plain|openers] [--model ID]
[--size-mb 2.7]` (TREE: a directory holding `sse_rewrite`; give trees whose paths have the same
length: a path's length moves the count). Prints each tree's count and its ratio to the first's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

from instructions import PRELOAD, compiled

PROSE = {
    "plain": "Let me look at the repository layout first, then run the failing test and read the "
             "traceback before I change anything. The parser of the stream is the part I want to see.\n",
    "openers": "The functions of this module are small: each of them reads one part of the input, and "
               "the tools we have call them in turn. In analysis of the log, the function named read is "
               "called first, then functions.write is what the code calls last; call: it a day, the tools "
               "work.\n",
    "tags": "Let me look at the repository layout first. The model wraps each call in <tool_call> and closes "
            "it with </tool_call>; a block of them sits in <tool_calls> and ends with </tool_calls>.\n",
}  # fmt: skip
_TWO: Final = ("read", "write")
_CLAUDE_CODE: Final = ("Task", "Bash", "Glob", "Grep", "ExitPlanMode", "Read", "Edit", "MultiEdit", "Write",
                       "NotebookEdit", "WebFetch", "TodoWrite", "WebSearch", "BashOutput", "KillShell",
                       "SlashCommand", "Skill", "AskUserQuestion", "EnterPlanMode", "ListMcpResources")
"""Tool names as a coding agent declares them (Claude Code's, 20): words the stripped forms look for."""
_COUNTED = PRELOAD + """
import gc, itertools, re
import orjson
from sse_rewrite.formats import FORMATS
from sse_rewrite.rewrite_options import RewriteOptions
from sse_rewrite.stream.rewrite import StreamRewriter
from sse_rewrite.tool_schemas import ToolSchemas
for name in FORMATS:  # (the request's variants too: their parts are imported outside the counts)
    getattr(FORMATS[name], "composition", lambda: None)()
tools = ToolSchemas.read([{{"type": "function", "function": {{"name": name, "parameters": {{}}}}}}
                          for name in {names!r}])
def event(token, finish=None):
    delta = {{"role": "assistant", "content": token}}
    chunk = {{"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": {model!r},
             "choices": [{{"index": 0, "delta": delta, "finish_reason": finish}}]}}
    return b"data: " + orjson.dumps(chunk) + b"\\n\\n"
cycle = b"".join(map(event, re.findall(r" ?[A-Za-z]+| ?[0-9]+| ?[^\\sA-Za-z0-9]+|\\s+", {prose!r})))
def stream(size):
    return event("") + cycle * max(1, size // len(cycle)) + event("", "stop") + b"data: [DONE]\\n\\n"
def run(data):
    rewriter = StreamRewriter(RewriteOptions(tools=tools))
    for i in range(0, len(data), 65536):
        rewriter.feed(data[i : i + 65536])
    rewriter.flush()
def counted(data):  # one callgrind dump: the instructions run inside `starmap_next`
    gc.collect()
    list(itertools.starmap(run, [(data,)]))
big, one = stream({size}), stream(1)
run(big), run(one)
counted(one)
counted(big)
"""


def count(tree: str, prose: str, model: str, size: int, names: tuple[str, ...] = _TWO) -> int:
    """The stream's instructions under `tree`'s `sse_rewrite`, the one-event stream's taken off."""
    code = _COUNTED.format(model=model, prose=prose, size=size, names=names)
    code = f"import sys\nsys.path.insert(0, {tree!r})\n" + code
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=starmap_next",
             "--dump-after=starmap_next", f"--callgrind-out-file={out}/cg", sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, cwd="/",
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
        dumps = sorted(Path(out).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        totals = [int(re.search(r"^totals: (\d+)", p.read_text(), re.M).group(1))  # type: ignore[union-attr]
                  for p in dumps]  # fmt: skip
    one, big = [t for t in totals if t > 10_000]  # (each call's closing `StopIteration` dump: a few hundred)
    return big - one


def main() -> None:
    """Print each tree's count, and its ratio to the first tree's."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("trees", nargs="+", help="directories holding an sse_rewrite")
    parser.add_argument("--prose", choices=sorted(PROSE), default="plain")
    parser.add_argument("--model", default="openai/gpt-4o")
    parser.add_argument("--size-mb", type=float, default=2.7)
    parser.add_argument("--claude-code-tools", action="store_true",
                        help="declare Claude Code's tool names (20) instead of `read` and `write`")
    args = parser.parse_args()
    first = None
    for tree in args.trees:
        compiled(str(Path(tree).resolve()))
        size = int(args.size_mb * (1 << 20))
        names = _CLAUDE_CODE if args.claude_code_tools else _TWO
        counted = count(str(Path(tree).resolve()), PROSE[args.prose], args.model, size, names)
        first = first or counted
        print(f"{tree}: {counted / 1e6:.2f}M instructions ({counted / first - 1:+.2%})", flush=True)


if __name__ == "__main__":
    main()
