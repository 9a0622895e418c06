"""Play a record through the engine, checking every fact it states.

The deal comes from the seed (or, for a round dealt by hand, from the record's hands); every request, exchange
answer and play goes through the same API a player uses, so an illegal one is refused with the engine's
reason; the deal, the automatic passes, the cards drawn, the finishing order, the scores, the totals and the
result the record states must all be what the engine computes. Any difference raises :class:`RecordError`
naming the record's line (or JSON path).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from bigtwo.actions import DecisionKind, Word
from bigtwo.cards import DECK_SIZE, CardSet, bits
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.game import Game
from bigtwo.match import Match
from bigtwo.observation import Note, Phase
from bigtwo.record.build import _is_ranking, notation, result_text
from bigtwo.record.model import Action, Deal, Record, RecordError, RecordKind, Round, seat_token
from bigtwo.record.notation import read_cards
from bigtwo.record.trades import answer_of, decision_other
from bigtwo.words import plural


def _fail(problem: str, at: Any) -> RecordError:
    return RecordError(problem, line=getattr(at, "line", None), where=getattr(at, "where", None))


def hands_from_notation(hands: list[str]) -> list[int]:
    """Masks for hands in record notation; an unmarked card already taken goes to its other copy."""
    used = 0
    out = []
    for h in hands:
        m = read_cards(h)
        for i in bits(m & used):
            alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
            if not used >> alt & 1 and not m >> alt & 1:
                m = (m & ~(1 << i)) | (1 << alt)
        used |= m
        out.append(m)
    return out


def _check_hands(ev: Any, masks: Any, claimed: list[str], what: str, at: Any) -> None:
    got = [notation(ev, m) for m in masks]
    if len(got) != len(claimed):
        raise _fail(f"{what}s: {len(claimed)} listed for {plural(len(got), 'seat')}", at)
    for s, (g, c) in enumerate(zip(got, claimed, strict=True)):
        if g != c:
            raise _fail(f"{what} of {seat_token(s)} is {g or 'empty'}, not {c or 'empty'}", at)


def play_deal(
    game: Game,
    deal: Deal,
    act: Callable[[Any, bool, str | None], Any],
    on_action: Callable[[Game, Action], None] | None = None,
) -> None:
    """Play ``deal``'s tricks on ``game`` through ``act(cards_or_pass, call_last_card)``, checking each step."""
    k = len(game.history)
    last: Any = deal
    for trick in deal.tricks:
        for i, a in enumerate(trick):
            last = a
            who = seat_token(a.seat)
            if a.seat >= game.n:
                raise _fail(f"{who} is not at this {game.n}-player table", a)
            hist, notes = game.history, game.history_notes
            if a.note == Note.AUTO:
                if i == 0:
                    raise _fail("an automatic pass cannot lead a trick", a)
                if k >= len(hist) or hist[k][0] != a.seat or not hist[k][1].is_pass or notes[k] != Note.AUTO:
                    raise _fail(f"the automatic turn skip did not pass for {who} here", a)
                k += 1
                if on_action:
                    on_action(game, a)
                continue
            if k < len(hist):
                raise _fail(f"the record leaves out {seat_token(hist[k][0])}'s automatic pass before this", a)
            if game.is_over:
                raise _fail("the deal is already over", a)
            if game.to_move != a.seat:
                raise _fail(f"{who} is not to move; {seat_token(game.to_move)} is", a)
            lead = game.trick is None
            if lead and i > 0:
                raise _fail(f"{who} leads a new trick here: the trick must start a new numbered line", a)
            if not lead and i == 0:
                top = notation(game.ev, game.trick.mask) if game.trick else ""
                raise _fail(f"the trick before is not over ({top} by {seat_token(game.trick_seat or 0)})", a)
            before = game.hand(a.seat).mask
            try:
                act(
                    "pass" if a.cards is None else CardSet.from_mask(read_cards(a.cards)), a.note == Note.CALLED, a.note
                )
            except BigTwoError as e:
                raise _fail(f"{who}: {a.cards or 'pass'}: {getattr(e, 'reason', e)}", a) from None
            note = game.history_notes[k]
            if note != a.note:
                said: dict[str | None, str] = {
                    None: "no note",
                    Note.DREW: "{drew}",
                    Note.CALLED: "{last card}",
                    Note.AUTO: "{auto}",
                    Note.FORFEIT: "{gave up}",
                }
                raise _fail(f"{who}'s action has {said[note]} in the engine, {said[a.note]} in the record", a)
            if note == Note.DREW and a.drew is not None:
                drawn = notation(game.ev, game.hand(a.seat).mask & ~before)
                if drawn != a.drew:
                    raise _fail(f"{who} drew {drawn}, not {a.drew}", a)
            k += 1
            if on_action:
                on_action(game, a)
    if k < len(game.history):
        raise _fail(f"the record leaves out {seat_token(game.history[k][0])}'s automatic pass at the end", last)
    res = game.result
    last_line = getattr(last, "line", None)
    result_at = SimpleNamespace(line=deal.order_line or last_line, where=f"{deal.where}.order" if deal.where else None)
    scores_at = SimpleNamespace(
        line=deal.scores_line or last_line, where=f"{deal.where}.scores" if deal.where else None
    )
    if deal.order is None or deal.scores is None:
        if res is not None:
            raise _fail("the deal is over but the record gives no [Order] and [Scores]", last)
        return
    if res is None:
        raise _fail("the record gives a result but the deal is not over", result_at)
    if list(res.finishing_order) != deal.order:
        got = " ".join(seat_token(s) for s in res.finishing_order)
        raise _fail(f"the finishing order is {got}, not {' '.join(seat_token(s) for s in deal.order)}", result_at)
    if list(res.scores) != deal.scores:
        got = " ".join(f"{x:+d}" for x in res.scores)
        raise _fail(f"the scores are {got}, not {' '.join(f'{x:+d}' for x in deal.scores)}", scores_at)


