"""The lazy registry (`machines/_lazy.py`, `catalogue/routing.py`): an `auto` composition that imports its
parts on a text's first lead does exactly what the composition built at once does.

Differential: every capture through the filter, and the captures' texts and texts made of
marker fragments at random cuts through each `auto` composition, lazy against eager, piece
by piece and in what each says it holds after every text. And the declarations the lazy
object relies on (its parts' leads and sniff bytes) against the parts themselves.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite import goldens
from sse_rewrite.formats import FORMATS, select_format
from sse_rewrite.formats.catalogue import deepseek, kimi
from sse_rewrite.formats.catalogue import routing as _auto
from sse_rewrite.formats.catalogue.dsml import MARKS
from sse_rewrite.formats.machines._lazy import LazyComposition
from sse_rewrite.formats.syntax import ToolSyntax

SSE_LOGS = Path(__file__).resolve().parent.parent.parent / "sse_logs"
CAPTURES = goldens.find_captures([SSE_LOGS])
COMPOSITIONS = sorted(
    {cls for cls in [*vars(_auto).values(), *(family.parser for family in _auto.FAMILIES)]
     if isinstance(cls, type) and issubclass(cls, LazyComposition)} - {LazyComposition},
    key=lambda cls: cls.__name__,
)  # fmt: skip
PARTS = sorted({part for cls in COMPOSITIONS for part in cls.PARTS}, key=lambda part: part.parser.name)


@pytest.fixture
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """While it is on, no composition is built yet: the first parsers made are light ones."""
    for cls in COMPOSITIONS:
        monkeypatch.setattr(cls, "_built", None)
    yield


def light(cls: type[LazyComposition], stream_arguments: bool) -> LazyComposition:
    """A composition that has read no lead yet, whether or not an earlier one built its class."""
    parser = object.__new__(cls)
    parser.__init__(stream_arguments=stream_arguments)  # type: ignore[misc]
    return parser


@pytest.mark.parametrize("capture", CAPTURES, ids=[capture.name for capture in CAPTURES])
def test_a_capture_comes_out_the_same_lazy_or_eager(capture: Path, request: pytest.FixtureRequest) -> None:
    """Read by compositions none of which is built yet (a fresh process), a capture gives its
    golden, which tests/test_goldens.py checks in a test process whose compositions earlier tests
    have mostly built."""
    request.getfixturevalue("unbuilt")
    assert goldens.replay(capture).output == goldens.golden_path(capture).read_bytes()
    assert any(cls._built is None for cls in COMPOSITIONS)  # (some were still unbuilt: read lazily)


def trace(parser: ToolSyntax, texts: list[str]) -> list[object]:
    """What the parser hands back for each text and says it holds after it, then its flush."""
    out: list[object] = []
    for text in texts:
        out += [parser.feed(text), parser.pending, parser.undecided, parser.watching]
    return [*out, parser.flush(finished=True)]


def assert_same(cls: type[LazyComposition], texts: list[str], stream_arguments: bool) -> None:
    lazy = light(cls, stream_arguments)
    built = cls.composition()(stream_arguments=stream_arguments)
    assert trace(lazy, texts) == trace(built, texts)


def cut(text: str, rng: random.Random) -> list[str]:
    points = sorted(rng.sample(range(1, len(text)), len(text) // 3)) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


def chunks(capture: Path) -> Iterator[dict[str, Any]]:
    """The capture's `data:` objects (a line cut short is skipped)."""
    for line in capture.read_bytes().splitlines():
        try:
            chunk = orjson.loads(line[6:]) if line.startswith(b"data: {") else None
        except orjson.JSONDecodeError:
            continue
        if isinstance(chunk, dict):
            yield chunk


def field_texts(capture: Path) -> Iterator[str]:
    """Each field's text in a capture's chunks, joined."""
    fields: dict[str, list[str]] = {}
    for chunk in chunks(capture):
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or choice.get("message") or {}
            for name in ("content", "reasoning_content", "reasoning"):
                if isinstance(delta.get(name), str):
                    fields.setdefault(name, []).append(delta[name])
    return ("".join(parts) for parts in fields.values())


@pytest.mark.parametrize("capture", [c for c in CAPTURES if c.suffix == ".sse"], ids=lambda c: c.name)
def test_a_captures_texts_at_random_cuts_read_the_same(capture: Path) -> None:
    rng = random.Random(capture.name)
    model = next((chunk["model"] for chunk in chunks(capture) if isinstance(chunk.get("model"), str)), None)
    parser = FORMATS[select_format(model, "auto")[0] or "special-tokens"]
    classes = [parser] if isinstance(parser, type) and issubclass(parser, LazyComposition) else [_auto.Tokens]
    for text in field_texts(capture):
        for cls in classes:
            for stream_arguments in (False, True):
                assert_same(cls, cut(text, rng), stream_arguments)
                assert_same(cls, list(text), stream_arguments)


FRAGMENTS = [
    "<", "|", "[", "]", ">", "\n", " ", "x", "f", "c", "{", "}", '"', "call:", "functions", ".f:0",
    '{"a": 1}',
    *(marker.decode() for marker in (*kimi.MARKERS, *deepseek.MARKERS)),
    "[TOOL_CALLS]", "<tool_call>", "</tool_call>", "<function=f>", "<|channel|>", "<|message|>", "<|call|>",
    "<seed:tool_call>", f"<{MARKS[0]}invoke", ' name="f">', "]<]minimax[>[", "<|open|>",
    "<|python_tag|>", "<|tool_call>", "<arg_key>",
]  # fmt: skip


@settings(max_examples=12, deadline=None)
@given(
    words=st.lists(st.sampled_from(FRAGMENTS), max_size=24),
    seed=st.integers(0, 1 << 16),
    stream_arguments=st.booleans(),
)
@pytest.mark.parametrize("cls", COMPOSITIONS, ids=lambda cls: cls.__name__)
def test_marker_fragments_at_random_cuts_read_the_same(
    cls: type[LazyComposition], words: list[str], seed: int, stream_arguments: bool
) -> None:
    text = "".join(words)
    assert_same(cls, cut(text, random.Random(seed)), stream_arguments)


@pytest.mark.parametrize("part", PARTS, ids=lambda part: part.parser.name)
def test_a_parts_declared_leads_and_sniff_are_its_own(part: Any) -> None:
    parser = part.parser.load()
    assert set(parser.OPENERS.leads.decode()) <= set(part.leads)
    assert part.sniff == parser.sniff


@pytest.mark.parametrize("cls", COMPOSITIONS, ids=lambda cls: cls.__name__)
def test_a_composition_is_known_by_its_declarations(cls: type[LazyComposition]) -> None:
    built = cls.composition()
    assert cls.sniff == built.sniff
    assert set(built._OPENERS.leads.decode()) <= set(cls._LEADS)
    assert built()._around.reads_all == cls.READS_ALL


def test_a_one_event_run_imports_no_format_machine() -> None:
    event = b'data: {"model":"moonshotai/kimi-k2.5","choices":[{"index":0,"delta":{"content":"pong"}}]}\n\n'
    code = (
        "import sys\nfrom sse_rewrite.stream.rewrite import StreamRewriter\n"
        f"r = StreamRewriter()\nr.feed({event!r})\nr.flush()\n"
        "print(sorted(m.rpartition('.')[2] for m in sys.modules if m.startswith('sse_rewrite.formats.')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "_lazy" in loaded
    assert "_machine" not in loaded  # (every format machine is built on `_machine.ScanningParser`)
