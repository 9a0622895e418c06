"""A card table without a screen: one human seat, computer players, a round or a match, and its log.

The full-screen table (:mod:`bigtwo.cli.tui`) draws what this holds and sends it the human's keys; everything
a key does (play, pass, answer an exchange, hint, explain, undo, save) is a method here, so it can be tested
without a terminal. Bots see only their seat's observation.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape

from bigtwo.actions import WORD_DECISIONS, DecisionKind, Must, Word
from bigtwo.bots import BOTS, make
from bigtwo.bots.spec import BotSpec, split_lineup
from bigtwo.bots.strength import strongest_bot
from bigtwo.bounds import LARGE_HAND, max_hand_size
from bigtwo.cards import CardSet, CardsLike, card, held_copies, to_mask
from bigtwo.cli.words import Wording, card_face, faces, plural
from bigtwo.combos.play import PASS, Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.exchange import NEUTRAL, SUIT_NAMES, exchanges_before_first_round, legal_exchange_choices
from bigtwo.game import Game
from bigtwo.i18n import _
from bigtwo.legal import distinct_plays
from bigtwo.match import Match
from bigtwo.observation import ExchangeEvent, Note, Observation, Phase
from bigtwo.record import Record, record_of, save_record
from bigtwo.rules.choices import ExchangeMode
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset
from bigtwo.words import table_names

HUMAN = "you"
DEFAULT_BOT = "heuristic"  # the strongest quick bot that plays every table (the learned bot has weights for a few)


def available_bots() -> list[str]:
    """Every registered bot (new bots appear here as soon as their module registers them)."""
    make("random")  # importing the registry's modules registers the built-in bots
    return sorted(BOTS)


def parse_bot_spec(text: str) -> BotSpec:
    """``name`` or ``name(option=value, ...)``, read as the arena reads a lineup, checked against the registry;
    a network's weights file (``runs/x/best.npz``) is the learned bot playing it."""
    try:
        spec = BotSpec.parse(text)
    except ValueError as e:
        raise BigTwoError(f"{e}, e.g. search(iterations=400)") from None
    known = available_bots()
    if spec.name not in known:
        raise BigTwoError(f"no bot named {spec.name!r}; bots: {', '.join(known)}")
    return spec


def default_bot_spec(rules: Ruleset, players: int, delay: float) -> BotSpec:
    """The table's default opponent: the strongest bot that answers within ``delay`` seconds at this table
    (:func:`bigtwo.bots.registry.strongest_bot`; a searching bot thinks for the whole delay)."""
    name, options = strongest_bot(rules, players, delay)
    text = name + (f"({', '.join(f'{k}={v!r}' for k, v in options.items())})" if options else "")
    return BotSpec(name, options, text)


def bot_specs(text: str | None, others: int, default: BotSpec | None = None) -> list[BotSpec]:
    """The bots for ``others`` seats: one spec for all, or one per seat (none: ``default``)."""
    specs = [parse_bot_spec(s) for s in split_lineup(text or "")] or [default or BotSpec(DEFAULT_BOT)]
    if len(specs) == 1:
        specs = specs * others
    if len(specs) != others:
        raise BigTwoError(f"--bots lists {len(specs)} players; this table needs {others} (or one name)")
    return specs


@dataclass
class Hint:
    """A suggestion for the human: the answer, its cards (to preselect), and why."""

    answer: Any
    cards: int
    text: str
    source: str


def _explanation(bot: Any, rules: Ruleset, obs: Observation) -> tuple[Any, str | None]:
    """A bot's choice and its reason: ``explain(rules, obs) -> (choice, reason)`` where the bot has it."""
    explain = getattr(bot, "explain", None)
    if callable(explain):
        choice, why = explain(rules, obs)
        return choice, str(why) if why else None
    return bot.choose(rules, obs), None


