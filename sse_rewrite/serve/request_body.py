"""A client's request body, read once by the guard: timed, capped, and inflated when compressed.

aiohttp's own decompression is off (`app.py`): it inflates a whole network read at once,
so a megabyte of gzip could cost hundreds before any size check. Here the body is read
with `body_timeout` as the longest silence between reads (then a 408), its compressed
size and its inflated size each capped at `request_bytes` (then a 413), and a
`Content-Encoding: gzip` or `deflate` body is inflated piece by piece (`Inflater`). The
request handed on then says so: no `Content-Encoding`, a `Content-Length` that is the
inflated one, so whatever a route forwards is labelled as it is. An encoding not known
here (`br`) goes on as sent, labelled as sent.

The body is stored where aiohttp's `Request.read()` keeps its own, so every route (and any
front added later) reads it as usual and gets these bytes.
"""

from __future__ import annotations

import asyncio
import zlib

from aiohttp import web
from multidict import CIMultiDict

from .limits import TooLarge, inflater

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_READ_SIZE: Final = 65536


class BodyRefused(Exception):
    """The body cannot be taken: `status` (400, 408, 413) and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: web.Request, cap: int, timeout: float) -> web.Request:
    """`request` with its body read (or a copy with inflated body and fixed headers)."""
    if not request.body_exists:
        return request
    raw = await _read_raw(request, cap, timeout)
    encoding = request.headers.get("Content-Encoding", "")
    decoder = inflater(encoding, cap) if encoding else None
    if decoder is None:
        request._read_bytes = raw  # read() returns it from here on
        return request
    try:
        body = decoder.whole(raw)
    except TooLarge as error:
        raise BodyRefused(413, f"the request body {error}") from None
    except zlib.error as error:
        raise BodyRefused(400, f"the request body is not valid {encoding}: {error}") from None
    headers = CIMultiDict(request.headers)
    headers.popall("Content-Encoding")
    headers["Content-Length"] = str(len(body))
    inflated = request.clone(headers=headers)
    inflated._read_bytes = body
    return inflated


async def _read_raw(request: web.Request, cap: int, timeout: float) -> bytes:
    body = bytearray()
    content = request.content
    while True:
        chunk = content.read_nowait(_READ_SIZE)  # what has arrived: most bodies are whole by now
        if not chunk and not content.at_eof():
            try:
                async with asyncio.timeout(timeout):
                    chunk = await content.read(_READ_SIZE)
            except TimeoutError:
                raise BodyRefused(408, f"the request body stalled for more than {timeout:g}s") from None
            except web.RequestPayloadError as error:  # a broken chunked encoding, a short body
                raise BodyRefused(400, f"the request body is malformed: {error}") from None
        if not chunk:
            return bytes(body)
        body += chunk
        if len(body) > cap:
            raise BodyRefused(413, f"the request body is larger than {cap} bytes")
