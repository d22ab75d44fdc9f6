"""Reading the upstream's answers within bounds: whole bodies capped, compressed ones inflated here.

The upstream session does not decompress (aiohttp inflates a whole network read at
once); `decoded` inflates a response's reads piece by piece instead (`Inflater`), and
`BoundedResponse.read()`, which every whole read goes through (a JSON answer, a models
list), stops at `body_bytes` after decompression with `TooLarge`.
"""

from __future__ import annotations

from collections.abc import Iterable

import aiohttp

from .limits import Inflater, Limits, TooLarge, inflater

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

READ_SIZE: Final = 65536


def decoder_for(response: aiohttp.ClientResponse, cap: int | None) -> Inflater | None:
    """The inflater for the response's `Content-Encoding`, or None when it is identity (or unknown)."""
    encoding = response.headers.get("Content-Encoding")
    return inflater(encoding, cap) if encoding else None


def decoded(data: bytes, decoder: Inflater | None) -> Iterable[bytes]:
    """`data` inflated in pieces (as it is without a decoder)."""
    return (data,) if decoder is None else decoder.pieces(data)


async def read_capped(response: aiohttp.ClientResponse, cap: int, *, cut: bool = False) -> bytes:
    """The whole body, inflated; past `cap` bytes `TooLarge`, or (with `cut`) the first `cap`."""
    decoder = decoder_for(response, None)
    parts: list[bytes] = []
    size = 0
    while chunk := await response.content.read(READ_SIZE):
        for piece in decoded(chunk, decoder):
            size += len(piece)
            if size > cap:
                if cut:
                    parts.append(piece[:len(piece) - (size - cap)])
                    return b"".join(parts)
                raise TooLarge(f"the upstream's answer is larger than {cap} bytes")
            parts.append(piece)
    return b"".join(parts)


class BoundedResponse(aiohttp.ClientResponse):
    """A client response whose `read()` inflates and stops at `body_cap` (set per session)."""

    body_cap: ClassVar[int] = Limits().body_bytes

    async def read(self) -> bytes:
        """The whole body, inflated; `TooLarge` past the cap."""
        if self._body is None:
            try:
                self._body = await read_capped(self, self.body_cap)
            except BaseException:
                self.close()
                raise
        return await super().read()  # the body is there: aiohttp's read only waits for the release


def bounded_response(cap: int) -> type[BoundedResponse]:
    """A `BoundedResponse` class whose cap is `cap` bytes (one per session)."""
    return type("BoundedResponse", (BoundedResponse,), {"body_cap": cap})
