"""Issue 16: the procedures the texts describe, each from the text's own words (sources in ../shared/seeds/).

004 = the card club's Zheng Shangyou (Higher-Bid Auction, Free-Bid Auction, Trading, "Horse Game");
003 = the written house code (3.2.3.2 requests, 3.3 free trade).
"""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bigtwo import Game, Match, load_rules
from bigtwo.actions import Answer
from bigtwo.bots import make
from bigtwo.cards import CardSet, to_mask
from bigtwo.combos.play import PASS
from bigtwo.exchange import Exchange, extreme_cards
from bigtwo.record import format_text, parse_text, record_of, replay
from tests.rulesets import PROCEDURES

ZSY = load_rules("zheng-shangyou")


def hands(*texts):
    return [to_mask(t) for t in texts]


def exchange(rules, texts, table="", previous=None, dealer=3):
    return Exchange(rules, hands(*texts), previous, dealer, table=to_mask(table))


def cards(mask):
    return str(CardSet.from_mask(mask))


# --- auctions --------------------------------------------------------------------------------------------


def test_004_higher_bid_auction():
    # 004 Higher-Bid Auction: "All the 'out' cards are auctioned off and may only be bought with a card higher
    # than their rank. If two people offer the same price, then the person who offered first gets priority. When
    # a card is bought, the payment card is in turn auctioned off, and the cycle continues until nobody will pay
    # for the auctioned card."
    rules = ZSY.replace(exchange="higher-bid-auction", jokers=0)
    ex = exchange(rules, ["4D 9S KC", "6H 7C", "7H 9D TH", "TS 3D"], table="5D")
    d = ex.pending
    assert (d.seat, d.kind, cards(d.cards)) == (0, "bid", "5D")
    assert "does not outbid" in ex.why_not("4D")  # not higher than a 5
    ex.decide("9S")
    d = ex.pending
    assert d.seat == 2 and cards(d.best) == "9S"  # seat 1 holds nothing above a 9: passed without asking
    assert "does not outbid" in ex.why_not("9D")  # the same price: the first offer keeps its priority
    ex.decide("pass")
    ex.decide("TS")  # seat 3
    ex.decide("pass")  # seat 0 could pay the KC, but passes: seat 3 buys the 5D for the TS
    d = ex.pending
    assert (d.seat, cards(d.cards)) == (0, "TS")  # the payment card is auctioned in turn
    ex.decide("KC")
    assert ex.is_done  # nobody can pay more than a K for the KC: the cycle ends
    assert [cards(h) for h in ex.hands] == ["4D 9S TS", "6H 7C", "7H 9D TH", "3D 5D"]
    assert cards(ex.table) == "KC"
    sold = [e for e in ex.events if e["type"] == "sold"]
    assert [(e["to"], e["cards"], e["paid"]) for e in sold] == [(3, ["5D"], ["TS"]), (0, ["TS"], ["KC"])]
    assert all(e in ex.events_for(1) for e in ex.events)  # bids are called out: everyone hears them


def test_004_free_bid_auction_any_price_for_a_fixed_number_of_rounds():
    # 004 Free-Bid Auction: "The 'out' cards may be bought at any price, and then the payment cards are again
    # auctioned off. The cycle continues for a fixed number of rounds, typically 3."
    rules = ZSY.replace(exchange="free-bid-auction", jokers=0)
    assert rules.auction_rounds == 3
    for rounds, left in ((1, "6H"), (2, "8C")):
        ex = exchange(rules.replace(auction_rounds=rounds), ["4D 9S", "6H 7C", "8C 9D", "TS 3D"], table="KD")
        ex.decide("4D")  # any price: a 4 may buy a king
        ex.decide("6H")  # a higher offer
        while not ex.is_done and ex.pending.cards == to_mask("KD"):
            ex.decide("pass")
        if rounds == 2:
            d = ex.pending
            assert cards(d.cards) == "6H"  # round 2: the payment is auctioned again
            ex.decide("pass")  # seat 0
            while ex.pending.seat != 2:
                ex.decide("pass")
            ex.decide("8C")
            while not ex.is_done:
                ex.decide("pass")
        assert ex.is_done and cards(ex.table) == left
        assert "KD" in cards(ex.hands[1])


