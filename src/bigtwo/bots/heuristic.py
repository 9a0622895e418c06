"""The heuristic player: plan the hand, play from the plan, keep control, defend against a short hand.

Every legal action gets a score from the seat's :class:`~bigtwo.bots.view.SeatView` alone:

- the hand is planned as a partition into combinations (:mod:`bigtwo.bots.plan`); a combination nobody can
  beat with the cards still unseen (a *control*: the top single, the top pair, ...) costs nothing, any
  other costs about one lead; an action scores by how much cheaper it leaves the plan;
- leads come from the plan, weakest first, bigger combinations slightly first; with at most one weak
  combination left it cashes its controls and then goes out;
- on a trick it plays the cheapest plan combination that beats it, keeps its controls unless winning the
  lead lets it run out, and does not break a combination for nothing;
- it sheds cards faster as the shortest opponent hand shrinks (cards left are points lost);
- when an opponent is down to one to three cards it stops leading what they could follow, and answers high;
- it contests the lead when it is losing the race: a plan kept whole is worth nothing if an opponent goes out
  before this seat leads again, so a pass costs more the fewer cards the shortest opponent holds and the more
  this seat would be left holding (``contest=False`` plays the policy from before this rule, for comparison).

The weights were set by playing against ``greedy`` and itself on deals apart from the strength benchmark's.

The same :class:`HeuristicPolicy` drives the search bot's rollouts.
"""

from __future__ import annotations

import weakref
from typing import Any

from bigtwo.actions import Action, Give, Must
from bigtwo.bots.base import BaseBot
from bigtwo.bots.fitted import weights_for
from bigtwo.bots.heuristic_weights import DEFAULT_WEIGHTS, HeuristicWeights
from bigtwo.bots.plan import SAME_RANK, STRANDED, Plan, planner_for
from bigtwo.bots.registry import register
from bigtwo.bots.view import HistoryCache, SeatView, engine_of, view_from_observation
from bigtwo.cards import JOKER_RANK, bits, fold_copies
from bigtwo.combos.evaluator import RUN_WIDTH, SUIT_SLOTS
from bigtwo.combos.play import Play
from bigtwo.moves import all_combos
from bigtwo.observation import Observation
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset

WIN = 100.0  # going out
DEFEND_AT = 3  # an opponent with this many cards or fewer is about to go out
URGENT_AT = 8  # the urgency of shedding cards grows as the shortest opponent hand shrinks from this many to one
MAX_BREAKING = 24  # answers outside the plan scored at most (the lowest and highest halves)
CONTEST_AT = 5  # the urgency of contesting the lead grows to 1 as the shortest opponent hand shrinks from this many


#: the heuristic bot's ``weights=``: its own, those fitted to the search's choices or those tuned for points
#: (:mod:`bigtwo.bots.fitted`)
WEIGHT_SETS = ("default", "fitted", "tuned")


class _Unseen:
    """What the unseen cards could make: the best key of a same-rank play of each size, their count, and
    (asked for only when needed) the strongest bomb of each kind and size."""

    __slots__ = ("_below", "_bombs", "count", "ev", "mask", "top_key")

    def __init__(self, ev: Any, unseen: int, tables: tuple[list[list[int]], list[int]]):
        top_of, popc = tables
        best = [-1] * 9
        m = unseen
        for r in range(13):  # the 52 ranked cards of the first deck: four bits a rank
            pat = m & 15
            m >>= 4
            if pat:
                top = top_of[r][pat]
                for size in range(1, popc[pat] + 1):
                    if top > best[size]:
                        best[size] = top
        if m:  # jokers and a second deck: count them card by card
            rank_of, power = ev.rank_of, ev.power
            cnt: dict[int, int] = {}
            tops: dict[int, int] = {}
            for c in bits(unseen):
                r = rank_of[c]
                cnt[r] = cnt.get(r, 0) + 1
                tops[r] = max(tops.get(r, -1), power[c])
            best = [-1] * 9
            for r, k in cnt.items():
                for size in range(1, min(k, 8) + 1):
                    best[size] = max(best[size], tops[r])
            wild = cnt.pop(JOKER_RANK, 0) if ev.wild else 0
            for r, k in cnt.items():  # a wild joker joins any rank, above its natural cards
                for size in range(k + 1, min(k + wild, 8) + 1):
                    best[size] = max(best[size], r * SUIT_SLOTS + SUIT_SLOTS - 1)
        self.top_key = best
        self.count = unseen.bit_count()
        self.mask = unseen
        self.ev = ev
        self._below: dict[int, float] = {}
        self._bombs: list[Play] | None = None

    def bomb_beats(self, p: Play, most: int) -> bool:
        """Some bomb of at most ``most`` unseen cards beats ``p``."""
        if self._bombs is None:
            self._bombs = strongest_bombs(self.ev, self.mask)
        beats = self.ev.beats
        return any(b.size <= most and beats(b, p) for b in self._bombs)

    def share_below(self, key: int) -> float:
        """The share of unseen cards with a lower power than ``key``."""
        got = self._below.get(key)
        if got is None:
            power = self.ev.power
            got = sum(1 for c in bits(self.mask) if power[c] < key) / self.count if self.count else 1.0
            self._below[key] = got
        return got


