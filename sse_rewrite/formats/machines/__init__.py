"""The grammar machines: the parsing code every syntax of the catalogue runs on.

One machine per grammar family: special-token sections and calls (`_sections`), a tag
around one body (`tool_call_tag` and `_tag_*`), invoke/parameter XML (`_invoke*`), a marker
then a JSON or pythonic list (`_list_*`, `whole_answer`), channel messages with recipients
(`channels`, `channel_*`, `recipients`), and the shared engine under them all: the marker
scanner (`_scanner`), the feed/flush loop (`_machine`), orphan closers (`_orphans`), streamed arguments
(`_streamed_call`), value readers (`_json`, `_brackets`, `literals`, `raw_values`), one-pass
composition (`_compose`) and lazy loading (`_lazy`). What a syntax is (its spellings, ids,
typing) is data in `..catalogue`.
"""
