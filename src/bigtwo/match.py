"""A match: rounds in sequence, with exchanges between them, cumulative scores, and a full record.

``Match(rules, players=4, seed=7, rounds=5)`` (or ``points=100``; by default the ruleset's ``match_*``
settings) deals round after round. Each round is: a deal (the same dealing as ``Game``, seeded per round),
the exchanges of ``rules.exchange`` (:mod:`bigtwo.exchange`), then a :class:`~bigtwo.game.Game` built from
the exchanged hands. The match is driven like a game: ``to_move`` names the seat to act,
``observation(seat)`` says what it may see (``phase`` is ``"exchange"``, ``"play"`` or ``"over"``), and
``act(answer)`` takes an exchange answer or a play. When a round ends it is scored, the totals move on, and
the next round is dealt at once (``records`` keeps every round). No UI code lives here.

Choices where the texts leave room (documented in the README too):

- Seeds: round 1 deals with the match seed itself (so it equals ``Game(rules, seed=seed)``), later rounds with
  seeds derived from it; a match built without a seed draws one and records it, so every match replays.
- Each round is dealt by its own ``Game`` (so face-up out cards, a stock to draw from, leftovers shown or
  offered all carry into the round), with the match's dealer: the last seat deals the first round (so round 1
  equals ``Game(rules, seed=seed)``), then the next seat, or the previous loser (``dealer = "loser"``, 000 End
  Game). Cards go round from the player after the dealer; a ``leftover = "dealer"`` rule gives the dealer the
  extra card (000: "the dealer ends up with one more card").
- ``later_lead = "previous-winner"`` (001 First player "Round winner"; 002 Variations "In tournaments"):
  the previous round's winner leads any combination. Otherwise the lead card's holder leads every round and
  must play it. Winner (000) says only that the 3D starts "the first game"; its preset should take the
  previous winner, as its parent Tien Len does.
- Points target: the match ends after the round in which a total reaches ``+points`` or ``-points``
  (``match_points_side``); with a round limit too, whichever comes first.
- Team play ties (002 Team play): a five-card shoot-out is a new short game (five cards each from a fresh
  seeded deal, the lowest card leading, no exchanges), repeated until the teams differ; its team result is the
  round's score.
- Standings: by total (highest first); under ranking-only scoring by the sum of places (lowest first), the
  way the club's "Horse Game" (004) ranks players.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bigtwo.cards import CardSet, bits
from bigtwo.errors import BigTwoError
from bigtwo.exchange import Exchange
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.scoring import RoundResult

RECORD_FORMAT = "bigtwo-match/1"
SHOOTOUT_CARDS = 5


def derived_seed(seed: int, *parts: object) -> int:
    """A reproducible seed for one part of a match (string seeding is stable across runs and platforms)."""
    return random.Random(":".join(["bigtwo-match", str(seed), *map(str, parts)])).getrandbits(63)


@dataclass
class RoundRecord:
    """One round of a match: everything needed to audit or replay it."""

    index: int
    seed: int
    dealer: int
    dealt: tuple[int, ...]  # bitmasks by seat, before exchanges
    roles: list[str] | None
    exchange: Exchange
    hands: tuple[int, ...] = ()  # bitmasks by seat, after exchanges
    first: int | None = None  # the seat told to lead freely (None: the lead card's holder)
    game: Game | None = None
    shootouts: list[Game] = field(default_factory=list)
    result: RoundResult | None = None
    totals: list[int] | None = None  # match totals after this round

    @property
    def is_complete(self) -> bool:
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        ev = self.exchange.ev

        def cards(mask: int) -> list[str]:
            return [str(c) for c in ev.sort_cards(mask)]

        out: dict[str, Any] = {
            "round": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "roles": self.roles,
            "dealt": [cards(m) for m in self.dealt],
            "exchange": {"events": [dict(e) for e in self.exchange.events], "answers": list(self.exchange.answers)},
            "hands": [cards(m) for m in self.hands],
            "first": self.first,
        }
        if self.game is not None:
            out["lead"] = self.game.history[0][0] if self.game.history else self.game.to_move
            out["actions"] = _actions(self.game)
            out["game_result"] = self.game.result.to_dict() if self.game.result else None
        out["shootouts"] = [
            {
                "dealt": [cards(m) for m in g.dealt],
                "actions": _actions(g),
                "result": g.result.to_dict() if g.result else None,
            }
            for g in self.shootouts
        ]
        out["result"] = self.result.to_dict() if self.result else None
        out["totals"] = self.totals
        return out


def _actions(game: Game) -> list[dict[str, Any]]:
    out = []
    for (s, p), note in zip(game.history, game.history_notes, strict=True):
        a: dict[str, Any] = (
            {"seat": s, "action": "pass"} if p.is_pass else {"seat": s, "action": "play", "cards": str(p)}
        )
        if note:
            a["note"] = note  # 'auto' passes are the engine's own: a replay skips them
        out.append(a)
    return out


def _replay_actions(m: Match, actions: list[dict[str, Any]]) -> None:
    for a in actions:
        if a.get("note") != "auto":
            m.act(
                "pass" if a["action"] == "pass" else a["cards"],
                seat=a["seat"],
                call_last_card=a.get("note") == "called",
            )


class Match:
    """A sequence of rounds under one ruleset, with cumulative scores; see the module docstring."""

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        seed: int | None = None,
        rounds: int | None = None,
        points: int | None = None,
    ):
        self.rules = load_rules(rules) if not isinstance(rules, Ruleset) else rules
        r = self.rules
        n = r.players if players is None else players
        if not r.min_players <= n <= r.max_players:
            raise BigTwoError(f"{n} players: {r.name!r} is for {r.min_players}-{r.max_players} players")
        if r.teams and n != 4:
            raise BigTwoError(f"team play needs 4 players (partners opposite), not {n}")
        self.n = n
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        if rounds is None and points is None:
            if r.match_end == "rounds":
                rounds = r.match_rounds
            else:
                points = r.match_points
        if rounds is not None and rounds < 1:
            raise BigTwoError(f"rounds={rounds}: a match needs at least one round")
        if points is not None:
            if points < 1:
                raise BigTwoError(f"points={points}: a points target must be positive")
            if r.scoring == "ranking" and not r.teams:
                raise BigTwoError(f"a points target needs a scoring system with points; {r.name!r} ranks only")
        self.max_rounds = rounds
        self.points = points
        self.totals = [0] * n
        self.places = [0] * n  # sum of places over completed rounds
        self.records: list[RoundRecord] = []
        self._over = False
        self._start_round()

    # --- reading -------------------------------------------------------------------------------------------
    @property
    def current(self) -> RoundRecord:
        return self.records[-1]

    @property
    def completed(self) -> list[RoundRecord]:
        return [rec for rec in self.records if rec.is_complete]

    @property
    def round_index(self) -> int:
        """0-based index of the round being played (or the last one, once the match is over)."""
        return len(self.records) - 1

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def phase(self) -> str:
        if self._over:
            return "over"
        return "exchange" if not self.current.exchange.is_done else "play"

    @property
    def exchange(self) -> Exchange:
        return self.current.exchange

    @property
    def game(self) -> Game | None:
        """The game being played now (a shoot-out after a team tie), or None during exchanges."""
        rec = self.current
        if rec.shootouts:
            return rec.shootouts[-1]
        return rec.game

    @property
    def to_move(self) -> int | None:
        if self._over:
            return None
        if self.phase == "exchange":
            pending = self.exchange.pending
            return pending.seat if pending else None
        g = self.game
        return None if g is None or g.is_over else g.to_move

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending exchange decision (with its seat), or None."""
        pending = self.exchange.pending if not self._over else None
        return None if pending is None else {"seat": pending.seat, **pending.to_dict()}

    def standings(self) -> list[int]:
        """Seats from best to worst (totals, then places; places only under ranking-only scoring)."""
        if self.rules.scoring == "ranking" and not self.rules.teams:
            return sorted(range(self.n), key=lambda s: (self.places[s], s))
        return sorted(range(self.n), key=lambda s: (-self.totals[s], self.places[s], s))

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now: its own cards, public facts, and exchanges it took part in."""
        if not 0 <= seat < self.n:
            raise BigTwoError(f"seat {seat} is not at this table (0-{self.n - 1})")
        rec = self.current
        common: dict[str, Any] = {
            "round": rec.index,
            "rounds": self.max_rounds,
            "points_target": self.points,
            "dealer": rec.dealer,
            "roles": rec.roles,
            "totals": list(self.totals),
            "exchanges": rec.exchange.events_for(seat),
        }
        phase = self.phase
        if phase == "play":
            g = self.game
            assert g is not None
            obs = g.observation(seat)
            obs.update(common)
            obs["phase"] = "play"
            obs["shootout"] = len(rec.shootouts)
            return obs
        ex = rec.exchange
        ev = self.rules.engine
        obs = {
            "phase": phase,
            "seat": seat,
            "players": self.n,
            "rules": self.rules.name,
            **common,
            "hand": [str(c) for c in ev.sort_cards(ex.hand(seat) if phase == "exchange" else 0)],
            "hand_sizes": [ex.hand(s).bit_count() for s in range(self.n)] if phase == "exchange" else [0] * self.n,
            "to_move": self.to_move,
            "decision": ex.decision_for(seat) if phase == "exchange" else None,
            "is_over": self._over,
        }
        if self._over:
            obs["standings"] = self.standings()
            obs["places"] = list(self.places)
        return obs

    def legal_actions(self) -> list[Any]:
        """The legal answers of the seat to move: plays, or exchange choices (see ``legal_exchange_choices``)."""
        from bigtwo.exchange import legal_exchange_choices

        if self._over:
            return []
        if self.phase == "exchange":
            seat = self.to_move
            assert seat is not None
            return legal_exchange_choices(self.rules, self.observation(seat))
        g = self.game
        return g.legal_plays() if g is not None else []

    # --- acting --------------------------------------------------------------------------------------------
    def act(self, answer: Any, seat: int | None = None, call_last_card: bool = True) -> Any:
        """Answer the pending exchange decision, or play for the seat to move (``"pass"`` passes).

        Bad input raises (``IllegalExchange`` / ``IllegalPlay``) and changes nothing. ``seat``, when given,
        must be the seat to move. ``call_last_card`` is passed to :meth:`Game.play`.
        """
        if self._over:
            raise BigTwoError("the match is over")
        if seat is not None and seat != self.to_move:
            raise BigTwoError(f"seat {seat} is not to move; seat {self.to_move} is")
        if self.phase == "exchange":
            value = self.exchange.decide(answer)
            if self.exchange.is_done:
                self._start_play()
            return value
        g = self.game
        assert g is not None
        p = g.play(answer, call_last_card=call_last_card)
        if g.is_over:
            self._finish_game()
        return p

    def play_out(self, players: Sequence[Any] | Mapping[int, Any]) -> Match:
        """Let ``players[seat].choose(rules, observation)`` make every remaining decision and play."""
        while not self._over:
            s = self.to_move
            assert s is not None
            self.act(players[s].choose(self.rules, self.observation(s)))
        return self

    # --- the round cycle -----------------------------------------------------------------------------------
    def round_seed(self, index: int) -> int:
        return self.seed if index == 0 else derived_seed(self.seed, index)

    def _start_round(self) -> None:
        i = len(self.records)
        prev = self.records[-1] if self.records else None
        n = self.n
        if prev is None:
            dealer = n - 1
        elif self.rules.dealer == "loser":
            assert prev.result is not None
            dealer = prev.result.finishing_order[-1]
        else:
            dealer = (prev.dealer + 1) % n
        seed = self.round_seed(i)
        dealing = Game(self.rules, players=n, seed=seed, dealer=dealer)
        dealt = list(dealing.dealt)
        order = prev.result.finishing_order if prev is not None and prev.result is not None else None
        ex = Exchange(self.rules, dealt, order, dealer)
        self.records.append(RoundRecord(i, seed, dealer, tuple(dealt), ex.roles, ex))
        self._dealing = dealing
        if ex.is_done:
            self._start_play()

    def _start_play(self) -> None:
        rec = self.current
        rec.hands = tuple(rec.exchange.hands)
        first = None
        if rec.index > 0 and self.rules.later_lead == "previous-winner":
            prev = self.records[rec.index - 1].result
            assert prev is not None
            first = prev.winner
        rec.first = first
        game = self._dealing
        if not game.is_over:  # a round decided at the deal (an instant win or draw) keeps its result
            game.replace_hands(list(rec.hands), first=first)
        rec.game = game
        if rec.game.is_over:
            self._finish_game()

    def _finish_game(self) -> None:
        rec = self.current
        g = self.game
        assert g is not None and g.result is not None and rec.game is not None
        if g.result.team_tie:
            self._start_shootout()
            return
        main = rec.game.result
        assert main is not None
        if rec.shootouts:
            details = list(main.details) + [
                f"shoot-out {k + 1}: {'; '.join(s.result.details)}" for k, s in enumerate(rec.shootouts) if s.result
            ]
            result = RoundResult(main.finishing_order, list(g.result.scores), main.cards_left, details)
        else:
            result = main
        rec.result = result
        for s in range(self.n):
            self.totals[s] += result.scores[s]
            self.places[s] += main.places[s]
        rec.totals = list(self.totals)
        if self._reached_end():
            self._over = True
            return
        self._start_round()

    def _start_shootout(self) -> None:
        rec = self.current
        k = len(rec.shootouts)
        rng = random.Random(derived_seed(self.seed, rec.index, "shootout", k))
        pack = Game(self.rules, players=self.n, seed=rng.getrandbits(63)).dealt
        hands = []
        for mask in pack:
            cs = bits(mask)
            hands.append(sum(1 << c for c in rng.sample(cs, min(SHOOTOUT_CARDS, len(cs)))))
        game = Game(self.rules, hands=hands)
        rec.shootouts.append(game)
        if game.is_over:
            self._finish_game()

    def _reached_end(self) -> bool:
        done = len(self.records)
        if self.max_rounds is not None and done >= self.max_rounds:
            return True
        if self.points is not None:
            side, target = self.rules.match_points_side, self.points
            for t in self.totals:
                if side in ("either", "gain") and t >= target:
                    return True
                if side in ("either", "loss") and t <= -target:
                    return True
        return False

    # --- records -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The match record: rules, seeds, and every round's deal, exchanges, plays and payments (JSON-ready)."""
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.n,
            "seed": self.seed,
            "rounds": self.max_rounds,
            "points": self.points,
            "records": [rec.to_dict() for rec in self.records],
            "totals": list(self.totals),
            "places": list(self.places),
            "is_over": self._over,
            "standings": self.standings() if self._over else None,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def replay(cls, record: Mapping[str, Any] | str) -> Match:
        """Rebuild a match from its record, checking every deal and every payment against it."""
        data = json.loads(record) if isinstance(record, str) else record
        if data.get("format") != RECORD_FORMAT:
            raise BigTwoError(f"not a match record (format {data.get('format')!r}, expected {RECORD_FORMAT!r})")
        rules = Ruleset.from_dict(data["rules"], source="match record")
        m = cls(rules, players=data["players"], seed=data["seed"], rounds=data["rounds"], points=data["points"])
        for r in data["records"]:
            i = r["round"]
            rec = m.records[i] if i < len(m.records) else None
            # compared as notation: with two decks, notation does not say which copy of a card a hand holds
            same = rec is not None and [sorted(h) for h in r["dealt"]] == [
                sorted(str(c) for c in CardSet.from_mask(h)) for h in rec.dealt
            ]
            if rec is None or not same:
                raise BigTwoError(f"round {i + 1}: the deal does not match the record")
            for a in r["exchange"]["answers"]:
                m.act(CardSet.from_mask(a["mask"]) if "mask" in a else a["answer"], seat=a["seat"])
            _replay_actions(m, r.get("actions", []))
            for shoot in r.get("shootouts", []):
                _replay_actions(m, shoot["actions"])
            if r.get("result") is not None:
                got = m.records[i].result
                if got is None or got.scores != r["result"]["scores"]:
                    raise BigTwoError(f"round {i + 1}: the payments do not match the record")
        return m

    def __repr__(self) -> str:
        state = "over" if self._over else f"round {self.round_index + 1}, {self.phase}"
        return f"<Match {self.rules.name!r} {self.n} players, {state}, totals {self.totals}>"
