"""Plain-text scanning stops at any byte a marker of the table can start with, not only `<`."""

from sse_rewrite.formats.machines._scanner import MarkerScanner, MarkerTable, scan_text
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