class TableSession:
    """One human seat against computer players, over a round (a Game) or a match (a Match)."""

    def __init__(
        self,
        rules: Ruleset,
        players: int | None = None,
        seat: int = 0,
        bots: str | None = None,
        seed: int | None = None,
        rounds: int | None = None,
        points: int | None = None,
        date: str | None = None,
        ascii_cards: bool = False,
        delay: float = 0.0,
        names: Sequence[str] | None = None,
    ):
        """``bots``: one spec for every computer player or one a seat; None: the strongest bot that answers
        within ``delay`` seconds at this table (``delay`` only chooses it: the table waits, not the session).
        ``names``: the computer players' names, one each in seat order (default :data:`TABLE_NAMES`)."""
        self.rules = rules
        self.seed = seed if seed is not None else random.SystemRandom().randrange(10**9)
        self.match: Match | None = None
        self.single: Game | None = None
        # a single round: a bare Game, unless the rules exchange cards before the first play (a pass-around,
        # auctions, free trading), which only a match deals with; then a match of one round
        self.one_round = rounds is None and points is None
        if self.one_round and exchanges_before_first_round(rules):
            rounds = 1
        if rounds is not None or points is not None:
            self.match = Match(rules, players=players, seed=self.seed, rounds=rounds, points=points)
            n = self.match.n
        else:
            self.single = Game(rules, players=players, seed=self.seed)
            n = self.single.n
        self.n = n
        if not 0 <= seat < n:
            raise BigTwoError(f"--seat {seat} is not a seat at a {n}-player table (0-{n - 1})")
        self.seat = seat
        self.words = Wording(seat, names=table_names(seat, n, names), ascii_cards=ascii_cards)
        others = [s for s in range(n) if s != seat]
        default = default_bot_spec(rules, n, delay) if not bots else None
        self.specs = dict(zip(others, bot_specs(bots, n - 1, default), strict=True))
        self.bots = {s: spec.build(self.seed * 31 + i) for i, (s, spec) in enumerate(self.specs.items())}
        self.date = date or datetime.date.today().isoformat()
        self.log: list[str] = []
        self.log_cut: int | None = None  # an undo took the log back to this many lines (the screens redraw it)
        self._line_of: dict[tuple[int, int], int] = {}  # (game, history index) -> the log's length before it
        cards = max_hand_size(rules, n)
        if cards > LARGE_HAND:
            # the server refuses such tables; here it is the player's own machine, so the table opens, but slowly
            self.log.append(
                f"[yellow]These rules can give one player {cards} cards at a table of {n}: a turn can offer "
                "hundreds of thousands of plays, so the computer players, the hints and the list of your plays "
                "may take many seconds a move.[/yellow]"
            )
        self.saved_to: Path | None = None
        self._logged: dict[int, int] = {}  # id(game) -> actions logged
        self._result_logged: dict[int, int] = {}  # id(game) -> history length when its result was logged
        self._round, self._events = -1, 0  # the round logged, and its exchange events logged
        self._deals = 0  # the round's deal-time answers logged
        self.sync_log()

    # --- reading ------------------------------------------------------------------------------------
    @property
    def shown_match(self) -> Match | None:
        """The match the table speaks of (rounds, totals, standings): None for a single round, even one played
        as a match of one for the exchange before its first play."""
        return None if self.one_round else self.match

    @property
    def game(self) -> Game | None:
        """The game being played (None while a match's deal or exchanges are being decided)."""
        if self.match is not None:
            return self.match.game if self.match.phase in (Phase.PLAY, Phase.OVER) else None
        return self.single

    @property
    def phase(self) -> str:
        if self.match is not None:
            return self.match.phase
        assert self.single is not None
        return "over" if self.single.is_over else "play"

    @property
    def is_over(self) -> bool:
        """The whole thing is over: the round, or the match."""
        return self.phase == Phase.OVER

    @property
    def round_over(self) -> bool:
        g = self.game
        return self.is_over or (g is not None and g.is_over)

    @property
    def to_move(self) -> int | None:
        if self.match is not None:
            return self.match.to_move
        assert self.single is not None
        return None if self.single.is_over else self.single.to_move

    @property
    def human_to_move(self) -> bool:
        return self.to_move == self.seat

    @property
    def bot_to_move(self) -> bool:
        s = self.to_move
        return s is not None and s != self.seat

    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the human's) may know now: what its bot is given."""
        s = self.seat if seat is None else seat
        if self.match is not None:
            return self.match.observe(s)
        assert self.single is not None
        return self.single.observe(s)

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """The JSON form of :meth:`observe`, as the table's screens read it."""
        return self.observe(seat).to_json()

    def name(self, s: int) -> str:
        """What the table calls a seat: 'You', 'Ben'."""
        return self.words.name(s)

    def label(self, s: int) -> str:
        """A seat with its player: 'You', 'Ben (greedy)'."""
        return _("You") if s == self.seat else f"{self.name(s)} ({self.specs[s]})"

    def say(self, message: object) -> str:
        """An engine message (an error, a reason, a scoring detail) in the table's words, as rich markup."""
        return self.words.markup(message)

    def cards_markup(self, tokens: list[str]) -> str:
        """Cards in record notation as coloured markup in the table's notation."""
        return cards_markup(tokens, self.words.ascii)

    def describe(self, choice: Any) -> str:
        """A play, a pass or an exchange answer in the table's words (plain text)."""
        return _describe(self, choice)

    def record_names(self) -> list[str]:
        """The players as the record names them: ``you``, and each computer player's name with its bot
        (``Ana (learned)``), as the server's records name its bots."""
        return [HUMAN if s == self.seat else self.label(s) for s in range(self.n)]

    @property
    def decision(self) -> dict[str, Any] | None:
        """The human's pending decision, if any: at the deal, in an exchange, an auction or trading, or a
        face-down hand."""
        if self.match is None or self.match.pending is None or not self.human_to_move:
            return None
        return self.match.observe(self.seat).to_json()["decision"]

    def hand(self) -> list[Any]:
        """The human's cards now, lowest first under the rules."""
        ev = self.rules.engine_for(self.n)
        return ev.sort_cards(self.observe().hand)

    def legal_choices(self) -> list[Any]:
        d = self.decision
        if d is not None:
            if d["kind"] in WORD_DECISIONS or self.unlisted() is not None:
                return list(d["options"])
            return legal_exchange_choices(self.rules, self.observe())
        g = self.game
        return distinct_plays(g.legal_plays()) if g is not None and self.human_to_move else []

    def unlisted(self) -> str | None:
        """What :meth:`legal_choices` leaves out, in words: offers and requests name other players' cards, far
        too many to list (an offer of 3 cards for 3 has millions); None when every answer is listed."""
        d = self.decision
        if d is None or d["kind"] not in (DecisionKind.TRADE, DecisionKind.REQUEST) or not d["count"]:
            return None
        if d["kind"] == DecisionKind.TRADE:
            return f"or an offer of up to {plural(d['count'], 'card')} for as many named cards of another player"
        return f"or a request for up to {plural(d['count'], 'card')}"

    # --- acting -------------------------------------------------------------------------------------
    def act(self, answer: CardsLike | Play | str, call_last_card: bool = True) -> Any:
        """The human's play, pass or exchange answer (the action taken); raises (IllegalPlay, CardParseError)
        leaving no change."""
        if not self.human_to_move:
            raise IllegalPlay("it is not your turn")
        if self.match is not None:
            out = self.match.apply(answer, call_last_card, seat=self.seat)
        else:
            assert self.single is not None
            out = self.single.play(answer, call_last_card=call_last_card)
        self.sync_log()
        return out

    def bot_step(self) -> bool:
        """Let the computer player to move act once; False when it is not a computer's turn."""
        s = self.to_move
        if s is None or s == self.seat:
            return False
        answer = self.bots[s].choose(self.rules, self.observe(s))
        self._apply_bot(s, answer)
        return True

    def bot_to_think(self) -> tuple[int, Any] | None:
        """The computer player to move and its observation, for a choice made elsewhere (another thread): the
        bot reads only the observation, and :meth:`bot_answer` applies its answer if the table is still there."""
        s = self.to_move
        if s is None or s == self.seat:
            return None
        return s, self.observe(s)

    def bot_choose(self, seat: int, obs: Any) -> Any:
        """The seat's bot's answer to ``obs`` (touches the bot, never the table)."""
        return self.bots[seat].choose(self.rules, obs)

    def bot_answer(self, seat: int, obs: Any, answer: Any) -> bool:
        """Apply a bot's answer to ``obs``; False (nothing done) when the table has moved on since (an undo, a
        new game)."""
        if self.to_move != seat or self.observe(seat) != obs:
            return False
        self._apply_bot(seat, answer)
        return True

    def _apply_bot(self, s: int, answer: Any) -> None:
        if self.match is not None:
            self.match.apply(answer, seat=s)
        else:
            assert self.single is not None
            self.single.play(answer)
        self.sync_log()

    def only_answer(self) -> Any | None:
        """The human's exchange decision when it has a single legal answer (made for them, and shown)."""
        if self.decision is None:
            return None
        legal = self.legal_choices()
        return legal[0] if len(legal) == 1 and self.unlisted() is None else None

    # --- deal-time requests: a match asks them as decisions, a single round offers them until play begins ------
    def _deal_choice(self, kind: str) -> bool:
        d = self.decision
        return d is not None and d["kind"] == kind

    def redeal_reasons(self) -> list[str]:
        """Why the human may ask for a new deal now (002 Reshuffling), in the table's words; empty when they
        may not."""
        if self._deal_choice("redeal"):
            d = self.decision
            assert d is not None
            return [self.words.render(d["reason"])]
        if self.single is None:
            return []
        return [self.words.render(r) for r in self.single.redeal_reasons(self.seat)]

    def request_redeal(self) -> None:
        if self._deal_choice("redeal"):
            self.act("redeal")
            return
        if self.single is None or not self.redeal_reasons():
            raise IllegalPlay("you may not ask for a new deal now")
        self.single.request_redeal(self.seat)
        self._logged.pop(id(self.single), None)
        self.log.append(_("[b]You ask for a new deal[/b]: the cards are shuffled and dealt again."))
        self.sync_log()

    @property
    def can_swap(self) -> bool:
        """The human holds the lead card and may swap it for the leftover card shown (002 Variations)."""
        if self._deal_choice("swap"):
            return True
        g = self.single
        if g is None or not g.can_swap_leftover:
            return False
        from bigtwo.record.replay import swap_holder

        return swap_holder(g) == self.seat

    def swap(self) -> None:
        if self._deal_choice("swap"):
            self.act("swap")
            return
        if not self.can_swap:
            raise IllegalPlay("there is no leftover card for you to swap")
        assert self.single is not None
        offer = self.single.swap_offer
        self.single.swap_leftover()
        taken = self.cards_markup(str(offer).split())
        self.log.append(_("You take the leftover card {cards} for the lead card.").format(cards=taken))
        self.sync_log()

    def undo(self) -> bool:
        """Take back the human's last turn (and the computer players' answers since); False if there is none."""
        g = self.game
        if g is None or (self.match is not None and g.is_over):
            return False
        hist = g.history
        mine = [i for i, (s, _p) in enumerate(hist) if s == self.seat]
        if not mine:
            return False
        while len(g.history) > mine[-1]:
            g.undo()
        # the taken-back plays leave the log: it reads as the round now stands
        cut = self._line_of.get((id(g), mine[-1]))
        if cut is not None:
            del self.log[cut:]
            self.log_cut = cut if self.log_cut is None else min(cut, self.log_cut)
        self.log.append(_("[dim]You take back your turn.[/dim]"))
        self._logged[id(g)] = len(g.history)
        return True

    # --- help ---------------------------------------------------------------------------------------
    def explain(self, cards: CardsLike) -> tuple[bool, str]:
        """Whether the selected cards may be played (or given) now, and why in the table's words (plain text)."""
        mask = to_mask(cards)
        d = self.decision
        words = self.words
        if d is not None:
            assert self.match is not None
            reason = self.match.why_not(CardSet.from_mask(mask))
            if reason is None:
                ev = self.rules.engine_for(self.n)
                shown = faces(ev.sort_cards(mask), words.ascii) if mask else _("Declining")
                return True, _("{cards} answers the decision.").format(cards=shown)
            return False, words.render(reason)
        g = self.game
        if g is None or not self.human_to_move:
            return False, _("It is not your turn.")
        if not mask:
            return False, _("Select cards first (space), or press p to pass.")
        reason = g.why_not(CardSet.from_mask(mask))
        if reason is not None:
            return False, words.render(reason)
        p = g.ev.classify(mask) if not mask & ~g.hand(self.seat).mask else g.ev.classify(_own(g, mask, self.seat))
        what = faces(g.ev.sort_cards(mask), words.ascii)
        if p is not None and p.kind != Kind.SINGLE:
            said = words.play_words(words.render(g.ev.describe(p, detail=True), opens=False), p.kind)
            what = f"{what} ({said})"
        if g.trick is not None:
            top = faces(g.ev.sort_cards(g.trick.mask), words.ascii)
            return True, _("{cards} beats {top}: legal.").format(cards=what, top=top)
        return True, _("{cards}: a legal lead.").format(cards=what)

    def hint(self) -> Hint:
        """The heuristic bot's suggestion and its reason (plain text in the table's words); without that bot,
        the greedy bot's, labelled as such."""
        if not self.human_to_move:
            raise IllegalPlay("it is not your turn")
        obs = self.observe()
        if "heuristic" in available_bots():
            bot = make("heuristic", seed=self.seed)
            choice, why = _explanation(bot, self.rules, obs)
            source = "heuristic"
        else:
            bot, why, source = make("greedy"), None, "greedy"
            choice = bot.choose(self.rules, obs)
        cards = _mask_of(choice)
        shown = _describe(self, choice)
        if source == "greedy":
            text = _("Greedy suggestion (no heuristic bot installed): {play}: the lowest legal choice.").format(
                play=shown
            )
        else:
            text = _("Hint: {play}").format(play=shown) + (f": {self.words.render(why, opens=False)}" if why else "")
        return Hint(choice, cards, text, source)

    # --- records ------------------------------------------------------------------------------------
    def record(self) -> Record:
        played: Game | Match = self.match if self.match is not None else self.single  # type: ignore[assignment]
        return record_of(played, names=self.record_names(), date=self.date)

    def save(self, path: str | Path) -> Path:
        p = save_record(self.record(), path)
        self.saved_to = p
        return p

    def default_path(self) -> str:
        kind = "match" if self.match is not None else "game"
        return f"bigtwo-{self.rules.name}-{kind}-{self.seed}.txt"

    # --- the log ------------------------------------------------------------------------------------
    def sync_log(self) -> None:
        """Append what happened since the last call: deals, exchanges, plays, passes, results."""
        if self.match is None:
            assert self.single is not None
            self._sync_game(self.single)
            return
        m = self.match
        for idx in range(max(self._round, 0), len(m.records)):
            rec = m.records[idx]
            if idx != self._round:
                self._round, self._events, self._deals = idx, 0, 0
                deals = self.words.said(rec.dealer, _("You deal."), _("{who} deals."))
                if self.one_round:
                    self.log.append(deals)
                elif m.max_rounds:
                    heading = _("[b]Round {n} of {total}[/b]: {deals}")
                    self.log.append(heading.format(n=idx + 1, total=m.max_rounds, deals=deals))
                else:
                    self.log.append(_("[b]Round {n}[/b]: {deals}").format(n=idx + 1, deals=deals))
                if rec.roles:
                    roles = ", ".join(f"{self.name(s)} {r}" for s, r in enumerate(rec.roles) if r != NEUTRAL)
                    self.log.append(f"Roles from the last round: {escape(roles)}.")
            for a in rec.deal_answers[self._deals :]:
                self.log.append(self._deal_line(a))
            self._deals = len(rec.deal_answers)
            if rec.exchange is None:
                continue
            events = rec.exchange.events_for(self.seat)
            for e in events[self._events :]:
                line = self._event_line(e)
                if line:
                    self.log.append(line)
            self._events = len(events)
            if rec.game is None:
                continue
            for g in [rec.game, *rec.shootouts]:
                if id(g) not in self._logged:
                    if g is not rec.game:
                        self.log.append(_("[b]A five-card shoot-out settles the tied teams.[/b]"))
                    elif rec.first is not None:
                        self.log.append(
                            self.words.said(
                                rec.first,
                                _("You won the last round and lead."),
                                _("{who} won the last round and leads."),
                            )
                        )
                self._sync_game(g)

    def _deal_line(self, a: dict[str, Any]) -> str:
        """A deal-time answer as a log line: who asked for a new deal, swapped, or kept the deal."""
        who, word = a["seat"], a["answer"]
        if word == Word.REDEAL:
            return f"[b]{self.words.subject(who, 'asks')} for a new deal[/b]: the cards are shuffled and dealt again."
        if word == Word.SWAP:
            return f"{self.words.subject(who, 'takes')} the leftover card for the lead card."
        return f"[dim]{self.words.subject(who, 'keeps')} the deal.[/dim]"

    def _event_line(self, e: dict[str, Any]) -> str | None:
        """An exchange event as a log line (markup): names, plurals, the table's card faces, no citations."""
        frm, to = int(e.get("from", -1)), int(e.get("to", -1))
        w = self.words
        if e["type"] == ExchangeEvent.GIVE:
            if self.seat in (frm, to) and e["reason"].startswith("stolen"):
                return None  # the question's answer shows it
            cards = f": {self.cards_markup(e['cards'])}" if "cards" in e else ""
            return (
                f"{w.subject(frm, 'gives')} {plural(e['count'], 'card')} to {w.object(to)}{cards} "
                f"[dim]({w.markup(e['reason'], opens=False)})[/dim]"
            )
        if e["type"] == ExchangeEvent.QUESTION:
            taken = f" {self.cards_markup(e['cards'])}" if e["cards"] else ""
            question, answer = w.markup(e["question"], opens=False), w.markup(e["answer"], opens=False)
            return f"{w.subject(frm, 'asks')} '{question}': {answer}{taken}"
        if e["type"] == ExchangeEvent.SURRENDER:
            return f"{w.subject(frm, 'surrenders')} the highest cards."
        if e["type"] == ExchangeEvent.DECLINE:
            return f"{w.subject(frm, 'declines')} to surrender."
        if e["type"] == ExchangeEvent.DEMAND:
            return f"{w.subject(frm, 'demands')} the {w.markup(e['choice'], opens=False)} cards back."
        if e["type"] == ExchangeEvent.BID:
            return f"{w.subject(frm, 'bids')} {self.cards_markup(e['cards'])} for {self.cards_markup([e['card']])}."
        if e["type"] == ExchangeEvent.SOLD:
            paid = self.cards_markup(e["paid"])
            return f"[b]{w.subject(to, 'buys')} {self.cards_markup(e['cards'])}[/b] with {paid}, now on the table."
        if e["type"] == ExchangeEvent.UNSOLD:
            return f"[dim]Nobody bids for {self.cards_markup(e['cards'])}.[/dim]"
        if e["type"] == ExchangeEvent.OFFER:
            return (
                f"{w.subject(frm, 'offers')} {self.cards_markup(e['cards'])} to {w.object(to)} for "
                f"{self.cards_markup(e['want'])}."
            )
        if e["type"] == ExchangeEvent.REPLY:
            verb = "accepts" if e["answer"] == Word.ACCEPT else "declines"
            return f"{w.subject(frm, verb)} the offer."
        if e["type"] == ExchangeEvent.VOTE:
            return f"[dim]{w.subject(frm, 'lets')} trading end ({e['votes']} of {e['needed']}).[/dim]"
        if e["type"] == ExchangeEvent.TRADE_ENDED:
            if e.get("reason") == "play":
                return f"{w.subject(frm, 'ends')} trading to lead."
            return "Trading ends."
        if e["type"] == ExchangeEvent.REQUEST:
            return f"{w.subject(frm, 'asks')} {w.object(to)} for {self.cards_markup(e['cards'])}."
        if e["type"] == ExchangeEvent.GRANT:
            verb = "grants" if e["answer"] == Word.GRANT else "refuses"
            return f"{w.subject(frm, verb)} {self.cards_markup(e['cards'])} to {w.object(to)}."
        return None

    def _sync_game(self, g: Game) -> None:
        hist, notes = g.history, g.history_notes
        start = min(self._logged.get(id(g), 0), len(hist))
        last_play = {s: i for i, (s, p) in enumerate(hist) if not p.is_pass}
        out = set(g.finishing_order)
        w = self.words
        for i, ((s, p), note) in enumerate(zip(hist[start:], notes[start:], strict=True), start):
            self._line_of[(id(g), i)] = len(self.log)
            if p.is_pass:
                if note == Note.DREW:
                    said = w.said(s, _("You pass and draw a card"), _("{who} passes and draws a card"))
                elif note == Note.AUTO:
                    said = w.said(s, _("You pass (automatic skip)"), _("{who} passes (automatic skip)"))
                else:
                    said = w.said(s, _("You pass"), _("{who} passes"))
                self.log.append(f"[dim]{escape(said)}[/dim]")
            else:
                cards = self.cards_markup([str(c) for c in g.ev.sort_cards(p.mask)])
                more = ""  # the combination, and a called last card
                if p.kind != Kind.SINGLE:
                    more += f" [dim]{escape(w.play_words(w.render(g.ev.describe(p), opens=False), p.kind))}[/dim]"
                if note == Note.CALLED:
                    more += " " + _("[b]last card![/b]")
                if s in out and last_play[s] == i:
                    you, other = (
                        _("You play {cards}{more} [b]and go out![/b]"),
                        _("{who} plays {cards}{more} [b]and goes out![/b]"),
                    )
                else:
                    you, other = _("You play {cards}{more}"), _("{who} plays {cards}{more}")
                self.log.append(w.said(s, you, other, cards=cards, more=more))
        self._logged[id(g)] = len(hist)
        if g.is_over and g.result is not None and self._result_logged.get(id(g)) != len(hist):
            self._result_logged[id(g)] = len(hist)
            res = g.result
            order = ", ".join(f"{place}. {self.name(s)}" for place, s in enumerate(res.finishing_order, 1))
            self.log.append(_("[b]Round over[/b]: {order}").format(order=order))
            if not self.rules.ranks_only:
                scores = "  ".join(f"{self.name(s)} {res.scores[s]:+d}" for s in range(self.n))
                self.log.append(_("Scores: {scores}").format(scores=scores))
            for line in res.details:
                self.log.append(f"[dim]{w.markup(line)}[/dim]")


