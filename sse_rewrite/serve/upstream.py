"""The upstream: one `aiohttp.ClientSession` per server, its timeouts, and error mapping.

`Upstream.post_json` sends a JSON body to an upstream path and yields the response when
its status is a success; otherwise it raises `UpstreamFailure`, which carries the status
the client should see: the upstream's own (its body and `retry-after` kept) for an HTTP
error, 502 for an upstream that cannot be reached, 504 for one that sends nothing within
the read timeout. `Upstream.forward` passes any other request through untouched.

The URL is the configured upstream's, always: a request only adds a normalized path and
its query (`target.py`). Headers: hop-by-hop headers (RFC 9110 §7.6.1) never cross the
proxy, in either direction, nor do the client's cookies and `Forwarded` / `X-Forwarded-*`
(the proxy is no hop a provider should trust). Answers are read within bounds
(`upstream_body.py`): the session never decompresses; whole reads are capped. On
rewritten routes the proxy asks for `identity` encoding and drops the length, since the
body it writes is not the one it read. Auth follows `ServeSettings`: the client's
`Authorization` goes up as is, unless the proxy has a key of its own or an access token
(which is the proxy's alone and never forwarded, nor is any `x-api-key` or `x-goog-api-key`
then).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from aiohttp import web
from multidict import CIMultiDict
from yarl import URL

from .errors import error_body
from .request_log import RECORD
from .settings import ServeSettings
from .target import UpstreamBase
from .upstream_body import bounded_response, read_capped

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

HOP_BY_HOP: Final = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
    "transfer-encoding", "upgrade", "host",
})
"""Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus `host`."""
CLIENT_ONLY: Final = frozenset({"cookie", "forwarded", "x-real-ip", "proxy-connection"})
"""Client headers that never go upstream (nor does any `x-forwarded-*`)."""
_ERROR_BODY_LIMIT: Final = 1 << 20  # an upstream error body longer than this is cut
_READ_SIZE: Final = 65536


class UpstreamFailure(Exception):
    """No usable answer: `status` and `body` are what the client gets, `headers` kept from upstream."""

    def __init__(self, status: int, body: bytes, headers: CIMultiDict[str] | None = None,
                 reason: str = "") -> None:
        super().__init__(reason or f"upstream answered {status}")
        self.status, self.body, self.reason = status, body, reason or f"upstream answered {status}"
        self.headers: CIMultiDict[str] = headers if headers is not None else CIMultiDict()

    def response(self) -> web.Response:
        """The client's answer: this status, body and the headers kept."""
        headers = self.headers.copy()
        headers.setdefault("Content-Type", "application/json")
        return web.Response(status=self.status, body=self.body, headers=headers)


def end_to_end(headers: CIMultiDict[str] | aiohttp.typedefs.LooseHeaders) -> CIMultiDict[str]:
    """`headers` without hop-by-hop ones, including those the `Connection` header names."""
    source = CIMultiDict(headers)
    named = {name.strip().lower() for name in source.get("connection", "").split(",")}
    return CIMultiDict((k, v) for k, v in source.items() if k.lower() not in HOP_BY_HOP | named)


