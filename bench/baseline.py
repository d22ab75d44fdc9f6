"""The least a Python filter that inspects every chunk must do (the throughput baseline).

Reads the stream line by line, round-trips every `data:` JSON line through orjson and
flushes at every event end. Usage: `python bench/baseline.py FILE > /dev/null`.
"""

from __future__ import annotations

import sys

import orjson


def main() -> None:
    """Filter the file named by argv[1] to stdout."""
    out = sys.stdout.buffer
    with open(sys.argv[1], "rb") as source:
        for line in source:
            if line.startswith(b"data: {"):
                line = b"data: " + orjson.dumps(orjson.loads(line[6:])) + b"\n"
            out.write(line)
            if line == b"\n":
                out.flush()
    out.flush()


if __name__ == "__main__":
    main()
