"""Legal actions: what a hand may do facing a trick, under the ruleset's restrictions.

Shared by the round (``Game.legal_plays``) and by anything that knows only a seat's observation (bots,
environments), so both answer from one piece of code.
"""

from __future__ import annotations

from typing import Any

from bigtwo.cards import CARDS, DECK_SIZE, bits, to_mask
from bigtwo.combos.play import PASS, Play
from bigtwo.moves import HandIndex, all_combos
from bigtwo.rules.ruleset import Ruleset

_TWO = 12


def highest_card(ev: Any) -> int:
    """The highest card of a standard pack under these rules (what 'the 2S' means in end restrictions)."""
    return ev.highest_face


def last_play_reason(ev: Any, rule: str, p: Play) -> str | None:
    """Why ``p`` may not be a player's last play under ``last_play_forbidden`` = ``rule``; None if it may."""
    if rule == "none":
        return None
    cs = bits(p.mask)
    all_twos = all(ev.rank_of[c] == _TWO for c in cs)
    top = ev.highest_face
    if rule == "two-single-or-pair" and p.kind in ("single", "pair") and all_twos:
        return "you may not go out with a single 2 or a pair of 2s"
    if rule == "two-single" and p.kind == "single" and all_twos:
        return "you may not go out with a single 2"
    if rule == "highest-single" and p.kind == "single" and cs[0] % DECK_SIZE == top:
        return f"you may not go out with {CARDS[top]} as a single"
    if rule == "highest-card" and any(c % DECK_SIZE == top for c in cs):
        return f"you may not go out with a play containing {CARDS[top]}"
    return None


def answers(ev: Any, idx: HandIndex, top: Play) -> list[Play]:
    """Every play of the hand that beats ``top``: ordinary answers, then bombs."""
    if not ev.has_bombs:
        return idx.answers(top)
    if top.bomb:
        return [p for p in idx.bombs() if ev.beats(p, top)]
    out = idx.answers(top)
    out.extend(p for p in idx.bombs() if not ev.normally_beats(p, top) and ev.beats(p, top))
    return out


def legal_actions(
    ev: Any, idx: HandIndex, top: Play | None, required: int, forbid: str, must_answer: bool = False
) -> list[Play]:
    """The legal actions of a hand (as its index) facing ``top`` (None: leading); shared by Game and bots.

    ``must_answer`` drops the pass when the only answers are three 2s (the "three 3s" rule).
    """
    if top is None:
        plays = idx.containing(required) if required else list(idx.plays)
    else:
        plays = answers(ev, idx, top)
    if forbid != "none":
        hand = idx.hand
        plays = [p for p in plays if p.mask != hand or last_play_reason(ev, forbid, p) is None]
    if top is None:
        return plays if plays else [PASS]
    if must_answer and plays and all(p.kind == "triple" and p.value == _TWO for p in plays):
        return plays
    plays.append(PASS)
    return plays


def legal_plays_from_observation(rules: Ruleset, obs: dict[str, Any]) -> list[Play]:
    """The legal actions of the observing seat, from its observation alone (empty when not its turn)."""
    if obs.get("is_over") or obs.get("to_move") != obs["seat"]:
        return []
    ev = rules.engine_for(obs["players"])
    hand = to_mask(obs["hand"])
    idx = HandIndex.build(ev, hand)
    trick = obs.get("trick")
    top = ev.classify(_other_copies(to_mask(trick["cards"]), hand)) if trick else None
    required = _own_copies(to_mask(obs["required_card"]), hand) & hand if obs.get("required_card") else 0
    return legal_actions(ev, idx, top, required, rules.last_play_forbidden, bool(obs.get("must_answer")))


def _own_copies(mask: int, hand: int) -> int:
    """With two decks, notation names the first copy: prefer the copy ``hand`` holds (tricks: :func:`_other_copies`)."""
    for i in bits(mask):
        alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
        if not hand >> i & 1 and hand >> alt & 1 and not mask >> alt & 1:
            mask = (mask & ~(1 << i)) | (1 << alt)
    return mask


def _other_copies(mask: int, hand: int) -> int:
    """With two decks, cards on the table are not in ``hand``: a card the hand holds is the other copy there."""
    for i in bits(mask & hand):
        alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
        if not mask >> alt & 1:
            mask = (mask & ~(1 << i)) | (1 << alt)
    return mask


def fewest_to_beat(ev: Any, pool: int, top: Play) -> int:
    """Fewest cards of a combination drawn from ``pool`` that beats ``top`` (a large number if none can).

    Kinds are tried strongest first and sizes smallest first, so the usual answer is found at once; only a
    play near the top of its class makes the search exhaust its class.
    """
    sizes = sorted({top.size} | set(ev.bomb_sizes))
    best = 1 << 30
    for size in sizes:
        if size >= best:
            break
        for kind in ev.kinds_by_size.get(size, ()):
            for p in all_combos(ev, pool, frozenset((size,)), kinds=frozenset((kind,))):
                if ev.beats(p, top):
                    best = size
                    break
            if best <= size:
                break
    return best