def decision_question(s: TableSession, d: dict[str, Any]) -> tuple[str, str]:
    """What a decision asks the human, as markup (``Give your lowest 2 cards to Seat 3``), and why (the rule in
    the table's words, dim and parenthesised, or empty): each table adds how to answer it."""
    w = s.words
    k = d["count"]
    cards = plural(k, "card")
    kind = d["kind"]
    why = f" [dim]({w.markup(d['reason'], opens=False)})[/dim]" if d.get("reason") else ""
    if kind == DecisionKind.GIVE:
        noun = SUIT_NAMES[d["suit"]] if d.get("suit") else "card"  # any spade, your lowest 2 cards
        what = noun if k == 1 else f"{k} {noun}s"
        which = "any" if d.get("must", Must.ANY) == Must.ANY else f"your {d['must']}"
        return f"Give {which} {what} to {w.object(d['to'])}", why
    if kind == DecisionKind.SURRENDER:
        return f"Surrender your {k} highest {'card' if k == 1 else 'cards'} to {w.object(d['to'])}?", why
    if kind == DecisionKind.ASK:
        return f"Steal {cards} from {w.object(d['from'])} by questions.", why
    if kind == DecisionKind.DEMAND:
        return f"Demand the lowest {cards} of {w.object(d['from'])}?", why
    if kind == DecisionKind.REDEAL:
        return _("Ask for a new deal?"), why
    if kind == DecisionKind.SWAP:
        return _("Take the leftover card for your lead card?"), why
    return escape(str(d)), why


