"""Where a request goes upstream: the configured base URL plus a normalized client path (pure).

The upstream's scheme, host and port are fixed at start-up (`UpstreamBase`); a request
only contributes a path and a query. The path must be origin-form (`/…`, RFC 9112 §3.2.1):
an absolute-form (`http://x/y`) or authority-form (`host:443`) target is refused, as is
`*`. Dot segments are resolved the way RFC 3986 §5.2.4 does (`..` never climbs above the
root, so never above the base path), `%2e` spelling a dot included; empty segments
collapse as nginx's `merge_slashes` does; a leading `/v1` is dropped because the base URL
already ends where the client's `/v1` does. Everything else in the path and the query
goes on byte for byte, still percent-encoded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

CLIENT_PREFIX: Final = "/v1"
_DOT: Final = re.compile(r"%2e", re.IGNORECASE)
_SEPARATOR: Final = re.compile(r"%2f|%5c|\\", re.IGNORECASE)
_FORBIDDEN: Final = re.compile(r"[\x00-\x20\x7f#]")


class TargetError(ValueError):
    """A request target the proxy refuses (the client gets a 400 with this message)."""


@dataclass(frozen=True, slots=True)
class UpstreamBase:
    """The configured upstream split once: `origin` (scheme://host:port) and `path` (no trailing /)."""

    origin: str
    path: str

    @classmethod
    def parse(cls, url: str) -> UpstreamBase:
        """Split an `http(s)://host[:port][/path]` base URL; raises `ValueError` on anything else."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an http:// or https:// URL with a host")
        if parts.query or parts.fragment or "@" in parts.netloc:
            raise ValueError(f"{url!r}: the upstream URL takes no query, fragment or user info")
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
        return cls(f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/"))

    def url(self, target: str) -> str:
        """The upstream URL (still percent-encoded) for a client's raw request target."""
        path, query = split_target(target)
        path = normalize_path(path)
        if path == CLIENT_PREFIX or path.startswith(CLIENT_PREFIX + "/"):
            path = path[len(CLIENT_PREFIX):]
        return f"{self.origin}{self.path + path or '/'}{query}"


def split_target(target: str) -> tuple[str, str]:
    """An origin-form target as (path, `?query` or ""); raises `TargetError` on any other form."""
    if not target.startswith("/"):
        raise TargetError("the request target must be a path starting with / (origin-form)")
    if _FORBIDDEN.search(target):
        raise TargetError("the request target holds a space, a control character or a #")
    path, mark, query = target.partition("?")
    return path, mark + query


def normalize_path(path: str) -> str:
    """`path` with empty segments merged and dot segments (`.`, `..`, `%2e%2e`) resolved.

    A segment that hides a separator next to dots (`..%2f`, `..\\`) is refused: an upstream
    that decodes it would climb where this function cannot see.
    """
    resolved: list[str] = []
    segments = path.split("/")[1:]
    for position, segment in enumerate(segments):
        plain = _DOT.sub(".", segment)
        last = position == len(segments) - 1
        if plain in (".", ".."):
            if plain == ".." and resolved:
                resolved.pop()
            if last:
                resolved.append("")  # `/a/..` is `/`, as `/a/` is
        elif segment or last:
            if {".", ".."} & set(_SEPARATOR.split(plain)):
                raise TargetError("the request path hides a separator next to a dot segment")
            resolved.append(segment)
    return "/" + "/".join(resolved)
