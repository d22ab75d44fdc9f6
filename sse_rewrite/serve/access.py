"""Who may use the proxy: the one access decision per request, and what browsers may do (pure).

`refusal` is asked once per request, before any route runs, and answers why it is
refused (a `Refusal`: status, message, code) or None. In order:

- the target must be origin-form and normalize (`target.py`), else 400;
- `Host` must name this server: an IP literal, `localhost`, the listening host or a
  `--allow-host` name, so a DNS-rebound name (`rebind.evil.example`) gets a 403;
- a browser (`Origin`, or `Sec-Fetch-Site` saying another site) needs its origin in
  `--allow-origin`, else 403;
- `TRACE` and `CONNECT` are refused (405);
- the access token, when one is set, on everything but `GET`/`HEAD` of exactly `/healthz`,
  `/livez` or `/readyz` (the probes), `GET /metrics` from a loopback client with
  `--metrics-public`, and `OPTIONS` (answered here, never forwarded): compared in
  constant time, and a header that is not ASCII is simply a wrong token. It is read from
  `Authorization: Bearer`, `x-api-key` (Anthropic clients) or `x-goog-api-key` (Gemini
  clients), never from a URL's `?key=`, which Gemini clients may also use: a URL ends up in
  logs and shell history, and a forwarded path takes its query upstream.
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass

from .target import TargetError, normalize_path, split_target

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from .settings import ServeSettings

HEALTH_PATH: Final = "/healthz"
METRICS_PATH: Final = "/metrics"
PROBE_PATHS: Final = frozenset({HEALTH_PATH, "/livez", "/readyz"})
"""The paths a load balancer asks without a token."""
OPEN_METHODS: Final = frozenset({"GET", "HEAD"})
REFUSED_METHODS: Final = frozenset({"TRACE", "CONNECT"})
ALLOWED_METHODS: Final = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
CORS_MAX_AGE: Final = "600"
_BROWSER_SITES: Final = frozenset({"cross-site", "same-site"})


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request is refused: the status, a message for the client, a stable code."""

    status: int
    message: str
    code: str


def refusal(method: str, target: str, headers: Mapping[str, str], settings: ServeSettings,
            public_metrics: bool = False) -> Refusal | None:
    """Why this request may not go on, or None (see the module docstring for the order).

    `public_metrics`: `GET /metrics` needs no token (`--metrics-public` and a loopback client).
    """
    try:
        path = normalize_path(split_target(target)[0])
    except TargetError as error:
        return Refusal(400, str(error), "invalid_target")
    if not host_allowed(headers.get("Host"), settings):
        return Refusal(403, "this Host is not one this proxy answers to (see --allow-host)",
                       "host_not_allowed")
    if browser_refused(headers, settings):
        return Refusal(403, "requests from web pages are refused unless their origin is allowed "
                            "(see --allow-origin)", "origin_not_allowed")
    if method in REFUSED_METHODS:
        return Refusal(405, f"{method} is not served by this proxy", "method_not_allowed")
    if is_open(method, path, target) or token_presented(headers, settings.access_token):
        return None
    if public_metrics and method in OPEN_METHODS and target == METRICS_PATH == path:
        return None
    return Refusal(401, "missing or wrong access token for this proxy", "invalid_access_token")


def is_open(method: str, path: str, target: str) -> bool:
    """Whether no token is needed: `GET`/`HEAD` of exactly a probe path, and `OPTIONS` (answered here)."""
    return method == "OPTIONS" or (method in OPEN_METHODS and target == path and path in PROBE_PATHS)


def token_presented(headers: Mapping[str, str], expected: str | None) -> bool:
    """Whether the headers carry the token (Bearer, `x-api-key` or `x-goog-api-key`); always
    true without one."""
    if not expected:
        return True
    scheme, _, credentials = headers.get("Authorization", "").partition(" ")
    presented = [headers.get("x-api-key", ""), headers.get("x-goog-api-key", "")]
    if scheme.lower() == "bearer":
        presented.append(credentials.strip())
    wanted = expected.encode()
    return any(hmac.compare_digest(_header_bytes(token), wanted) for token in presented)


def _header_bytes(value: str) -> bytes:
    """A header value as the bytes that came in (aiohttp decodes them as UTF-8, bad bytes escaped)."""
    return value.encode("utf-8", "surrogateescape")


def host_allowed(host: str | None, settings: ServeSettings) -> bool:
    """Whether `Host` names this server (absent: allowed, HTTP/1.0 has none and browsers send it)."""
    if host is None:
        return True
    name = host.strip().lower()
    if name.startswith("["):  # [v6]:port
        name = name[1:name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name)
        return True  # an address is not a name DNS rebinding can point elsewhere
    except ValueError:
        pass
    allowed = {"localhost", settings.host.lower(), *(h.lower() for h in settings.allow_hosts)}
    return name in allowed or name.endswith(".localhost")


def browser_refused(headers: Mapping[str, str], settings: ServeSettings) -> bool:
    """Whether a web page sent this request from an origin not allowed."""
    origin = headers.get("Origin")
    if origin is None:
        return headers.get("Sec-Fetch-Site", "").lower() in _BROWSER_SITES
    return not origin_allowed(origin, settings)


def origin_allowed(origin: str, settings: ServeSettings) -> bool:
    """Whether `--allow-origin` names `origin` (or is `*`)."""
    allowed = settings.allow_origins
    return "*" in allowed or origin.rstrip("/").lower() in {o.rstrip("/").lower() for o in allowed}


def cors_headers(headers: Mapping[str, str], settings: ServeSettings, *, preflight: bool) -> dict[str, str]:
    """The CORS headers for a request whose `Origin` is allowed (none for any other)."""
    origin = headers.get("Origin")
    if origin is None or not origin_allowed(origin, settings):
        return {}
    out = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
    if preflight:
        out["Access-Control-Allow-Methods"] = ALLOWED_METHODS
        requested = headers.get("Access-Control-Request-Headers")
        if requested and requested.isascii() and requested.isprintable():
            out["Access-Control-Allow-Headers"] = requested
        out["Access-Control-Max-Age"] = CORS_MAX_AGE
    return out