def _start_checks(game: Game, r: Round) -> None:
    ev = game.ev
    face_up = notation(ev, game.face_up) or None
    if face_up != r.face_up:
        raise _fail(f"the cards face up are {face_up or 'none'}, not {r.face_up or 'none'}", r)
    stock = game.stock_size or None
    if stock != r.stock:
        raise _fail(f"the stock holds {stock or 0} cards, not {r.stock or 0}", r)


def _replay_game(record: Record, rules: Any, on_action: Callable[[Game, Action], None] | None) -> Game:
    if len(record.rounds) != 1:
        raise _fail("a game record holds exactly one round", record.rounds[1] if record.rounds else None)
    r = record.rounds[0]
    d = r.game
    n = record.players
    for part, present in (
        ("totals", r.totals is not None),
        ("exchanges", bool(r.trades) or r.exchanged is not None),
        ("roles", r.roles is not None),
        ("shoot-outs", bool(r.shootouts)),
    ):
        if present:
            raise _fail(f'a single round has no {part}: use [Type "match"]', r)
    try:
        if record.seed is not None:
            g = Game(rules, players=n, seed=record.seed, dealer=r.dealer, first=r.lead)
            for q in r.requests:
                try:
                    if q.kind == DecisionKind.REDEAL:
                        g.request_redeal(q.seat)
                    else:
                        holder = swap_holder(g)
                        if holder != q.seat:
                            raise _fail(f"{seat_token(q.seat)} may not swap: the lead card's holder may", q)
                        g.swap_leftover()
                except IllegalPlay as e:
                    raise _fail(e.reason, q) from None
        else:
            if r.requests:
                raise _fail("requests need a seeded deal ([Seed])", r.requests[0])
            drawn = [a.drew for a in d.actions if a.note == Note.DREW]
            if any(x is None for x in drawn):
                raise _fail("a round dealt by hand must say which card each {drew} drew", r)
            masks = hands_from_notation(d.hands + [x for x in drawn if x])
            stock = masks[n:]
            # the stock's undrawn cards are not recorded: any unseen cards stand in for them
            used = 0
            for m in masks:
                used |= m
            spare = bits(rules.engine_for(n).pack & ~used)
            missing = (r.stock or 0) - len(stock)
            if missing > len(spare) or missing < 0:
                raise _fail(f"a stock of {r.stock or 0} cards does not fit with the hands and the cards drawn", r)
            stock += [1 << c for c in spare[: max(missing, 0)]]
            g = Game(rules, hands=masks[:n], first=r.lead, dealer=r.dealer, stock=stock or None)
    except RecordError:
        raise
    except BigTwoError as e:
        raise _fail(str(e), r) from None
    _check_hands(g.ev, g.dealt, d.hands, "the deal", d if d.line or d.where else r)
    _start_checks(g, r)

    def act_on_game(cards: Any, called: bool, note: str | None = None) -> None:
        if g.look_pending and (cards != "pass" or note == Note.FORFEIT):
            g.look()  # the Horse Game: a hand is looked at before it plays (or is given up)
        g.play(cards, call_last_card=called)

    play_deal(g, d, act_on_game, on_action)
    res = g.result
    want = "*"
    if res is not None:
        ranking = _is_ranking(rules)
        want = result_text(res.finishing_order, None if ranking else res.scores, ranking)
    if record.result != want:
        raise RecordError(f"the result is {want!r}, not {record.result!r}", line=record.line_of.get("Result"))
    return g


def swap_holder(g: Game) -> int | None:
    """The seat that may swap the leftover card for the lead card: whoever holds the lead card."""
    return g.swap_seat if g.swap_offer is not None else None


def _replay_requests(m: Match, r: Round) -> None:
    """A round's deal-time requests: each taken when its seat is asked; every other offer was kept."""
    pending = list(r.requests)
    while m.phase == Phase.DEAL:
        d = m.pending
        assert d is not None
        if pending and (pending[0].seat, pending[0].kind) == (d.seat, d.kind):
            m.apply(pending.pop(0).kind)
        else:
            m.apply(Word.KEEP)
    if pending:
        q = pending[0]
        why = "play has begun" if m.phase not in (Phase.DEAL,) else "it is not offered"
        asked = "a new deal" if q.kind == DecisionKind.REDEAL else "the swap"
        raise _fail(
            f"{seat_token(q.seat)} may not ask for {asked}: {why}",
            q,
        )


