"""What each client is sent: a seat's view from ``Match.observe(seat)``, a spectator's from ``observe(None)``.

Nothing here reads the engine's hidden state of a round in progress. A seat's view is its own observation (the
engine decides what a seat may know) plus the results of finished rounds and its legal answers, computed from that
observation alone. A spectator's view is the engine's spectator observation: the fields the observation marks
public, every private one at its hidden default, so a field added to the observation is hidden until it is marked
public. A finished round is public as a whole: its score table shows the hands that were left (the record, which
anyone may download once the match ends, holds them too).

The engine's sentences (scoring details, decision and exchange reasons) are also sent in the players' words
(``said``): names for seats with verbs agreeing ("You pay 4", "Ann pays 4"), the cards' faces, plurals, and no
citations of the rule texts (:mod:`bigtwo.words`); the engine's own text stays beside them for programs. So are
the word answers a seat may give (``answers_said`` beside ``answers``: a stealing president's questions as asked)
and, in a steal by questions, the questions asked so far with their answers (each ``decision.answers`` entry's
``said``): the page shows these words and sends the answers back. Which way play goes round the table
(``direction``) is sent in words once a view, in the room's summary beside it (``room.direction_said``, there
before the match starts: :func:`~bigtwo.words.direction_said`'s ``long``, ``short``, ``arrow`` and ``listed``, None
at two players), and the replay carries the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bigtwo.actions import DecisionKind
from bigtwo.cards import SUIT_CHARS, SUIT_SYMBOLS, token
from bigtwo.exchange import legal_exchange_choices
from bigtwo.i18n import _, current
from bigtwo.legal import pass_is_legal
from bigtwo.match import Match, RoundRecord
from bigtwo.observation import Phase
from bigtwo.words import Wording

# decisions whose answers are words the table lists (cards are picked from the hand instead)
WORD_ANSWERS = (DecisionKind.ASK, DecisionKind.DEMAND, DecisionKind.SURRENDER, DecisionKind.REPLY, DecisionKind.GRANT)
# decisions answered with cards picked from the hand (or typed, for an offer) or one of their options' words
CARD_OR_WORD = (DecisionKind.BID, DecisionKind.REQUEST, DecisionKind.TRADE)


def round_entry(rec: RoundRecord, players: int) -> dict[str, Any]:
    """One finished round of the score table: its finishing order, the cards left (the cards themselves: the
    round is over), the payments and the engine's details. The same for every viewer."""
    assert rec.result is not None
    game = rec.game
    left: list[list[str]] = []
    if game is not None:
        ev = game.ev
        left = [[token(c) for c in ev.sort_cards(game.hand(s).mask)] for s in range(players)]
    return {
        "round": rec.index,
        "finishing_order": list(rec.result.finishing_order),
        "cards_left": list(rec.result.cards_left),
        "hands_left": left,
        "scores": list(rec.result.scores),
        "details": list(rec.result.details),
        "totals": list(rec.totals or []),
    }


def rounds_done(match: Match, words: Wording | None = None) -> list[dict[str, Any]]:
    """The score table: each finished round (:func:`round_entry`) with its details in the viewer's words."""
    words = words or Wording(None)
    out = []
    for rec in match.completed:
        entry = round_entry(rec, match.n)
        out.append({**entry, "said": [words.render(d) for d in entry["details"]]})
    return out


VIEW_ROUNDS = 20  # finished rounds a view lists (the latest): a view stays the same size however long the match


class ScoreTable:
    """The score table of a match, built once per finished round (and once per viewer for its words): a finished
    round never changes, and every view sends the whole table."""

    def __init__(self) -> None:
        self._match: Match | None = None
        # each round's words by viewer: (seat, language)
        self._rounds: dict[int, tuple[RoundRecord, dict[str, Any], dict[tuple[int | None, str], list[str]]]] = {}

    def rows(self, match: Match, seat: int | None, words: Wording) -> list[dict[str, Any]]:
        """The latest :data:`VIEW_ROUNDS` finished rounds (a view must not grow with the match: the record has
        them all, and the totals and sums of places count every round)."""
        if match is not self._match:  # a rebuilt match (a restart, an undo): its rounds are new objects
            self._match, self._rounds = match, {}
        out = []
        for rec in match.completed[-VIEW_ROUNDS:]:
            held = self._rounds.get(rec.index)
            if held is None or held[0] is not rec:
                held = self._rounds[rec.index] = (rec, round_entry(rec, match.n), {})
            said = held[2].get((seat, current()))
            if said is None:
                said = held[2][seat, current()] = [words.render(d) for d in held[1]["details"]]
            out.append({**held[1], "said": said})
        return out


