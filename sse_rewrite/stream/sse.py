"""SSE line codec: incremental bytes -> `SSEEvent` blocks, and one small encoder.

Decoding follows the WHATWG rules (HTML section 9.2.6): lines end in CRLF, LF or a
lone CR; one leading UTF-8 BOM is dropped; `:` starts a comment; `data` lines are
joined with LF; one space after the colon is not part of the value; a blank line ends
the event. Unlike a browser, every block is handed back, comment-only blocks too, with
its exact raw bytes, so a block nobody changes is re-emitted byte for byte.

The decoder is sans-IO: `feed(bytes) -> list[SSEEvent]`, `flush()` at end of input;
`blocks(bytes)` is `feed` without an object per event (each a `Block` tuple), for the
rewriter, which needs only an event's bytes and data, and its data undecoded (most events
inside a call are read by orjson straight from their bytes, see rewrite.py).
Memory is bounded by the longest line; time is linear in the input, whatever the
read sizes (a long line is kept as a list of parts and joined once).

This module owns SSE framing: besides the decoder and `encode_event`, the few helpers
that find event ends in raw bytes (`EVENT_END`, `complete_end`, `events_end`,
`data_value`) live here, for whoever reads events without decoding them.
"""

from __future__ import annotations

import re

from .events import SSEEvent

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

BOM: Final = b"\xef\xbb\xbf"
EVENT_END: Final = b"\n\n"
"""The blank line that ends an event where lines end in LF (every LLM API's framing)."""
DATA: Final = b"data: "
"""The usual start of a `data` line (the space is optional in SSE, and not part of the value)."""
_LINE_END: Final = re.compile(rb"\r\n|\r|\n")

Block = tuple[bytes, bytes | None, str | None]
"""One SSE block as `SSEDecoder.blocks` gives it: `SSEEvent`'s raw, data and event, in order,
its data as UTF-8 bytes (`decoded` gives the text `SSEEvent.data` holds)."""


