"""Storing a Responses answer: no wait added to it, and readable the moment its client has it.

- **A whole answer** reaches its client with its id, so nothing is reserved: the response
  is written (one store call) just before the answer goes out.
- **A stream** sends its id in its first event, so the response is reserved first (a row
  with no body, see `store.py`): the reservation is made while the upstream is being asked
  and awaited before the first byte goes out. The response is written just before its
  last event goes out (the relay's `before_write`), so a client that continues it at once,
  on this instance or another, finds it stored rather than reserved.
- **A store that fails** costs the storing only: the answer says `store: false` when that
  is known in time (a failed reservation, a whole answer) and the log gets a `not-stored`
  notice. A response that is not stored (failed, cut, its client gone) has its reservation
  dropped in the background, and whoever waits for it here is woken.
"""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from ...serve import state
from ...stream.events import Notice
from .input_items import output_messages
from .store import StoredResponse, StoreUnavailable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, Final

    from ...serve.request_log import RequestRecord
    from .output import ResponsesOutput
    from .store import ResponseStore

FINISHED: Final = ("completed", "incomplete")
"""The statuses of a response that is stored."""


class Responses:
    """The front's state in the app: the store (None with `--store none`) and responses in flight."""

    def __init__(self, store: ResponseStore | None) -> None:
        self.store = store
        self.pending: dict[str, asyncio.Event] = {}
        self._releasing: set[asyncio.Task[None]] = set()

    def release(self, response_id: str, reserving: asyncio.Future[bool]) -> None:
        """Drop the reservation of a response that was not stored (failed, cut, or its client gone).

        In the background, so a cancelled request need not wait for it, once `reserving` is
        done (a release that overtook it would leave the reservation behind). Only a
        reservation is dropped, never a stored response (a request cancelled as its response
        was stored); a store that fails here leaves the reservation to expire with the age bound.
        """
        if self.store is not None:
            task = asyncio.ensure_future(self._release(self.store, response_id, reserving))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    @staticmethod
    async def _release(store: ResponseStore, response_id: str, reserving: asyncio.Future[bool]) -> None:
        with contextlib.suppress(StoreUnavailable, asyncio.CancelledError):
            if await reserving:
                await store.release(response_id)


RESPONSES: web.AppKey[Responses] = web.AppKey("responses", Responses)


class Keeper:
    """Stores one response (its request's conversation given): reserved for a stream, written once.

    `responses`: the app's (`RESPONSES`), whose store is not None. The write's outcome comes
    through the store's `write` (from the store's reader, outside the request's task), which
    sets it here and wakes the `keep` calls waiting for it: no future of its own between them.
    """

    def __init__(self, request: web.Request, responses: Responses, response_id: str,
                 conversation: list[dict[str, Any]]) -> None:
        assert responses.store is not None
        self._request, self._responses, self._store = request, responses, responses.store
        self._record = state.RECORD.get()  # (the write may end outside the request's context)
        self._id, self._conversation = response_id, conversation
        self._reserving: asyncio.Future[bool] | None = None
        self._saving = False  # whether the write was started
        self._stored: bool | BaseException | None = None  # its outcome once it ended (an error: raised)
        self._waiters: list[asyncio.Future[bool]] = []  # `keep` calls waiting for the write to end

    def reserve(self) -> None:
        """Start reserving the response (a stream's id goes out before it is stored)."""
        if self._reserving is None:
            self._responses.pending[self._id] = asyncio.Event()
            self._reserving = asyncio.ensure_future(self._reserve())

    async def reserved(self) -> bool:
        """Whether the response is reserved, once it is (reserving it now if nobody asked yet)."""
        self.reserve()
        assert self._reserving is not None
        return await self._reserving

    def before_write(self, output: ResponsesOutput) -> Callable[[], Awaitable[bool] | None]:
        """The relay's hook for a stream to `output`: the write, once its response is finished."""
        def before_write() -> Awaitable[bool] | None:
            response = output.response
            if not self._saving and response is not None and response["status"] in FINISHED:
                return self.keep(response)
            return None
        return before_write

    async def keep(self, response: dict[str, Any] | None, encoded: bytes | None = None) -> bool:
        """Store `response` if it is finished (once, however often asked); whether it is stored.

        `encoded`: `response` as the JSON its client gets, if built already (stored as it is).
        The write goes on to its end even if the request is cancelled meanwhile (its client
        closed the moment the stream ended, as curl does); then the cancellation goes on.
        """
        if not self._saving:
            if response is None or response.get("status") not in FINISHED:
                return False
            self._saving = True
            self._save(response, encoded)
        if self._stored is None:  # (else a store that needed no wait: ended already)
            waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                return await waiter
            except asyncio.CancelledError:
                if self._stored is None:  # the write goes on: wait for its end, then the cancellation
                    rest: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
                    self._waiters.append(rest)
                    await asyncio.shield(rest)
                raise
        if isinstance(self._stored, BaseException):
            raise self._stored
        return self._stored

    def end(self) -> None:
        """The request is over: wake whoever waits for the response here; drop an unused reservation."""
        responses = self._responses
        if event := responses.pending.pop(self._id, None):
            event.set()
        if self._reserving is not None and self._stored is not True:
            responses.release(self._id, self._reserving)

    async def _reserve(self) -> bool:
        try:
            await self._store.reserve(self._id)
        except StoreUnavailable as error:
            not_stored(self._request, error, self._record)
            return False
        return True

    def _save(self, response: dict[str, Any], encoded: bytes | None) -> None:
        """Start the write (once reserved, for a stream); its outcome comes to `_written`."""
        reserving = self._reserving
        if reserving is not None:
            if not reserving.done():
                reserving.add_done_callback(lambda _: self._save(response, encoded))  # once reserved
                return
            if reserving.cancelled():
                self._ended(asyncio.CancelledError())
                return
            if (fault := reserving.exception()) is not None or not reserving.result():
                self._ended(fault or False)  # (not reserved: the reservation's failure is logged)
                return
        try:
            conversation = self._conversation + output_messages(response["output"])
            stored = StoredResponse(encoded or response, conversation)
        except Exception as error:  # (not the store's: a fault, raised to whoever keeps)
            self._ended(error)
            return
        self._store.write(self._id, stored, self._written)

    def _written(self, failure: BaseException | None) -> None:
        """The write ended (None: stored; `StoreUnavailable`: not stored, and the log says why)."""
        if failure is None:
            if event := self._responses.pending.pop(self._id, None):
                event.set()  # a request here waiting for it goes on now, not when this one's stream ends
            self._ended(True)
        elif isinstance(failure, StoreUnavailable):
            not_stored(self._request, failure, self._record)  # a side job never fails the request
            self._ended(False)
        else:  # a cancelled write, or a fault: raised to whoever keeps
            self._ended(failure)

    def _ended(self, stored: bool | BaseException) -> None:
        """The outcome: to `keep` calls to come, and to those waiting."""
        self._stored = stored
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if waiter.done():
                continue
            if isinstance(stored, asyncio.CancelledError):
                waiter.cancel()
            elif isinstance(stored, BaseException):
                waiter.set_exception(stored)
            else:
                waiter.set_result(stored)


def not_stored(request: web.Request, error: StoreUnavailable, record: RequestRecord) -> None:
    """Tell the log (and the metrics) that `record`'s response was answered but not stored."""
    record.outcome = f"not stored: {error}"
    request.app[state.LOG].notice(record, Notice("not-stored", f"the response is answered but not stored: "
                                                               f"{error}"))
