"""Rewards at the end of a round, from the ruleset's own scoring (the engine's ``RoundResult``).

``"score"`` pays each seat what the ruleset's scoring pays it: zero-sum exactly where
:func:`bigtwo.scoring.is_zero_sum` says so (not under BGA's cumulative penalties, nor when a winner who forgot
to call "last card" pays a penalty nobody collects). ``"place"`` pays by finishing place, ``(n + 1) / 2 - place``
(always zero-sum; the natural reward of rules that keep no points, such as the house code's finishing order).
``"auto"`` (the default) is ``"place"`` when the ruleset ranks without points (``scoring = "ranking"``, no
teams) and ``"score"`` otherwise.

``normalize=True`` divides every reward by one constant per ruleset and table size, :meth:`Rewards.bound`,
the most any seat can win or lose in one round, so rewards lie in [-1, 1] and ratios (and zero sums) are
kept. The bound is built from ``owed(h)``, the most one loser left holding ``h`` cards can owe (``h``: the
cards it was dealt, plus the stock under ``draw_on_pass``; it played none, so every "untouched" multiplier
applies):

==========================  ===========================================================================
``scoring``                 ``owed(h)``
==========================  ===========================================================================
``encyclopedia``            ``h`` x 3 (x2 or x1 where ``triple_when_untouched`` is off) x ``2 ** t``
                            for ``double_unused_twos`` (``t``: the 2s it can hold) x ``2 ** (h // 4)``
                            for ``double_unused_bombs`` x 2 for ``double_finishing_play``
``winner``                  as ``encyclopedia`` without its optional doubles (counted at the first out)
``twos-count-double``       ``h`` + the 2s it can hold
``face-value``              the ``h`` highest face values of the pack (a joker 15)
``bga``                     base (``cards``: ``h``; ``ranks``: the ``h`` highest ranks, 3 = 1 ... 2 = 13,
                            a joker 14; ``one``: 1) x the encyclopedia's multiplier if ``bga_multiplier``
==========================  ===========================================================================

and then from who pays whom, with ``owed`` over the seats' hand sizes: the winner collects from every loser,
``sum(owed) - min(owed)`` (every system but BGA's other modes; also the bound wherever an assistance or
last-card penalty moves a whole round's payments onto one seat); BGA ``cumulative``, each loser alone,
``max(owed)``; BGA ``pay-higher``, a loser pays every seat ranked above it and the first collects from all,
``max((n - 1) * max(owed), sum(owed) - min(owed))``; a loss at the deal (``malta_dragon``) pays every other
seat, ``(n - 1) * max(owed)``. Team play pays +1 / -1, so its bound is 1; ``"place"`` divides by ``(n - 1) / 2``.
For classic at four players: three untouched losers at 3 x 13 = 39 each, 117.
"""

from __future__ import annotations

from bigtwo.bounds import max_hand_size
from bigtwo.cards import DECK_SIZE, TWO, bits
from bigtwo.envs.options import RewardKind, RewardMode
from bigtwo.game import Game
from bigtwo.rules.choices import BgaBase, BgaMode, Scoring
from bigtwo.rules.ruleset import Ruleset
from bigtwo.scoring import RoundResult, count_multiplier, face_value, rank_sum


class Rewards:
    """Turns a finished round's result into one float per seat."""

    def __init__(self, rules: Ruleset, players: int, mode: RewardMode = "auto", normalize: bool = False):
        if mode not in tuple(RewardKind):
            allowed = ", ".join(repr(m.value) for m in RewardKind)
            raise ValueError(f"reward={mode!r} is not a reward mode; allowed: {allowed}")
        self.rules = rules
        self.n = players
        ranks_only = rules.ranks_only
        kind = RewardKind(mode)
        self.mode = (RewardKind.PLACE if ranks_only else RewardKind.SCORE) if kind == RewardKind.AUTO else kind
        self.normalize = normalize
        if self.mode == RewardKind.PLACE:
            self.scale = (players - 1) / 2 if normalize else 1.0
        else:
            self.scale = (self.bound() or 1.0) if normalize else 1.0

    # --- the bound ------------------------------------------------------------------------------------
    def owed(self, held: int, dealt: int) -> int:
        """The most one loser holding ``held`` cards (of ``dealt`` dealt) can owe under these rules."""
        rules = self.rules
        system = rules.scoring
        pack = sorted(bits(rules.engine_for(self.n).pack), key=lambda c: -face_value(1 << c))
        twos = min(held, sum(1 for c in pack if c % DECK_SIZE < 52 and (c % DECK_SIZE) >> 2 == TWO))
        mult = count_multiplier(rules, held, dealt, played_any=False)[0]
        if system in (Scoring.ENCYCLOPEDIA, Scoring.WINNER):
            owed = held * mult
            if system == Scoring.ENCYCLOPEDIA:
                if rules.double_unused_twos:
                    owed *= 2**twos
                if rules.double_unused_bombs:
                    owed *= 2 ** (held // 4)
                if rules.double_finishing_play:
                    owed *= 2
            return owed
        if system == Scoring.TWOS_COUNT_DOUBLE:
            return held + twos
        if system == Scoring.FACE_VALUE:
            return sum(face_value(1 << c) for c in pack[:held])
        if system == Scoring.BGA:
            if rules.bga_base == BgaBase.CARDS:
                base = held
            elif rules.bga_base == BgaBase.ONE:
                base = 1
            else:
                base = sum(sorted((rank_sum(1 << c) for c in pack), reverse=True)[:held])
            return base * (mult if rules.bga_multiplier else 1)
        return 0  # ranking: nothing is paid

    def bound(self) -> float:
        """The most any seat can win or lose in one round under these rules (0 when nothing is paid); see the
        module docstring for how each scoring system's bound is made."""
        rules, n = self.rules, self.n
        if rules.teams:
            return 1.0
        if rules.scoring == Scoring.RANKING:
            return 0.0
        game = Game(rules, players=n, seed=0)
        extra = max_hand_size(rules, n) - max(m.bit_count() for m in game.dealt)  # stock draws, a swap
        owed = [self.owed(m.bit_count() + extra, m.bit_count()) for m in game.dealt]
        collect = sum(owed) - min(owed)  # the winner takes every loser's payment
        mode = rules.payment_mode
        if mode == BgaMode.CUMULATIVE:
            most = max(owed)
            if rules.assistance_penalty or rules.last_card_call:
                most = max(most, collect)
        elif mode == BgaMode.PAY_HIGHER:
            most = max((n - 1) * max(owed), collect)
        else:
            most = collect
        if rules.malta_dragon:  # a loss at the deal pays every other seat
            most = max(most, (n - 1) * max(owed))
        return float(most)

    def largest_payment(self) -> float:
        """The normalising bound (kept under its first name)."""
        return self.bound()

    def __call__(self, result: RoundResult) -> list[float]:
        if self.mode == RewardKind.PLACE:
            mid = (self.n + 1) / 2
            return [(mid - place) / self.scale for place in result.places]
        return [s / self.scale for s in result.scores]