def bound_text(d: dict[str, Any]) -> str:
    """What a stealer bound to a suit by 'any <suit>' (``d["suit"]``) must take before asking anything else."""
    return f"You must take {plural(d['committed'], SUIT_NAMES[d['suit']])} first."


def _own(g: Game, mask: int, seat: int) -> int:
    """With two decks, the copies of ``mask``'s cards that ``seat`` holds."""
    return held_copies(mask, g.hand(seat).mask)


def _mask_of(choice: Any) -> int:
    if isinstance(choice, Play):
        return choice.mask
    if isinstance(choice, CardSet):
        return choice.mask
    return 0


def _describe(session: TableSession, choice: Any) -> str:
    g = session.game
    ev = g.ev if g is not None else session.rules.engine_for(session.n)
    w = session.words
    if isinstance(choice, Play):
        if choice.is_pass:
            return "pass"
        shown = faces(ev.sort_cards(choice.mask), w.ascii)
        return f"{shown} ({w.render(ev.describe(choice), opens=False)})" if choice.kind != Kind.SINGLE else shown
    if isinstance(choice, CardSet):
        return faces(ev.sort_cards(choice.mask), w.ascii) if choice else "decline"
    return w.render(choice, opens=False) if str(choice) else "decline"


def procedure_text(s: TableSession, d: dict[str, Any]) -> str | None:
    """An auction, trading, request or face-down-hand decision as markup: what to type, and why."""
    w = s.words
    kind = d["kind"]
    why = f" [dim]({w.markup(d['reason'], opens=False)})[/dim]" if d.get("reason") else ""
    other = w.object(d["from"]) if d.get("from") is not None else ""
    if kind == DecisionKind.LOOK:
        return (
            "Your hand lies face down: type [bold]look[/bold] (then you must play, or the hand takes the last free "
            "place) or [bold]pass[/bold] without looking."
        )
    if kind == DecisionKind.BID:
        best = f"; the best bid is {s.cards_markup(d['best'])} by {other}" if d.get("best") else ""
        rule = "higher than its rank" if s.rules.exchange == ExchangeMode.HIGHER_BID_AUCTION else "of any rank"
        return (
            f"{s.cards_markup(d['cards'])} is on auction{best}: type a card {rule} to bid (above the best bid), or "
            "[bold]pass[/bold]."
        )
    if kind == DecisionKind.TRADE:
        play = ", or [bold]play[/bold] to end trading and lead" if "play" in d.get("options", ()) else ""
        if not d["count"]:
            return f"Free trade: you have no offer left: type [bold]done[/bold]{play}.{why}"
        return (
            f"Free trade: type an offer such as [bold]5D for 2S to seat 1[/bold] (as many cards each way), or "
            f"[bold]done[/bold] to let trading end{play}.{why}"
        )
    if kind == DecisionKind.REPLY:
        return (
            f"{w.subject(d['from'], 'offers')} {s.cards_markup(d['cards'])} for your "
            f"{s.cards_markup(d['want'])}: type [bold]accept[/bold] or [bold]decline[/bold]."
        )
    if kind == DecisionKind.REQUEST:
        return (
            f"Ask {other} for up to {plural(d['count'], 'card')} of theirs back: type the cards, or "
            f"[bold]none[/bold] to let them choose.{why}"
        )
    if kind == DecisionKind.GRANT:
        return (
            f"{w.subject(d['from'], 'asks')} you for {s.cards_markup(d['want'])}: type [bold]grant[/bold] or "
            f"[bold]refuse[/bold]."
        )
    return None


def cards_markup(tokens: list[str], ascii_cards: bool = False) -> str:
    """Rich markup for cards given in record notation: the table's faces, red suits in red."""
    out = []
    for t in tokens:
        c = card(t.rstrip("'"), copy=1 if t.endswith("'") else 0)
        colour = "magenta" if c.is_joker else ("red" if c.suit in (0, 2) else "bold")
        out.append(f"[{colour}]{card_face(c, ascii_cards)}[/{colour}]")
    return " ".join(out)


__all__ = [
    "DEFAULT_BOT",
    "PASS",
    "BotSpec",
    "Hint",
    "TableSession",
    "available_bots",
    "bot_specs",
    "card_face",
    "faces",
    "parse_bot_spec",
    "procedure_text",
]
