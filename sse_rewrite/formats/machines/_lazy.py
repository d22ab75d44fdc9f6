"""Format machines imported on first need: what keeps start-up to the core's own modules.

Every `auto` stream reads the markers no prose holds (docs/behaviour.md, "Formats"), so its
composition names a dozen format machines. Importing them, and building their marker tables,
costs a one-event run about a third of its time, although most streams never hold a marker.
So the registry names its parsers as data (`Ref`: module and class), and an `auto` format is
a `LazyComposition`: it knows only its parts' lead characters (the first character of each of
their markers) and sniff bytes, and hands text back itself until a text holds one of the
leads. Then it imports its parts, builds the composition, and becomes it.

Why output cannot change: a composition hands a text back whole, and only notes its line
ends and last character (`_orphans.Surroundings`), unless the text holds a lead of one of its
markers: no marker can begin without its lead, and a text with none holds no marker's start
either, so nothing is held back between such texts. That is what the light object does with
them, on a `Surroundings` of its own, which the composition takes over when it is built. A
part's declared leads must include its markers' (tests/formats/test_lazy_registry.py checks
it), so a marker split across texts is seen from its first character on, as before.
"""

from __future__ import annotations

import importlib

from ...stream.events import Piece, Text
from . import declare
from ._orphans import QuotesRead, Surroundings
from ._scanner import DEFAULT_MAX_SECTION_BYTES, MarkerTable

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, ClassVar

    from ...tool_schemas import ToolSchemas
    from ._compose import ComposedParser


_FORMATS = __package__.rpartition(".")[0]
"""The `formats` package, which a `Ref`'s module is named relative to."""


class Ref:
    """A class of a format module, by name: imported on first `load`; or, given `args`, the class
    that function of the module builds of them (`declared.declared`'s gated variants)."""

    __slots__ = ("_loaded", "args", "module", "name")

    def __init__(self, module: str, name: str, *args: object) -> None:
        self.module, self.name, self.args = module, name, args  # (the module relative to `formats`)
        self._loaded: Any = None

    def load(self) -> Any:
        """The class (its module is imported the first time)."""
        if self._loaded is None:
            found = getattr(importlib.import_module(f"{_FORMATS}.{self.module}"), self.name)
            self._loaded = found(*self.args) if self.args else found
        return self._loaded


class Part:
    """A part of an `auto` composition, as data: its class, its markers' lead characters (at
    least: a text without any of them holds none of its markers, nor a marker's start), its
    sniff bytes (`ToolSyntax.sniff`) and the words its parser holds a start of at a text's end
    that no sniff finds (`held_words`: each word, and from how many bytes its start is held wherever
    it stands; `stream/held_starts.py`)."""

    __slots__ = ("held_words", "leads", "parser", "sniff")

    def __init__(self, module: str, name: str, leads: str, sniff: tuple[bytes, ...],
                 held_words: tuple[tuple[bytes, int], ...] = ()) -> None:  # fmt: skip
        self.parser, self.leads, self.sniff = Ref(module, name), leads, sniff
        self.held_words = held_words


_UNREAD: MarkerTable[None] = MarkerTable({b"<": None})
"""The light object's `Surroundings` reads only texts, never a closer's line: its table is not used."""


class LazyComposition(QuotesRead):
    """Implements `ToolSyntax` for the composition of `PARTS` over `BASE` (a `ComposedParser`),
    built and become once a text holds one of the parts' leads (see the module docstring)."""

    PARTS: ClassVar[tuple[Part, ...]]
    BASE: ClassVar[Ref] = Ref("machines._compose", "ComposedParser")
    READS_ALL: ClassVar[bool] = False
    """Whether a part reads every text (`Surroundings.reads_all`), so the light object watches too."""
    sniff: ClassVar[tuple[bytes, ...]]
    """The union of the parts' sniff bytes, as the composition has it."""
    held_words: ClassVar[tuple[tuple[bytes, int], ...]]
    """The union of the parts' `Part.held_words`."""
    _LEADS: ClassVar[str]
    _built: ClassVar[type[ComposedParser] | None]

    def __init_subclass__(cls, **declared: object) -> None:
        declare(cls, declared)
        super().__init_subclass__()
        cls.sniff = tuple(dict.fromkeys(needle for part in cls.PARTS for needle in part.sniff))
        cls.held_words = tuple(dict.fromkeys(word for part in cls.PARTS for word in part.held_words))
        cls._LEADS = "".join(dict.fromkeys("".join(part.leads for part in cls.PARTS)))
        cls._built = None

    def __new__(cls, *args: Any, **kwargs: Any) -> LazyComposition:
        """Once a stream has built the composition, the composition itself (see `_become`)."""
        if cls._built is not None:
            return cls._built(*args, **kwargs)  # type: ignore[return-value]
        return super().__new__(cls)

    def __init__(
        self, max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES, stream_arguments: bool = False,
        tools: ToolSchemas | None = None,
    ) -> None:  # fmt: skip
        self._options = (max_section_bytes, stream_arguments, tools)
        self._around = Surroundings(_UNREAD)
        self._flushed = False

    @classmethod
    def composition(cls) -> type[ComposedParser]:
        """The composition itself: its parts imported, its class built (once)."""
        if cls._built is None:
            base = cls.BASE.load()
            parts = tuple(part.parser.load() for part in cls.PARTS)
            cls._built = type(cls.__name__, (base,), {"PARTS": parts, "__module__": cls.__module__})
        return cls._built

    def _become(self) -> None:
        """Turn into the composition, as it would be after the texts handed back so far.

        (Its class is swapped, so that no call goes through this object. The swap leaves the
        object's attributes in a dict of its own, about 1 % slower to read than an ordinary
        object's: only parsers made before the process's first marker are made so.)"""
        around, options = self._around, self._options
        composition = self.composition()
        self.__dict__.clear()
        self.__class__ = composition  # type: ignore[assignment]  # (no indirection on the hot path)
        composition.__init__(self, *options)  # type: ignore[arg-type]
        self._around.take_over(around)

    @property
    def pending(self) -> bool:
        """Nothing is held back before a marker's lead."""
        return False

    @property
    def watching(self) -> bool:
        """Whether a closer read next could be dropped (see `_orphans`), or every text is read."""
        return self.READS_ALL or self._around.watching

    @property
    def undecided(self) -> int:
        """Nothing is held back before a marker's lead."""
        return 0

    @property
    def held(self) -> str:
        """Nothing is held back before a marker's lead."""
        return ""

    @property
    def plain_leads(self) -> str | None:
        """The characters without which a text fed now is handed back whole (the parts' leads)."""
        return None if self._flushed else self._LEADS

    def absorb(self, texts: Sequence[str]) -> int:
        """No call is open: nothing is taken."""
        return 0

    def absorb_reasoning(self, text: str) -> bool:
        """No reasoning is open: nothing is taken."""
        return False

    def absorb_arguments(self, texts: Sequence[str]) -> list[str]:
        """No call is open: nothing is taken."""
        return []

    def absorb_argument(self, text: str) -> str | None:
        """No call is open: nothing is taken."""
        return None

    def feed(self, text: str) -> list[Piece]:
        """Hand `text` back, unless it holds a lead: then the composition reads it."""
        if self._flushed:
            raise RuntimeError("feed() after flush()")
        for lead in self._LEADS:
            if lead in text:
                self._become()
                return self.feed(text)
        self._around.text(text)
        return [Text(text)] if text else []

    def flush(self, finished: bool = False, cut: bool = False) -> list[Piece]:
        """Nothing is held back before a marker's lead."""
        self._flushed = True
        return []
