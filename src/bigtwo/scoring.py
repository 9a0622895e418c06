"""Per-round payments under every scoring system the rule texts describe.

Pure functions of a finished round (:class:`RoundOutcome`), so a single game, a match and a replay all score
the same way. Systems (``rules.scoring``):

- ``encyclopedia`` (002 Scoring): each loser pays the winner 1 point a card left, x2 from the ``double_at``
  threshold (10 of 13, 12 of 17), x3 when they played no card. Optional doubles that stack
  (``double_unused_twos``, ``double_unused_bombs``, ``double_finishing_play``).
- ``winner`` (000 Scoring): the same -1/-2/-3 a card, counted when the winner goes out; play goes on only to
  find the loser (for the next round's exchange), so later plays do not change the payments.
- ``twos-count-double`` (002 Scoring, "an alternative ... deduct one point per remaining card, ... double the
  count for each unused 2's"): 1 a card, every 2 left counting twice.
- ``face-value`` (pusoy dos): cards left by face value, 10 and faces 10, paid to the winner.
- ``bga`` (001): ``bga_mode`` cumulative penalties / winner takes all / pay to higher ranks, ``bga_base``
  1 a card / sum of ranks / one point, ``bga_multiplier`` by cards left.
- ``ranking``: finishing order only, no points.
- ``teams`` (002 Team play): the team holding fewer cards when someone goes out wins; a tie asks for a
  five-card shoot-out (the match plays it; ``RoundResult.team_tie`` says so).

Interpretations of ambiguous text (each tested):

- "double the count for each unused 2's" reads as: each 2 counts as two cards (not x2 per 2).
- Going out "by discarding a 2" means a last play holding a 2 (a 2 single, pair, or a hand with a 2 in it);
  a four of a kind counts with or without kicker; this double applies once, whatever the last play holds
  ("does not stack regardless of an ending hand").
- "unused Four-of-a-kinds or Straight Flushes": the most disjoint four-of-a-kinds and five-card straight
  flushes (as the rules' straight table allows them) a loser's hand holds; each doubles.
- BGA's "multiplied based on the number of cards left" uses the encyclopedia multipliers (x2 from the
  ``double_at`` threshold, x3 when no card was played). "Pay to higher ranks": each player pays its penalty to
  every player ranked above it; players tied on cards left share a rank and pay each other nothing.
- Face values: 3-9 their number, 10 J Q K 10, A 1, 2 2 (public pusoy dos rules: "Face cards ... and the Tens
  are given ten points. All other cards are given their face value"); a joker counts 15.
- Assistance penalty (002 "Penalty for assistance"): the winner went out with a single card that beat a single
  of player A in the same trick, and A held a single then that the winner's card would not have beaten. A pays
  what every loser owes (its own and theirs) and the other losers pay nothing; the winner's gain is unchanged.
  It does not apply to ranking, team or pay-to-higher-ranks scoring ("based on ranks").
- Last-card penalty (002 Variations): when the winner had not called "last card", the winner scores minus
  what every other player would have paid, and the others 0 (not zero-sum). The round reports who did not call
  in ``RoundOutcome.last_card_uncalled``.
- Team play scores +1 for each member of the winning team and -1 for each member of the other: the text says
  which team wins, not by how much.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bigtwo.cards import DECK_SIZE, TWO, bits
from bigtwo.rules.choices import BgaBase, BgaMode, Scoring
from bigtwo.rules.kinds import Kind
from bigtwo.vocabulary import Vocabulary


class Verdict(Vocabulary):
    """How a round decided at the deal ends for the seat whose hand decided it (a Malta dragon, four 2s)."""

    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"


_FACE_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1, 2)
_JOKER_FACE_VALUE = 15
TEAMS = ((0, 2), (1, 3))  # partners sit opposite


@dataclass(frozen=True)
class RoundOutcome:
    """What scoring needs to know about a finished round.

    The first four fields are enough for counting systems; the others (filled in by ``Game``) let systems
    look at the cards themselves, the last play, and the order of play.
    """

    finishing_order: tuple[int, ...]
    cards_left: tuple[int, ...]  # by seat
    dealt: tuple[int, ...]  # cards dealt, by seat
    played_any: tuple[bool, ...]  # by seat
    hands: tuple[int, ...] = ()  # cards left (bitmasks), by seat
    dealt_hands: tuple[int, ...] = ()  # cards the round started with (bitmasks), by seat
    history: tuple[tuple[int, int], ...] = ()  # every action as (seat, cards bitmask); 0 is a pass
    last_card_uncalled: tuple[int, ...] = ()  # seats that held one card without calling "last card"


@dataclass(frozen=True)
class RoundResult:
    """A finished round: who went out in what order, what everyone pays, and why."""

    finishing_order: list[int]
    scores: list[int]
    cards_left: list[int]
    details: list[str] = field(default_factory=list)
    team_tie: bool = False  # team play: the teams hold as many cards; a five-card shoot-out decides

    @property
    def winner(self) -> int:
        return self.finishing_order[0]

    @property
    def places(self) -> list[int]:
        """1-based place of each seat."""
        out = [0] * len(self.finishing_order)
        for place, seat in enumerate(self.finishing_order, 1):
            out[seat] = place
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "finishing_order": list(self.finishing_order),
            "scores": list(self.scores),
            "cards_left": list(self.cards_left),
            "details": list(self.details),
        }
        if self.team_tie:
            out["team_tie"] = True
        return out


def double_threshold(rules: Any, dealt: int) -> int:
    """Cards left from which a loser pays double; hand sizes the ruleset does not list scale from 10 of 13."""
    table = rules.double_at
    if dealt in table:
        return int(table[dealt])
    return math.ceil(dealt * 10 / 13)


def is_zero_sum(rules: Any) -> bool:
    """Whether every round's scores add up to zero under these rules."""
    if rules.teams:
        return True
    if rules.last_card_call:
        return False
    return bool(rules.payment_mode != BgaMode.CUMULATIVE)


