"""Plain-text scanning stops at any byte a marker of the table can start with, not only `<`."""

import bisect
import itertools
import subprocess
import sys

import orjson

from sse_rewrite.formats.machines._scanner import NEED_MORE, MarkerScanner, MarkerTable, scan_text
from sse_rewrite.stream.events import Text

TABLE = MarkerTable({b"[TOOL_CALLS]": "mistral", b"<tool_call>": "hermes", b"]<]mm[>[": "m3"})


def scan(text: str) -> tuple[list[str], object]:
    scanner = MarkerScanner()
    scanner.append(text)
    out: list = []
    found = scan_text(scanner, TABLE, out)
    return [piece.text for piece in out if isinstance(piece, Text)], found


def test_leads_are_every_first_byte() -> None:
    assert TABLE.leads == b"<[]"


def test_stops_at_a_bracket_led_marker() -> None:
    assert scan("a [b] c[TOOL_CALLS]x") == (["a [b] c"], ("mistral", 7, 12))


def test_stops_at_the_first_marker_of_any_lead() -> None:
    assert scan("x]<]mm[>[<tool_call>") == (["x"], ("m3", 1, 8))
    assert scan("x<tool_call>[TOOL_CALLS]") == (["x"], ("hermes", 1, 11))


def test_holds_a_partial_marker_of_any_lead() -> None:
    assert scan("text [TOOL_CA") == (["text "], None)
    assert scan("no markers [here] at all <b>") == (["no markers [here] at all <b>"], None)


_LIST_TABLES = """
import gc, orjson, sys
from sse_rewrite.formats.machines._lazy import LazyComposition
from sse_rewrite.formats.machines._scanner import MarkerTable
for composition in LazyComposition.__subclasses__():
    composition.composition()
import sse_rewrite.formats.catalogue.routing_wrapped  # (the compositions model ids pick)
found = [t for t in gc.get_objects() if isinstance(t, MarkerTable)]
tables = {(tuple(sorted(t)), tuple(sorted(t.held_from.items()))) for t in found}
listed = [[[m.hex() for m in ms], [[m.hex(), n] for m, n in held]] for ms, held in tables]
sys.stdout.buffer.write(orjson.dumps(listed))
"""


def every_table() -> list[MarkerTable]:
    """Every distinct marker table the catalogue builds (each composition's, imported), as a fresh
    process finds them (this one holds whatever tables the tests before built too)."""
    listed = subprocess.run([sys.executable, "-c", _LIST_TABLES], capture_output=True, check=True).stdout
    return [
        MarkerTable(dict.fromkeys(map(bytes.fromhex, markers), None), {bytes.fromhex(m): n for m, n in held})
        for markers, held in orjson.loads(listed)
    ]


def walked(table: MarkerTable, ordered: list[bytes], tail: bytes, glued: bool) -> bool:
    """The old end-of-buffer check, each spelling `tail` begins walked (`ordered`: the table's
    spellings sorted, so those are the run from where `tail` would sort)."""
    after = ordered[bisect.bisect_left(ordered, tail) :]
    begun = itertools.takewhile(lambda marker: marker.startswith(tail), after)
    return any(len(tail) >= table.held_from.get(marker, 1) or not glued for marker in begun)


def test_a_held_start_is_one_lookup_equal_to_walking_every_spelling() -> None:
    tables = every_table()
    assert len(tables) > 100  # (the catalogue's: not a few by accident)
    scanner, checked = MarkerScanner(), 0
    for table in tables:
        ordered = sorted(table)
        # (every start shorter than the head, one lookup, and starts of nothing; longer ones,
        # walked among the head's spellings: two of each spelling)
        tails = {head[:n] for head in table.by_head for n in range(table.head)}
        tails |= {tail + b"\0" for tail in tails}
        tails |= {m[:n] for m in table for n in {table.head, len(m) - 1} if n < len(m)}
        for tail in tails:
            for before in (b"", b" ", b"a") if table.held_from or not tail else (b"",):
                scanner.view, scanner.end = bytearray(before + tail), len(before) + len(tail)
                held = scanner.match(len(before), table) is NEED_MORE
                assert held == walked(table, ordered, tail, before == b"a"), (sorted(table)[:3], before, tail)
                checked += 1
    assert checked > 10_000


def scanned_whole(table: MarkerTable, text: str) -> bool:
    """Whether `scan_text` hands `text`, scanned alone, all back: no marker found, nothing held."""
    scanner, out = MarkerScanner(), []
    scanner.append(text)
    found = scan_text(scanner, table, out)
    return found is None and [piece.text for piece in out] == ([text] if text else [])


def test_hands_back_is_one_search_equal_to_scanning_the_text_alone() -> None:
    """`MarkerTable.hands_back` (a search derived from the table) says what `scan_text` does with a text
    alone, for every table of the catalogue: markers inside, starts at the end (after a word or not)."""
    checked = 0
    for table in every_table():
        texts = {"", "x", "a b", "é"}
        for marker in table:
            word = marker.decode()
            starts = {word[:n] for n in {1, 2, len(word) // 2, len(word) - 1} if 0 < n < len(word)}
            texts |= {word, f"x{word}y", *starts}
            texts |= {before + start for start in starts for before in ("a", " ", "é")}
            texts |= {start + "\0" for start in starts}
        for text in texts:
            assert table.hands_back(text) == scanned_whole(table, text), (sorted(table)[:3], text)
            checked += 1
    assert checked > 10_000
