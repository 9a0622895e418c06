"""What a seat may ask the table about its own turn: a hint, whether its selection may be played, its legal plays.

Every answer goes to the asking seat's connection alone, in the players' words (names, card faces, plurals,
no citations: :mod:`bigtwo.words`), and is computed from what that seat may know: a hint is the ``heuristic``
bot's choice and reason from the seat's own observation (as the terminal's hint), the legal plays come from
the same observation, and an explanation is the engine's ruling on the seat's own move at its own turn (a
ruling that depends only on the seat's cards and the public table). Nothing here reads another seat's cards.
"""

from __future__ import annotations

from typing import Any

from bigtwo.actions import Action, Answer, DecisionKind, action_text
from bigtwo.bots import BOTS, make
from bigtwo.cards import CardSet, to_mask, token
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.exchange import legal_exchange_choices, new_kind_answers
from bigtwo.i18n import _, ngettext
from bigtwo.legal import distinct_plays, legal_plays_from_observation
from bigtwo.match import Match
from bigtwo.observation import Observation, as_observation
from bigtwo.rules.ruleset import Ruleset
from bigtwo.server.botpool import worker_rules
from bigtwo.server.views import question_words
from bigtwo.words import Wording, faces

HINT_BOT = "heuristic"
LEGAL_SHOWN = 120  # plays listed at most (the count says how many there are)


def _faces(ev: Any, mask: int) -> str:
    return faces(ev.sort_cards(mask))


def _tokens(ev: Any, mask: int) -> list[str]:
    return [token(c) for c in ev.sort_cards(mask)]


def describe(rules: Ruleset, obs: Observation, action: Action | CardSet, words: Wording) -> str:
    """A play, a pass or an answer as the table words it: ``5♦ 5♥ (a pair of 5s)``, ``pass``, ``keep``."""
    ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
    if isinstance(action, Play):
        if action.is_pass:
            return "pass"
        shown = _faces(ev, action.mask)
        if action.kind == "single":
            return shown
        return f"{shown} ({words.render(ev.describe(action), opens=False)})"
    if (
        isinstance(action, Answer)
        and action.kind == DecisionKind.TRADE
        and action.word == "offer"
        and action.to is not None
    ):
        give, want = _faces(ev, action.mask), _faces(ev, action.want)
        return f"offer {give} for {want} to {words.object(action.to)}"
    if isinstance(action, Answer) and action.kind == DecisionKind.ASK:
        return question_words(action.word, words)
    mask = action.mask if isinstance(action, CardSet | Answer) else 0
    if mask:
        return _faces(ev, mask)
    word = action.word if isinstance(action, Answer) else ""
    return words.render(word, opens=False) if word else "decline"


def _answer(rules: Ruleset, obs: Observation, action: Action, words: Wording) -> dict[str, Any]:
    """An action as the client can take it: the cards to select, or the word to answer."""
    ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
    if isinstance(action, Play):
        return {"action": "pass" if action.is_pass else "play", "cards": _tokens(ev, action.mask)}
    if action.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER, DecisionKind.BID) and (
        action.mask or action.kind == DecisionKind.GIVE
    ):
        return {"action": "cards", "cards": _tokens(ev, action.mask)}
    if action.kind in (DecisionKind.TRADE, DecisionKind.REQUEST) and action.mask:
        # cards of another seat named: the answer as text
        return {"action": "answer", "answer": action_text(action), "cards": []}
    return {"action": "answer", "answer": action.word or "decline", "cards": []}


def hint(rules: Ruleset, obs: Observation, words: Wording, seed: int) -> dict[str, Any]:
    """The heuristic bot's suggestion for the seat's turn, with its reason (the greedy bot's, said so, when the
    heuristic is not installed)."""
    if not obs.is_my_turn:
        return {"kind": "hint", "ok": False, "text": _("It is not your turn: a hint is for your own turn.")}
    name = HINT_BOT if HINT_BOT in BOTS else "greedy"
    bot = make(name, seed=seed)
    explain = getattr(bot, "explain", None)
    if callable(explain):
        choice, why = explain(rules, obs)
    else:
        choice, why = bot.choose(rules, obs), None
    shown = describe(rules, obs, choice, words)
    if name != HINT_BOT:
        text = _("Greedy suggestion (no heuristic bot installed): {play}: the lowest legal choice.").format(play=shown)
    else:
        text = _("Hint: {play}").format(play=shown) + (f": {words.render(why, opens=False)}" if why else "")
    return {"kind": "hint", "ok": True, "text": text, **_answer(rules, obs, choice, words)}