def count_multiplier(rules: Any, left: int, dealt: int, played_any: bool) -> tuple[int, str]:
    """The encyclopedia's x1 / x2 / x3 for a loser's cards, with the reason in words."""
    if rules.triple_when_untouched and not played_any:
        return 3, "played no card"
    threshold = double_threshold(rules, dealt)
    if left >= threshold:
        return 2, f"{left} cards, at least {threshold}"
    return 1, f"{left} cards"


def cards_at_first_out(outcome: RoundOutcome) -> tuple[list[int], list[bool]]:
    """Cards left and whether each seat had played, at the moment the first player went out."""
    if not outcome.history or not outcome.dealt_hands:
        return list(outcome.cards_left), list(outcome.played_any)
    hands = list(outcome.dealt_hands)
    played = [False] * len(hands)
    for seat, mask in outcome.history:
        if mask:
            hands[seat] &= ~mask
            played[seat] = True
            if not hands[seat]:
                break
    return [h.bit_count() for h in hands], played


def unused_bombs(rules: Any, hand: int) -> int:
    """The most disjoint four-of-a-kinds and five-card straight flushes ``hand`` holds."""
    ev = rules.engine
    groups: list[int] = []
    by_rank: dict[int, int] = {}
    by_suit: dict[int, dict[int, int]] = {}
    for c in bits(hand):
        face = c % DECK_SIZE
        if face >= 52:
            continue
        r, s = face >> 2, face & 3
        by_rank[r] = by_rank.get(r, 0) | 1 << c
        by_suit.setdefault(s, {}).setdefault(r, 1 << c)
    for mask in by_rank.values():
        if mask.bit_count() >= 4:
            groups.append(_lowest_bits(mask, 4))
    if Kind.STRAIGHT_FLUSH in ev.enabled or Kind.ROYAL_FLUSH in ev.enabled:
        for ranks in ev.straights.get(5, {}):
            for cards in by_suit.values():
                if all(ranks >> r & 1 == 0 or r in cards for r in range(13)):
                    m = 0
                    for r in range(13):
                        if ranks >> r & 1:
                            m |= cards[r]
                    groups.append(m)
    return _max_disjoint(groups, 0)


def _lowest_bits(mask: int, k: int) -> int:
    out = 0
    for c in bits(mask)[:k]:
        out |= 1 << c
    return out


def _max_disjoint(groups: list[int], used: int) -> int:
    best = 0
    for i, g in enumerate(groups):
        if not g & used:
            best = max(best, 1 + _max_disjoint(groups[i + 1 :], used | g))
    return best


def twos_in(mask: int) -> int:
    return sum(1 for c in bits(mask) if c % DECK_SIZE < 52 and (c % DECK_SIZE) >> 2 == TWO)


def face_value(mask: int) -> int:
    total = 0
    for c in bits(mask):
        f = c % DECK_SIZE
        total += _JOKER_FACE_VALUE if f >= 52 else _FACE_VALUES[f >> 2]
    return total


def rank_sum(mask: int) -> int:
    """BGA's base by ranks: 3 = 1 ... 2 = 13 (a joker 14)."""
    return sum(min(c % DECK_SIZE >> 2, 13) + 1 for c in bits(mask))


def finishing_play(outcome: RoundOutcome) -> int:
    """The cards the winner went out with (0 when the round does not record plays)."""
    if not outcome.history:
        return 0
    winner = outcome.finishing_order[0]
    hand = outcome.dealt_hands[winner] if outcome.dealt_hands else None
    last = 0
    for seat, mask in outcome.history:
        if seat == winner and mask:
            last = mask
            if hand is not None:
                hand &= ~mask
                if not hand:
                    break
    return last