# --- free trade ------------------------------------------------------------------------------------------

ZSY_TRADE = ZSY.replace(exchange="none", jokers=0, free_trade=True, free_trade_end="lead-card-or-vote")


def test_004_free_trading_keeps_hand_sizes_and_the_h3_holder_ends_it():
    # 004 Trading: "There is free trading (i.e. shout out what you want and what you have to offer) but players
    # must retain the number of cards. ... the person with the H3 plays it and unilaterally ends trading
    # immediately"
    ex = exchange(ZSY_TRADE, ["4D 5D 6D", "9S TC JC", "3H 8C 8D", "QS KS AS"])
    d = ex.pending
    assert (d.seat, d.kind, d.options) == (0, "trade", ("done",))
    assert "keep their sizes" in ex.why_not("4D 5D for 9S to seat 1")
    assert "another player" in ex.why_not("4D for 9S to seat 0")
    assert "not in another hand" in ex.why_not("4D for 5D to seat 1")  # one's own card
    ex.decide("4D for 9S to seat 1")
    d = ex.pending
    assert (d.seat, d.kind, cards(d.cards), cards(d.want)) == (1, "reply", "4D", "9S")
    ex.decide("accept")
    assert [h.bit_count() for h in ex.hands] == [3, 3, 3, 3]
    assert cards(ex.hands[0]) == "5D 6D 9S" and cards(ex.hands[1]) == "4D TC JC"
    ex.decide("done")  # seat 1 votes to end
    d = ex.pending
    assert d.seat == 2 and d.options == ("done", "play")  # seat 2 holds the 3H
    ex.decide("play")
    assert ex.is_done


def test_004_a_majority_vote_ends_free_trading_and_the_h3_holder_leads():
    # 004 Trading: "or a majority vote ends trading and forces the person with H3 to play"
    m = Match(ZSY_TRADE, players=4, seed=5, rounds=1)
    votes = 0
    while m.phase == "exchange":
        d = m.pending
        assert d.kind == "trade" and votes < 3
        m.apply("done")
        votes += 1
    assert votes == 3  # three of four
    assert m.phase == "play" and m.game.required_card == CardSet("3H")


def test_003_free_trade_ends_when_every_player_lets_it_end():
    # 003 section 3.3: "any trades whatsoever may be negotiated and carried out. The free trade phase cannot end
    # unless the local conservation of cards is satisfied." The code sets no end: when everyone lets it end.
    rules = load_rules("house-code").replace(free_trade=True, free_trade_cards=2)
    ex = exchange(rules, ["3D 4D 5D", "9S TS JS", "QH KH AH"], dealer=2)
    ex.decide("3D 4D for 9S TS to seat 1")  # two for two
    ex.decide("decline")
    for _ in range(2):
        ex.decide("done")
    assert not ex.is_done  # seat 0 offered since: its vote is not in
    ex.decide("done")
    assert ex.is_done and cards(ex.hands[0]) == "3D 4D 5D"


def test_003_requests_for_cards_back_are_granted_or_refused():
    # 003 section 3.2.3.2: "The bum may ask the president for any card or any two cards, and the president may
    # either grant or refuse each request." (after 3.2.3.1: the bum did not demand the lowest cards)
    rules = load_rules("president").replace(trade_requests=True)
    ex = exchange(
        rules,
        ["3D 4D 5D 6D 7D", "3C 4C 5C 6C 7C", "3H 4H 5H 6H 7H", "3S 4S 5S 2S AS"],
        previous=[0, 1, 2, 3],
    )
    ex.decide("surrender")  # the bum gives the 2S and AS
    ex.decide("any")  # and leaves the give-back to the president
    d = ex.pending
    assert (d.seat, d.kind, d.count, d.source) == (3, "request", 2, 0)
    ex.decide("AS")
    d = ex.pending
    assert (d.seat, d.kind, cards(d.want)) == (0, "grant", "AS")
    ex.decide("grant")
    d = ex.pending
    assert (d.seat, d.kind, d.count) == (3, "request", 1)
    ex.decide("2S")
    assert "does not hold" not in (ex.why_not("refuse") or "")
    ex.decide("refuse")
    ex.decide("none")
    d = ex.pending
    assert (d.seat, d.kind, d.count, d.must) == (0, "give", 1, "any")  # the president chooses the rest
    ex.decide("3D")
    while not ex.is_done:  # the vice-president and the vice-bum, plainly
        d = ex.pending
        if d.kind == "give":
            ex.decide(CardSet.from_mask(extreme_cards(ex.ev, ex.hand(d.seat), d.count, d.must)))
        else:
            ex.decide({"surrender": "surrender", "demand": "lowest"}[d.kind])
    assert "AS" in cards(ex.hands[3]) and "2S" in cards(ex.hands[0]) and "3D" in cards(ex.hands[3])
    # the requests are between the two: a neutral player hears nothing of them
    assert not [e for e in ex.events_for(2) if e["type"] in ("request", "grant")]


