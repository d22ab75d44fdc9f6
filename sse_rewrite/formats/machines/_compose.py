"""ComposedParser: several format machines in one pass over one shared buffer.

`auto` reads the syntax a stream's model id picks plus Kimi's and DeepSeek's special
tokens. Running two parsers one after the other would let the first one claim a marker
that sits inside the other's call; instead the parts share one `MarkerScanner`. In
plain text the composed parser looks for the first opener of any part; the part it
belongs to then runs alone, on its own states, until it is back in plain text. So the
first opener wins, every byte is scanned once, and output does not depend on chunking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...stream.events import Piece, Reasoning, Text
from . import declare
from ._machine import ScanningParser
from ._orphans import QuotesRead, Surroundings
from ._scanner import DEFAULT_MAX_SECTION_BYTES, MarkerScanner, MarkerTable, plain_leads, scan_text
from ._streamed_call import unrecovered

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from ...tool_schemas import ToolSchemas


class ComposedParser(QuotesRead):
    """Implements `ToolSyntax` with the `PARTS` a subclass names (earlier parts win ties)."""

    PARTS: ClassVar[tuple[type[ScanningParser], ...]]
    sniff: ClassVar[tuple[bytes, ...]]
    """The union of the parts' sniff bytes: an event none of them needs is not read."""
    _PLAIN_AT_ONCE: ClassVar[bool] = True
    """Whether a text without a lead (`_LEAD`), fed while no part is open and nothing is held,
    is handed back at once (`scan_text` would hand all of it back; a test turns it off)."""
    _LEAD: ClassVar[re.Pattern[str]]
    """Any character of `_PLAIN_LEADS`."""
    _OPENERS: ClassVar[MarkerTable[tuple[int, Any]]]
    """Every part's openers, with the part's index in `PARTS` (an earlier part's spelling wins)."""
    _PLAIN_LEADS: ClassVar[str | None]
    """`plain_leads` while no part is open: every part's openers' first characters."""
    _WHOLE_OPENERS: ClassVar[dict[str, tuple[int, Any]]]
    """The openers a part may take whole (`_absorb_opener`), by text: looked up, not searched."""
    _SHARED: ClassVar[dict[tuple[int, bytes], tuple[int, Any]]]
    """By part index and opener, the next part that reads the same opener, with its value there
    (Functionary's and Qwen3-Coder's `<function=`: `ScanningParser.shared`)."""

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        super().__init_subclass__()
        if not hasattr(cls, "PARTS"):  # (a base for compositions: `WordLedComposed`)
            return
        cls.sniff = tuple(dict.fromkeys(needle for part in cls.PARTS for needle in part.sniff))
        openers: dict[bytes, tuple[int, Any]] = {}
        held_from: dict[bytes, int] = {}
        cls._SHARED = {}
        for index, part in reversed(list(enumerate(cls.PARTS))):
            cls._SHARED.update(((index, marker), openers[marker]) for marker, value in part.OPENERS.items()
                               if marker in openers and value not in part.ORPHANS
                               and openers[marker][1] not in cls.PARTS[openers[marker][0]].ORPHANS)
            openers.update((marker, (index, value)) for marker, value in part.OPENERS.items())
            held_from.update(part.OPENERS.held_from)
        cls._OPENERS = MarkerTable(openers, held_from)
        cls._WHOLE_OPENERS = {marker.decode(): found for marker, found in openers.items()
                              if cls.PARTS[found[0]]._absorb_opener is not ScanningParser._absorb_opener}
        cls._PLAIN_LEADS = plain_leads(cls._OPENERS)
        cls._PLAIN_AT_ONCE = cls._PLAIN_LEADS is not None
        cls._LEAD = re.compile("[" + re.escape(cls._PLAIN_LEADS or "<") + "]")

    def __init__(
        self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES, stream_arguments: bool = False,
        tools: ToolSchemas | None = None,
    ) -> None:  # fmt: skip
        self._scan = MarkerScanner()
        self._max = max_section_bytes
        # what precedes the cursor, shared: the parts' orphan closers are decided on the whole text
        self._around = Surroundings(self._OPENERS)
        self._parts = [part(max_section_bytes, self._scan, stream_arguments, self._around, tools)
                       for part in self.PARTS]
        for index, marker in self._SHARED:
            self._parts[index].shared |= {marker}
        self._active: ScanningParser | None = None  # the part whose call or section is open
        self._flushed = False

    @property
    def pending(self) -> bool:
        """True while any text is held back."""
        scan = self._scan  # (its `buffered` without the property's call: asked about every fed text)
        return self._active is not None or scan.end > scan.start

    @property
    def watching(self) -> bool:
        """True while a closer read next could be dropped (see `_orphans`): every text must come here."""
        return self._around.watching

    @property
    def undecided(self) -> int:
        """Characters held back only because they may begin a marker; 0 inside syntax."""
        return 0 if self._active is not None else self._parts[0].undecided

    @property
    def held(self) -> str:
        """The characters `undecided` counts."""
        return "" if self._active is not None else self._parts[0].held

    @property
    def plain_leads(self) -> str | None:
        """The characters without which a text fed now is handed back whole as one `Text`,
        nothing else changed but what `Surroundings` reads (no part open, nothing held); None
        when no such text is known now. (Then a run of such texts may be fed as one.)"""
        if self._active is not None or self._scan.end or self._flushed:
            return None
        return self._PLAIN_LEADS

    def absorb(self, texts: Sequence[str]) -> int:
        """The open part's `absorb`. Outside a call, while nothing is held, a first text that is
        a whole opener its part takes without a search (`ScanningParser._absorb_opener`) opens
        that part, which may take the texts after it."""
        active = self._active
        if active is not None:
            return active.absorb(texts)
        if not texts or self._scan.end:
            return 0
        found = self._WHOLE_OPENERS.get(texts[0])
        if found is None or self._around.quoted():  # (a quoted opener is text: `_found` says so)
            return 0
        part = self._parts[found[0]]
        if not part._absorb_opener(found[1], texts[0]):
            return 0
        self._active = part
        return 1 + part.absorb(texts[1:]) if len(texts) > 1 else 1

    def absorb_reasoning(self, text: str) -> bool:
        """The open part's `absorb_reasoning` (it shares this parser's scanner); nothing is
        taken outside a call."""
        active = self._active
        return active is not None and active.absorb_reasoning(text)

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """The open part's `absorb_arguments`; outside a call, what `absorb` takes (a whole
        opener, and its part's texts after it) streams nothing."""
        active = self._active
        if active is None:  # (a text that is no whole opener is not asked: this runs on every text)
            return [""] * self.absorb(texts) if texts and texts[0] in self._WHOLE_OPENERS else []
        return active.absorb_arguments(texts)

    def absorb_argument(self, text: str) -> str | None:
        """The open part's `absorb_argument`; outside a call, what `absorb` takes streams nothing."""
        active = self._active
        if active is None:
            return "" if text in self._WHOLE_OPENERS and self.absorb((text,)) else None
        return active.absorb_argument(text)

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        active = self._active
        if not self._scan.end:
            # Nothing is held and nothing can begin a marker: `_step` would hand it all back.
            if active is None:
                if self._PLAIN_AT_ONCE and self._LEAD.search(text) is None:
                    self._around.text(text)
                    return [Text(text)] if text else []
            elif active._state is active.REASONING_AT_ONCE and "<" not in text:  # (no orphan reads it)
                return [Reasoning(text)] if text else []
        out: list[Piece] = []
        self._around.begin(out)
        if active is None or text not in active.WHOLE_MARKERS or not active._feed_whole(text, out):
            self._scan.append(text)
            while self._step(out):
                pass
        elif active._state is active.TEXT:  # (the marker closed the part's syntax: as `_step` leaves it)
            self._active = None
        if out:
            self._around.catch_up()
        active = self._active
        if active is not None and self._scan.buffered > self._max:
            active._cap(out)
            self._active = None
        if self._active is None:
            self._scan.compact()
        else:
            self._active._compact()
        return out

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """End of the field: the open part decides what it holds (docs/behaviour.md, "Damage");
        `finished`: a normal finish, `cut`: a `length` one (see `ToolSyntax.flush`)."""
        if self._flushed:
            return []
        self._flushed = True
        out: list[Piece] = []
        if self._active is None and self._scan.buffered:
            self._around.begin(out)  # a closer waits for its line's end: it ends here
            self._around.at_end = True
            self._run(out)
        part = self._active or self._parts[0]
        part._finished = finished
        announced, start = part._announced is not None, len(out)
        part._finish(out)
        if cut and not announced:
            unrecovered(out, start)
        self._active = None
        return out

    def _run(self, out: list[Piece]) -> None:
        while self._step(out):
            pass
        self._around.catch_up()

    def _step(self, out: list[Piece]) -> bool:
        part = self._active
        if part is None:
            found = scan_text(self._scan, self._OPENERS, out)
            if found is None:
                return False
            (index, value), pos, length = found
            part = self._parts[index]
            if not part._found(value, pos, length, out):
                return False
            self._active = part
        elif part._state is part.TEXT:
            self._active = None
            if part.handed_on:
                return self._hand_on(part, out)
        else:
            return part._STEPS[part._state](part, out)
        return True

    def _hand_on(self, part: ScanningParser, out: list[Piece]) -> bool:
        """`part` found that what follows its opener is not its syntax: the next part reading that
        opener opens it, where it stands (nothing of it was handed back)."""
        opener, part.handed_on = part.handed_on, b""
        index, value = self._SHARED[self._parts.index(part), opener]
        taker = self._parts[index]
        taker._open(value, self._scan.start, len(opener), out)  # (not quoted: `part` found it so)
        self._active = taker
        return True


