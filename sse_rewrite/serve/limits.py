"""Memory bounds on what crosses the proxy, whatever the other side sends (pure).

`Limits` holds the caps (settable so tests use small ones); `SseBounds` watches a stream's
bytes for one line or one event that would outgrow its cap (the rewriter holds both
whole until they end); `Inflater` decompresses gzip or deflate piece by piece, never
producing more than `piece` bytes at once, so a compression bomb costs CPU, not memory.
Going past a cap raises `TooLarge`, whose message is meant for the client and the log.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

MIB: Final = 1 << 20
_WBITS: Final = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
"""`deflate` is zlib-wrapped (RFC 9110 §8.4.1.2); a raw deflate stream is tried when that fails."""
_SPACING: Final = b" \t\r\n\xef\xbb\xbf"  # and the bytes of a UTF-8 BOM, as the rewriter skips one


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps, in bytes."""

    request_bytes: int = 64 * MIB
    """A client's request body, after decompression (long agent conversations are large)."""
    line_bytes: int = 8 * MIB
    """One line of an upstream SSE stream."""
    event_bytes: int = 16 * MIB
    """One event of an upstream SSE stream (its lines up to the blank line)."""
    body_bytes: int = 64 * MIB
    """A whole upstream answer read at once (a JSON body, a models list), after decompression."""
    capture_file_bytes: int = 64 * MIB
    """One capture file; past it the file ends there and the request goes on."""
    capture_total_bytes: int = 1024 * MIB
    """Everything one process captures; past it capture pauses, with a log line."""


class TooLarge(Exception):
    """Something went past its cap; the message says what and which cap."""


class SseBounds:
    """Counts the bytes of an SSE stream's current line and event, fed read by read.

    A stream whose first byte (after spacing) is `{` is a whole JSON body to the rewriter,
    which holds it to its end: then the whole body counts, against `body_bytes`.
    """

    def __init__(self, limits: Limits) -> None:
        self._line_cap, self._event_cap = limits.line_bytes, limits.event_bytes
        self._body_cap = limits.body_bytes
        self._line = self._event = self._body = 0
        self._whole: bool | None = None  # None until the first byte that is not spacing
        self._tail = b""  # the last bytes of the previous read: a blank line can span two reads

    def feed(self, data: bytes) -> None:
        """Account for `data`; raise `TooLarge` when its line, event or whole body is past its cap."""
        if self._whole is not False:
            if self._whole is None and (start := data.lstrip(_SPACING)):
                self._whole = start[:1] == b"{"
            if self._whole is not False:  # a whole body, or only spacing so far
                self._body += len(data)
                if self._body > self._body_cap:
                    raise TooLarge(f"the upstream sent a body of more than {self._body_cap} bytes")
                return
        end = data.rfind(b"\n")
        if end < 0:
            end = data.rfind(b"\r")  # a stream may end its lines with CR alone
        self._line = len(data) - end - 1 if end >= 0 else self._line + len(data)
        if self._line > self._line_cap:
            raise TooLarge(f"the upstream sent a line of more than {self._line_cap} bytes")
        blank = _last_blank_line(data)
        if blank >= 0:
            self._event = len(data) - blank
        elif _last_blank_line(self._tail + data[:2]) >= 0:
            self._event = len(data)
        else:
            self._event += len(data)
        self._tail = (self._tail + data[-2:])[-2:]
        if self._event > self._event_cap:
            raise TooLarge(f"the upstream sent an event of more than {self._event_cap} bytes")


def _last_blank_line(data: bytes) -> int:
    """Where the last blank line of `data` starts (its line end before it), or -1."""
    found = data.rfind(b"\n\n")
    if found < 0:
        found = max(data.rfind(b"\n\r\n"), data.rfind(b"\r\r"))
    return found


def inflater(encoding: str, cap: int | None, piece: int = 65536) -> Inflater | None:
    """An `Inflater` for a `Content-Encoding` value, or None for identity (or one not known here)."""
    wbits = _WBITS.get(encoding.strip().lower())
    return Inflater(wbits, cap, piece) if wbits is not None else None


class Inflater:
    """Streamed gzip/deflate decompression in pieces of at most `piece` bytes, `cap` in all."""

    def __init__(self, wbits: int, cap: int | None, piece: int = 65536) -> None:
        self._wbits, self._cap, self._piece = wbits, cap, piece
        self._decompressor = zlib.decompressobj(wbits)
        self._started = False
        self.size = 0

    def pieces(self, data: bytes) -> Iterator[bytes]:
        """The decompressed bytes of `data`, piece by piece; raises `TooLarge` or `zlib.error`."""
        while data:
            try:
                out = self._decompressor.decompress(data, self._piece)
            except zlib.error:
                if self._started or self._wbits != zlib.MAX_WBITS:
                    raise
                self._wbits = -zlib.MAX_WBITS  # some servers send raw deflate, without the zlib header
                self._decompressor = zlib.decompressobj(self._wbits)
                continue
            self._started = True
            data = self._decompressor.unconsumed_tail
            if self._decompressor.eof:
                data = b""  # anything after the end of the compressed stream is dropped
            self.size += len(out)
            if self._cap is not None and self.size > self._cap:
                raise TooLarge(f"the body inflates to more than {self._cap} bytes")
            if out:
                yield out

    def whole(self, data: bytes) -> bytes:
        """All of `data` decompressed (for a body that is capped anyway)."""
        return b"".join(self.pieces(data))