class SSEDecoder:
    """Incremental SSE parser that keeps each block's raw bytes."""

    def __init__(self) -> None:
        self._partial: list[bytes] = []  # the current line, not yet terminated
        self._block: list[bytes] = []  # raw bytes of the current block's finished lines
        self._data: list[bytes] | None = None
        self._event: bytes | None = None
        self._held_cr = False  # the last read ended in CR: it ends a line only once we see what follows
        self._at_start = True  # a BOM may still come
        self._flushed = False

    @property
    def at_boundary(self) -> bool:
        """True between blocks: no line or block is half read, no CR waits for its LF."""
        return not (self._partial or self._block or self._held_cr or self._at_start)

    def feed(self, data: bytes) -> list[SSEEvent]:
        """Consume the next bytes of the stream; return the blocks they complete."""
        return [SSEEvent(raw, decoded(value), event) for raw, value, event in self.blocks(data)]

    def blocks(self, data: bytes) -> list[Block]:
        """`feed`, each block as a `Block` tuple (no object per event)."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        if not data:
            return []
        if self._at_start:
            head = b"".join(self._partial) + data
            if len(head) < len(BOM) and BOM.startswith(head):
                self._partial = [head]
                return []
            self._partial = []
            self._at_start = False
            data = head.removeprefix(BOM)
        if self._held_cr:
            data = b"\r" + data
        # WHATWG: a CR at the end of a read may be the first half of a CRLF; hold it back so
        # that an event and its raw bytes are the same whatever the read sizes.
        self._held_cr = data[-1:] == b"\r"
        if self._held_cr:
            data = data[:-1]
        return self._lines(data)

    def _lines(self, data: bytes) -> list[Block]:
        if data.find(b"\r") == -1:  # (`in` costs twice `find` for bytes: it tries an int first)
            return self._feed_lf(data)
        out: list[Block] = []
        pos = 0
        for match in _LINE_END.finditer(data):
            start, end = match.span()
            line = data[pos:start]
            if self._partial:
                self._partial.append(line)
                line = b"".join(self._partial)
                self._partial = []
            event = self._line(line, line + data[start:end])
            if event is not None:
                out.append(event)
            pos = end
        if pos < len(data):
            self._partial.append(data[pos:])
        return out

    def _feed_lf(self, data: bytes) -> list[Block]:
        """`feed` for reads with LF line ends only: the common case, without the regex.

        The read is cut at its blank lines in one step. A block that is one `data: ` line
        (what every streaming LLM API sends) is an event at once; any other block, the first
        one when a line or block began in earlier reads, and the unfinished rest go line by
        line (`_lf_lines`). Each block and its blank line are the read's bytes in order, and
        a block the fast way takes starts with nothing pending, so both ways agree.
        """
        blocks = data.split(EVENT_END)
        rest = blocks.pop()  # after the last blank line: the start of an unfinished block
        out: list[Block] = []
        if blocks and (self._partial or self._block):
            out += self._lf_lines(blocks[0] + EVENT_END)
            del blocks[0]
        for block in blocks:
            # (a slice and `partition` take their argument whole; `startswith` and `find` parse
            # an argument tuple, which costs more than their search in an event of this size)
            if block[:6] == DATA and not block.partition(b"\n")[1]:
                out.append((block + EVENT_END, block[6:], None))
            else:
                out += self._lf_lines(block + EVENT_END)
        if rest:
            out += self._lf_lines(rest)
        return out

    def _lf_lines(self, data: bytes) -> list[Block]:
        """`_feed_lf` line by line (an event that is one `data:` line, cut out in one step)."""
        out: list[Block] = []
        pos, size = 0, len(data)
        while pos < size:
            end = data.find(b"\n", pos)
            if end == -1:
                self._partial.append(data[pos:])
                break
            if data[end + 1 : end + 2] == b"\n" and not self._block:
                event = self._one_line_event(data, pos, end)
                if event is not None:
                    out.append(event)
                    pos = end + 2
                    continue
            line = data[pos:end]
            if self._partial:
                self._partial.append(line)
                line = b"".join(self._partial)
                self._partial = []
            event = self._line(line, line + b"\n")
            if event is not None:
                out.append(event)
            pos = end + 1
        return out

    def _one_line_event(self, data: bytes, pos: int, end: int) -> Block | None:
        """The block `data[pos:end]` + LF LF when it is one `data:` line, else None.

        A line that began in earlier reads is joined once, straight into the raw bytes,
        and its value cut out of them once: a 50 MB line costs two copies, not five.
        """
        if not self._partial:
            if not data.startswith(b"data:", pos):
                return None
            value = data[pos + 6 if data[pos + 5 : pos + 6] == b" " else pos + 5 : end]
            return data[pos : end + 2], value, None
        first = self._partial[0]
        head = first[:6] if len(first) >= 6 else b"".join([*self._partial, data[pos:end]])[:6]
        if not head.startswith(b"data:"):
            return None
        raw = b"".join([*self._partial, data[pos : end + 2]])
        self._partial = []
        return raw, raw[6 if head[5:6] == b" " else 5 : -2], None

    def flush(self) -> list[SSEEvent]:
        """End of input: return a final block the stream did not terminate, if any."""
        if self._flushed:
            return []
        self._flushed = True
        held = self._lines(b"\r") if self._held_cr else []
        out = [SSEEvent(raw, decoded(value), event) for raw, value, event in held]
        if self._partial:
            line = b"".join(self._partial)
            self._partial = []
            self._line(line, line)
        if not self._block:
            return out
        raw, value, event = self._dispatch()
        return [*out, SSEEvent(raw, decoded(value), event, complete=False)]

    def _line(self, line: bytes, raw: bytes) -> Block | None:
        self._block.append(raw)
        if not line:
            return self._dispatch()
        if line[0] == 0x3A:  # ':' comment
            return None
        field, _, value = line.partition(b":")
        if value[:1] == b" ":
            value = value[1:]
        if field == b"data":
            if self._data is None:
                self._data = []
            self._data.append(value)
        elif field == b"event":
            self._event = value
        # `id` and `retry` stay in the raw bytes; nothing here needs their values.
        return None

    def _dispatch(self) -> Block:
        data = self._data
        block = (
            b"".join(self._block),
            None if data is None else b"\n".join(data),
            None if self._event is None else self._event.decode("utf-8", "replace"),
        )
        self._block, self._data, self._event = [], None, None
        return block


def decoded(data: bytes | None) -> str | None:
    """An event's data as text (UTF-8, invalid bytes replaced), as `SSEEvent.data` holds it."""
    return None if data is None else data.decode("utf-8", "replace")


def looks_like_object(data: bytes) -> bool:
    """Whether event data has the shape of one JSON object, `{...}`. While the stream is idle,
    an event of that shape that holds no needle passes unchanged without being parsed;
    any other data is parsed, and gets a notice when it is not one JSON object."""
    return data[:1] == b"{" and data[-1:] == b"}"


def encode_event(data: bytes, event: str | None = None) -> bytes:
    """Serialize one SSE event: an optional `event:` line, `data:` lines, a blank line."""
    head = b"" if event is None else b"event: " + event.encode() + b"\n"
    if data.find(b"\n") == -1 and data.find(b"\r") == -1:  # (not `in`: see `_lines`)
        return head + b"data: " + data + b"\n\n"
    lines = _LINE_END.split(data)
    return head + b"".join(b"data: " + line + b"\n" for line in lines) + b"\n"


def complete_end(data: bytes) -> int:
    """Just past the last blank line of `data` (LF framing); 0 when it has none."""
    end = data.rfind(EVENT_END)
    return end + 2 if end != -1 else 0


def events_end(data: bytes, pos: int, stop: int, count: int) -> int:
    """Just past the blank line of the `count`-th event from `pos` (fewer if `stop` comes first)."""
    end = pos
    for _ in range(count):
        found = data.find(EVENT_END, end, stop)
        if found == -1:
            break
        end = found + 2
    return end


def data_value(event: bytes) -> bytes | None:
    """The value of an event that is exactly one `data:` line and its blank line, else None.

    `event` holds no CR and no run of three LFs (the caller's framing); the value is
    what the decoder would give, as bytes.
    """
    if not event.startswith(b"data:") or event.find(b"\n") != len(event) - 2:
        return None
    return event[6:-2] if event[5:6] == b" " else event[5:-2]
