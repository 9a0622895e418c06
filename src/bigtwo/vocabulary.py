"""The base of the package's fixed vocabularies: a ``StrEnum`` whose members equal their words, format as them and
have the word's ``repr``, so rules files, records and messages that quote one read exactly as the plain word did."""

from __future__ import annotations

from enum import StrEnum


class Vocabulary(StrEnum):
    """A word of a fixed vocabulary (a phase, a decision kind, a setting's value, ...)."""

    def __repr__(self) -> str:
        return repr(self.value)