# --- the Horse Game --------------------------------------------------------------------------------------

HORSE = ZSY.replace(horse_game=2, players=6, exchange="none", jokers=0)
HORSE_HANDS = ["3D 9C", "4D 5H", "6S 8C", "4C 3S", "7D 7H", "5S 6D"]


def finish(g):
    while not g.is_over:
        if g.look_pending:
            g.look()
        g.play(g.legal_plays()[0])
    return g


def test_004_horse_game_face_down_hands_look_must_play():
    # 004 "Horse Game": "Deal 6 decks face down, assign alternating decks to each player, and pick a player to
    # start. Any player who picks up their deck to look at their cards must play, or else that deck gets last
    # place (or, if last place is taken, second-to-last place). Once a player has played, they can continue to
    # view their cards until the next person has played."
    assert [HORSE.owner(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    g = Game(HORSE, hands=HORSE_HANDS)
    assert g.to_move == 0 and g.required_card is None  # the dealer's left starts, with any play
    assert g.observe(0).hand and not g.observe(1).hand  # face down until looked at
    g.play("3D")
    assert g.look_pending and g.legal_plays() == [g.legal_plays()[0]] and g.legal_plays()[0].is_pass
    with pytest.raises(Exception, match="face down"):
        g.play("4D")
    assert g.observe(0).hand  # seat 0 played last: it may still look
    g.play("pass")  # seat 1 passes blind
    g.look()  # seat 2 looks: it must play now
    obs = g.observe(2)
    assert obs.hand and obs.must_play and not any(p.is_pass for p in g.legal_plays())
    g.play("8C")
    assert not g.observe(0).hand and g.observe(2).hand  # the next person played: seat 0's view ends
    g.look()  # seat 3 looks, and cannot beat the 8C: a pass gives the hand up
    assert [str(p) for p in g.legal_plays()] == ["pass"]
    g.play("pass")
    assert g.history_notes[-1] == "forfeit"
    g.look()  # seat 4 too
    g.play("pass")
    order = finish(g).result.finishing_order
    assert order[-1] == 3 and order[-2] == 4  # last place, then second-to-last
    assert g.result.places[3] == 6 and g.result.places[4] == 5


def test_004_horse_game_places_are_summed_per_person():
    # 004 "Horse Game": "The winner is determined by adding up their places (ex. add 1 for 1st place), and
    # seeing who has the lowest sum."
    m = Match(HORSE, players=6, seed=3, rounds=2)
    bots = [make("heuristic", seed=s) for s in range(6)]
    m.play_out(bots)
    res = m.result
    assert res.people_places == (sum(m.places[s] for s in (0, 2, 4)), sum(m.places[s] for s in (1, 3, 5)))
    assert res.people_places[res.people_standings[0]] == min(res.people_places)
    with pytest.raises(Exception, match="six hands"):
        Match(HORSE, players=4)


# --- properties: cards conserved, hidden information ---------------------------------------------------------

_TOKEN = re.compile(r"^(?:10|[2-9TJQKA])[DCHS]'?$|^[BR]J'?$")


def mentioned(data) -> int:
    """Every card an observation's JSON names anywhere (lists, questions, words)."""
    out = 0
    if isinstance(data, dict):
        for v in data.values():
            out |= mentioned(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= mentioned(v)
    elif isinstance(data, str):
        for word in data.replace(",", " ").split():
            if _TOKEN.match(word):
                out |= to_mask(word)
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PROCEDURES)), st.integers(0, 10_000))
def test_auctions_and_trading_conserve_cards_and_hide_what_is_not_shown(name, seed):
    """Random legal answers through two rounds: hands keep their sizes (at every step of an auction or a free
    trade, at the end of mandatory trading), the cards in hands and on the table are those dealt, and nothing a
    seat sees names a card in another hand that the seat never held, did not name itself (a question, a
    request, a card wanted: naming a card says nothing of where it is) and that a spectator (who sees only what
    is public) does not see too."""
    rules, n = PROCEDURES[name]()
    m = Match(rules, players=n, seed=seed, rounds=2)
    rng = random.Random(seed)
    held = [0] * n
    named = 0  # cards asked about, requested or wanted, by anyone
    sizes_kept = rules.exchange in ("none", "higher-bid-auction", "free-bid-auction")
    for _ in range(250):
        if m.is_over or (m.phase == "play" and m.current.index == 1):
            break
        ex = m.exchange
        if ex is not None and m.phase == "exchange":
            union, table = 0, ex.table
            for s in range(n):
                assert not union & ex.hands[s] and not table & ex.hands[s]
                union |= ex.hands[s]
                held[s] |= ex.hand(s)
            for e in ex.events:  # cards on their way to a seat (stolen, given back) are the seat's too
                if e["type"] == "give":
                    held[e["to"]] |= mentioned(e["cards"])
            dealt = ex.fresh()
            start = dealt.table
            for h in dealt.hands:
                start |= h
            assert union | table == start
            if sizes_kept:
                assert [h.bit_count() for h in ex.hands] == [h.bit_count() for h in dealt.hands]
        if m.phase == "play":
            rec = m.current
            assert [h.bit_count() for h in rec.hands] == [h.bit_count() for h in rec.dealt]
        public = mentioned(m.observe(None).to_json())
        for s in range(n):
            seen = mentioned(m.observe(s).to_json())
            hands_now = (
                ex.hands if ex is not None and m.phase == "exchange" else [m.game.hand(t).mask for t in range(n)]
            )
            for t in range(n):
                if t != s:
                    leak = seen & hands_now[t] & ~held[s] & ~named & ~public
                    if m.phase == "play":
                        leak &= ~m.observe(s).played  # cards played are public
                    assert not leak, (name, s, t, str(CardSet.from_mask(leak)))
        assert not [e for e in m.observe(None).exchanges if e.get("type") in ("question", "request", "grant")]
        action = m.apply(rng.choice(m.legal_actions()))
        if isinstance(action, Answer) and action.kind in ("ask", "request", "trade"):
            named |= action.want | (action.mask if action.kind == "request" else mentioned(action.word))


