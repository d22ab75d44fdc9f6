"""`--capture DIR`: each upstream answer saved raw, as a fixture for `replay` and `diff`.

A streamed answer becomes `DIR/NAME.sse`, a whole body `DIR/NAME.json`, each with a
`NAME.….args` sidecar that names every rewrite option the server ran with, and a
`NAME.….tools` sidecar with the request's tools (when it had some), so
`sse-rewrite diff --update` then `diff` reproduce exactly what the client got.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import orjson

from ..goldens import args_path, tools_path
from ..rewrite import RewriteOptions

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

_numbers = itertools.count(1)


def sidecar_text(options: RewriteOptions) -> str:
    """The options as `.args` text, every one spelled out (the environment plays no part)."""
    streams = " --stream-arguments" if options.stream_arguments else ""
    return (f"--format {options.format} --id-style {options.id_style} "
            f"--max-section-bytes {options.max_section_bytes} --to {options.to} --think {options.think}"
            f"{streams}\n")


def open_capture(directory: Path, options: RewriteOptions, suffix: str) -> BinaryIO:
    """Create a new capture file (`suffix` `.sse` or `.json`) and its sidecars (the request's
    tools too, when it had some); return it open."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = directory / f"serve-{stamp}-{os.getpid()}-{next(_numbers):04d}{suffix}"
    args_path(path).write_text(sidecar_text(options))
    if options.tools:
        tools_path(path).write_bytes(orjson.dumps({"tools": options.tools.source}))
    return path.open("xb")
