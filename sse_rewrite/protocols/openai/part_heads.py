"""PartHeads: the encoded head of an argument part's event, kept while its envelope stays.

With `--stream-arguments`, most events of an open call send one argument part: an event
in the envelope of the event that brought the token (id, model, provider...), then the
choice, the call index and the text (`streamed_calls.part_chunks`). Everything up to the
text is the head, encoded once and kept while the envelope, choice and call stay the same.
Whether the envelope stayed is decided cheaply in the common case, by the event's raw
bytes: they are `literal.join(around)` (`around`: the parts of a `TokenTemplate` learned
from an earlier event of the kept envelope, `literal`: the new token's JSON) exactly when
the new event is that event with another token, whose envelope is then the same, byte for
byte. Otherwise `seen` compares the envelope's encoding with the kept one's.
"""

from __future__ import annotations

import orjson

from ...stream.chunks import envelope
from ...stream.fast.token_template import TokenTemplate
from ...stream.sse import encode_event
from ...stream.streamed_calls import part_chunks

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ...stream.chunks import Chunk

PART_TAIL: Final = b'}}]},"finish_reason":null}]}\n\n'
"""How an argument part's event ends, after its arguments text."""


class PartHeads:
    """The head of the last argument part's event, and what says its envelope stayed.

    `chunk` is a chunk known to be in the kept envelope, `around` the template's parts
    (empty while none is learned), `head` the head for call `index` of choice `choice`,
    and `ends` that head and `PART_TAIL`: an event is `literal.join(ends)`; `matched` the
    last event found to be a look-alike of the template's (a live stream's token runs pass
    the same one, their template's event, for each token they read).
    """

    __slots__ = ("_envelope", "around", "choice", "chunk", "ends", "head", "index", "matched")

    def __init__(self) -> None:
        self.chunk: Any = None
        self.around: tuple[bytes, ...] = ()
        self.choice = self.index = -1
        self.head = b""
        self.ends = (b"", PART_TAIL)
        self._envelope = b""  # the kept envelope, encoded
        self.matched: bytes | None = None

    def head_of(self, chunk: Chunk, choice: int, index: int) -> bytes:
        """The encoded event of an argument part of call `index` up to its text."""
        self.choice, self.index = choice, index
        [part_chunk] = part_chunks(chunk, choice, [(index, "")])
        event = encode_event(orjson.dumps(part_chunk))
        assert event.endswith(b'""' + PART_TAIL)
        self.head = event[: -len(PART_TAIL) - 2]
        self.ends = (self.head, PART_TAIL)
        return self.head

    def seen(self, chunk: Chunk, raw: bytes = b"", field: str = "") -> None:
        """`chunk` is not a look-alike of the template's (see module docstring): keep its
        envelope, and learn a template from its event `raw` (whose token is choice 0's
        `delta[field]` and its mirrors), if given, when the envelope changed or none is kept."""
        self.chunk = chunk
        encoded = orjson.dumps(envelope(chunk))
        if encoded != self._envelope:
            self._envelope, self.around, self.choice, self.index = encoded, (), -1, -1
            self.matched = None
        if raw and not self.around:
            self.matched = None
            template = TokenTemplate.learn(raw, chunk, field)
            self.around = () if template is None else template.parts
