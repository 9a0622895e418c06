"""Legal actions: what a hand may do facing a trick, under the ruleset's restrictions.

One rule for everyone: the round (``Game.legal_plays``) and everything that knows only a seat's observation
(bots, environments, the tables, the server) call :func:`hand_actions`, so they cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bigtwo import native
from bigtwo.cards import CARDS, DECK_SIZE, TWO, bits, fold_copies
from bigtwo.combos.play import PASS, Play
from bigtwo.moves import HandIndex, all_combos
from bigtwo.observation import Observation, Phase
from bigtwo.rules.choices import LastPlayForbidden
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from bigtwo.combos.evaluator import Evaluator


def highest_card(ev: Evaluator) -> int:
    """The highest card of a standard pack under these rules (what 'the 2S' means in end restrictions)."""
    return ev.highest_face


def last_play_reason(ev: Evaluator, rule: str, p: Play) -> str | None:
    """Why ``p`` may not be a player's last play under ``last_play_forbidden`` = ``rule``; None if it may."""
    if rule == LastPlayForbidden.NONE:
        return None
    cs = bits(p.mask)
    all_twos = all(ev.rank_of[c] == TWO for c in cs)
    top = ev.highest_face
    if rule == LastPlayForbidden.TWO_SINGLE_OR_PAIR and p.kind in (Kind.SINGLE, Kind.PAIR) and all_twos:
        return "you may not go out with a single 2 or a pair of 2s"
    if rule == LastPlayForbidden.TWO_SINGLE and p.kind == Kind.SINGLE and all_twos:
        return "you may not go out with a single 2"
    if rule == LastPlayForbidden.HIGHEST_SINGLE and p.kind == Kind.SINGLE and cs[0] % DECK_SIZE == top:
        return f"you may not go out with {CARDS[top]} as a single"
    if rule == LastPlayForbidden.HIGHEST_CARD and any(c % DECK_SIZE == top for c in cs):
        return f"you may not go out with a play containing {CARDS[top]}"
    return None


def answers(ev: Evaluator, idx: HandIndex, top: Play) -> list[Play]:
    """Every play of the hand that beats ``top``: ordinary answers, then bombs."""
    if ev.has_bombs and top.bomb:
        return [p for p in idx.bombs() if ev.beats(p, top)]
    out = idx.answers(top)
    if ev.valueless and top.kind == Kind.SINGLE and idx.hand & ev.joker_mask:
        # valueless jokers answer any single and any single answers them (002 Joker rules): they come first,
        # being the lowest singles
        out = [p for p in idx.jokers() if p.mask != top.mask] + [p for p in out if not p.mask & ev.joker_mask]
    if ev.has_bombs:
        out.extend(p for p in idx.bombs() if not ev.normally_beats(p, top) and ev.beats(p, top))
    return out


def hand_actions(
    ev: Evaluator,
    idx: HandIndex,
    top: Play | None,
    required: int,
    forbid: str,
    must_answer: bool = False,
    lead_elsewhere: bool = False,
    must_play: bool = False,
) -> list[Play]:
    """The legal actions of a hand (as its index) facing ``top`` (None: leading): plays lowest first, then
    ``Play.PASS`` where it is allowed.

    ``required``: a card of the hand the play must contain (the first lead); ``lead_elsewhere``: the first
    play must contain a card this hand does not hold, so it can only pass. ``must_answer`` drops the pass when
    the only answers are three 2s (the "three 3s" rule); ``must_play`` drops it whenever there is an answer (a
    Horse Game hand looked at).
    """
    if top is None:
        if lead_elsewhere:
            return [PASS]
        plays = idx.containing(required) if required else list(idx.plays)
    else:
        plays = answers(ev, idx, top)
    if forbid != LastPlayForbidden.NONE:
        hand = idx.hand
        plays = [p for p in plays if p.mask != hand or last_play_reason(ev, forbid, p) is None]
    if top is None:
        return plays if plays else [PASS]
    if must_answer and plays and all(p.kind == Kind.TRIPLE and p.value == TWO for p in plays):
        return plays
    if must_play and plays:
        return plays
    plays.append(PASS)
    return plays


def legal_plays_from_observation(
    rules: Ruleset, obs: Observation, index: HandIndex | None = None, *, compiled: bool = True
) -> list[Play]:
    """The legal plays of the observing seat, from its observation alone (empty when it is not to play).

    Equal to the state's own ``legal_plays()`` in every position. ``index``, a hand index kept from an earlier
    decision under the same rules, is reused (filtered when cards have left the hand) instead of rebuilt. Where
    the compiled core covers the rules it lists them (``compiled=False``: the Python engine, the reference).
    """
    if obs.is_over or obs.phase != Phase.PLAY or obs.to_move != obs.seat:
        return []
    ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
    if compiled and not obs.must_play and native.available() and native.covers(rules):
        return _compiled_plays(ev, obs)
    idx = hand_index(ev, obs.hand, index)
    return hand_actions(
        ev,
        idx,
        obs.trick,
        obs.required,
        rules.last_play_forbidden,
        obs.must_answer,
        obs.lead_elsewhere,
        must_play=obs.must_play,
    )