def _replay_match(record: Record, rules: Any, on_action: Callable[[Game, Action], None] | None) -> Match:
    try:
        m = Match(rules, players=record.players, seed=record.seed, rounds=record.max_rounds, points=record.points)
    except BigTwoError as e:
        raise RecordError(str(e), line=record.line_of.get("Players"), where="players") from None
    ev = rules.engine_for(m.n)
    for i, r in enumerate(record.rounds):
        if i >= len(m.records):
            raise _fail(f"the match was over after round {len(m.records)}", r)
        rec = m.records[i]
        _replay_requests(m, r)
        if r.dealer != rec.dealer:
            raise _fail(f"round {i + 1} is dealt by {seat_token(rec.dealer)}, not {seat_token(r.dealer)}", r)
        if r.roles != rec.roles:
            raise _fail(f"the roles are {rec.roles}, not {r.roles}", r)
        _check_hands(ev, rec.dealt, r.game.hands, "the deal", r)
        for t in r.trades:
            d = m.pending if m.current is rec and m.phase == Phase.EXCHANGE else None
            if d is None:
                raise _fail("no exchange decision is pending here", t)
            if d.seat != t.seat:
                raise _fail(f"{seat_token(t.seat)} has no decision to make; {seat_token(d.seat)} has", t)
            other = t.other if d.kind in (DecisionKind.BID, DecisionKind.TRADE) else decision_other(d)
            if d.kind != t.kind or (-1 if other is None else other) != t.other:
                raise _fail(f"the decision here is {d.kind!r} with {seat_token(other or 0)}, not {t.kind!r}", t)
            try:
                m.apply(answer_of(t), seat=t.seat)
            except BigTwoError as e:
                raise _fail(getattr(e, "reason", str(e)), t) from None
        if rec.game is None:
            if r.game.tricks or r.exchanged is not None or r.totals is not None or i + 1 < len(record.rounds):
                raise _fail("the exchanges of this round are not finished", r.trades[-1] if r.trades else r)
            continue
        if r.exchanged is not None:
            _check_hands(ev, rec.hands, r.exchanged, "after the exchanges the hand", r)
        elif r.trades:
            raise _fail("a round with exchanges states the [Hands] after them", r)
        if r.lead != rec.first:
            raise _fail(f"the free lead is {_opt(rec.first)}, not {_opt(r.lead)}", r)
        start = rec.game.clone()
        while start.history:
            start.undo()
        _start_checks(start, r)

        def act(cards: Any, called: bool, note: str | None = None) -> None:
            d = m.pending
            if d is not None and d.kind == DecisionKind.LOOK:
                # the Horse Game: a play, or a hand given up, was looked at first; another pass was blind
                blind = cards == "pass" and note != Note.FORFEIT
                m.apply(Word.PASS if blind else Word.LOOK)
                if blind:
                    return
            m.apply(cards, call_last_card=called)

        play_deal(rec.game, r.game, act, on_action)
        for k, sd in enumerate(r.shootouts):
            if k >= len(rec.shootouts):
                raise _fail("no shoot-out was played here", sd)
            sg = rec.shootouts[k]
            _check_hands(sg.ev, sg.dealt, sd.hands, "the shoot-out hand", sd)
            play_deal(sg, sd, act, on_action)
        if rec.result is not None and len(rec.shootouts) > len(r.shootouts):
            raise _fail(f"the record leaves out shoot-out {len(r.shootouts) + 1}", r)
        if r.totals is None:
            if rec.totals is not None:
                raise _fail("the round is over but the record gives no [Totals]", r)
        elif r.totals != rec.totals:
            got = " ".join(f"{x:+d}" for x in rec.totals) if rec.totals else "not yet known"
            raise _fail(f"the totals are {got}, not {' '.join(f'{x:+d}' for x in r.totals)}", r)
        if rec.result is None and i + 1 < len(record.rounds):
            raise _fail(f"round {i + 1} is not over, yet the record goes on", record.rounds[i + 1])
    if len(m.records) > len(record.rounds) and m.records[len(record.rounds)].is_complete:
        # rounds decided at the deal follow at once; a record must still state them
        raise RecordError(f"the record leaves out round {len(record.rounds) + 1}, decided at the deal")
    want = "*"
    if m.is_over:
        ranking = _is_ranking(rules)
        want = result_text(m.standings(), m.places if ranking else m.totals, ranking)
    if record.result != want:
        raise RecordError(f"the result is {want!r}, not {record.result!r}", line=record.line_of.get("Result"))
    return m


def _opt(seat: int | None) -> str:
    return "none" if seat is None else seat_token(seat)


def replay(record: Record, on_action: Callable[[Game, Action], None] | None = None) -> Game | Match:
    """Rebuild the game or match a record describes, checking it; ``on_action`` sees each action as played."""
    rules = record.ruleset()
    if record.kind == RecordKind.GAME:
        return _replay_game(record, rules, on_action)
    return _replay_match(record, rules, on_action)
