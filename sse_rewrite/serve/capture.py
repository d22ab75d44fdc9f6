"""`--capture DIR`: each upstream answer saved raw, as a fixture for `replay` and `diff`.

A streamed answer becomes `DIR/NAME.sse`, a whole body `DIR/NAME.json`, each with a
`NAME.….args` sidecar that names every rewrite option the server ran with, and a
`NAME.….tools` sidecar with the request's tools (when it had some), so
`sse-rewrite diff --update` then `diff` reproduce exactly what the client got.

A capture is a side job and never fails a request: files are created and written by one
thread of their own (in order, off the event loop), mode 0600 (an answer is the user's
data); `Capture.write` only queues and never raises. A file stops at
`capture_file_bytes` (a line in the log says so), and capture pauses for good, with one
log line, when this process has written `capture_total_bytes`, when the disk falls so far
behind that `_MAX_PENDING` bytes wait, or at the first write error (a full disk).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import orjson

from ..goldens import args_path, tools_path
from ..stream.rewrite import RewriteOptions
from .limits import Limits

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Final

_MAX_PENDING: Final = 16 << 20
_numbers = itertools.count(1)


def sidecar_text(options: RewriteOptions) -> str:
    """The options as `.args` text, every one spelled out (the environment plays no part)."""
    streams = " --stream-arguments" if options.stream_arguments else ""
    streams += "" if options.prompt_think else " --no-prompt-think"
    return (f"--format {options.format} --id-style {options.id_style} "
            f"--max-section-bytes {options.max_section_bytes} --to {options.to} --think {options.think}"
            f"{streams}\n")


def create_file(path: Path) -> int:
    """A new file only its owner can read, open for writing (its descriptor)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)


class CaptureStore:
    """One directory's captures: the writing thread, the totals, and whether capture is paused."""

    def __init__(self, directory: Path, limits: Limits, say: Callable[[str], None]) -> None:
        self.directory, self.limits, self.say = directory, limits, say
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="sse-rewrite-capture")
        self._lock = threading.Lock()
        self.written = self._pending = 0
        self.paused = False

    def open(self, options: RewriteOptions, suffix: str) -> Capture:
        """A new capture (`suffix` `.sse` or `.json`); one that drops everything while paused."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        path = self.directory / f"serve-{stamp}-{os.getpid()}-{next(_numbers):04d}{suffix}"
        capture = Capture(self, path)
        if not self.paused:
            tools = orjson.dumps({"tools": options.tools.source}) if options.tools else None
            capture.opened = self._thread.submit(self._create, path, sidecar_text(options), tools)
        return capture

    def submit(self, job: Callable[[], None], size: int) -> bool:
        """Queue `job` (writing `size` bytes) unless capture is paused or too far behind."""
        with self._lock:
            if self.paused:
                return False
            if self._pending + size > _MAX_PENDING:
                self._pause(f"the disk is {self._pending} bytes behind")
                return False
            self._pending += size
        self._thread.submit(job)
        return True

    def wrote(self, size: int) -> None:
        """`size` bytes reached the disk (or were given up): account for them."""
        with self._lock:
            self._pending -= size
            self.written += size
            if self.written >= self.limits.capture_total_bytes:
                self._pause(f"{self.written} bytes captured (the total cap)")

    def failed(self, error: OSError) -> None:
        """A file could not be created or written: pause, with one log line."""
        with self._lock:
            self._pause(f"{type(error).__name__}: {error}")

    def _pause(self, why: str) -> None:
        if not self.paused:
            self.paused = True
            self.say(f"--capture paused: {why}; requests go on without capture")

    def _create(self, path: Path, sidecar: str, tools: bytes | None) -> int | None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            for sidecar_path, data in ((args_path(path), sidecar.encode()), (tools_path(path), tools)):
                if data is None:
                    continue
                descriptor = create_file(sidecar_path)
                try:
                    os.write(descriptor, data)
                finally:
                    os.close(descriptor)
            return create_file(path)
        except OSError as error:
            self.failed(error)
            return None

    def finish(self, opened: Future[int | None]) -> None:
        """Close a capture's file once the writes queued before are done."""
        with contextlib.suppress(RuntimeError):  # the store was closed: its thread closed every file
            self._thread.submit(_close, opened)

    def close(self) -> None:
        """Finish the queued writes and stop the thread."""
        self._thread.shutdown(wait=True)
        if _stores.get(self.directory) is self:
            del _stores[self.directory]


class Capture:
    """One capture file: `write` queues bytes for the capture thread, never raising."""

    def __init__(self, store: CaptureStore, path: Path) -> None:
        self._store, self.path = store, path
        self.opened: Future[int | None] | None = None
        self.size = 0

    def write(self, data: bytes) -> None:
        """Queue `data`; past the file cap, or while capture is paused, drop it."""
        if self.opened is None:
            return
        cap = self._store.limits.capture_file_bytes
        if self.size + len(data) > cap:
            self._store.say(f"--capture: {self.path.name} stops at {cap} bytes (the file cap)")
            data = data[:cap - self.size]
        self.size += len(data)
        opened = self.opened
        if not self._store.submit(lambda: self._write(opened, data), len(data)) or self.size >= cap:
            self.close()

    def _write(self, opened: Future[int | None], data: bytes) -> None:
        descriptor = opened.result()
        try:
            if descriptor is not None and not self._store.paused:
                view = memoryview(data)
                while view:
                    view = view[os.write(descriptor, view):]
        except OSError as error:
            self._store.failed(error)
        finally:
            self._store.wrote(len(data))

    def close(self) -> None:
        """Close the file once its queued writes are done."""
        opened, self.opened = self.opened, None
        if opened is not None:
            self._store.finish(opened)

    def __enter__(self) -> Capture:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _close(opened: Future[int | None]) -> None:
    descriptor = opened.result()
    if descriptor is not None:
        os.close(descriptor)


_stores: dict[Path, CaptureStore] = {}


def capture_store(directory: Path, limits: Limits, say: Callable[[str], None]) -> CaptureStore:
    """Set up the store the server's captures in `directory` go through (at start-up)."""
    store = _stores[directory] = CaptureStore(directory, limits, say)
    return store


def open_capture(directory: Path, options: RewriteOptions, suffix: str) -> Capture:
    """A new capture in `directory` (`suffix` `.sse` or `.json`), through its store."""
    store = _stores.get(directory)
    if store is None:
        store = capture_store(directory, Limits(), lambda message: None)
    return store.open(options, suffix)
