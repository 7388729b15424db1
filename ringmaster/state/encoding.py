"""Values encoded once as the state's JSON: records saved many times, and growing lists of them."""

from __future__ import annotations

import json
from typing import Any


class EncodedJson:
    """A value encoded once as the state's JSON (compact, keys sorted), written as it is.

    The state holds every game played and is written after each result, so a
    record that never changes is encoded once (see encoded_json) rather than at
    every write: a save at 2,000 games took 76.9 ms encoding every game, 7.5 ms
    so (bench/bench_state_save.py).
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"EncodedJson({self.text!r})"


def encoded_json(value: Any) -> EncodedJson:
    """value encoded as it would be inside the state file."""
    return EncodedJson(json.dumps(value, sort_keys=True, separators=(",", ":")))


class EncodedOnce:
    """For a record saved in the state many times: encoded() is its to_json() as an
    EncodedJson, computed once; setting any attribute forgets it."""

    changes = 0
    """Counts changes to records already encoded: an EncodedList then starts again."""

    def encoded(self) -> EncodedJson:
        cached = self.__dict__.get("_encoded")
        if cached is None:
            cached = self.__dict__["_encoded"] = encoded_json(self.to_json())  # type: ignore[attr-defined]
        return cached

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.pop("_encoded", None) is not None:
            EncodedOnce.changes += 1
        object.__setattr__(self, name, value)


class EncodedArray(EncodedJson):
    """A JSON array of encoded records, as EncodedList.encode made it: the first count
    texts of source's list, which only ever grows in place. text is joined when it is
    first asked for; the state's journal (state/journal.py) writes only the texts a
    save added, and never asks for it."""

    __slots__ = ("texts", "count", "source", "generation", "_text")

    def __init__(self, texts: list[str], count: int, source: object, generation: int) -> None:
        self.texts = texts
        self.count = count
        self.source = source
        self.generation = generation
        self._text: str | None = None

    @property  # type: ignore[override]
    def text(self) -> str:
        if self._text is None:
            self._text = "[" + ",".join(self.texts[:self.count]) + "]"
        return self._text

    def added_since(self, count: int) -> EncodedJson:
        """The texts after the first count, as a JSON array."""
        return EncodedJson("[" + ",".join(self.texts[count:self.count]) + "]")

    def __repr__(self) -> str:
        return f"EncodedArray({self.count} records)"


class EncodedList:
    """A growing list of EncodedOnce records (the games of a run) as one JSON array.

    encode(records) encodes only the records appended since its last call, so
    that saving the state doesn't visit every game again; it starts again (a
    new generation, so that the journal knows the array wasn't only extended)
    if it is given another list, a shorter one, or one whose last record it
    knew is no longer in its place, or if a record encoded before has changed.
    """

    def __init__(self) -> None:
        self._records: list | None = None
        self._texts: list[str] = []
        self._last: object = None
        self._changes = -1
        self.generation = 0

    def encode(self, records: list) -> EncodedArray:
        known = len(self._texts)
        if (records is not self._records or self._changes != EncodedOnce.changes
                or known > len(records) or (known and records[known - 1] is not self._last)):
            self._records, self._texts, self._changes = records, [], EncodedOnce.changes
            self.generation += 1
            known = 0
        self._texts += [record.encoded().text for record in records[known:]]
        if records:
            self._last = records[-1]
        return EncodedArray(self._texts, len(self._texts), self, self.generation)