def finishing_play_doubles(rules: Any, mask: int) -> str | None:
    """Why going out with ``mask`` doubles the payments (002 Scoring), or None."""
    if not mask:
        return None
    if twos_in(mask):
        return "went out with a 2"
    p = rules.engine.classify(mask)
    kind = p.kind if p is not None else ""
    if kind in (Kind.FOUR_OF_A_KIND, Kind.QUAD):
        return "went out with a four of a kind"
    if kind in (Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH):
        return "went out with a straight flush"
    return None


def find_assister(rules: Any, outcome: RoundOutcome) -> int | None:
    """The seat that assisted the winner (002 Penalty for assistance), or None."""
    hist, dealt = outcome.history, outcome.dealt_hands
    if not hist or not dealt:
        return None
    winner = outcome.finishing_order[0]
    hands = list(dealt)
    out_at = None
    for i, (seat, mask) in enumerate(hist):
        if mask:
            hands[seat] &= ~mask
            if not hands[seat]:
                out_at = i if seat == winner else None
                break
    if out_at is None or hist[out_at][1].bit_count() != 1:
        return None
    j = out_at - 1
    while j >= 0 and not hist[j][1]:
        j -= 1
    if j < 0:
        return None
    a, a_mask = hist[j]
    if a == winner or a_mask.bit_count() != 1:
        return None
    # a pass by A after its own play means the trick had ended and A led again: the winner led, not answered
    if any(hist[k][0] == a for k in range(j + 1, out_at)):
        return None
    ev = rules.engine
    held = dealt[a]
    for seat, mask in hist[:j]:
        if seat == a:
            held &= ~mask
    last = ev.classify(hist[out_at][1])
    if last is None:
        return None
    for c in bits(held & ~a_mask):
        p = ev.classify(1 << c)
        if p is not None and ev.beats(p, last):
            return a
    return None


def score_round(rules: Any, outcome: RoundOutcome) -> RoundResult:
    n = len(outcome.cards_left)
    order = list(outcome.finishing_order)
    left = list(outcome.cards_left)
    if rules.teams:
        return _score_teams(outcome)
    if rules.scoring == Scoring.RANKING:
        return RoundResult(order, [0] * n, left, ["ranking only: no points"])
    winner = order[0]
    details: list[str] = []
    owed = _owed(rules, outcome, details)
    mode = rules.payment_mode
    if rules.assistance_penalty and mode != BgaMode.PAY_HIGHER:
        a = find_assister(rules, outcome)
        if a is not None:
            total = sum(owed[s] for s in range(n) if s != winner)
            details.append(
                f"seat {a} assisted seat {winner} (its single was beaten by the last card while it held a "
                f"higher one): seat {a} pays {total}, what every loser owes"
            )
            owed = [0] * n
            owed[a] = total
    scores = [0] * n
    if mode == BgaMode.WINNER_TAKES_ALL:
        for s in range(n):
            if s != winner and owed[s]:
                scores[s] -= owed[s]
                scores[winner] += owed[s]
    elif mode == BgaMode.CUMULATIVE:
        for s in range(n):
            if s != winner:
                scores[s] -= owed[s]
    else:  # pay-higher
        pos = {s: i for i, s in enumerate(order)}
        out = {s for s in range(n) if not left[s]}
        for s in range(n):
            for t in range(n):
                if pos[t] < pos[s] and (t in out or left[t] < left[s]) and owed[s]:
                    scores[s] -= owed[s]
                    scores[t] += owed[s]
                    details.append(f"seat {s} pays {owed[s]} to seat {t}, ranked higher")
    if rules.last_card_call and winner in outcome.last_card_uncalled:
        total = sum(owed[s] for s in range(n) if s != winner)
        details.append(f"seat {winner} went out without calling 'last card': takes the penalty of {total}")
        scores = [0] * n
        scores[winner] = -total
    return RoundResult(order, scores, left, details)