# the most cards of one rank a combination of these kinds holds: the strongest of them is among the strongest
# cards of each rank, so bombs are looked for in that much smaller pool (pair straights would run to tens of
# thousands of suit choices in the full one)
_PER_RANK = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3, Kind.QUAD: 4, Kind.FOUR_OF_A_KIND: 4, Kind.FIVE_OF_A_KIND: 5}
_PER_RANK.update(RUN_WIDTH)


def _strongest_per_rank(ev: Any, pool: int, k: int) -> int:
    """The ``k`` strongest cards of each rank in ``pool`` (wild jokers all kept: they join any rank)."""
    rank_of, power = ev.rank_of, ev.power
    by_rank: dict[int, list[int]] = {}
    for c in bits(pool):
        by_rank.setdefault(rank_of[c], []).append(c)
    out = pool & ev.joker_mask if ev.wild else 0
    for r, cs in by_rank.items():
        if r == JOKER_RANK and ev.wild:
            continue
        cs.sort(key=lambda c: power[c], reverse=True)
        for c in cs[:k]:
            out |= 1 << c
    return out


def strongest_bombs(ev: Any, pool: int) -> list[Play]:
    """The strongest bomb of each bomb kind and size that cards of ``pool`` make (what could beat a play
    from outside its own class)."""
    best: dict[int, Play] = {}
    for kind, length, _targets in ev.bomb_rules:
        sizes = [n for n, kinds in ev.kinds_by_size.items() if kind in kinds]
        if length is not None:
            sizes = [n for n in sizes if n == length * RUN_WIDTH.get(kind, 1)]
        if not sizes:
            continue
        k = _PER_RANK.get(kind)
        src = pool if k is None else _strongest_per_rank(ev, pool, k)
        for b in all_combos(ev, src, frozenset(sizes)):
            if b.kind == kind and b.bomb:
                slot = b.bomb >> 32  # the bomb rule and size
                if slot not in best or b.bomb > best[slot].bomb:
                    best[slot] = b
    return list(best.values())


def _plays(n: int) -> str:
    return f"{n} play" if n == 1 else f"{n} plays"


def _rank_tables(ev: Any) -> tuple[list[list[int]], list[int]]:
    """For each rank and 4-bit suit pattern: the highest power among those cards; and pattern sizes."""
    power = ev.power
    top_of = [
        [max((power[r * 4 + s] for s in range(4) if pat >> s & 1), default=-1) for pat in range(16)] for r in range(13)
    ]
    return top_of, [pat.bit_count() for pat in range(16)]


