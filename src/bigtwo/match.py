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
from dataclasses import dataclass, field, replace
from typing import Any

from bigtwo.actions import Action, Answer, Decision, DecisionKind, IllegalAnswer, Look, Word
from bigtwo.cards import CardSet, CardsLike, bits, tokens
from bigtwo.combos.play import PASS, Play
from bigtwo.errors import BigTwoError, CardParseError, IllegalPlay, whole_number
from bigtwo.exchange import NEW_KINDS, Exchange, default_exchange_choice, exchange_answers
from bigtwo.game import Game, _seat_arg
from bigtwo.observation import EntryAction, ExchangeEvent, Note, Observation, Phase
from bigtwo.rules.choices import MatchEnd, MatchPointsSide
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.scoring import RoundResult

RECORD_FORMAT = "bigtwo-match/1"
SHOOTOUT_CARDS = 5


@dataclass(frozen=True)
class MatchResult:
    """A finished match: seats from best to worst, each seat's total points and sum of places."""

    standings: tuple[int, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    # the Horse Game: each person's sum of their hands' places (lowest wins), and the people from best to worst
    people_places: tuple[int, ...] | None = None
    people_standings: tuple[int, ...] | None = None

    @property
    def winner(self) -> int:
        return self.standings[0]


def derived_seed(seed: int, *parts: object) -> int:
    """A reproducible seed for one part of a match (string seeding is stable across runs and platforms)."""
    return random.Random(":".join(["bigtwo-match", str(seed), *map(str, parts)])).getrandbits(63)


@dataclass
class RoundRecord:
    """One round of a match: everything needed to audit or replay it."""

    index: int
    seed: int
    dealer: int
    dealt: tuple[int, ...]  # bitmasks by seat, before exchanges (after any new deal or swap asked for)
    roles: list[str] | None
    exchange: Exchange | None  # None while deal-time decisions are pending
    deal_answers: list[dict[str, Any]] = field(default_factory=list)  # {"seat", "kind", "answer"} at the deal
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
        ev = self.exchange.ev if self.exchange is not None else None

        def cards(mask: int) -> list[str]:
            return [str(c) for c in (ev.sort_cards(mask) if ev is not None else CardSet.from_mask(mask))]

        ex = self.exchange
        out: dict[str, Any] = {
            "round": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "roles": self.roles,
            "deal_answers": [dict(a) for a in self.deal_answers],
            "dealt": [cards(m) for m in self.dealt],
            "exchange": {
                "events": [dict(e) for e in ex.events] if ex is not None else [],
                "answers": list(ex.answers) if ex is not None else [],
            },
            "hands": [cards(m) for m in self.hands],
            "face_up": cards(ex.table) if ex is not None and ex.table else [],
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
            {"seat": s, "action": "pass"}
            if p.is_pass
            else {"seat": s, "action": "play", "cards": " ".join(tokens(bits(p.mask)))}
        )
        if note:
            a["note"] = note  # 'auto' passes are the engine's own: a replay skips them
        out.append(a)
    return out


def _replay_actions(m: Match, actions: list[dict[str, Any]]) -> None:
    for a in actions:
        if a.get("note") == Note.AUTO:
            continue
        d = m.pending
        if d is not None and d.kind == DecisionKind.LOOK:
            # the Horse Game: a play, or a hand given up, was made after looking; any other pass was blind
            blind = a["action"] == EntryAction.PASS and a.get("note") != Note.FORFEIT
            m.apply(Word.PASS if blind else Word.LOOK, seat=a["seat"])
            if blind:
                continue
        m.apply(
            "pass" if a["action"] == EntryAction.PASS else a["cards"],
            seat=a["seat"],
            call_last_card=a.get("note") == Note.CALLED,
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
        players, rounds, points = (
            whole_number(players, "players"),
            whole_number(rounds, "rounds"),
            whole_number(points, "points"),
        )
        n = r.players if players is None else players
        if not r.min_players <= n <= r.max_players:
            raise BigTwoError(f"{n} players: {r.name!r} is for {r.min_players}-{r.max_players} players")
        if r.teams and n != 4:
            raise BigTwoError(f"team play needs 4 players (partners opposite), not {n}")
        if r.horse_game and n != 6:
            raise BigTwoError(f"the Horse Game deals six hands: a table of 6 hands, not {n}")
        self.n = n
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        if rounds is None and points is None:
            if r.match_end == MatchEnd.ROUNDS:
                rounds = r.match_rounds
            else:
                points = r.match_points
        if rounds is not None and rounds < 1:
            raise BigTwoError(f"rounds={rounds}: a match needs at least one round")
        if points is not None:
            if points < 1:
                raise BigTwoError(f"points={points}: a points target must be positive")
            if r.ranks_only:
                raise BigTwoError(f"a points target needs a scoring system with points; {r.name!r} ranks only")
        self.max_rounds = rounds
        self.points = points
        self.totals = [0] * n
        self.places = [0] * n  # sum of places over completed rounds
        self.records: list[RoundRecord] = []
        self.log: list[tuple[int, Action, bool]] = []  # (seat, action, called 'last card') as applied
        self._kept: set[int] = set()  # this round's seats that kept the deal rather than ask for a new one
        self._swap_answered: bool = False  # this round's leftover swap was answered
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
    def result(self) -> MatchResult | None:
        """Standings, totals and places once the match is over; None before."""
        if not self._over:
            return None
        people = self.people_places()
        return MatchResult(
            tuple(self.standings()),
            tuple(self.totals),
            tuple(self.places),
            tuple(people) if people is not None else None,
            tuple(sorted(range(len(people)), key=lambda p: (people[p], p))) if people is not None else None,
        )

    def people_places(self) -> list[int] | None:
        """The Horse Game: each person's sum of the places of their hands (004: "adding up their places ...
        the lowest sum" wins); None in other games."""
        k = self.rules.horse_game
        if not k:
            return None
        return [sum(self.places[s] for s in range(self.n) if self.rules.owner(s) == p) for p in range(k)]

    @property
    def phase(self) -> Phase:
        """``deal`` (a new deal or a swap may be asked for), ``exchange``, ``play`` or ``over``."""
        if self._over:
            return Phase.OVER
        ex = self.current.exchange
        if ex is None:
            return Phase.DEAL
        return Phase.EXCHANGE if not ex.is_done else Phase.PLAY

    @property
    def exchange(self) -> Exchange | None:
        return self.current.exchange

    @property
    def game(self) -> Game | None:
        """The game being played now (a shoot-out after a team tie), or None before play begins."""
        rec = self.current
        if rec.shootouts:
            return rec.shootouts[-1]
        return rec.game

    @property
    def pending(self) -> Decision | None:
        """The decision the seat to move must answer (at the deal or in an exchange), or None during play."""
        if self._over:
            return None
        if self.current.exchange is None:
            return self._deal_decision
        d = self.current.exchange.pending
        if d is None and self.phase == Phase.PLAY:
            return self._play_decision()
        return d

    def _play_decision(self) -> Decision | None:
        """A decision during play: the Horse Game's face-down hand, passed blind or looked at."""
        g = self.game
        if g is None or not g.look_pending:
            return None
        why = (
            "your hand lies face down: look at it (then you must play, or the hand takes the last free place), "
            "or pass without looking (004 Zheng Shangyou, Horse Game)"
        )
        return Look(g.to_move, 0, why, options=(Word.LOOK, Word.PASS))

    @property
    def to_move(self) -> int | None:
        if self._over:
            return None
        d = self.pending
        if d is not None:
            return d.seat
        if self.phase != Phase.PLAY:
            return None
        g = self.game
        return None if g is None or g.is_over else g.to_move

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision (with its seat) as a dict, or None."""
        d = self.pending
        return None if d is None else {"seat": d.seat, **d.to_dict()}

    def standings(self) -> list[int]:
        """Seats from best to worst (totals, then places; places only when the rules rank without points)."""
        if self.rules.ranks_only:
            return sorted(range(self.n), key=lambda s: (self.places[s], s))
        return sorted(range(self.n), key=lambda s: (-self.totals[s], self.places[s], s))

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may know now (``None``: a spectator): its own cards, public facts, its decisions, and
        the exchanges it took part in."""
        seat = _seat_arg(seat, self.n, spectator=True)
        rec = self.current
        phase = self.phase
        pending = self.pending
        ex = rec.exchange
        over = self._over
        common: dict[str, Any] = {
            "phase": phase,
            "round": rec.index,
            "rounds": self.max_rounds,
            "points_target": self.points,
            "dealer": rec.dealer,
            "roles": tuple(rec.roles) if rec.roles is not None else None,
            "totals": tuple(self.totals),
            "exchanges": tuple(ex.events_for(seat)) if ex is not None and seat is not None else (),
            "decision": pending if pending is not None and pending.seat == seat else None,
            "standings": tuple(self.standings()) if over else None,
            "places": tuple(self.places) if over else None,
        }
        if seat is None and ex is not None:
            common["exchanges"] = tuple(
                e if e.get("shown") or e.get("public") else {k: v for k, v in e.items() if k != "cards"}
                for e in ex.events
                if e.get("type") == ExchangeEvent.GIVE or e.get("public")
            )
        if phase in (Phase.PLAY, Phase.OVER) and self.game is not None:
            obs = self.game.observe(seat)
            return replace(obs, shootout=len(rec.shootouts), **common)
        if phase == Phase.DEAL:
            g = self._dealing
            obs = g.observe(seat)
            return replace(obs, to_move=self.to_move, history=(), trick=None, trick_seat=None, **common)
        assert ex is not None
        sizes = tuple(ex.hand(s).bit_count() for s in range(self.n))
        return Observation(
            seat=seat,
            players=self.n,
            rules=self.rules.name,
            hand=ex.hand(seat) if seat is not None else 0,
            hand_sizes=sizes,
            dealt_sizes=sizes,
            known=tuple(ex.known.get(s, 0) if s != seat else 0 for s in range(self.n)),
            face_up=ex.table,
            to_move=self.to_move,
            is_over=over,
            ev=self._dealing.ev,
            twos_low=self._dealing.twos_low,
            **common,
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move: plays and the pass, or the answers to its decision."""
        if self._over:
            return []
        d = self.pending
        if d is not None:
            if d.answered_by_options:
                return [Answer(d.kind, word) for word in d.options]
            return list(exchange_answers(self.rules, self.observe(d.seat)))
        g = self.game
        return list(g.legal_plays()) if g is not None else []

    def default_action(self) -> Action:
        """A legal action the engine picks itself, for a seat that cannot or did not choose (a table's move
        timer, a bot that failed): the pass when it is allowed, else the lowest play; at the deal, keep it; in
        an exchange, the rules' plain answer (the lowest cards allowed, declining to surrender, the highest
        question; no bid, no offer, no request, declining what another asks); a face-down hand passes blind.
        Never a list of every answer: an exchange may have hundreds of thousands."""
        if self._over:
            raise IllegalPlay("the match is over")
        d = self.pending
        if d is not None:
            if d.at_deal:
                return Answer(d.kind, Word.KEEP)
            if d.kind == DecisionKind.LOOK:
                return Answer(DecisionKind.LOOK, Word.PASS)
            return d.read(default_exchange_choice(self.rules, self.observe(d.seat)))
        g = self.game
        assert g is not None
        return PASS if g.pass_allowed() else g.legal_plays()[0]  # (following, the plays are never listed)

    # --- acting --------------------------------------------------------------------------------------------
    def apply(self, action: Action | CardsLike, call_last_card: bool = True, *, seat: int | None = None) -> Action:
        """Take ``action`` for the seat to move (an Action, or notation such as ``"3D 3S"``, ``"pass"``,
        ``"keep"``, ``"highest S"``); returns the action as the state read it.

        A bad action raises (:class:`~bigtwo.errors.IllegalPlay` or one of its kinds) with the reason in
        words, and changes nothing. ``call_last_card``: a play leaving one card announces it (unless False).
        ``seat``, when given, must be the seat to move (a caller acting for a seat says which).
        """
        if self._over:
            raise IllegalPlay("the match is over")
        if seat is not None and seat != self.to_move:
            raise IllegalPlay(f"seat {seat} is not to move; seat {self.to_move} is")
        seat = self.to_move
        assert seat is not None
        d = self.pending
        if d is not None:
            answer = d.read(action)
            if d.kind == DecisionKind.LOOK:
                if answer.word not in d.options:
                    raise IllegalAnswer(_options_reason(d, answer))
                g = self.game
                assert g is not None
                if answer.word == Word.LOOK:
                    g.look()
                else:
                    g.play(PASS)
                taken = answer
                self.log.append((seat, taken, True))
                if g.is_over:
                    self._finish_game()
                return taken
            if d.at_deal:
                taken = self._answer_deal(d, answer)
            else:
                ex = self.current.exchange
                assert ex is not None
                if answer.kind == DecisionKind.SURRENDER and answer.word == Word.SURRENDER and not answer.mask:
                    value = ex.decide(Word.SURRENDER)
                    taken = Answer(DecisionKind.SURRENDER, Word.SURRENDER, value)
                else:
                    ex.decide(answer)
                    taken = answer
                if ex.is_done:
                    self._start_play()
            self.log.append((seat, taken, True))
            return taken
        g = self.game
        assert g is not None and seat is not None
        p = g.play(action, call_last_card=call_last_card)  # type: ignore[arg-type]
        self.log.append((seat, p, call_last_card))
        if g.is_over:
            self._finish_game()
        return p

    def why_not(self, action: Action | CardsLike) -> str | None:
        """Why ``action`` may not be taken now, in words; None if it may. Nothing changes."""
        if self._over:
            return "the match is over"
        d = self.pending
        if d is not None:
            try:
                answer = d.read(action)
            except IllegalAnswer as e:
                return e.reason
            except CardParseError as e:  # text that is not cards at all
                return str(e)
            if d.answered_by_options:
                return None if answer.word in d.options else _options_reason(d, answer)
            ex = self.current.exchange
            assert ex is not None
            return ex.why_not(answer)
        g = self.game
        assert g is not None
        return g.why_not(action)  # type: ignore[arg-type]

    def undo(self) -> None:
        """Take back the last action taken through :meth:`apply` (across exchanges and rounds too)."""
        if not self.log:
            raise IllegalPlay("nothing to undo: the match is at its first deal")
        _seat, last, _called = self.log[-1]
        g = self.game
        if isinstance(last, Play) and self.phase == Phase.PLAY and g is not None and g.can_undo:
            # the last action was a play of the round in progress: the round's own undo is exact and cheap
            g.undo()
            self.log.pop()
            return
        fresh = self._fresh()
        for _s, action, called in self.log[:-1]:
            fresh.apply(action, call_last_card=called)
        self.__dict__.update(fresh.__dict__)

    def clone(self) -> Match:
        """An independent copy of the match in the same position (rebuilt from the seed and the actions)."""
        fresh = self._fresh()
        for _s, action, called in self.log:
            fresh.apply(action, call_last_card=called)
        return fresh

    def _fresh(self) -> Match:
        return Match(self.rules, players=self.n, seed=self.seed, rounds=self.max_rounds, points=self.points)

    def play_out(self, players: Sequence[Any] | Mapping[int, Any]) -> Match:
        """Let ``players[seat].choose(rules, observation)`` make every remaining decision and play."""
        while not self._over:
            s = self.to_move
            assert s is not None
            self.apply(players[s].choose(self.rules, self.observe(s)))
        return self

    # --- the deal ------------------------------------------------------------------------------------------
    def _next_deal_decision(self) -> Decision | None:
        """The next deal-time choice: a seat whose hand qualifies may ask for a new deal (in turn from the
        dealer's left), then the lead card's holder may swap it for a leftover card on offer."""
        return self._dealing.deal_decision(self._kept, self._swap_answered)

    def _answer_deal(self, d: Decision, answer: Answer) -> Answer:
        if answer.word not in d.options:
            raise IllegalAnswer(_options_reason(d, answer))
        g = self._dealing
        rec = self.current
        g.take_deal_answer(d, answer.word, self._kept)
        self._swap_answered = self._swap_answered or d.kind == DecisionKind.SWAP
        rec.deal_answers.append({"seat": d.seat, "kind": d.kind, "answer": answer.word})
        rec.dealt = tuple(g.dealt)
        self._deal_decision = self._next_deal_decision()
        if self._deal_decision is None:
            self._start_exchange()
        return answer

    # --- the round cycle -----------------------------------------------------------------------------------
    def round_seed(self, index: int) -> int:
        return self.seed if index == 0 else derived_seed(self.seed, index)

    def _start_round(self) -> None:
        i = len(self.records)
        prev = self.records[-1] if self.records else None
        n = self.n
        if prev is None:
            dealer = n - 1
        elif self.rules.loser_deals:
            assert prev.result is not None
            dealer = prev.result.finishing_order[-1]
        else:
            dealer = (prev.dealer + 1) % n
        seed = self.round_seed(i)
        dealing = Game(self.rules, players=n, seed=seed, dealer=dealer)
        self.records.append(RoundRecord(i, seed, dealer, tuple(dealing.dealt), None, None))
        self._dealing = dealing
        self._kept = set()  # seats that kept this deal rather than ask for a new one
        self._swap_answered = False
        self._deal_decision = self._next_deal_decision()
        if self._deal_decision is None:
            self._start_exchange()

    def _start_exchange(self) -> None:
        """The deal stands: the exchanges of the rules begin (play begins at once when there are none)."""
        rec = self.current
        prev = self.records[rec.index - 1] if rec.index > 0 else None
        order = prev.result.finishing_order if prev is not None and prev.result is not None else None
        rec.dealt = tuple(self._dealing.dealt)
        g = self._dealing
        ex = Exchange(self.rules, list(rec.dealt), order, rec.dealer, table=g.face_up, ev=g.ev)
        rec.exchange, rec.roles = ex, ex.roles
        if ex.is_done:
            self._start_play()

    def _start_play(self) -> None:
        rec = self.current
        assert rec.exchange is not None
        rec.hands = tuple(rec.exchange.hands)
        first = None
        if rec.index > 0 and self.rules.previous_winner_leads:
            prev = self.records[rec.index - 1].result
            assert prev is not None
            first = prev.winner
        rec.first = first
        game = self._dealing
        if not game.is_over:  # a round decided at the deal (an instant win or draw) keeps its result
            ex = rec.exchange
            game.replace_hands(list(rec.hands), first=first, face_up=ex.table, known=ex.known)
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
                if side in (MatchPointsSide.EITHER, MatchPointsSide.GAIN) and t >= target:
                    return True
                if side in (MatchPointsSide.EITHER, MatchPointsSide.LOSS) and t <= -target:
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
            if i < len(m.records) and m.phase == Phase.DEAL:
                answers = r.get("deal_answers")
                if answers is None:  # a record from before deal-time decisions: every deal was kept
                    while m.phase == Phase.DEAL and m.current.index == i:
                        m.apply("keep")
                for a in answers or ():
                    m.apply(a["answer"], seat=a["seat"])
            rec = m.records[i] if i < len(m.records) else None
            # compared as notation: with two decks, notation does not say which copy of a card a hand holds
            same = rec is not None and [sorted(h) for h in r["dealt"]] == [
                sorted(str(c) for c in CardSet.from_mask(h)) for h in rec.dealt
            ]
            if rec is None or not same:
                raise BigTwoError(f"round {i + 1}: the deal does not match the record")
            for a in r["exchange"]["answers"]:
                if a.get("kind") in NEW_KINDS:
                    m.apply(Answer.from_dict(a), seat=a["seat"])
                else:
                    m.apply(CardSet.from_mask(a["mask"]) if "mask" in a else a["answer"], seat=a["seat"])
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


def _options_reason(d: Decision, answer: Answer) -> str:
    return f"{answer.word or answer}: answer {' or '.join(repr(o) for o in d.options)}"