# --- bots, records, the command line, the table ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_a_whole_match_of_each_variant_by_bots_through_simulate(name, tmp_path):
    rules, n = PROCEDURES[name]()
    path = tmp_path / f"{name}.toml"
    rules.replace(name=name).save(path)
    bots = (
        "random,heuristic"
        if rules.horse_game == 2
        else ",".join(["heuristic", "random", "greedy"][i % 3] for i in range(n))
    )
    if rules.horse_game == 3:
        bots = "random,heuristic,greedy"
    out = tmp_path / "out.json"
    from bigtwo.cli import app

    res = CliRunner().invoke(
        app,
        [
            "simulate",
            "--rules",
            str(path),
            "--bots",
            bots,
            "--games",
            str(n),
            "--rounds",
            "2",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
        ],
        env={"COLUMNS": "160"},
    )
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["config"]["rounds"] == 2 and len(data["games"]) == n
    assert all(len(r["points"]) == n and r["actions"] > 0 for r in data["games"])


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_records_of_every_procedure_replay_in_text_and_json(name):
    rules, n = PROCEDURES[name]()
    m = Match(rules, players=n, seed=21, rounds=2)
    rng = random.Random(21)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    text = format_text(record_of(m))
    again = replay(parse_text(text))
    assert again.places == m.places and again.totals == m.totals
    assert Match.replay(m.to_json()).to_dict() == m.to_dict()
    c = m.clone()
    assert c.to_dict() == m.to_dict()


