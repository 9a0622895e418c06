"""The heuristic's weights: what each consideration of its score is worth, in a module of their own so that the
shipped alternatives (:mod:`bigtwo.bots.fitted`) and the heuristic both read them without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class HeuristicWeights:
    """What each consideration of a score is worth (the defaults: the heuristic's own, set by playing against
    ``greedy`` and itself; :mod:`bigtwo.lab.fitting` refits them to another bot's choices)."""

    size_bonus: float = 0.1  # on a lead, a bigger combination (more cards gone) by a little
    cash_controls: float = 2.0  # lead a control first when at most one weak combination is left
    take_lead: float = 1.5  # win a trick with a control when the rest of the plan can then run out
    short_lead_single: float = 3.0  # penalty: leading a beatable single to an opponent with one card
    short_lead_pair: float = 1.0  # penalty: leading a beatable pair to an opponent with two cards
    defend: float = 0.5  # bonus for answering at all when an opponent is about to go out
    defend_high: float = 1.5  # ... plus this much times the answer's strength
    dump: float = 0.1  # per card played: cards left in hand are points lost when someone else goes out
    dump_urgent: float = 0.5  # per card played, extra, growing from 0 to this as the shortest hand shrinks
    pass_score: float = 0.0
    control_value: float = 0.3  # a control is worth this much kept: it wins a trick back and with it a lead
    high_spend: float = 1.0  # penalty: answering with a high card that others can still beat (a way back in)
    high_from: float = 0.5  # static strength above which a card counts as high
    contest: float = 1.0  # a pass costs this much a card held, times the urgency, when an opponent may go out first

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HeuristicWeights:
        """Weights from a mapping of field names (unknown names refused, missing ones the defaults)."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"heuristic weights: unknown {', '.join(unknown)}; known: {', '.join(sorted(names))}")
        return cls(**{k: float(v) for k, v in data.items()})


DEFAULT_WEIGHTS = HeuristicWeights()