class HeuristicPolicy:
    """Scores the legal actions of a :class:`SeatView` (deterministic; shared with search rollouts).

    ``contest``: contest the lead when losing the race (the default); False scores as the policy did before.
    ``weights``: what each consideration is worth (:class:`HeuristicWeights`).
    """

    def __init__(self, ev: Any, contest: bool = True, weights: HeuristicWeights = DEFAULT_WEIGHTS):
        self.ev = ev
        self.contest = contest
        self.weights = weights
        self.rules = ev.rules
        self.planner = planner_for(ev)
        self._tables = _rank_tables(ev)
        self.has_bombs = bool(ev.has_bombs)

    # --- what the cards are worth now ----------------------------------------------------------------
    def is_control(self, p: Play, view: SeatView, unseen: _Unseen, most: int) -> bool:
        """Nobody can beat ``p``: no opponent holds that many cards, or the unseen cards cannot top it (with a
        play of its class, which for anything but a group of one rank is judged only by the count of unseen
        cards, or with a bomb)."""
        if p.bomb:
            return not unseen.bomb_beats(p, most)  # only a higher bomb beats a bomb
        if p.size > most:
            ordinary = True
        elif p.kind in SAME_RANK:
            ordinary = p.key > unseen.top_key[p.size]
        else:
            ordinary = unseen.count < p.size
        return ordinary and not (self.has_bombs and unseen.bomb_beats(p, most))

    def strength_now(self, p: Play, unseen: _Unseen, control: bool) -> float:
        """0-1: for a single, the share of unseen cards below it; else the static strength."""
        if control:
            return 1.0
        if p.kind == Kind.SINGLE:
            return unseen.share_below(p.key)
        return self.planner.strength(p)

    def pass_risk(self, view: SeatView, least: int) -> float:
        """What a pass risks when the shortest opponent hand (``least`` cards) may go out before this seat
        leads again: every card held is then lost, the likelier the fewer cards that opponent holds. A plan
        kept whole is worth nothing if it is never led (0 when ``contest`` is off)."""
        if not self.contest or least > CONTEST_AT:
            return 0.0
        return self.weights.contest * (CONTEST_AT + 1 - least) / CONTEST_AT * view.hand.bit_count()

    def _weights(self, plan: Plan, view: SeatView, unseen: _Unseen, most: int, memo: dict) -> tuple[float, int]:
        """(plan value: minus the cost of its beatable combinations, number of beatable combinations)."""
        value = -STRANDED * plan.stranded.bit_count()
        keep = self.weights.control_value
        weak = 0
        cost = self.planner.cost
        for c in plan.combos:
            ctl = memo.get(c.mask)
            if ctl is None:
                ctl = self.is_control(c, view, unseen, most)
                memo[c.mask] = ctl
            if ctl:
                value += keep
            else:
                value -= cost(c)
                weak += 1
        return value, weak

    # --- choosing ------------------------------------------------------------------------------------
    def scores(self, view: SeatView, parent: int = 0) -> list[tuple[float, Play]]:
        """Every legal action with its score, best first (ties: the engine's order, pass last)."""
        legal = view.legal
        if len(legal) == 1:
            return [(0.0, legal[0])]
        planner = self.planner
        plan = planner.plan(view.hand, parent)
        unseen = _Unseen(self.ev, view.unseen, self._tables)
        opp_sizes = [view.sizes[s] for s in view.opponents]
        most = max(opp_sizes, default=0)
        least = min(opp_sizes, default=99)
        memo: dict[int, bool] = {}
        value, weak = self._weights(plan, view, unseen, most, memo)
        in_plan = {c.mask for c in plan.combos}
        leading = view.top is None
        cost = planner.cost
        # shedding cards matters more the closer an opponent is to going out
        ramp = max(0.0, (URGENT_AT - least) / (URGENT_AT - 1)) if URGENT_AT > 1 else 0.0
        w = self.weights
        dump = w.dump + w.dump_urgent * ramp

        # a lead comes from the plan (any legal lead if none of the plan's combinations may be led)
        cands = ([p for p in legal if p.mask in in_plan] or legal) if leading else self._answers(legal, in_plan)
        risk = 0.0 if leading else self.pass_risk(view, least)
        out = []
        for i, a in enumerate(cands):
            if a.is_pass:
                out.append((w.pass_score - risk, -1, a))  # a pass wins ties
                continue
            if a.mask == view.hand:
                out.append((WIN, i, a))
                continue
            ctl = memo.get(a.mask)
            if ctl is None:
                ctl = self.is_control(a, view, unseen, most)
                memo[a.mask] = ctl
            if a.mask in in_plan:
                gain = -w.control_value if ctl else cost(a)
                weak_after = weak - (0 if ctl else 1)
            else:
                after = plan.without(a.mask, planner)
                v2, weak_after = self._weights(after, view, unseen, most, memo)
                gain = v2 - value
            sc = gain + a.size * dump
            if leading:
                sc += w.size_bonus * (a.size - 1) / 4
                if ctl and weak <= 1:
                    sc += w.cash_controls
                if not ctl and a.size <= 2 and least <= a.size:
                    # an opponent could go out on it: lead something else, or the highest you have
                    pen = w.short_lead_single if a.size == 1 else w.short_lead_pair
                    sc -= pen - self.strength_now(a, unseen, ctl)
            else:
                if not ctl and least > DEFEND_AT:
                    st = planner.strength(a)
                    if st > w.high_from:
                        sc -= w.high_spend * (st - w.high_from) / (1 - w.high_from)
                if ctl and weak_after <= 1:
                    sc += w.take_lead
                if least <= DEFEND_AT:
                    sc += w.defend + w.defend_high * self.strength_now(a, unseen, ctl)
            out.append((sc, i, a))
        out.sort(key=lambda t: (-t[0], t[1]))
        return [(sc, a) for sc, _i, a in out]

    @staticmethod
    def _answers(legal: list[Play], in_plan: set[int]) -> list[Play]:
        """The answers worth scoring: the plan's, a pass, and of those that break the plan (each costs a
        regrouping) the lowest and the highest few when a big hand holds very many (five-card answers)."""
        breaking = [p for p in legal if p.mask and p.mask not in in_plan]
        if len(breaking) <= MAX_BREAKING:
            return legal
        half = MAX_BREAKING // 2
        keep = {p.mask for p in breaking[:half]} | {p.mask for p in breaking[-half:]}
        return [p for p in legal if not p.mask or p.mask in in_plan or p.mask in keep]

    def act(self, view: SeatView, parent: int = 0) -> Play:
        if len(view.legal) == 1:
            return view.legal[0]
        return self.scores(view, parent)[0][1]

    def reason(self, view: SeatView, play: Play) -> str:
        """Why ``play`` suits this position, in a few words (for a player asking for a hint)."""
        if len(view.legal) == 1:
            return "the only legal action" if play.mask else "nothing in your hand may be played"
        if play.mask == view.hand:
            return "it goes out"
        planner = self.planner
        plan = planner.plan(view.hand)
        unseen = _Unseen(self.ev, view.unseen, self._tables)
        most = max((view.sizes[s] for s in view.opponents), default=0)
        shortest = min(view.opponents, key=lambda s: view.sizes[s], default=None)
        parts = []
        if play.is_pass:
            parts.append(f"keeps your plan whole: {_plays(len(plan.combos))} to go out")
        else:
            after = plan.without(play.mask, planner)
            in_plan = any(c.mask == play.mask for c in plan.combos)
            lead = "a lead" if view.top is None else "an answer"
            k = view.sizes[shortest] if shortest is not None else 99
            if view.top is not None and not in_plan and self.pass_risk(view, k):
                parts.append("contests the lead before an opponent goes out: a plan never led is worth nothing")
            else:
                parts.append(f"{lead} from your plan" if in_plan else f"{lead} that regroups your hand")
            if self.is_control(play, view, unseen, most):
                parts.append("nobody can beat it with the cards still out")
            parts.append(f"then {_plays(len(after.combos) + after.stranded.bit_count())} to go out")
        if shortest is not None and view.sizes[shortest] <= max(DEFEND_AT, CONTEST_AT if self.contest else 0):
            k = view.sizes[shortest]
            parts.append(f"seat {shortest} has only {k} card{'s' if k > 1 else ''} left")
        return "; ".join(parts)

    # --- exchanges -----------------------------------------------------------------------------------
    def giveaway_order(self, hand: int, unseen_mask: int, sizes: tuple[int, ...], seat: int) -> list[int]:
        """The hand's cards, least useful to its plan first (giving one away costs the plan least)."""
        planner = self.planner
        plan = planner.plan(hand)
        n = len(sizes)
        view = SeatView(seat, n, hand, None, -1, sizes, unseen_mask, 0, [], ())
        unseen = _Unseen(self.ev, unseen_mask, self._tables)
        most = max((k for s, k in enumerate(sizes) if s != seat), default=hand.bit_count())
        memo: dict[int, bool] = {}
        value, _ = self._weights(plan, view, unseen, most, memo)
        power = self.ev.power
        keyed = []
        for c in bits(hand):
            v2, _ = self._weights(plan.without(1 << c, planner), view, unseen, most, memo)
            keyed.append((-(v2 - value), power[c], c))
        keyed.sort()
        return [c for _l, _p, c in keyed]


_POLICIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def policy_for(ev: Any, contest: bool = True, weights: HeuristicWeights = DEFAULT_WEIGHTS) -> HeuristicPolicy:
    """The heuristic policy for one evaluator (``rules.engine_for(players)``), built once (per ``contest`` and
    ``weights``)."""
    kinds = _POLICIES.get(ev)
    if kinds is None:
        kinds = _POLICIES[ev] = {}
    p = kinds.get((contest, weights))
    if p is None:
        p = kinds[(contest, weights)] = HeuristicPolicy(ev, contest, weights)
    return p


def best_distinct(ranked: list[tuple[float, Play]], count: int) -> list[Play]:
    """The first ``count`` plays of ``ranked`` (best first) that differ up to deck copies: with two decks the
    engine lists each copy's set, which is one play to a player, and a search spends no two of its few
    candidates on it (the better ranked copy stays). The first ``count`` for one deck."""
    out: list[Play] = []
    seen: set[int] = set()
    for _s, p in ranked:
        if len(out) >= count:
            break
        key = fold_copies(p.mask)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def best_and_pass(ranked: list[tuple[float, Play]], count: int) -> list[Play]:
    """The moves a search weighs at a seat: its heuristic's best ``count`` distinct plays of ``ranked`` (best
    first, :func:`best_distinct`), and the pass when it is legal and not among them."""
    best = best_distinct(ranked, count)
    if any(p.is_pass for p in best):
        return best
    return best + [p for _s, p in ranked if p.is_pass]