def test_a_person_answers_a_bid_and_a_look_at_the_plain_table_in_words():
    """The plain table reads decisions generically: a person bids in words (a wrong card first), and at the
    Horse Game looks at a face-down hand."""
    import io

    from rich.console import Console

    from bigtwo.cli.plain import PlainTable

    for rules, players, first_wrong in (
        (ZSY.replace(exchange="higher-bid-auction", jokers=0), 5, "3D"),
        (HORSE, 6, "maybe"),
    ):
        out = io.StringIO()
        typed = {"wrong": False, "answered": set()}
        holder = {}
        helper = make("greedy", seed=1)

        def human(prompt, typed=typed, holder=holder, helper=helper, first_wrong=first_wrong, rules=rules):
            m = holder["table"].match
            obs = m.observe(0)
            d = obs.decision
            if d is not None and d.kind in ("bid", "look"):
                if not typed["wrong"]:
                    typed["wrong"] = True
                    return first_wrong
                typed["answered"].add(d.kind)
                return "look" if d.kind == "look" else "pass"
            a = helper.choose(rules, obs)
            if isinstance(a, Answer):
                return str(a)
            return "pass" if a.is_pass else " ".join(str(c) for c in a.cards)

        table = PlainTable(
            rules,
            players=players,
            seat=0,
            seed=2,
            rounds=2,
            delay=0,
            console=Console(file=out, width=140),
            input_fn=human,
            ascii_cards=True,
        )
        holder["table"] = table
        table.run()
        text = out.getvalue()
        assert table.match.is_over, text[-2000:]
        assert typed["answered"], text[-2000:]
        assert "Not allowed" in text
        assert "(004" not in text and "seat 0" not in text.lower()
        if rules.exchange == "higher-bid-auction":  # the log says what became of each card on auction
            assert re.search(r"Nobody bids for \S+\.| buys \S+ with \S+, now on the table", text), text[-2000:]


@pytest.mark.parametrize("name", ["horse-2", "higher-bid-auction", "zsy-free-trade"])
def test_the_environments_play_every_variant_with_their_documented_defaults(name):
    """Auctions and trading are the environments' answer actions (tests/test_env_procedures.py); at the Horse
    Game the agent to move with its hand face down may look (one more action) or pass blind (the pass)."""
    import numpy as np

    from bigtwo.envs.aec import raw_env
    from bigtwo.envs.single import BigTwoGymEnv

    rules, n = PROCEDURES[name]()
    env = raw_env(rules, n)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if env.pending is not None:
            assert legal == list(range(env.answer_start, env.answer_start + len(env.legal_answers())))
        elif env.game.look_pending:
            assert legal == sorted([env.encode(PASS), env.look_action])
        env.step(int(rng.choice(legal)))
    assert env.game.result is not None
    gym = BigTwoGymEnv(rules, n, opponents="heuristic")
    gym.reset(seed=4)
    done = False
    while not done:
        _obs, _reward, done, _trunc, _info = gym.step(int(rng.choice(np.flatnonzero(gym.action_masks()))))


def test_the_terminal_lists_the_words_of_trading_and_says_offers_are_not_listed():
    """An offer of 3 cards for 3 has millions of forms: the tables list the words (let trading end, start play)
    and say offers are written instead, and never answer for the person (one word listed is not the only
    answer)."""
    from bigtwo.cli.session import TableSession

    rules = ZSY_TRADE.replace(free_trade_cards=3)
    for seed in range(40):
        s = TableSession(rules, players=4, seat=0, seed=seed, rounds=1)
        while s.decision is None and s.bot_step():
            pass
        d = s.decision
        if d is not None and d["kind"] == "trade" and d["count"] == 3:
            break
    else:
        raise AssertionError("no deal where the person offers first")
    assert s.legal_choices() == list(d["options"]) and s.only_answer() is None
    assert "offer of up to 3 cards" in (s.unlisted() or "")
    s.act("done")
    assert any(e["type"] == "vote" and e["from"] == 0 for e in s.match.current.exchange.events)
