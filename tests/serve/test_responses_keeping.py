"""`Keeper`: a write's outcome reaches whoever keeps, however the store ends it (at once, later, failed)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from sse_rewrite.protocols.responses.keeping import Keeper, Responses
from sse_rewrite.protocols.responses.store import StoredResponse, StoreUnavailable
from sse_rewrite.serve import state
from sse_rewrite.serve.request_log import RequestRecord

RESPONSE = {"id": "resp_1", "status": "completed", "output": [
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]}


class LaterStore:
    """A store whose writes end when the test says (`ended`), as a database's reader ends them."""

    def __init__(self) -> None:
        self.written: list[tuple[str, StoredResponse]] = []
        self.ended: list[Any] = []

    def write(self, response_id: str, stored: StoredResponse, ended: Any) -> None:
        self.written.append((response_id, stored))
        self.ended.append(ended)


class Log:
    def __init__(self) -> None:
        self.notices: list[tuple[RequestRecord, str]] = []

    def notice(self, record: RequestRecord, notice: Any) -> None:
        self.notices.append((record, notice.code))


def keeper(store: LaterStore) -> tuple[Keeper, Responses, Log, RequestRecord]:
    log, record = Log(), RequestRecord(1, "POST", "/v1/responses", 0.0)
    state.RECORD.set(record)
    responses = Responses(store)  # type: ignore[arg-type]
    request = SimpleNamespace(app={state.LOG: log})
    return Keeper(request, responses, "resp_1", [{"role": "user", "content": "hi"}]), responses, log, record  # type: ignore[arg-type]


def test_a_write_that_ends_later_wakes_every_keep_and_is_kept_once() -> None:
    async def run() -> tuple[bool, bool, bool, int, bool]:
        store = LaterStore()
        kept, responses, _, _ = keeper(store)
        responses.pending["resp_1"] = asyncio.Event()
        first = asyncio.ensure_future(kept.keep(RESPONSE))
        second = asyncio.ensure_future(kept.keep(RESPONSE))
        await asyncio.sleep(0)
        waiting = not first.done() and not second.done()
        store.ended[0](None)  # (from the store's reader: no task)
        return waiting, await first, await second, len(store.written), "resp_1" in responses.pending

    waiting, first, second, writes, still_pending = asyncio.run(run())
    assert waiting and first and second and writes == 1 and not still_pending


def test_a_cancelled_keep_waits_for_the_write_to_end_then_is_cancelled() -> None:
    async def run() -> tuple[bool, bool, bool]:
        store = LaterStore()
        kept, _, _, _ = keeper(store)
        keeping = asyncio.ensure_future(kept.keep(RESPONSE))
        await asyncio.sleep(0)
        keeping.cancel()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        held = not keeping.done()  # the write goes on: the cancellation waits for its end
        store.ended[0](None)
        with pytest.raises(asyncio.CancelledError):
            await keeping
        return held, await kept.keep(RESPONSE), len(store.written) == 1

    assert asyncio.run(run()) == (True, True, True)


def test_a_failed_write_is_not_kept_and_told_on_the_requests_record() -> None:
    async def run() -> tuple[bool, list[tuple[RequestRecord, str]], RequestRecord]:
        store = LaterStore()
        kept, _, log, record = keeper(store)
        keeping = asyncio.ensure_future(kept.keep(RESPONSE))
        await asyncio.sleep(0)
        state.RECORD.set(RequestRecord(2, "POST", "/v1/responses", 0.0))  # (the reader runs in no request)
        store.ended[0](StoreUnavailable("down"))
        return await keeping, log.notices, record

    stored, notices, record = asyncio.run(run())
    assert not stored and notices == [(record, "not-stored")]
