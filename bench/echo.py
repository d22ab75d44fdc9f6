"""A trivial Python echo filter: stdin to stdout, flushed after every read (latency baseline)."""

from __future__ import annotations

import sys


def main() -> None:
    """Copy stdin to stdout a read at a time."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while chunk := source.read1(65536):
        sink.write(chunk)
        sink.flush()


if __name__ == "__main__":
    main()
