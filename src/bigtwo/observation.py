"""What one seat may know: a typed, frozen :class:`Observation` of card masks, and its JSON form.

The engine builds an observation for a seat (``state.observe(seat)``) or for a spectator (``observe(None)``);
bots, environments, the tables and the server read nothing else. Cards are bit masks, so two decks and jokers
lose nothing (which copy of a card a hand holds is in the mask); the JSON form writes the second deck's copy
as ``3D'`` (the record notation) and reads either form back.

Every field is marked ``public`` (every seat sees it alike) or private (the seat's own: its hand, the card its
lead must contain, its pending decision, the exchanges it took part in). A spectator's observation is the
public fields with the private ones at their hidden defaults: :meth:`Observation.public` derives it from the
markers, so a new field is hidden until someone marks it public.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bigtwo.actions import Decision
from bigtwo.cards import bits, held_copies, mask_of_tokens, token
from bigtwo.combos.play import PASS, Play
from bigtwo.errors import BigTwoError
from bigtwo.scoring import RoundResult
from bigtwo.vocabulary import Vocabulary

if TYPE_CHECKING:
    from bigtwo.combos.evaluator import Evaluator
    from bigtwo.rules.ruleset import Ruleset

PHASES = ("deal", "exchange", "play", "over")


# field markers: a public field is seen alike by every seat; a private one only by its seat, everyone else
# (a spectator) being shown the field's default


class Phase(Vocabulary):
    """Where a match stands: ``deal`` (a new deal or a swap may be asked for), ``exchange`` (cards change
    hands before play), ``play`` (tricks) or ``over``. Members equal their words, as observations' JSON writes
    them."""

    DEAL = "deal"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


class Note(Vocabulary):
    """What a :class:`HistoryEntry`'s ``note`` says of its action (none for a plain play or pass): the one source
    of these words, which records and observations write unchanged (members equal them)."""

    AUTO = "auto"  # a pass the automatic turn skip made
    DREW = "drew"  # passed and drew from the stock
    CALLED = "called"  # announced 'last card'
    FORFEIT = "forfeit"  # the hand was given up (the Horse Game)


class EntryAction(Vocabulary):
    """The ``action`` of a history entry as observations and records write it: a play or a pass."""

    PLAY = "play"
    PASS = "pass"


class ExchangeEvent(Vocabulary):
    """The ``type`` of an entry of :attr:`Observation.exchanges` (what happened before play: cards given, a
    question asked, a lot sold...): the one source of these words, which records write unchanged."""

    GIVE = "give"
    QUESTION = "question"
    SURRENDER = "surrender"
    DECLINE = "decline"
    DEMAND = "demand"
    BID = "bid"
    SOLD = "sold"
    UNSOLD = "unsold"
    OFFER = "offer"
    REPLY = "reply"
    VOTE = "vote"
    TRADE_ENDED = "trade-ended"
    REQUEST = "request"
    GRANT = "grant"


PUBLIC = MappingProxyType({"public": True})
PRIVATE = MappingProxyType({"public": False})


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One action of the round as everyone saw it: a play or a pass (``play`` is ``Play.PASS``).

    ``note``: ``"auto"`` (a pass the automatic turn skip made), ``"drew"`` (passed and drew from the stock),
    ``"called"`` (announced 'last card').
    """

    seat: int
    play: Play
    note: Note | None = None

    @property
    def is_pass(self) -> bool:
        return self.play.is_pass


