"""Thought events: the events of look-alikes whose content moved to the reasoning field, by bytes.

Inside a think block (`--think`), a content token's chunk goes out with the token moved to the
reasoning field (`StreamChoices.thought`). A look-alike of a learned event (the same chunk but for
its token) becomes the same chunk but for that text, so its event is `literal.join(parts)`: the
parts of the learned chunk's moved event around a probe text, `literal` the text's JSON. The
parts are kept only when the stream's output encodes that chunk so (`OpenAIOutput.chunk`): the
learned event's own moved event, as the output encoded it, is checked against them.
"""

from __future__ import annotations

import orjson

from ..sse import DATA, EVENT_END

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from ..chunks import Chunk
    from ..events import Output

_PROBE: Final = "\x00thought"
_JOINT: Final = "\x85"  # (NEL: JSON leaves it as it is, and UTF-8 has its two bytes for nothing else)
_JOINT_BYTES: Final = _JOINT.encode()


def thought_parts(moved: Callable[[str], Chunk], sent: list[Output], text: str) -> tuple[bytes, bytes] | None:
    """The parts around the text of the event of `moved(text)` (the moved chunk of a look-alike
    whose token is `text`), given `sent`, what the output made of the learned one's (its token
    `text`); None unless those parts rebuild it."""
    parts = (DATA + orjson.dumps(moved(_PROBE)) + EVENT_END).split(orjson.dumps(_PROBE))
    if len(parts) != 2 or sent != [orjson.dumps(text).join(parts)]:
        return None
    return parts[0], parts[1]


def thought_events(parts: tuple[bytes, bytes], texts: list[str]) -> list[Output]:
    """The moved events of look-alikes whose tokens are `texts` (`thought_parts`), as one output:
    the texts joined by `_JOINT` encoded at once, the joint's bytes then replaced by an event's
    end and the next one's start (JSON encodes a text character by character)."""
    head, tail = parts
    joined = _JOINT.join(texts)
    if joined.count(_JOINT) != len(texts) - 1:  # (a text holding the joint: each encoded alone)
        return [b"".join((head, (tail + head).join(map(orjson.dumps, texts)), tail))]
    return [b"".join((head, orjson.dumps(joined).replace(_JOINT_BYTES, b'"' + tail + head + b'"'), tail))]