class WordLedComposed(ComposedParser):
    """A composition with parts whose openers begin with a letter (stripped Kimi's `functions.`,
    K3's `tools<|sep|>`): while nothing is held, a text that holds no other part's lead (`<`,
    `[`…), none of those openers whole, and does not end in a start of one that would be held,
    is handed back at once (the base's fast path needs `<`-led openers only)."""

    _OTHER_LEAD: ClassVar[re.Pattern[str]]
    _WORDS: ClassVar[tuple[str, ...]]
    """The letter-led openers that hold no other lead (`functions.`)."""
    _STARTS: ClassVar[tuple[str, ...]]
    """Their starts a text may end in and be held (`f` … `functions`, `t` … `tools`), but those
    holding another lead."""
    plain_words: ClassVar[tuple[str, tuple[tuple[str, ...], tuple[str, ...]]]]
    """Where `plain_leads` is not None, the same for the letter-led openers: the other leads, then the
    words and their starts (a text without those, not ending in a start, is handed back whole)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if not hasattr(cls, "PARTS"):
            return
        table = cls._OPENERS
        words = [marker for marker in table if marker[:1].isalpha()]
        others = bytes(lead for lead in table.leads if lead not in {word[0] for word in words}).decode()
        cls._OTHER_LEAD = re.compile("[" + re.escape(others) + "]")
        cls._WORDS = tuple(word.decode() for word in words if cls._OTHER_LEAD.search(word.decode()) is None)
        cls._STARTS = tuple(
            start for word in words for n in range(1, len(word))
            if cls._OTHER_LEAD.search(start := word[:n].decode()) is None
        )
        cls.plain_words = (others, (cls._WORDS, cls._STARTS))

    def feed(self, text: str) -> list[Piece]:
        """Consume more text; return the pieces decided so far."""
        if (self._active is None and not self._scan.end and not self._flushed
                and self._OTHER_LEAD.search(text) is None and not text.endswith(self._STARTS)):
            for word in self._WORDS:  # (a loop, not `any`: a generator costs each text twice as much)
                if word in text:
                    break
            else:
                self._around.text(text)  # (what precedes a closer: `_orphans.py`)
                return [Text(text)] if text else []
        return super().feed(text)