def match_view(
    match: Match,
    seat: int,
    words: Wording | None = None,
    tricks: Sequence[int] = (),
    done: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The seat's own observation, plus what the table needs to show and offer it (``done``: the score table,
    when the caller keeps it)."""
    obs = match.observe(seat)
    view = _extras(match, obs.to_json(), words or Wording(seat), tricks, done)
    d = obs.decision
    if match.to_move == seat:
        if d is None and obs.phase == Phase.PLAY:
            view["can_pass"] = pass_is_legal(match.rules, obs)
        elif d is not None and (d.answered_by_options or d.kind in CARD_OR_WORD):
            # the deal's choices, a face-down hand's; beside cards, a bid's, a request's, a trade's words (the
            # offers themselves are too many to list: the cards are picked)
            view["answers"] = list(d.options)
        elif d is not None and d.kind in WORD_ANSWERS:
            view["answers"] = [c for c in legal_exchange_choices(match.rules, obs) if isinstance(c, str)]
    if view["answers"] is not None and d is not None:
        # each answer as the table words it (a question as asked), beside the answer itself that is sent back
        w = words or Wording(seat)
        said = (lambda a: question_words(a, w)) if d.kind == DecisionKind.ASK else (lambda a: w.render(a, opens=False))
        view["answers_said"] = [said(a) for a in view["answers"]]
    return view


def spectator_view(
    match: Match, words: Wording | None = None, tricks: Sequence[int] = (), done: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Public information only: the engine's observation for nobody's seat."""
    return _extras(match, match.observe(None).to_json(), words or Wording(None), tricks, done)


def _extras(
    match: Match, view: dict[str, Any], words: Wording, tricks: Sequence[int], done: list[dict[str, Any]] | None
) -> dict[str, Any]:
    rules = match.rules
    shown = done if done is not None else rounds_done(match, words)[-VIEW_ROUNDS:]
    view["rounds_done"] = shown
    view["rounds_earlier"] = len(match.completed) - len(shown)  # finished rounds not listed (the oldest)
    # each seat's sum of finishing places over every finished round (rules scored by places show it as the total)
    orders = [list(rec.result.finishing_order) for rec in match.completed if rec.result is not None]
    view["place_sums"] = [sum(o.index(s) + 1 if s in o else 0 for o in orders) for s in range(match.n)]
    view["waiting"] = waiting(match)
    view["can_pass"] = False
    view["answers"] = None
    view["answers_said"] = None
    # where each trick of the round began in the history (public: it follows from the plays and passes)
    view["trick_starts"] = list(tricks)
    view["ranks_only"] = rules.ranks_only  # scored by finishing order: places, not points
    view["suit_order"] = rules.suit_order
    view["direction"] = rules.direction  # which way round the table seat n+1 sits: how the page lays the seats out
    if view["decision"] is not None:
        view["decision"]["said"] = words.render(view["decision"]["reason"])
        for a in view["decision"].get("answers", ()):  # a stealing president's questions so far, and their answers
            a["said"] = asked_words(a, words)
    for e in view["exchanges"]:
        if e.get("reason"):
            e["said"] = words.render(e["reason"], opens=False)
    if view["result"] is not None:
        view["result"]["said"] = [words.render(d) for d in view["result"]["details"]]
    return view


def waiting(match: Match) -> dict[str, Any] | None:
    """Who the table waits for and for what kind of decision (public: everyone sees who is thinking)."""
    seat = match.to_move
    if seat is None:
        return None
    d = match.pending
    if d is not None:
        return {"seat": seat, "kind": d.kind, "count": d.count}
    return {"seat": seat, "kind": "play"}


# --- a stealing president's questions ---------------------------------------------------------------------------
def _asking(question: str, words: Wording) -> str | None:
    """What a question (``have 3D``, ``highest D``, ``any S``: :func:`bigtwo.exchange.legal_questions`) asks for,
    after the verb: ``for their highest ♦``, ``whether they have 3♦``; None for a question the table does not
    know."""
    head, _sep, arg = question.partition(" ")
    if head == "have" and arg:
        return _("whether they have {card}").format(card=words.token(arg))
    said = {
        ("lowest", ""): _("for their lowest card"),
        ("highest", ""): _("for their highest card"),
        ("highest", "pair"): _("for their highest pair"),
    }.get((head, arg))
    if said is None and len(arg) == 1 and arg in SUIT_CHARS:
        suit = arg if words.ascii else SUIT_SYMBOLS[SUIT_CHARS.index(arg)]
        said = {
            "highest": _("for their highest {suit}"),
            "lowest": _("for their lowest {suit}"),
            "any": _("whether they have any {suit}"),
            "two": _("whether they have two {suit} or more"),
            "give": _("them to give a {suit} of their choice"),
        }.get(head)
        said = said.format(suit=suit) if said is not None else None
    return said


def question_words(question: str, words: Wording) -> str:
    """A stealing president's question as the table says it, with card faces and suit symbols: ``ask for their
    highest ♦`` (the hint, the list of answers and the page's menu of questions all say it so)."""
    asking = _asking(question, words)
    return _("ask {what}").format(what=asking) if asking else question


def asked_words(entry: dict[str, Any], words: Wording) -> str:
    """A question asked earlier in the steal and its answer (``{"question", "answer", "cards"}``), as the
    decision lists them: ``Asked for their highest ♦: took K♦``, ``Asked whether they have any ♠: no``."""
    question, answer, cards = entry["question"], entry["answer"], entry.get("cards") or []
    asking = _asking(question, words)
    took = _("took {cards}").format(cards=words.cards(cards)) if cards else ""
    if answer == "takes" or not answer:
        reply = took or _("nothing")
    else:
        reply = f"{answer}, {took}" if took else answer
    return _("Asked {what}: {reply}").format(what=asking or repr(question), reply=reply)