@dataclass(frozen=True)
class Observation:
    """One seat's view of the table (``seat`` None: a spectator's). Frozen; cards are masks.

    Round fields follow the play phase (they are empty at the deal and during exchanges); match fields
    (``round``, ``totals``, ...) hold in every phase. See the module docstring for public and private fields.
    """

    seat: int | None = field(default=None, metadata=PRIVATE)
    players: int = field(default=4, metadata=PUBLIC)
    rules: str = field(default="", metadata=PUBLIC)
    phase: Phase = field(default=Phase.PLAY, metadata=PUBLIC)
    hand: int = field(default=0, metadata=PRIVATE)
    hand_sizes: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    dealt_sizes: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    to_move: int | None = field(default=None, metadata=PUBLIC)
    # the play to beat; None when the seat to move leads
    trick: Play | None = field(default=None, metadata=PUBLIC)
    trick_seat: int | None = field(default=None, metadata=PUBLIC)
    passed: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    # the card the seat's next play must contain (the first lead), when it holds it
    required: int = field(default=0, metadata=PRIVATE)
    # the first play must contain a card this seat does not hold
    lead_elsewhere: bool = field(default=False, metadata=PRIVATE)
    # the "three 3s" rule binds this seat: it may not pass
    must_answer: bool = field(default=False, metadata=PRIVATE)
    # the Horse Game: this seat looked at its face-down hand and must play (a pass gives the hand up)
    must_play: bool = field(default=False, metadata=PRIVATE)
    finished: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    history: tuple[HistoryEntry, ...] = field(default=(), metadata=PUBLIC)
    trick_start: int = field(default=0, metadata=PUBLIC)
    face_up: int = field(default=0, metadata=PUBLIC)
    # the deal made the 2s the lowest cards of this round (dealt_bomb_twos_low)
    twos_low: bool = field(default=False, metadata=PUBLIC)
    # per seat, cards a rule showed everyone to be in that hand (own: 0)
    known: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    # the leftover card on offer, when the rules show it
    swap_offer: int = field(default=0, metadata=PUBLIC)
    stock_size: int = field(default=0, metadata=PUBLIC)
    is_over: bool = field(default=False, metadata=PUBLIC)
    result: RoundResult | None = field(default=None, metadata=PUBLIC)
    # the match around the round
    round: int = field(default=0, metadata=PUBLIC)
    rounds: int | None = field(default=None, metadata=PUBLIC)
    points_target: int | None = field(default=None, metadata=PUBLIC)
    dealer: int | None = field(default=None, metadata=PUBLIC)
    roles: tuple[str, ...] | None = field(default=None, metadata=PUBLIC)
    totals: tuple[int, ...] = field(default=(), metadata=PUBLIC)
    # exchange events this seat may see
    exchanges: tuple[Mapping[str, Any], ...] = field(default=(), metadata=PRIVATE)
    decision: Decision | None = field(default=None, metadata=PRIVATE)
    shootout: int = field(default=0, metadata=PUBLIC)
    standings: tuple[int, ...] | None = field(default=None, metadata=PUBLIC)
    places: tuple[int, ...] | None = field(default=None, metadata=PUBLIC)
    ev: Evaluator | None = field(default=None, compare=False, repr=False, metadata=PUBLIC)

    @classmethod
    def made(cls, values: Mapping[str, Any]) -> Observation:
        """The engine's own constructor for its hot path (every bot decision): the fields given, the others at
        their defaults, without ``__init__``'s call per field (a third of the cost). Names must be fields."""
        obs = object.__new__(cls)
        d = dict(_DEFAULTS)
        d.update(values)
        object.__setattr__(obs, "__dict__", d)
        return obs

    # --- reading -------------------------------------------------------------------------------------------
    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and not self.is_over and self.to_move == self.seat

    @property
    def played(self) -> int:
        """Every card played so far this round."""
        m = 0
        for e in self.history:
            m |= e.play.mask
        return m

    @property
    def leading(self) -> bool:
        """Whether the seat to move leads (there is no play to beat)."""
        return self.trick is None

    def public(self) -> Observation:
        """What everyone may see of this observation: private fields at their hidden defaults.

        Cards shown to everyone (``known``) keep every seat's entry but the observer's own, which the
        observer does not need told; the engine's own spectator view (``observe(None)``) has them all.
        """
        hidden: dict[str, Any] = {f.name: f.default for f in fields(self) if not f.metadata.get("public")}
        shown = tuple(e for e in self.exchanges if e.get("type") == ExchangeEvent.GIVE or e.get("public"))
        hidden["exchanges"] = tuple(
            e if e.get("shown") or e.get("public") else {k: v for k, v in e.items() if k != "cards"} for e in shown
        )
        return replace(self, **hidden)

    # --- the JSON form -------------------------------------------------------------------------------------
    def _cards(self, mask: int) -> list[str]:
        if self.ev is not None:
            return [token(c) for c in self.ev.sort_cards(mask)]
        return [token(c) for c in bits(mask)]

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready dict: cards as notation, the second deck's copy marked ``'`` (``3D'``)."""
        cards = self._cards
        trick = self.trick
        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules,
            "phase": self.phase,
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "dealt_sizes": list(self.dealt_sizes),
            "to_move": self.to_move,
            "trick": None
            if trick is None
            else {"seat": self.trick_seat, "cards": cards(trick.mask), "kind": trick.kind},
            "passed": list(self.passed),
            "required_card": " ".join(cards(self.required)) if self.required else None,
            "lead_elsewhere": self.lead_elsewhere,
            "must_answer": self.must_answer,
            "must_play": self.must_play,
            "finished": list(self.finished),
            "history": [_entry_json(e, cards) for e in self.history],
            "trick_start": self.trick_start,
            "face_up": cards(self.face_up),
            "twos_low": self.twos_low,
            "known_cards": {str(s): cards(k) for s, k in enumerate(self.known) if k},
            "swap_offer": cards(self.swap_offer) if self.swap_offer else None,
            "stock_size": self.stock_size,
            "is_over": self.is_over,
            "result": self.result.to_dict() if self.result is not None else None,
            "round": self.round,
            "rounds": self.rounds,
            "points_target": self.points_target,
            "dealer": self.dealer,
            "roles": list(self.roles) if self.roles is not None else None,
            "totals": list(self.totals),
            "exchanges": [dict(e) for e in self.exchanges],
            "decision": self.decision.to_dict() if self.decision is not None else None,
            "shootout": self.shootout,
            "standings": list(self.standings) if self.standings is not None else None,
            "places": list(self.places) if self.places is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rules: Ruleset) -> Observation:
        """The observation a :meth:`to_json` dict describes (plain notation without copy marks reads too)."""
        try:
            players = int(data.get("players") or rules.players)
            twos_low = bool(data.get("twos_low", False))
            ev = rules.engine_for(players, twos_low=twos_low)
            seat = data.get("seat")
            hand = _mask(data.get("hand"))
            trick = data.get("trick")
            top = None
            if trick:
                tm = _mask(trick["cards"])
                if tm & hand:  # plain notation: a card on the table is not the copy in the hand
                    tm = held_copies(tm, ~hand & ev.pack)
                top = ev.classify(tm)
                if top is None:
                    raise BigTwoError(f"the trick {' '.join(trick['cards'])} is not a combination under {rules.name!r}")
            history = tuple(_entry_from_json(e, ev) for e in data.get("history", ()))
            known = [0] * players
            for s, cs in (data.get("known_cards") or {}).items():
                known[int(s)] = _mask(cs)
            result = data.get("result")
            decision = data.get("decision")
            return cls(
                seat=seat,
                players=players,
                rules=data.get("rules", rules.name),
                phase=Phase(data.get("phase", Phase.OVER if data.get("is_over") else Phase.PLAY)),
                hand=hand,
                hand_sizes=tuple(data.get("hand_sizes", ())),
                dealt_sizes=tuple(data.get("dealt_sizes", ())),
                to_move=data.get("to_move"),
                trick=top,
                trick_seat=trick["seat"] if trick else None,
                passed=tuple(data.get("passed", ())),
                required=_mask(data.get("required_card")) & hand if data.get("required_card") else 0,
                lead_elsewhere=bool(data.get("lead_elsewhere", False)),
                must_answer=bool(data.get("must_answer", False)),
                must_play=bool(data.get("must_play", False)),
                finished=tuple(data.get("finished", ())),
                history=history,
                trick_start=int(data.get("trick_start", 0)),
                face_up=_mask(data.get("face_up")),
                twos_low=twos_low,
                known=tuple(known),
                swap_offer=_mask(data.get("swap_offer")),
                stock_size=int(data.get("stock_size", 0)),
                is_over=bool(data.get("is_over", False)),
                result=RoundResult(
                    list(result["finishing_order"]),
                    list(result["scores"]),
                    list(result["cards_left"]),
                    list(result.get("details", [])),
                    bool(result.get("team_tie", False)),
                )
                if result
                else None,
                round=int(data.get("round", 0)),
                rounds=data.get("rounds"),
                points_target=data.get("points_target"),
                dealer=data.get("dealer"),
                roles=tuple(data["roles"]) if data.get("roles") is not None else None,
                totals=tuple(data.get("totals", ())),
                exchanges=tuple(dict(e) for e in data.get("exchanges", ())),
                decision=Decision.from_dict(decision, int(seat)) if decision and seat is not None else None,
                shootout=int(data.get("shootout", 0)),
                standings=tuple(data["standings"]) if data.get("standings") is not None else None,
                places=tuple(data["places"]) if data.get("places") is not None else None,
                ev=ev,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise BigTwoError(f"not an observation: {type(e).__name__} {e}") from None


_DEFAULTS = {f.name: f.default for f in fields(Observation)}


def as_observation(rules: Ruleset, obs: Observation | Mapping[str, Any]) -> Observation:
    """The typed observation of one that crossed a process boundary as its JSON form (an Observation as it is).
    The engine's own functions take an :class:`Observation` only; read JSON with :meth:`Observation.from_json`."""
    return obs if isinstance(obs, Observation) else Observation.from_json(obs, rules)


def _mask(value: Any) -> int:
    if not value:
        return 0
    if isinstance(value, str):
        value = value.split()
    return mask_of_tokens(value)


def _entry_json(e: HistoryEntry, cards: Any) -> dict[str, Any]:
    p = e.play
    out: dict[str, Any] = {"seat": e.seat, "action": EntryAction.PASS if p.is_pass else EntryAction.PLAY}
    if not p.is_pass:
        out["cards"] = cards(p.mask)
        out["kind"] = p.kind
    if e.note:
        out["note"] = e.note
    return out


def _entry_from_json(d: Mapping[str, Any], ev: Any) -> HistoryEntry:
    if d["action"] == EntryAction.PASS:
        return HistoryEntry(int(d["seat"]), PASS, d.get("note"))
    mask = _mask(d["cards"])
    p = ev.classify(mask)
    if p is None:
        raise BigTwoError(f"{' '.join(d['cards'])} in the history is not a combination")
    return HistoryEntry(int(d["seat"]), p, d.get("note"))