class Upstream:
    """The client side of the proxy: one session, opened at start-up, closed at shutdown."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.base = UpstreamBase.parse(settings.upstream)
        self._session: aiohttp.ClientSession | None = None
        self.open_answers = 0
        """Upstream answers being read now (each holds an upstream connection), for the metrics."""
        self.reached = False
        """Whether the upstream has answered at all since start (with any status), for `/readyz`."""

    async def start(self) -> None:
        """Open the session (inside the server's event loop)."""
        timeout = aiohttp.ClientTimeout(total=None, connect=self.settings.connect_timeout,
                                        sock_read=self.settings.read_timeout)
        # No connection limit here: the server's own clients bound how many streams are open.
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=timeout, auto_decompress=False,
            skip_auto_headers=("User-Agent",),
            response_class=bounded_response(self.settings.limits.body_bytes))

    async def close(self) -> None:
        """Close the session and its connections."""
        if self._session is not None:
            await self._session.close()

    def url(self, target: str) -> str:
        """The upstream URL for a client's raw target: `/v1/models?x` → `BASE/models?x` (`target.py`)."""
        return self.base.url(target)

    def headers_for(self, request: web.Request, *, rewritten: bool) -> CIMultiDict[str]:
        """The headers to send upstream for `request` (auth per the settings)."""
        headers = end_to_end(request.headers)
        for name in [name for name in headers if name.lower() in CLIENT_ONLY or
                     name.lower().startswith("x-forwarded-")]:
            headers.popall(name, None)
        if self.settings.access_token or self.settings.api_key:
            headers.popall("authorization", None)
            headers.popall("x-api-key", None)
            headers.popall("x-goog-api-key", None)
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        if rewritten:
            headers.popall("content-length", None)
            headers["Accept-Encoding"] = "identity"  # the rewriter reads the body's bytes
        return headers

    @property
    def session(self) -> aiohttp.ClientSession:
        """The open session."""
        if self._session is None:
            raise RuntimeError("Upstream.start() was not awaited")
        return self._session

    @asynccontextmanager
    async def post_json(self, path: str, body: bytes, request: web.Request,
                        headers: CIMultiDict[str] | None = None) -> AsyncIterator[aiohttp.ClientResponse]:
        """POST `body` (JSON) to the upstream `path`; yield a successful response, else raise.

        `headers` replace `headers_for(request, rewritten=True)` (a front that speaks
        another protocol to its clients adapts them).

        On the way out, a response read to its end goes back to the pool (no new TLS
        handshake for the next request); any other is closed, so a client that hangs up
        (its handler is cancelled) closes its upstream connection at once.
        """
        headers = self.headers_for(request, rewritten=True) if headers is None else headers
        headers["Content-Type"] = "application/json"
        response = await self._send("POST", self.url(path), body, headers)
        self.open_answers += 1
        try:
            if response.status >= 400:
                raise await _http_failure(response)
            yield response
        except BaseException:
            response.close()
            raise
        finally:
            self.open_answers -= 1
        response.release()  # aiohttp closes the connection instead unless the body was read to its end

    async def _send(self, method: str, url: str, body: bytes,
                    headers: CIMultiDict[str]) -> aiohttp.ClientResponse:
        record, sent = RECORD.get(None), time.monotonic()
        try:
            response = await self.session.request(method, URL(url, encoded=True), data=body, headers=headers,
                                                  allow_redirects=False)
        except aiohttp.ConnectionTimeoutError:
            message = f"could not connect to the upstream within {self.settings.connect_timeout:g}s"
            raise _local_failure(502, "upstream_unreachable", message) from None
        except aiohttp.ServerTimeoutError:
            raise _local_failure(504, "upstream_timeout",
                                 f"the upstream sent nothing for {self.settings.read_timeout:g}s") from None
        except aiohttp.ClientError as error:
            raise _local_failure(502, "upstream_unreachable",
                                 f"upstream unreachable: {describe(error)}") from None
        self.reached = True
        if record is not None:
            record.upstream_status, record.upstream_wait = response.status, time.monotonic() - sent
        return response

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Pass `request` through untouched (method, query, body) and stream the answer back."""
        body = await request.read()
        headers = self.headers_for(request, rewritten=False)
        response = await self._send(request.method, self.url(request.raw_path), body, headers)
        self.open_answers += 1
        try:
            headers = end_to_end(response.headers)
            headers.popall("content-length", None)  # aiohttp chunks what it does not know the end of
            reply = web.StreamResponse(status=response.status, reason=response.reason, headers=headers)
            await reply.prepare(request)
            try:
                while chunk := await response.content.read(_READ_SIZE):
                    await reply.write(chunk)
            except ConnectionResetError:  # the client's (aiohttp's reset error is also a ClientError)
                raise
            except (aiohttp.ClientError, TimeoutError) as error:
                # The status line is out: cutting the connection is how the client learns the body is short.
                RECORD.get().outcome = f"upstream ended early ({describe(error)})"
                if request.transport is not None:
                    request.transport.close()
                raise ConnectionResetError("upstream ended early") from None
            await reply.write_eof()
        except BaseException:
            response.close()
            raise
        finally:
            self.open_answers -= 1
        response.release()
        return reply


async def _http_failure(response: aiohttp.ClientResponse) -> UpstreamFailure:
    try:
        body = await read_capped(response, _ERROR_BODY_LIMIT, cut=True)
    except zlib.error:
        body = b""
    headers = end_to_end(response.headers)
    for name in ("content-length", "content-encoding"):  # aiohttp sets its own; the body is decoded
        headers.popall(name, None)
    return UpstreamFailure(response.status, body, headers)


def _local_failure(status: int, code: str, message: str) -> UpstreamFailure:
    headers = CIMultiDict({"Content-Type": "application/json"})
    return UpstreamFailure(status, error_body(message, "upstream_error", code), headers, message)


def describe(error: BaseException) -> str:
    """An exception as a short phrase for a log line or an error message."""
    return str(error) or type(error).__name__


def broken_off(error: BaseException) -> UpstreamFailure:
    """The failure for an upstream body that broke off (`error`) before the client got a byte."""
    if isinstance(error, TimeoutError):
        return _local_failure(504, "upstream_timeout",
                              f"the upstream sent no body within the read timeout ({describe(error)})")
    return _local_failure(502, "upstream_broken",
                          f"the upstream broke off before sending anything ({describe(error)})")