def search_candidates(ranked: list[tuple[float, Play]], count: int) -> list[Play]:
    """What ``search`` chooses among, given its heuristic's ``ranked`` actions: the best alone when it goes out,
    else the best ``count`` and the pass (:func:`best_and_pass`)."""
    if ranked[0][0] >= WIN:
        return [ranked[0][1]]
    return best_and_pass(ranked, count)


@register("heuristic")
class HeuristicBot(BaseBot):
    """Plans its hand, plays from the plan, keeps control, defends against short hands (deterministic)."""

    name = "heuristic"
    words = "Plans its hand into combinations and plays from the plan, keeping control; answers at once."

    def __init__(self, seed: int | None = None, contest: bool = True, weights: str = "default"):
        super().__init__(seed)
        if weights not in WEIGHT_SETS:
            raise ValueError(f"weights {weights!r} is not one of {', '.join(WEIGHT_SETS)}")
        self.contest = bool(contest)  # False: the policy before it contested the lead (benchmarks compare)
        self.weights = weights
        self._history = HistoryCache()
        self._last_hand = 0  # the hand at the last decision: its plan's work is reused (same result, faster)

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        legal = self.legal(rules, observation)
        if len(legal) == 1:
            return legal[0]
        view = view_from_observation(rules, observation, legal, self._history)
        play = self._policy(rules, observation).act(view, self._last_hand)
        self._last_hand = view.hand
        return play

    def _policy(self, rules: Ruleset, observation: Observation) -> HeuristicPolicy:
        weights = DEFAULT_WEIGHTS
        if self.weights != "default":
            weights = weights_for(self.weights, rules, observation.players)
        return policy_for(engine_of(rules, observation), self.contest, weights)

    def exchange_order(self, rules: Ruleset, observation: Observation, hand: int) -> list[int]:
        return giveaway_order(rules, observation, hand)

    def explain(self, rules: Ruleset, observation: Observation) -> tuple[Action, str]:
        """This bot's choice and why, in words (the table's hint): ``(choice, reason)``, the choice being what
        :meth:`choose` returns."""
        obs = observation
        d = obs.decision
        if d is not None:
            choice = self.choose(rules, obs)
            any_cards = isinstance(d, Give) and d.must == Must.ANY
            why = "the cards your hand's plan needs least" if any_cards else "as the rules ask"
            if d.at_deal:
                why = "a plain bot keeps the deal it has"
            return choice, why
        legal = self.legal(rules, obs)
        view = view_from_observation(rules, obs, legal)
        policy = self._policy(rules, obs)
        play = policy.act(view)
        return play, policy.reason(view, play)


def giveaway_order(rules: Ruleset, observation: Observation, hand: int) -> list[int]:
    """The hand's cards, the ones its plan needs least first (for exchanges where any cards may be given)."""
    ev = engine_of(rules, observation)
    unseen = ev.pack & ~hand & ~observation.played
    sizes = observation.hand_sizes or (hand.bit_count(),)
    return policy_for(ev).giveaway_order(hand, unseen, sizes, observation.seat or 0)


__all__ = [
    "DEFAULT_WEIGHTS",
    "HeuristicBot",
    "HeuristicPolicy",
    "HeuristicWeights",
    "best_and_pass",
    "giveaway_order",
    "policy_for",
    "search_candidates",
]
