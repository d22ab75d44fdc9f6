"""A tokenizer built in memory for the engines' tool parsers (`engines.py`): no hub download.

Every text a turn writes as one delta is one token of its own id; the parsers look their
special tokens up in `get_vocab()` and the ids of the deltas they are fed, and decode ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class Tokenizer:
    """One id per distinct delta text, handed out on first sight."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.vocab: dict[str, int] = {}
        self.texts: list[str] = []
        self.name_or_path = "bench"
        self.all_special_tokens: list[str] = []
        self.all_special_ids: list[int] = []
        for text in texts:
            self.id_of(text)

    def id_of(self, text: str) -> int:
        """The id of `text`, new if it has none yet."""
        found = self.vocab.get(text)
        if found is None:
            found = self.vocab[text] = len(self.texts)
            self.texts.append(text)
        return found

    def get_vocab(self) -> dict[str, int]:
        return self.vocab

    def encode(self, text: str, add_special_tokens: bool = False, **_: object) -> list[int]:
        return [self.id_of(text)]

    def decode(self, ids: Sequence[int] | int, skip_special_tokens: bool = False, **_: object) -> str:
        return self.texts[ids] if isinstance(ids, int) else "".join(self.texts[i] for i in ids)

    def convert_tokens_to_ids(self, tokens: str | list[str]) -> int | list[int]:
        return self.id_of(tokens) if isinstance(tokens, str) else [self.id_of(t) for t in tokens]

    def convert_ids_to_tokens(self, ids: Sequence[int], skip_special_tokens: bool = False) -> list[str]:
        return [self.texts[i] for i in ids]

    def __len__(self) -> int:
        return len(self.texts)
