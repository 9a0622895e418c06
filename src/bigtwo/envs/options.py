"""The environments' options that take one of a few words: one string enum each, the one source of the words.

Members equal their words, so ``render_mode="human"`` and ``RenderMode.HUMAN`` are the same option; the public
signatures take the ``Literal`` of the words (what a type checker offers a caller), and the environments compare
members, not string literals a typo would break silently.
"""

from __future__ import annotations

from typing import Literal

from bigtwo.vocabulary import Vocabulary


class _Option(Vocabulary):
    """An option's word; its ``repr`` is the word's, so messages that quote an option read as before."""

    @classmethod
    def words(cls) -> str:
        """The allowed words, quoted, for a message: ``'auto', 'catalogue' or 'legal'``."""
        quoted = [repr(m.value) for m in cls]
        return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


class RenderMode(_Option):
    """``render_mode``: print each step (``human``) or return it as text (``ansi``); None renders nothing."""

    HUMAN = "human"
    ANSI = "ansi"


class ActionEncoding(_Option):
    """``action_encoding`` of the AEC environment (see bigtwo.envs.aec): the catalogue of every combination, the
    list of legal plays, or ``auto`` (the catalogue where it is small enough, else the legal list)."""

    AUTO = "auto"
    CATALOGUE = "catalogue"
    LEGAL = "legal"


class RewardKind(_Option):
    """``reward``: ``score`` (the points of the round), ``place`` (the finishing order), or ``auto`` (``place``
    where the rules score only the order, else ``score``)."""

    AUTO = "auto"
    SCORE = "score"
    PLACE = "place"


# the single-agent environment's ``seat``: a seat number, or this word for a seat drawn at every reset
RANDOM_SEAT = "random"

RenderModeWord = Literal["human", "ansi"]
ActionEncodingWord = Literal["auto", "catalogue", "legal"]
RewardMode = Literal["auto", "score", "place"]
SeatChoice = int | Literal["random"]

__all__ = [
    "RANDOM_SEAT",
    "ActionEncoding",
    "ActionEncodingWord",
    "RenderMode",
    "RenderModeWord",
    "RewardKind",
    "RewardMode",
    "SeatChoice",
]
