"""Straight tables: which rank sequences are straights and how they rank, as data.

A table is a *line* of ranks (runs are windows of it, ranked by their top end, no wrapping) plus optional
five-card *extras* ranked above every run (the wrap-around straights some regions allow, e.g. A-2-3-4-5).
Each sequence names the rank whose suit breaks ties: the top card of a run, or the rank given for an extra.
Pair and triple straights use the table's line.
"""

from __future__ import annotations

from dataclasses import dataclass

from bigtwo.cards import RANK_CHARS

_R = {c: i for i, c in enumerate(RANK_CHARS)}


@dataclass(frozen=True)
class StraightTable:
    name: str
    line: str
    extras: tuple[tuple[str, str], ...]  # (five ranks as written, tie-break rank), lowest first
    source: str

    def sequences(self, length: int) -> list[tuple[tuple[int, ...], int]]:
        """All straights of ``length`` cards, lowest first, as (rank indices, tie-break rank index)."""
        line = [_R[c] for c in self.line]
        out: list[tuple[tuple[int, ...], int]] = []
        for start in range(len(line) - length + 1):
            window = tuple(line[start : start + length])
            if len(set(window)) == length:
                out.append((window, window[-1]))
        if length == 5:
            out.extend((tuple(_R[c] for c in seq), _R[tb]) for seq, tb in self.extras)
        return out

    def line_runs(self, length: int) -> list[tuple[int, ...]]:
        """Runs of ``length`` distinct ranks along the line, lowest first (for pair and triple straights)."""
        line = [_R[c] for c in self.line]
        runs = []
        for start in range(len(line) - length + 1):
            window = tuple(line[start : start + length])
            if len(set(window)) == length:
                runs.append(window)
        return runs

    def max_length(self) -> int:
        return len(set(self.line))

    def describe(self, length: int = 5) -> str:
        seqs = self.sequences(length)
        return " < ".join("-".join(RANK_CHARS[r] for r in ranks) for ranks, _ in seqs)


STRAIGHT_TABLES: dict[str, StraightTable] = {
    t.name: t
    for t in (
        StraightTable(
            "hong-kong",
            "3456789TJQKA",
            (("23456", "2"), ("A2345", "2")),
            "002 Rules, five-card hands: 3-7 lowest, then 10-A, 2-6, A-5 highest; "
            "002 Variations: the Singapore/Hong Kong variant (suit of the 2 breaks ties)",
        ),
        StraightTable(
            "malaysia",
            "3456789TJQKA",
            (("A2345", "2"), ("23456", "2")),
            "002 Variations: 3-7 < ... < 10-A < A-5 < 2-6, suit of 2 breaks ties (Malaysian variant)",
        ),
        StraightTable(
            "indonesia",
            "3456789TJQKA2",
            (),
            "002 Variations: 3-7 < ... < 10-A < J-Q-K-A-2 (Indonesian variant)",
        ),
        StraightTable(
            "two-low",
            "23456789TJQKA",
            (("A2345", "A"),),
            "002 Variations: 2-6 < 3-7 < ... < 10-A < A-5 (suit of A breaks ties)",
        ),
        StraightTable(
            "two-low-ace-top",
            "23456789TJQK",
            (("A2345", "A"), ("TJQKA", "A")),
            "002 Variations: 2-6 < 3-7 < ... < 9-K < A-5 < 10-A (suit of A breaks ties)",
        ),
        StraightTable(
            "no-twos",
            "3456789TJQKA",
            (),
            "002 Variations: 3-7 < ... < 10-A (Vietnamese variant); 003 section 4.4.1 (no 2 in a straight)",
        ),
        StraightTable(
            "twos-high",
            "3456789TJQKA2",
            (),
            "004 Zheng Shangyou: 2 is the highest card, J-Q-K-A-2 is a straight and 2-3-4-5-6 is not; "
            "001 BGA: highest rank wins, suit breaks ties",
        ),
        StraightTable(
            "ace-low-or-high",
            "A23456789TJQKA",
            (),
            "000 Valid Combinations: twos are low in a straight and aces high or low; "
            "A-2-3 is the lowest, K-A-2 is invalid",
        ),
    )
}
