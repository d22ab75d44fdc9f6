"""Error answers the proxy makes itself, in OpenAI's shape.

The shape is the one OpenAI and OpenRouter send and the openai SDK reads:
`{"error": {"message": …, "type": …, "param": null, "code": …}}`.
"""

from __future__ import annotations

import orjson
from aiohttp import web


def error_body(message: str, kind: str = "invalid_request_error", code: str | None = None) -> bytes:
    """An OpenAI error body: `message` for people, `kind` the error type, `code` a stable tag."""
    return orjson.dumps({"error": {"message": message, "type": kind, "param": None, "code": code}})


def json_error(status: int, message: str, kind: str = "invalid_request_error",
               code: str | None = None) -> web.Response:
    """An OpenAI-shaped error response."""
    return web.Response(status=status, body=error_body(message, kind, code), content_type="application/json")
