"""One upstream stream through a `StreamRewriter` to the client, read by read.

Each upstream read is fed to the rewriter and whatever it returns is written to the
client at once (the filter's `pump`, in asyncio). Around that loop:

- **Keep-alives.** While nothing has gone to the client for `interval` seconds (a call is
  being held back, or the upstream is quiet), `keepalive` goes out: an SSE comment for
  OpenAI clients, whatever the front chooses for others. One timer an interval watches for
  that and cuts a waiting read short (a timeout around each read cost ~9 µs a read).
- **Late headers.** The client's response starts with the first bytes it gets (output or
  a keep-alive), so an upstream that times out before sending anything can still be
  answered with a 504 (`UpstreamFailure`) instead of an empty stream.
- **An upstream that dies mid-stream** ends the client's stream cleanly: the rewriter's
  flush (what was repaired so far, held text released) goes out, then the end of the
  body; the log gets a notice. A front can have `on_break` bytes fed to the rewriter
  first (the Anthropic front's error chunk, which its clients see as `event: error`).
- **Before a write.** A front can have the relay wait for something before bytes go out:
  `before_write` is asked before each write and returns what to await, or None (the
  Responses front stores a finished response before its last event leaves).
- **A client that hangs up** makes writes fail or cancels the handler (the server runs
  with handler cancellation); either way the caller's `post_json` closes the upstream.
- **Bounds.** The upstream's bytes are inflated here if it compressed them anyway, piece
  by piece, and `SseBounds` watches each line, event and whole body; past a cap, or
  when shutdown cuts the stream (`CUT`), the stream ends with an error event (an
  `{"error": …}` chunk fed to the rewriter, which every front turns into its own error
  event), the rewriter's flush and the end of the body, and the log says why.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Awaitable, Callable

import aiohttp
import orjson
from aiohttp import web

from ..stream.events import Notice
from ..stream.rewrite import Output, StreamRewriter
from .capture import Capture
from .limits import SseBounds, TooLarge
from .request_log import RequestRecord
from .state import CUT, UPSTREAM
from .upstream import broken_off, describe, end_to_end
from .upstream_body import decoded, decoder_for

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

SSE_KEEPALIVE: Final = b": keep-alive\n\n"
"""The OpenAI front's keep-alive: an SSE comment, which every SSE reader skips."""
KEEPALIVE_DUE: Final = "a keep-alive is due"
"""The message of the cancellation that cuts a read short for a keep-alive."""


def error_chunk(message: str, code: int = 502) -> bytes:
    """An upstream-style error event for the rewriter; the blank lines end any half event first."""
    return b"\n\ndata: " + orjson.dumps({"error": {"message": message, "code": code}}) + b"\n\n"