def explain(match: Match, seat: int, cards: list[str], words: Wording) -> dict[str, Any]:
    """Whether ``cards`` may be played (or given) now by ``seat``, and why, in words."""
    rules = match.rules
    ev = rules.engine_for(match.n)
    try:
        mask = to_mask(" ".join(cards)) if cards else 0
    except BigTwoError as e:
        return {"kind": "explain", "ok": False, "text": words.render(e)}
    if match.to_move != seat or match.is_over:
        # what a combination is may still help; a single card is only itself
        kind = ev.classify(mask) if mask else None
        combination = kind is not None and kind.kind != "single"
        if kind is not None and combination:
            said = words.play_words(words.render(ev.describe(kind), opens=False), kind.kind)
            text = _("It is not your turn; {cards} is {what}.").format(cards=_faces(ev, mask), what=said)
        else:
            text = _("It is not your turn.")
        return {"kind": "explain", "ok": False, "text": text}
    d = match.pending
    if d is not None:
        if d.answered_by_options:
            options = " or ".join(d.options)
            text = _("This decision is answered with a word: {options}.").format(options=options)
            return {"kind": "explain", "ok": False, "text": text}
        reason = match.why_not(CardSet.from_mask(mask))
        if reason is None:
            shown = _faces(ev, mask) if mask else _("Declining")
            return {"kind": "explain", "ok": True, "text": _("{cards} answers the decision.").format(cards=shown)}
        return {"kind": "explain", "ok": False, "text": words.render(reason)}
    if not mask:
        return {"kind": "explain", "ok": False, "text": _("Select cards first, or pass.")}
    reason = match.why_not(CardSet.from_mask(mask))
    if reason is not None:
        return {"kind": "explain", "ok": False, "text": words.render(reason)}
    g = match.game
    assert g is not None
    play = ev.classify(mask)
    what = _faces(ev, mask)
    if play is not None and play.kind != "single":
        what = f"{what} ({words.play_words(words.render(ev.describe(play, detail=True), opens=False), play.kind)})"
    if g.trick is not None:
        text = _("{cards} beats {top}: legal.").format(cards=what, top=_faces(ev, g.trick.mask))
        return {"kind": "explain", "ok": True, "text": text}
    return {"kind": "explain", "ok": True, "text": _("{cards}: a legal lead.").format(cards=what)}


def legal(rules: Ruleset, obs: Observation, words: Wording, limit: int = LEGAL_SHOWN) -> dict[str, Any]:
    """The seat's legal plays (or its decision's word answers) now: the first ``limit``, and how many."""
    if not obs.is_my_turn:
        return {"kind": "legal", "ok": False, "text": _("It is not your turn."), "plays": [], "count": 0}
    d = obs.decision
    if d is not None:
        if d.answered_by_options:
            words_ = list(d.options)
        elif d.kind in (DecisionKind.TRADE, DecisionKind.REQUEST):
            # offers and requests name cards of other seats: far too many to list (an offer of 3 cards for 3:
            # millions), so only the words are
            words_ = list(d.options)
            plays = [{"action": "answer", "answer": w, "cards": [], "text": w} for w in words_]
            n = len(plays)
            if d.kind == DecisionKind.TRADE:
                listed = ngettext(
                    "{n} answer, and offers of cards (not listed): {why}",
                    "{n} answers, and offers of cards (not listed): {why}",
                    n,
                )
            else:
                listed = ngettext(
                    "{n} answer, and requests of cards (not listed): {why}",
                    "{n} answers, and requests of cards (not listed): {why}",
                    n,
                )
            text = listed.format(n=n, why=words.render(d.reason))
            return {"kind": "legal", "ok": True, "text": text, "plays": plays, "count": len(plays)}
        elif d.kind == DecisionKind.BID:
            words_ = [action_text(a) for a in new_kind_answers(rules, obs)]  # pass, and each card that may bid
        elif d.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
            select = ngettext(
                "Select {n} card from your hand to answer: {why}",
                "Select {n} cards from your hand to answer: {why}",
                d.count,
            )
            text = select.format(n=d.count, why=words.render(d.reason))
            return {"kind": "legal", "ok": True, "text": text, "plays": [], "count": 0}
        else:
            words_ = [c for c in legal_exchange_choices(rules, obs) if isinstance(c, str)]
        said = (
            (lambda w: question_words(w, words))
            if d.kind == DecisionKind.ASK
            else (lambda w: words.render(w, opens=False))
        )
        plays = [{"action": "answer", "answer": w, "cards": [], "text": said(w)} for w in words_]
        n = len(plays)
        text = ngettext("{n} answer", "{n} answers", n).format(n=n)
        return {"kind": "legal", "ok": True, "text": text, "plays": plays, "count": n}
    options = distinct_plays(legal_plays_from_observation(rules, obs))
    shown: list[dict[str, Any]] = []
    for p in options[:limit]:
        shown.append({**_answer(rules, obs, p, words), "text": describe(rules, obs, p, words)})
    text = ngettext("{n} legal play", "{n} legal plays", len(options)).format(n=len(options))
    if len(options) > limit:
        text += " " + _("(the first {n} shown)").format(n=limit)
    return {"kind": "legal", "ok": True, "text": text, "plays": shown, "count": len(options)}


def in_place(kind: str, rules: Ruleset, obs: Observation, words: Wording, seed: int) -> dict[str, Any]:
    """A hint (``kind`` "hint", the heuristic's choice with ``seed``) or the legal plays ("legal")."""
    return hint(rules, obs, words, seed) if kind == "hint" else legal(rules, obs, words)


def in_worker(kind: str, text: str, obs: dict[str, Any], words: Wording, seed: int) -> dict[str, Any]:
    """:func:`in_place`, in a bot worker process, for a table whose turns can offer too many plays to list on
    the event loop (``text``: the ruleset as the workers get it, ``obs``: the seat's observation as JSON)."""
    rules = worker_rules(text)
    return in_place(kind, rules, as_observation(rules, obs), words, seed)
