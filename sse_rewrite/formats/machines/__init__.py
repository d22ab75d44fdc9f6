"""The grammar machines: the parsing code every syntax of the catalogue runs on.

One machine per grammar family: special-token sections and calls (`_sections`), a tag
around one body (`tool_call_tag` and `_tag_*`), invoke/parameter XML (`_invoke*`), a marker
then a JSON or pythonic list (`_list_*`, `whole_answer`), channel messages with recipients
(`channels`, `channel_*`, `recipients`), and the shared engine under them all: the marker
scanner (`_scanner`), the feed/flush loop (`_machine`), orphan closers (`_orphans`), streamed arguments
(`_streamed_call`), value readers (`_json`, `_brackets`, `literals`, `raw_values`), one-pass
composition (`_compose`) and lazy loading (`_lazy`). What a syntax is (its spellings, ids,
typing) is data in `..catalogue`, and so is each parser of it: a subclass of its machine whose
class arguments are what the machine reads (`declare`), `class LongCatParser(TagSyntaxParser,
SYNTAX=LONGCAT)` and its docstring.
"""

from __future__ import annotations


def declare(cls: type, declared: dict[str, object]) -> None:
    """Set the class arguments of `cls`, a machine's subclass, as its class attributes: what its
    machine's `__init_subclass__` builds its tables from (a name the machine does not read is a
    `TypeError`)."""
    for name, value in declared.items():
        annotated = (name in vars(base).get("__annotations__", ()) for base in cls.__mro__)
        if not any(annotated) and not hasattr(cls, name):
            raise TypeError(f"{cls.__name__}: its machine reads no {name}")
        setattr(cls, name, value)
