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
from .input_items import input_messages
from .store import StoredResponse, StoreUnavailable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, Final

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

    `responses`: the app's (`RESPONSES`), whose store is not None.
    """

    def __init__(self, request: web.Request, responses: Responses, response_id: str,
                 conversation: list[dict[str, Any]]) -> None:
        assert responses.store is not None
        self._request, self._responses, self._store = request, responses, responses.store
        self._id, self._conversation = response_id, conversation
        self._reserving: asyncio.Future[bool] | None = None
        self._saving: asyncio.Future[bool] | None = None
        self._waiters: list[asyncio.Future[bool]] = []  # `keep` calls waiting for a chained write

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
            if self._saving is None and response is not None and response["status"] in FINISHED:
                return self.keep(response)
            return None
        return before_write

    async def keep(self, response: dict[str, Any] | None, encoded: bytes | None = None) -> bool:
        """Store `response` if it is finished (once, however often asked); whether it is stored.

        `encoded`: `response` as the JSON its client gets, if built already (stored as it is).
        The write goes on to its end even if the request is cancelled meanwhile (its client
        closed the moment the stream ended, as curl does); then the cancellation goes on.
        """
        if self._saving is None:
            if response is None or response.get("status") not in FINISHED:
                return False
            self._saving = self._save(response, encoded)
        saving = self._saving
        if saving.done():  # (a store that needed no wait: nothing to shield)
            return saving.result()
        try:
            if isinstance(saving, asyncio.Task):
                return await asyncio.shield(saving)
            # a store's write, chained: `_settle` wakes this waiter, with no turn of the loop more
            waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            return await waiter
        except asyncio.CancelledError:
            await asyncio.shield(saving)
            raise

    def end(self) -> None:
        """The request is over: wake whoever waits for the response here; drop an unused reservation."""
        responses = self._responses
        if event := responses.pending.pop(self._id, None):
            event.set()
        saving = self._saving
        stored = saving is not None and saving.done() and not saving.cancelled() and \
            saving.exception() is None and saving.result()
        if self._reserving is not None and not stored:
            responses.release(self._id, self._reserving)

    async def _reserve(self) -> bool:
        try:
            await self._store.reserve(self._id)
        except StoreUnavailable as error:
            not_stored(self._request, error)
            return False
        return True

    def _save(self, response: dict[str, Any], encoded: bytes | None) -> asyncio.Future[bool]:
        """The write, started: a finished future when the store needed no wait (no task, no loop turn)."""
        reserving = self._reserving
        if reserving is not None and not reserving.done():
            return asyncio.ensure_future(self._put(response, encoded))  # once reserved
        done = asyncio.get_running_loop().create_future()
        if reserving is not None and not reserving.result():
            done.set_result(False)
            return done
        writing = self._write(response, encoded)
        if not isinstance(writing, asyncio.Future):
            return asyncio.ensure_future(self._written(writing))
        if writing.done():
            self._settle(done, writing)
        else:  # (a store's future finishes without a task: so does the write's outcome)
            writing.add_done_callback(lambda writing: self._settle(done, writing))
        return done

    def _settle(self, done: asyncio.Future[bool], writing: asyncio.Future[None]) -> None:
        """`done` as the write that ended as `writing` went."""
        if writing.cancelled():
            done.cancel()
        else:
            try:
                done.set_result(self._outcome(writing.exception()))
            except Exception as error:  # (not the store's own error: a fault)
                done.set_exception(error)
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if waiter.done():
                continue
            if done.cancelled():
                waiter.cancel()
            elif (failed := done.exception()) is not None:
                waiter.set_exception(failed)
            else:
                waiter.set_result(done.result())

    async def _put(self, response: dict[str, Any], encoded: bytes | None) -> bool:
        if self._reserving is not None and not await self._reserving:
            return False
        return await self._written(self._write(response, encoded))

    def _write(self, response: dict[str, Any], encoded: bytes | None) -> Awaitable[None]:
        conversation = self._conversation + input_messages(response["output"], [], "output")
        return self._store.put(self._id, StoredResponse(encoded or response, conversation))

    async def _written(self, writing: Awaitable[None]) -> bool:
        try:
            await writing
        except StoreUnavailable as error:
            return self._outcome(error)
        return self._outcome(None)

    def _outcome(self, error: BaseException | None) -> bool:
        """Whether the write that ended with `error` (None: none) stored the response."""
        if error is not None:
            if not isinstance(error, StoreUnavailable):
                raise error
            not_stored(self._request, error)  # a side job never fails the request
            return False
        if event := self._responses.pending.pop(self._id, None):
            event.set()  # a request here waiting for it goes on now, not when this one's stream ends
        return True


def not_stored(request: web.Request, error: StoreUnavailable) -> None:
    """Tell the log (and the metrics) that a response was answered but not stored."""
    record = state.RECORD.get()
    record.outcome = f"not stored: {error}"
    request.app[state.LOG].notice(record, Notice("not-stored", f"the response is answered but not stored: "
                                                               f"{error}"))
