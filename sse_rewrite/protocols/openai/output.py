"""What goes out of a stream in the OpenAI encoding (the default).

The rewriter decides *what* to send (an event unchanged, a rewritten or synthesized
chunk, the end of the stream); an output encoder decides *how*. `OpenAIOutput` writes an
unchanged event as its raw bytes and a chunk as one `data:` event.
"""

from __future__ import annotations

import orjson

from ...stream.events import Notice, Output
from ...stream.sse import encode_event
from ...stream.streamed_calls import part_chunks
from .moved_events import MovedEvents
from .part_heads import PART_TAIL, PartHeads

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...stream.chunks import Chunk
    from ...stream.streamed_calls import ArgumentPart, ArgumentRun, Part


class OpenAIOutput:
    """OpenAI `chat.completion.chunk` SSE: unchanged events keep their bytes."""

    keeps_bytes = True
    """Unchanged events go out as their raw bytes (so runs of them may be copied whole)."""
    unchanged = "passed through"
    """What happens to an event nobody changes, for notices."""

    def __init__(self) -> None:
        self._heads = PartHeads()
        self._moved = MovedEvents()

    def event(self, raw: bytes, chunk: Chunk | None) -> list[Output]:
        """An unchanged event, by its raw bytes (`chunk`: its decoded JSON, when it was decoded)."""
        return [raw]

    def chunk(self, chunk: Chunk) -> list[Output]:
        """A rewritten or synthesized chunk."""
        return [b"data: " + orjson.dumps(chunk) + b"\n\n"]  # (`encode_event`'s: orjson writes no line break)

    def moved(self, raw: bytes, chunk: Chunk, index: int, field: str, text: str) -> list[Output]:
        """The chunk that `chunk` (event `raw`) becomes when its content all went to the reasoning
        field (`StreamChoices.absorbed`): its envelope and its choice `index` with `text` in that
        `field` alone (`chunks.moved_choice`), encoded (`MovedEvents`)."""
        return [self._moved.event(raw, chunk, index, field, text)]

    def parts(self, chunk: Chunk, choice: int, parts: list[Part], raw: bytes = b"",
              fed: tuple[str, str] | None = None) -> list[Output]:  # fmt: skip
        """Headers and argument parts of streamed calls: the chunks `part_chunks` makes,
        encoded, one event a part. An argument part is its event's head (`PartHeads`: kept
        while the envelope, choice and call stay the same, a streamed call's every token)
        and its text, JSON-encoded. `raw` is the event of `chunk`, if it brought a token
        (`fed`: its field and text)."""
        heads = self._heads
        if chunk is not heads.chunk:  # (the token runs send a run's parts in their template's chunk)
            if fed is not None and orjson.dumps(fed[1]).join(heads.around) == raw:
                heads.chunk = chunk
            else:
                heads.seen(chunk, raw, "" if fed is None else fed[0])
        out: list[Output] = []
        texts: list[str] = []  # a run of argument texts of one call, encoded together
        for part in parts:
            if type(part) is not tuple:  # a header (a dict)
                if texts:
                    out.append(arguments_events(heads.head, texts))
                    texts = []
                out += [encode_event(orjson.dumps(c)) for c in part_chunks(chunk, choice, [part])]
                continue
            index, text = part
            if heads.index != index or heads.choice != choice:
                if texts:
                    out.append(arguments_events(heads.head, texts))
                    texts = []
                heads.head_of(chunk, choice, index)
            if type(text) is str:
                texts.append(text)
            else:  # a token run's texts (`StreamedCalls.add`)
                texts += text
        if texts:
            out.append(arguments_events(heads.head, texts))
        return out

    def argument(self, chunk: Chunk, choice: int, part: ArgumentPart | ArgumentRun, raw: bytes,
                 fed: tuple[str, str]) -> list[Output]:  # fmt: skip
        """`parts` for the one argument part a live stream's event `raw` streamed, its token
        `fed` (its field and text; never a run: `StreamedCalls.add` makes those, for the token
        runs): the head is kept while `raw` is the learned template's event with another token
        (`PartHeads`)."""
        heads = self._heads
        index, text = part
        if raw is not heads.matched:  # (the same bytes object: its token too, checked once)
            field, token = fed
            if orjson.dumps(token).join(heads.around) == raw:
                heads.matched = raw
            else:
                heads.seen(chunk, raw, field)
        if heads.index != index or heads.choice != choice:
            heads.head_of(chunk, choice, index)
        return [orjson.dumps(text).join(heads.ends)]

    def done(self, raw: bytes) -> list[Output]:
        """`data: [DONE]` (its raw bytes), after everything held has gone out."""
        return [raw]

    def flush(self) -> list[Output]:
        """End of input."""
        return []


def arguments_events(head: bytes, texts: list[str]) -> bytes:
    """The events of argument parts of one call (`head`), one a text, encoded together. In
    orjson's encoding of a list of strings, `","` is the end of one string and the start of
    the next, unless the comma is a string's last character (a quote inside a string is
    escaped): then, seen as `,",` or a last `,"`, each text is encoded alone. The events go
    between the head and the tail in one copy (`join`), not two (`+`)."""
    encoded = orjson.dumps(texts)[1:-1]
    if encoded.find(b',",') != -1 or encoded.endswith(b',"'):
        return (PART_TAIL + head).join(map(orjson.dumps, texts)).join((head, PART_TAIL))
    return encoded.replace(b'","', b'"' + PART_TAIL + head + b'"').join((head, PART_TAIL))


def stream_output() -> OpenAIOutput:
    """A new encoder for one stream."""
    return OpenAIOutput()


def whole_body(body: bytes) -> tuple[bytes, list[Notice]]:
    """A completion body is already OpenAI's: unchanged."""
    return body, []