def _compiled_plays(ev: Evaluator, obs: Observation) -> list[Play]:
    """:func:`legal_plays_from_observation` by the compiled core: a round holding only the observer's hand, set
    at the observed trick (the other hands matter only as seats still in play, which the observation tells)."""
    n, seat, hand = obs.players, obs.seat, obs.hand
    assert seat is not None
    hands = [0] * n
    hands[seat] = hand
    active = 0
    for s, size in enumerate(obs.hand_sizes):
        if size:
            active |= 1 << s
    top = obs.trick
    if top is None:
        required = obs.required
        if obs.lead_elsewhere:  # the first lead must hold a card elsewhere: any card outside the hand says so
            outside = ev.pack & ~hand
            required = outside & -outside
        r = native.core().Round.from_state(
            native.tables(ev), hands, seat, None, -1, 0, 0, required, active, list(obs.finished), 0
        )
    else:
        # the three-3s rule reads whether the trick's play opened it (one action since): the observation says
        # whether the rule binds this seat, and so does a count of 1 or 2
        opened = 1 if obs.must_answer else 2
        r = native.core().Round.from_state(
            native.tables(ev), hands, seat, top.mask, obs.trick_seat, 0, 0, 0, active, list(obs.finished), opened
        )
    plays = native.plays_of(ev)
    got: list[Play] | None = r.legal_objects(plays)
    if got is None:
        got = []
        for m in r.legal_masks():
            p = plays.get(m)
            if p is None:
                p = plays[m] = native.play_of(ev, m)
            got.append(p)
    return got


def pass_decided(
    ev: Evaluator, hand: int, top: Play | None, required: int, must_answer: bool, must_play: bool, lead_elsewhere: bool
) -> bool | None:
    """Whether a hand may pass (the arguments as :func:`hand_actions` takes them), where the rules decide it
    without its plays; None where only the list of them can tell.

    Facing a trick, a pass is always allowed but under the rules that oblige an answer; leading, it is allowed
    only when no lead is, and a hand of two or more cards can always lead a single (the last-play restrictions
    forbid only a play of the whole hand)."""
    if top is not None:
        return None if must_answer or must_play else True
    if lead_elsewhere:
        return True
    if hand.bit_count() >= 2 and required.bit_count() <= 1 and required & ~hand == 0:
        lead = required or hand & -hand  # the card a single lead must be, or the hand's lowest
        if ev.classify(lead) is not None:
            return False
    return None


def pass_is_legal(rules: Ruleset, obs: Observation) -> bool:
    """Whether the observing seat may pass now: what :func:`legal_plays_from_observation` says, without listing
    the plays where the rules decide it alone (:func:`pass_decided`). A table asks this at every turn to offer
    the pass, and a hand of 26 cards can hold tens of thousands of plays."""
    if obs.is_over or obs.phase != Phase.PLAY or obs.to_move != obs.seat or obs.decision is not None:
        return False  # (a decision of the turn, such as a look at a face-down hand, is answered in words)
    ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
    decided = pass_decided(ev, obs.hand, obs.trick, obs.required, obs.must_answer, obs.must_play, obs.lead_elsewhere)
    if decided is not None:
        return decided
    return any(p.is_pass for p in legal_plays_from_observation(rules, obs))


def hand_index(ev: Evaluator, hand: int, previous: HandIndex | None = None) -> HandIndex:
    """The index of ``hand``: ``previous`` filtered when the hand has only lost cards since, else built anew
    (between draws from a stock hands only shrink, so a bot's last index usually serves)."""
    if previous is None or previous.ev is not ev or hand & ~previous.hand:
        return HandIndex.build(ev, hand)
    if previous.hand != hand:
        return previous.without(previous.hand & ~hand)
    return previous


def fewest_to_beat(ev: Evaluator, pool: int, top: Play) -> int:
    """Fewest cards of a combination drawn from ``pool`` that beats ``top`` (a large number if none can).

    Sizes are tried smallest first, each listed whole (every kind of that size: a listing of fewer kinds would
    read a set of cards as a lesser kind than it is), so the usual answer is found at the first size.
    """
    for size in sorted({top.size} | set(ev.bomb_sizes)):
        if any(ev.beats(p, top) for p in all_combos(ev, pool, frozenset((size,)))):
            return size
    return 1 << 30


def distinct_plays(plays: list[Play]) -> list[Play]:
    """The plays as a player tells them apart: with two decks, sets that differ only in which copy of a card they
    hold are one play (the first listed stays); the identity for one deck. The engine lists each copy's set
    (the cards are distinct objects in the hands), the tables show each play once."""
    seen: set[int] = set()
    out = []
    for p in plays:
        key = fold_copies(p.mask)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
