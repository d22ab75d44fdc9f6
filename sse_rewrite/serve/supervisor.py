"""`--workers N`: N forked processes on one listening socket, kept at N.

The parent forks the workers and then only watches them. A worker that dies while the
server is not stopping (killed for memory, a crash) is logged with how it ended and
replaced by a new one; if workers keep dying (more than `_BURST` within `_WINDOW`
seconds) the parent waits a second between replacements rather than fork in a loop.
SIGTERM and SIGINT are passed on to every worker, each of which drains and exits; the
parent then exits, with status 1 if any worker failed to stop cleanly. A worker is forked with
both signals blocked and unblocks them once its loop handles them (`serve`), so one sent while
it starts (a replacement forked just before a stop) waits for its handler instead of killing it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable

from .state import ServerLog

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_BURST: Final = 5
_WINDOW: Final = 10.0
STOP_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals that stop the server; a worker starts with them blocked (see the module docstring)."""


def supervise(workers: int, work: Callable[[], None], at_end: Callable[[], None], log: ServerLog,
              gone: Callable[[int], None] = lambda pid: None) -> bool:
    """Run `work` in `workers` forked processes until a signal stops them; whether all ended well.

    `at_end` runs in the parent once every worker is gone (it closes the listener, which
    the parent keeps open to fork replacements); `gone` gets the process id of each worker
    that ended (its live metrics are dropped).
    """
    children: set[int] = set()
    stopping = False

    def pass_on(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, pass_on)
    for _ in range(workers):
        children.add(_fork(work))
    log.say(f"workers {', '.join(map(str, sorted(children)))}")
    deaths: list[float] = []
    ok = True
    while children:
        try:
            child, status = os.wait()
        except ChildProcessError:
            break
        children.discard(child)
        gone(child)
        if stopping:
            ok = ok and status == 0
            continue
        now = time.monotonic()
        deaths = [t for t in deaths if now - t < _WINDOW] + [now]
        if len(deaths) > _BURST:
            time.sleep(1.0)
        if not stopping:
            new = _fork(work)
            children.add(new)
            log.say(f"worker {child} {_how(status)}; worker {new} replaces it", style="red")
    at_end()
    return ok


def _fork(work: Callable[[], None]) -> int:
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # (the parent's too, until the fork is done)
    child = os.fork()
    if child == 0:  # a worker: serve, and never return into the parent's code
        code = 0
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)  # the worker's loop installs its own, then unblocks them
        try:
            work()
        except BaseException as error:
            ServerLog().say(f"[{os.getpid()}] worker failed: {type(error).__name__}: {error}", "red")
            code = 1
        finally:
            os._exit(code)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # one sent meanwhile is handled now
    return child


def _how(status: int) -> str:
    """How a child ended, from its wait status."""
    if os.WIFSIGNALED(status):
        return f"was killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"
