"""Instructions each `serve` front's rewriter and encoder execute per upstream event, in process.

Usage: `python bench/fronts.py [OLD] [--prose 3000] [--per-event] [--field reasoning]` from the
project root (needs `valgrind`; about a minute).

The stream is the one `bench/serve.py` reads through serve: the fake upstream's
(`examples/leaky_upstream.py`) OpenRouter-shaped Kimi K2 chunks, one word each, then a leaked call
(`--field reasoning`: the words and the call in `reasoning`, mirrored in `reasoning_details`;
`--field both`: chunks of two texts each, which no text run takes: the fronts' worst case). For
each front (`--to openai`, `anthropic`, `responses`, `gemini`) a `StreamRewriter` with that output
(serve's `FrontRewriter`, where the tree has one) is fed the stream as serve's relay feeds it: in
reads of 16 KiB, as an unpaced upstream's reads arrive (`--per-event`: one event a read, as from a
live model), then flushed, under callgrind, once with `--prose` words and once with a tenth of them;
the difference over the difference in events is the cost of one upstream event, start-up and the
stream's fixed costs excluded. Printed beside it: the ratio to the OpenAI front's, and to the floor
(`baseline.py`'s loop: an orjson load and dump of every `data:` line). With `OLD` (a directory
holding another version's `sse_rewrite`, e.g. from `git archive main sse_rewrite | tar -x -C OLD`)
its fronts are counted in the same run.
Instructions are not time, but do not wobble with the machine's load: a change that removes
work shows here in one run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from instructions import PRELOAD, instructions

HERE = Path(__file__).resolve().parent
FRONTS = ("openai", "anthropic", "responses", "gemini")

_SETUP = """
with open({path!r}, "rb") as source:
    data = source.read()
reads = [event + b"\\n\\n" for event in data.split(b"\\n\\n")[:-1]] if {per_event} else [
    data[i : i + 16384] for i in range(0, len(data), 16384)]
"""
_FLOOR = """
import io, orjson
for line in io.BytesIO(data):
    if line.startswith(b"data: {"):
        line = b"data: " + orjson.dumps(orjson.loads(line[6:])) + b"\\n"
"""
_FRONT = PRELOAD + """
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
try:  # serve's fronts' rewriter, where the tree has one
    from sse_rewrite.protocols.text_runs import FrontRewriter as StreamRewriter
except ImportError:
    pass
rewriter = StreamRewriter(RewriteOptions(to={front!r}))
for read in reads:
    rewriter.feed(read)
rewriter.flush()
"""


def per_event(body: str, prose: int, field: str, by_event: bool, path: str | None) -> float:
    """Instructions per upstream event of `body` run on the stream: `prose` words against a tenth."""
    def run(words: int) -> tuple[int, int]:
        events = stream(words, field)
        with tempfile.NamedTemporaryFile(suffix=".sse") as file:
            file.write(b"".join(events))
            file.flush()
            setup = _SETUP.format(path=file.name, per_event=by_event)
            return instructions(setup + body, path), len(events)

    (big, events), (small, fewer) = run(prose), run(prose // 10)
    return (big - small) / (events - fewer)


def stream(words: int, field: str) -> list[bytes]:
    """The events the fake upstream sends for `words` words of prose and a call in `field`; "both":
    instead, chunks that each hold a word in `content` and in `reasoning` (no run of one text takes
    them: what a translated front pays where its text runs never apply)."""
    if field == "both":
        head = b'data: {"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"m","choices":'
        return [head + b'[{"index":0,"delta":{"role":"assistant","content":" w%d","reasoning":" r%d"},'
                b'"finish_reason":null}]}\n\n' % (i, i) for i in range(words)]
    sys.path.insert(0, str(HERE.parent / "examples"))
    from leaky_upstream import MODEL, answer, stream_events

    request = {"model": MODEL, "messages": [{"role": "user", "content": "$ ls"}]}
    return stream_events("gen-1", MODEL, answer(request, words), field)


def main() -> None:
    """Print each front's instructions per upstream event, and its ratios."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("old", type=Path, nargs="?", help="a directory holding another sse_rewrite")
    parser.add_argument("--prose", type=int, default=3000)
    parser.add_argument("--per-event", action="store_true", help="one event a read (a live model)")
    parser.add_argument("--field", default="content", choices=("content", "reasoning", "both"))
    args = parser.parse_args()
    floor = per_event(_FLOOR, args.prose, args.field, args.per_event, None)
    print(f"floor (orjson load + dump an event): {floor / 1e3:.1f}k instructions an event")
    # (this tree's package, named: run at `/`, the interpreter would import the one it has installed)
    trees = [("new", str(HERE.parent))] + ([("old", str(args.old.resolve()))] if args.old else [])
    for name, path in trees:
        openai = 0.0
        for front in FRONTS:
            cost = per_event(_FRONT.format(front=front), args.prose, args.field, args.per_event, path)
            openai = openai or cost
            print(f"{name} {front:10} {cost / 1e3:7.1f}k an event  {cost / openai:5.2f}x the openai front"
                  f"  {cost / floor:5.2f}x the floor", flush=True)


if __name__ == "__main__":
    main()
