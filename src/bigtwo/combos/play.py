"""Play: a combination of cards as a ruleset classified it, or a pass. Immutable, compared by its cards."""

from __future__ import annotations

from bigtwo.cards import CARDS, HoldsCards, bits
from bigtwo.rules.kinds import Kind


class Play(HoldsCards):
    """A combination (``kind``, cards) or a pass.

    ``cls`` and ``order`` are the ruleset's comparison data: two plays of the same ``cls`` compare by
    ``order``; plays of different classes never beat each other, except bombs (``bomb`` > 0).
    """

    __slots__ = ("bomb", "cat", "cls", "key", "kind", "mask", "order", "size", "value")

    def __init__(
        self,
        mask: int,
        kind: Kind,
        cat: int = 0,
        key: int = 0,
        value: int = 0,
        cls: int = 0,
        order: int = 0,
        bomb: int = 0,
    ):
        self.mask = mask
        self.kind = kind
        self.size = mask.bit_count()
        self.cat = cat
        self.key = key
        self.value = value
        self.cls = cls
        self.order = order
        self.bomb = bomb

    @property
    def is_pass(self) -> bool:
        return self.mask == 0

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return "pass" if self.mask == 0 else " ".join(str(CARDS[i]) for i in bits(self.mask))

    def __repr__(self) -> str:
        if self.mask == 0:
            return "Play.PASS"
        return f"Play({str(self)!r}, kind={self.kind!r})"


PASS = Play(0, Kind.PASS)
Combo = Play
