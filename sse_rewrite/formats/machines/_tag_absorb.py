"""TagStreamAbsorb: the texts a streaming `<tool_call>` parser takes without feeding them.

With `--stream-arguments`, a Hermes JSON body's texts are taken unfed where the steps would
only move past them (docs/behaviour.md, "Streamed arguments"): before the head shows, those
that leave it unshown; inside the arguments value, each streaming what `_stream_json`
would (the whole text, or up to the bracket that closes the value); after the value, the
body's rest up to its close, which the body's `JsonScanner` reads. Elsewhere (XML and GLM
bodies, the spacing around a body) they stream nothing.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence

from ._machine import MachineState, ScanningParser
from ._scanner import NON_SPACE
from ._streamed_call import settled_texts
from ._tag_stream import HEAD_LOOKAHEAD, JSON_HEAD, NOT_STREAMED, UNDECIDED, TagStreaming

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Final

_CLOSING_BRACKET: Final = re.compile(r"[}\]]")
_HEAD_TEXTS: Final = 8  # texts matched at once before a JSON body's head shows


class TagStreamAbsorb(TagStreaming):
    """The `absorb_argument(s)` of `ToolCallTagParser` (see module docstring)."""

    TAGGED: ClassVar[MachineState | None] = None
    """The state inside an XML or GLM body (its values' tokens: the hot state)."""

    def _scanned(self, text: str) -> str | None:
        """Take a text that may close the arguments value, appended at the streamed end: read
        by the value's `JsonScanner` (which catches up over the texts taken unread, which
        cannot close it). What it streams, as the JSON step would: all of it while the value
        stays open; up to the bracket that closes it (the body's scanner then reads on from
        there, one level deep outside strings: where the head left the value); nothing if
        the body closes in it too (`_body_read`). None when something other than spacing
        follows the body: then everything is as it was (the steps decide)."""
        scan, value = self._scan, self._value_json
        before, saved = scan.end, value.state()
        scan.append(text)
        closed = value.advance(scan.view, scan.end)
        if closed is None:
            self._value_at = scan.end
            self._sent.append(text)
            return text
        body = self._json.state()
        self._json.restore((closed, False, 1))
        ended = self._body_read(before)
        if ended is None:
            value.restore(saved)
            self._json.restore(body)
            return None
        if ended:
            return ""
        streamed = scan.text(before, closed)
        self._value_at = NOT_STREAMED
        self._sent.append(streamed)
        return streamed

    def _body_read(self, before: int) -> bool | None:
        """The body's `JsonScanner` reads what was appended from `before`: False while the body
        stays open, True when it closed and only spacing follows (then it has ended, as the
        JSON and closing steps would end it), None when something else follows (a close, or
        words: the text is cut back)."""
        scan = self._scan
        end = self._json.advance(scan.view, scan.end)
        if end is None:
            return False
        if NON_SPACE.search(scan.view, end) is not None:
            scan.cut_back(before)
            return None
        self._json_body_ended(end)
        scan.cursor = scan.end
        return True

    def _absorb_body_rest(self, texts: Sequence[str]) -> int:
        """In a JSON body whose arguments value is streamed to its end (or not streamed at all),
        the leading texts the JSON step would only read (`_body_read`): those that leave the
        body open, then one that closes it with only spacing after, and spacing after that."""
        scan, taken = self._scan, 0
        for text in texts:
            if scan.end - scan.start + 4 * len(text) > self._max:
                break
            before, saved = scan.end, self._json.state()
            scan.append(text)
            ended = self._body_read(before)
            if ended is None:
                self._json.restore(saved)
                break
            taken += 1
            if ended:
                return taken + ScanningParser._absorb_around_body(self, texts[taken:])
        return taken

    def absorb_argument(self, text: str) -> str | None:
        """`absorb_arguments` of one text (a live event's): an XML or GLM value's token (the hot
        state) is `_absorb_tagged`'s, written out, and streams nothing."""
        scan = self._scan
        if self._state is not self.TAGGED or scan.cursor != scan.end:
            taken = self.absorb_arguments((text,))
            return taken[0] if taken else None
        if "<" in text or scan.end - scan.start + 4 * len(text) > self._max:
            return None
        scan.append(text, True)
        return ""

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """JSON: inside the streamed arguments value, texts without a closing bracket are
        appended (the scanners catch up when they next look), the others read first
        (`_scanned`), each streaming what `_stream_json` would; once the value has closed,
        what the body's rest takes (`_absorb_body_rest`) streams nothing. Elsewhere (XML and
        GLM values, which stream when they close, included) what `absorb` takes streams nothing."""
        scan = self._scan
        if self._state is not self.JSON_BODY or self._value_at == UNDECIDED:
            return [""] * self._absorb_unstreamed(texts)
        if self._value_at == NOT_STREAMED:
            return [""] * self._absorb_body_rest(texts)
        if self._value_at != scan.end or self._announced is None:
            return []
        taken: list[str] = []
        run: Sequence[str]
        while True:
            rest = texts[len(taken) :] if taken else texts
            joined = "".join(rest)  # (most runs hold no closing bracket: two finds, not a search)
            if "}" in joined or "]" in joined or scan.end - scan.start + 4 * len(joined) > self._max:
                run = settled_texts(rest, scan.end - scan.start, self._max, _CLOSING_BRACKET)
                joined = "".join(run)
            else:
                run = rest
            if run:
                scan.append(joined)
                self._value_at = scan.end
                self._sent += run
                taken += run
            if len(taken) == len(texts):
                return taken
            text = texts[len(taken)]
            streamed = None if scan.end - scan.start + 4 * len(text) > self._max else self._scanned(text)
            if streamed is None:
                return taken
            taken.append(streamed)
            if self._value_at != scan.end:  # the value closed: the body's rest
                return taken + self.absorb_arguments(texts[len(taken) :])

    def _absorb_unstreamed(self, texts: Sequence[str]) -> int:
        """Outside a streamed JSON value, the leading texts that decide nothing, streaming:
        in an XML or GLM body, those `_absorb_tagged` takes; around a body, those
        `_absorb_around_body` takes (`ToolCallTagParser`'s: spacing, and a text that opens a
        JSON body, then its head's texts); in a JSON body whose head has not shown, those that
        leave it so, as `_keeps_head_open` takes each in turn (while they are ASCII, in one
        match)."""
        if self._state is not self.JSON_BODY:  # (an XML or GLM value's text first: the hot state)
            return self._absorb_tagged(texts) or self._absorb_around_body(texts)
        scan, taken = self._scan, 0
        while True:  # (a few texts at a time: the head shows within a few tokens)
            room = min(scan.mark + HEAD_LOOKAHEAD, scan.start + self._max) - scan.end
            ends, size = [], 0  # the texts within the lookahead and the cap, before a closing bracket
            for text in texts[taken : taken + _HEAD_TEXTS]:
                size += len(text)
                if size > room or "}" in text or "]" in text:
                    break
                ends.append(size)
            joined = "".join(texts[taken : taken + len(ends)])
            if not ends or not joined.isascii():
                return taken + len(list(itertools.takewhile(self._keeps_head_open, texts[taken:])))
            # ASCII (a character a byte): matched at once; a prefix of them matches up to where
            # it ends, as each text appended in turn would, until the head shows
            before = scan.end
            scan.append(joined)
            head = JSON_HEAD.match(scan.view, scan.mark, scan.end)
            if head is not None and head.end() != scan.end:
                count = bisect.bisect_right(ends, head.end() - before)
                scan.cut_back(before + (ends[count - 1] if count else 0))
                return taken + count
            taken += len(ends)
            if len(ends) < _HEAD_TEXTS:  # (stopped by a bracket, the lookahead, the cap or the end)
                return taken + len(list(itertools.takewhile(self._keeps_head_open, texts[taken:])))

    def _absorb_tagged(self, texts: Sequence[str]) -> int:
        """The leading texts inside an XML or GLM body that decide nothing (`ToolCallTagParser`)."""
        raise NotImplementedError

    def _keeps_head_open(self, text: str) -> bool:
        """Take a text of a JSON body whose head has not shown (`_stream_json`) if, appended,
        it neither closes the body nor completes the head nor passes the lookahead: the JSON
        step would not act on it. Otherwise everything is as it was."""
        scan = self._scan
        if "}" in text or "]" in text or scan.end - scan.start + 4 * len(text) > self._max:
            return False
        before = scan.end
        scan.append(text)
        head = JSON_HEAD.match(scan.view, scan.mark, scan.end)
        if head.end() == scan.end if head is not None else scan.end - scan.mark <= HEAD_LOOKAHEAD:
            return True
        scan.cut_back(before)
        return False
