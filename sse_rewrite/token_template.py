"""TokenTemplate: read the token of a look-alike chunk from its raw bytes alone (sans-IO).

Servers send the tokens of an answer as chunks that differ only in the text of one field:
the same id, model, provider, role and nulls around `"content":"TOKEN"`. Once one such
event is known, the next is `prefix + "TOKEN" + suffix` with the very same prefix and
suffix bytes. That is enough to know the whole chunk without parsing it:

- swapping one JSON string literal for another leaves every other value of the document
  as it was, and changes only that string;
- the bytes between prefix and suffix are one string literal exactly when, on their own,
  they parse as a JSON string (a literal cannot hold an unescaped quote, so nothing can
  close it early and add structure).

`learn` checks the first claim on the example it is given, by parsing the event with a
probe string in the token's place; `token` checks the second on every event. The rewriter
uses this for tokens that land inside an open tool call, the bulk of a tool-heavy stream.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

_PROBE: Final = "\x00probe"
_DATA: Final = b"data: "
_END: Final = b"\n\n"


class TokenTemplate:
    """The bytes around the token of one known single-line `data:` event."""

    __slots__ = ("_prefix", "_suffix")

    def __init__(self, prefix: bytes, suffix: bytes) -> None:
        self._prefix = prefix
        self._suffix = suffix

    @classmethod
    def learn(cls, raw: bytes, chunk: dict[str, Any], field: str) -> TokenTemplate | None:
        """The template of `raw`, whose decoded `chunk` holds its token in choice 0's
        `delta[field]`; None unless that token's place in the bytes is certain."""
        if not (raw.startswith(_DATA) and raw.endswith(_END)) or b"\n" in raw[: -len(_END)] or b"\r" in raw:
            return None
        choice = chunk["choices"][0]
        encoded = orjson.dumps(choice["delta"][field])
        at = raw.rfind(encoded)
        if at < len(_DATA):
            return None
        prefix, suffix = raw[:at], raw[at + len(encoded) :]
        probe = prefix[len(_DATA) :] + orjson.dumps(_PROBE) + suffix[: -len(_END)]
        expected = {**chunk, "choices": [{**choice, "delta": {**choice["delta"], field: _PROBE}}]}
        try:
            if orjson.loads(probe) != expected:
                return None
        except orjson.JSONDecodeError:
            return None
        return cls(prefix, suffix)

    def token(self, raw: bytes) -> str | None:
        """The token of `raw` when it is the template's event with another token, else None."""
        prefix, suffix = self._prefix, self._suffix
        if len(raw) < len(prefix) + len(suffix) + 2 or not (raw.startswith(prefix) and raw.endswith(suffix)):
            return None
        middle = raw[len(prefix) : len(raw) - len(suffix)]
        if middle[:1] != b'"':
            return None
        try:
            text = orjson.loads(middle)
        except orjson.JSONDecodeError:
            return None
        return text if type(text) is str else None