def _owed(rules: Any, outcome: RoundOutcome, details: list[str]) -> list[int]:
    """What each seat owes for its cards under the ruleset's system (the winner owes 0)."""
    n = len(outcome.cards_left)
    winner = outcome.finishing_order[0]
    system = rules.scoring
    left, played = list(outcome.cards_left), list(outcome.played_any)
    if system == Scoring.WINNER:
        left, played = cards_at_first_out(outcome)
    needs_hands = (
        system in (Scoring.TWOS_COUNT_DOUBLE, Scoring.FACE_VALUE)
        or (system == Scoring.BGA and rules.bga_base == BgaBase.RANKS)
        or (system == Scoring.ENCYCLOPEDIA and (rules.double_unused_twos or rules.double_unused_bombs))
    )
    if needs_hands and len(outcome.hands) != n:
        raise ValueError(f"scoring {system!r} with these settings needs the cards left in every hand")
    finish_why = None
    if system == Scoring.ENCYCLOPEDIA and rules.double_finishing_play:
        finish_why = finishing_play_doubles(rules, finishing_play(outcome))
    owed = [0] * n
    for s in range(n):
        if s == winner or not left[s]:
            continue
        dealt = outcome.dealt[s]
        if system in (Scoring.ENCYCLOPEDIA, Scoring.WINNER):
            mult, why = count_multiplier(rules, left[s], dealt, played[s])
            reasons = [f"{why}, x{mult}"]
            if system == Scoring.ENCYCLOPEDIA:
                hand = outcome.hands[s] if outcome.hands else 0
                if rules.double_unused_twos and twos_in(hand):
                    k = twos_in(hand)
                    mult *= 2**k
                    reasons.append(f"{k} unused 2{'s' if k > 1 else ''}, x{2**k}")
                if rules.double_unused_bombs:
                    k = unused_bombs(rules, hand)
                    if k:
                        mult *= 2**k
                        reasons.append(f"{k} unused four of a kind or straight flush, x{2**k}")
                if finish_why:
                    mult *= 2
                    reasons.append(f"the winner {finish_why}, x2")
            owed[s] = left[s] * mult
            details.append(f"seat {s} pays {owed[s]} ({'; '.join(reasons)})")
        elif system == Scoring.TWOS_COUNT_DOUBLE:
            k = twos_in(outcome.hands[s])
            owed[s] = left[s] + k
            details.append(f"seat {s} pays {owed[s]} ({left[s]} cards, {k} of them 2s counting twice)")
        elif system == Scoring.FACE_VALUE:
            owed[s] = face_value(outcome.hands[s])
            details.append(f"seat {s} pays {owed[s]} (face value of {left[s]} cards)")
        else:  # bga
            base = {"cards": left[s], "one": 1}.get(rules.bga_base)
            if base is None:
                base = rank_sum(outcome.hands[s])
            mult, why = count_multiplier(rules, left[s], dealt, played[s]) if rules.bga_multiplier else (1, "")
            owed[s] = base * mult
            details.append(f"seat {s} owes {owed[s]} (base {base}" + (f", {why}, x{mult})" if why else ")"))
    return owed


def _score_teams(outcome: RoundOutcome) -> RoundResult:
    n = len(outcome.cards_left)
    order = list(outcome.finishing_order)
    if n != 4:
        raise ValueError(f"team play needs 4 players, not {n}")
    left, _ = cards_at_first_out(outcome)
    held = [sum(left[s] for s in team) for team in TEAMS]
    names = [f"seats {a} and {b}" for a, b in TEAMS]
    if held[0] == held[1]:
        return RoundResult(
            order,
            [0] * n,
            list(outcome.cards_left),
            [f"teams tied on {held[0]} cards each: a five-card shoot-out decides"],
            team_tie=True,
        )
    win = 0 if held[0] < held[1] else 1
    scores = [1 if s in TEAMS[win] else -1 for s in range(n)]
    detail = f"{names[win]} win holding {held[win]} cards against {held[1 - win]}"
    return RoundResult(order, scores, list(outcome.cards_left), [detail])


def instant_result(rules: Any, outcome: RoundOutcome, instant: tuple[int, Verdict, str]) -> RoundResult:
    """A round decided at the deal: an immediate win, an immediate loss, or a draw."""
    seat, verdict, why = instant
    n = len(outcome.cards_left)
    if verdict == Verdict.DRAW:
        return RoundResult(
            list(outcome.finishing_order),
            [0] * n,
            list(outcome.cards_left),
            [f"the deal is a draw: seat {seat} holds {why}"],
        )
    if verdict == Verdict.WIN:
        result = score_round(rules, outcome)
        return RoundResult(
            result.finishing_order,
            result.scores,
            result.cards_left,
            [f"seat {seat} wins at once with {why}", *result.details],
        )
    # an immediate loss: the loser pays each other player what it would pay a winner who went out at once
    # (scored as seat 1 of a two-seat round won by seat 0)
    winner_view = score_round(
        rules,
        RoundOutcome(
            (0, 1),
            (0, outcome.cards_left[seat]),
            (outcome.dealt[seat],) * 2,
            (True, False),
        ),
    )
    each = -winner_view.scores[1]
    scores = [each] * n
    scores[seat] = -each * (n - 1)
    return RoundResult(
        list(outcome.finishing_order),
        scores,
        list(outcome.cards_left),
        [f"seat {seat} loses at once with {why} and pays {each} to each player"],
    )