class StreamRelay:
    """Relays one upstream response to one client through one rewriter."""

    _task: asyncio.Task[object]
    _watch: asyncio.Handle

    def __init__(self, request: web.Request, upstream: aiohttp.ClientResponse, rewriter: StreamRewriter,
                 record: RequestRecord, on_notice: Callable[[Notice], None], *, interval: float,
                 keepalive: bytes = SSE_KEEPALIVE, capture: Capture | None = None,
                 on_break: bytes = b"", before_write: Callable[[], Awaitable[object] | None] | None = None,
                 ) -> None:  # fmt: skip
        self._request, self._upstream, self._rewriter = request, upstream, rewriter
        self._before_write = before_write
        self._record, self._on_notice, self._capture = record, on_notice, capture
        self._interval, self._keepalive, self._on_break = interval, keepalive, on_break
        self._loop = asyncio.get_running_loop()
        self._last_write = self._loop.time()
        self._reading = False
        self._response: web.StreamResponse | None = None
        self._bounds = SseBounds(request.app[UPSTREAM].settings.limits)
        self._decoder = decoder_for(upstream, None)

    async def run(self) -> web.StreamResponse:
        """Relay to the end; raise `UpstreamFailure` if the upstream broke off before any byte."""
        received = False
        tail = b""  # fed to the rewriter before its flush: `on_break` or an error when the stream is cut
        task = asyncio.current_task()
        assert task is not None  # (a handler runs in a task)
        self._task = task
        self._watch = self._loop.call_at(self._last_write + self._interval, self._watchdog)
        try:
            while True:
                chunk = await self._next_read()
                if chunk is None:
                    await self._write(self._keepalive)
                    continue
                if not chunk:
                    break
                received = True
                for piece in decoded(chunk, self._decoder):
                    self._bounds.feed(piece)
                    if self._capture is not None:
                        self._capture.write(piece)
                    await self._emit(self._rewriter.feed(piece))
        except ConnectionResetError:  # first: aiohttp's own reset error is also a ClientError
            self._record.outcome = "client gone"
            return self._response or web.StreamResponse()
        except (aiohttp.ClientError, TimeoutError) as error:
            if self._response is None and not received:
                raise broken_off(error) from None
            self._record.outcome = "upstream ended early"
            self._on_notice(Notice("upstream-ended", f"the upstream stream broke off ({describe(error)}); "
                                   "ending the client's stream with what was repaired so far"))
            tail = self._on_break
        except (TooLarge, zlib.error) as error:
            large = isinstance(error, TooLarge)
            reason = str(error) if large else f"the upstream's gzip stream is broken ({error})"
            tail = self._cut(reason, "upstream-too-large" if large else "upstream-broken")
        except asyncio.CancelledError as error:
            if error.args != (CUT,):
                raise
            task.uncancel()  # shutdown cut this stream: end it properly (the guard logs it)
            tail = self._cut(CUT, "cut-at-shutdown")
        finally:
            self._watch.cancel()
        try:
            await self._emit(self._rewriter.feed(tail) + self._rewriter.flush())
            response = await self._start()
            await response.write_eof()
            self._record.ended = True
        except ConnectionResetError:
            self._record.outcome = "client gone"
        return self._response or web.StreamResponse()

    def _cut(self, reason: str, code: str) -> bytes:
        """Note why the stream is cut short; return the error event that ends it."""
        self._record.outcome = reason
        self._on_notice(Notice(code, f"{reason}; ending the client's stream with an error event"))
        return error_chunk(reason)

    async def _next_read(self) -> bytes | None:
        """The next upstream bytes (b"" at the end), or None when a keep-alive is due first."""
        if self._loop.time() - self._last_write >= self._interval:  # (due while no read waited)
            self._watch.cancel()
            self._watch = self._loop.call_soon(self._watchdog)  # (bytes already read still go first)
        self._reading = True
        try:
            return await self._upstream.content.readany()
        except asyncio.CancelledError as error:
            if error.args != (KEEPALIVE_DUE,):
                raise
            self._task.uncancel()
            return None
        finally:
            self._reading = False

    def _watchdog(self) -> None:
        """Cut the waiting read short once nothing has gone out for `interval` seconds; else
        look again when that can first be so (a read that starts late looks for itself)."""
        now = self._loop.time()
        due = self._last_write + self._interval
        if now >= due:
            if self._reading and not self._task.cancelling():
                self._task.cancel(KEEPALIVE_DUE)
            due = now + self._interval
        self._watch = self._loop.call_at(due, self._watchdog)

    async def _emit(self, out: list[Output]) -> None:
        data = b"".join(item for item in out if isinstance(item, bytes))
        for item in out:
            if isinstance(item, Notice):
                self._on_notice(item)
        if data:
            if self._before_write is not None and (waiting := self._before_write()) is not None:
                await waiting
            await self._write(data)

    async def _write(self, data: bytes) -> None:
        response = await self._start()
        await response.write(data)
        self._last_write = self._loop.time()

    async def _start(self) -> web.StreamResponse:
        if self._response is None:
            headers = end_to_end(self._upstream.headers)
            for name in ("content-length", "content-encoding"):
                headers.popall(name, None)
            headers["Cache-Control"] = "no-cache"
            headers["X-Accel-Buffering"] = "no"  # nginx and friends: do not buffer the stream
            response = web.StreamResponse(status=self._upstream.status, headers=headers)
            await response.prepare(self._request)
            self._response = self._record.response = response
        return self._response
