"""Game records (text and JSON): exact round trips, replays checked by the engine, clear errors, fuzzing."""

import contextlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo import Game, Match, load_rules
from bigtwo.bots import make
from bigtwo.record import (
    RecordError,
    format_text,
    from_json,
    parse_text,
    read_record,
    record_from_dict,
    record_of,
    record_to_dict,
    replay,
    to_json,
)
from tests.rulesets import every_ruleset, rules_named

DATE = "2025-06-01"


def random_round(rules, seed, players=None):
    """A round played to the end by uniformly random legal actions, 'last card' called at random."""
    rng = random.Random(seed)
    g = Game(rules, players=players, seed=seed)
    while not g.is_over:
        g.play(rng.choice(g.legal_plays()), call_last_card=rng.random() < 0.5)
    return g


def random_match(rules, seed, players=None, rounds=2):
    m = Match(rules, players=players, seed=seed, rounds=rounds)
    return m.play_out([make("random", seed=seed + i) for i in range(m.n)])


def names(n):
    return ["you"] + [f"bot {s}" for s in range(1, n)]


def round_trip(played, with_json=True):
    """write -> parse -> write is identical, the replay rebuilds the same record, and so does JSON."""
    rec = record_of(played, names=names(played.n), date=DATE)
    text = format_text(rec)
    parsed = parse_text(text)
    assert parsed == rec
    assert format_text(parsed) == text
    again = replay(parsed)
    assert format_text(record_of(again, names=rec.names, date=DATE)) == text
    if with_json:
        data = record_to_dict(rec)
        assert record_from_dict(json.loads(json.dumps(data))) == rec
        assert to_json(from_json(to_json(rec))) == to_json(rec)
        assert read_record(to_json(rec)) == rec
    return text, again


# --- what a record looks like ------------------------------------------------------------------------------


def test_a_record_reads_like_pgn():
    g = random_round(load_rules("taiwan"), 7)
    text, _ = round_trip(g)
    lines = text.splitlines()
    assert lines[:4] == ['[Format "bigtwo-record/1"]', '[Type "game"]', f'[Date "{DATE}"]', '[Rules "taiwan"]']
    assert '[Rule suit_order "CDHS"]' in lines and '[Rule lead_card "3C"]' in lines
    assert "[Players 4]" in lines and '[Player P0 "you"]' in lines and "[Seed 7]" in lines
    assert lines[lines.index("[Round 1]") + 1] == '[Dealer "P3"]'
    first = next(line for line in lines if line.startswith("1. "))
    assert "3C" in first.split("  ")[0]  # the first play holds the lead card
    res = g.result
    assert f'[Scores "{" ".join(f"{x:+d}" for x in res.scores)}"]' in lines
    assert lines[-1].startswith("[Scores")
    winner = res.finishing_order[0]
    assert f'[Result "1st P{winner} {res.scores[winner]:+d}' in text


@pytest.mark.parametrize("name", every_ruleset())
def test_the_header_states_every_non_default_setting(name):
    rules = rules_named(name)
    g = Game(rules, seed=1, players=6 if name == "two-decks" else None)
    text = format_text(record_of(g))
    changes = rules.changes()
    for key, value in changes.items():
        if key not in ("name", "description"):
            assert f"[Rule {key} {json.dumps(value, ensure_ascii=False)}]" in text
    assert parse_text(text).ruleset() == rules


# --- thousands of random rounds and matches --------------------------------------------------------------

ROUNDS = {"wild-jokers": 8, "winner": 50, "sisters-butterflies": 60, "bga-skip": 60}


@pytest.mark.parametrize("name", every_ruleset())
def test_random_rounds_round_trip_exactly(name):
    """Every ruleset: random rounds at every table size it allows, with notes (auto, drew, called)."""
    rules = rules_named(name)
    high = min(rules.max_players, 8)
    count = ROUNDS.get(name, 100)
    notes = set()
    for seed in range(count):
        rng = random.Random(seed)
        n = rng.randint(max(rules.min_players, 5 if name == "two-decks" else 2), high)
        g = random_round(rules, 1000 + seed, players=n)
        notes.update(x for x in g.history_notes if x)
        round_trip(g, with_json=seed % 4 == 0)
    if rules.auto_skip:
        assert "auto" in notes
    if rules.draw_on_pass:
        assert "drew" in notes


@pytest.mark.parametrize("name", every_ruleset())
def test_random_matches_round_trip_exactly(name):
    """Whole matches: every round's deal, exchanges, plays and payments; exchanges and free leads included."""
    rules = rules_named(name)
    for seed in range(2 if name == "wild-jokers" else 4):
        n = 6 if name == "two-decks" else None
        m = random_match(rules, 50 + seed, players=n, rounds=1 if name == "wild-jokers" else 3)
        text, again = round_trip(m, with_json=seed == 0)
        assert again.totals == m.totals and again.is_over
        if rules.exchange != "none":
            assert "[Exchange P" in text and "[Hands P" in text


def test_last_card_calls_are_recorded_in_games_and_matches():
    rules = load_rules("classic").replace(last_card_call=True)
    called = 0
    for seed in range(30):
        g = random_round(rules, seed)
        text, again = round_trip(g)
        called += text.count("{last card}")
        assert again.result.scores == g.result.scores and again.history_notes == g.history_notes
    assert called
    # a match passes the call through Match.act
    m = Match(rules, seed=3, rounds=2)
    rng = random.Random(3)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()), call_last_card=rng.random() < 0.5)
    round_trip(m)


def test_team_shoot_outs_are_recorded():
    rules = load_rules("classic").replace(teams=True)
    for seed in range(200):
        m = random_match(rules, seed, rounds=1)
        if m.records[0].shootouts:
            break
    else:
        pytest.fail("no shoot-out in 200 matches")
    text, again = round_trip(m)
    assert "[Shootout 1]" in text and again.totals == m.totals


def test_deal_time_decisions_in_a_match_are_recorded_and_replayed():
    """A match offers the deal-time decisions as actions; the record keeps the requests taken, and its replay
    makes them again (every other offer kept)."""
    redeal = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    swap = load_rules("classic").replace(leftover="swap", leftover_shown=True, players=3, min_players=3)
    for rules, word in ((redeal, "redeal"), (swap, "swap")):
        m = Match(rules, seed=5, rounds=2)
        bots = [make("greedy") for _ in range(m.n)]
        taken = 0
        while not m.is_over:
            d = m.pending
            if d is not None and d.at_deal and taken < 2:
                m.apply(word)
                taken += 1
            else:
                m.apply(bots[m.to_move].choose(rules, m.observe(m.to_move)))
        text, again = round_trip(m)
        assert f'"{word}"]' in text and again.totals == m.totals
        assert [r.dealt for r in again.records] == [r.dealt for r in m.records]


def test_deal_time_requests_are_recorded():
    """002 Reshuffling (a new deal on request) and the leftover swap replay from the seed."""
    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    g = Game(rules, seed=11)
    g.request_redeal(2)
    g.request_redeal(0)
    rng = random.Random(1)
    while not g.is_over:
        g.play(rng.choice(g.legal_plays()))
    text, again = round_trip(g)
    assert '[Request P2 "redeal"]' in text and '[Request P0 "redeal"]' in text
    assert again.dealt == g.dealt
    swap = load_rules("classic").replace(leftover="swap", leftover_shown=True, players=3, min_players=3)
    for seed in range(20):
        g = Game(swap, seed=seed)
        if g.can_swap_leftover:
            g.swap_leftover()
            g.play(g.legal_plays()[0])
            text, again = round_trip(g)
            assert '"swap"]' in text and "[FaceUp" in text
            break
    else:
        pytest.fail("no swap offered")


def test_rounds_dealt_by_hand_replay_from_their_hands():
    """A puzzle (Game(hands=...), first, a stock to draw from) records its hands and the cards drawn."""
    rules = rules_named("two-player-draw")
    hands = ["3D 4D 5D 9S", "3C 6H 7H 8C"]
    g = Game(rules, hands=hands, stock="JH QH KH AH", first=1)
    rng = random.Random(2)
    while not g.is_over:
        g.play(rng.choice(g.legal_plays()))
    text, again = round_trip(g)
    assert "[Seed" not in text and '[Lead "P1"]' in text
    assert again.history == g.history


def test_two_decks_replay_with_either_copy():
    rules = rules_named("two-decks")
    g = random_round(rules, 5, players=8)
    text, again = round_trip(g)
    deals = [line.split('"')[1].split() for line in text.splitlines() if line.startswith("[Deal")]
    assert any(t + "'" in hand for hand in deals for t in hand)  # a hand holding both copies of a card
    assert again.dealt == g.dealt


def test_a_thirteen_card_straight_is_read_one_way():
    """The 13-rank straight (A-2-...-K or 2-...-A under 'ace-low-or-high') is generated once, as classify reads it."""
    rules = load_rules("winner")
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    one = " ".join(f"{r}{s}" for r, s in zip(ranks, "DCDCDCDCDCDCD", strict=True))
    two = " ".join(f"{r}{s}" for r, s in zip(ranks, "SHSHSHSHSHSHS", strict=True))
    g = Game(rules, hands=[one, two], first=0)
    plays = [p for p in g.legal_plays() if p.size == 13]
    assert len(plays) == 1
    fresh = load_rules("winner").replace(name="winner")  # a new evaluator: nothing cached
    assert fresh.engine_for(2).classify(plays[0].mask).order == plays[0].order


# --- errors: every one names its line (or JSON path) --------------------------------------------------------


@pytest.fixture(scope="module")
def sample():
    g = random_round(load_rules("classic"), 3)
    return g, format_text(record_of(g, names=names(4), date=DATE))


def replace_line(text, prefix, new):
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(prefix))
    lines[i] = new
    return "\n".join(lines) + "\n", i + 1


def load(text):
    return replay(parse_text(text))


def test_tampered_scores_are_caught_with_their_line(sample):
    g, text = sample
    scores = list(g.result.scores)
    scores[0] += 1
    bad, line = replace_line(text, "[Scores", f'[Scores "{" ".join(f"{x:+d}" for x in scores)}"]')
    with pytest.raises(RecordError, match=r"the scores are .* not ") as e:
        load(bad)
    assert isinstance(e.value, ValueError) and e.value.line == line


def test_an_illegal_play_gets_the_engines_reason_and_its_line(sample):
    _g, text = sample
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("2. "))
    seat = lines[i].split(":")[0].split()[-1]
    lines[i] = f"2. {seat}: 3D 4C 9H"
    with pytest.raises(RecordError, match=r"not a combination|does not hold") as e:
        load("\n".join(lines))
    assert e.value.line == i + 1 and str(e.value).startswith(f"line {i + 1}: ")


def test_a_wrong_deal_or_turn_or_trick_is_caught(sample):
    _g, text = sample
    lines = text.splitlines()
    d0 = next(k for k, line in enumerate(lines) if line.startswith("[Deal P0"))
    d1 = d0 + 1
    swapped = list(lines)
    swapped[d0], swapped[d1] = lines[d1].replace("P1", "P0"), lines[d0].replace("P0", "P1")
    with pytest.raises(RecordError, match="the deal of P0 is"):
        load("\n".join(swapped))
    t1 = next(k for k, line in enumerate(lines) if line.startswith("1. "))
    joined = list(lines)
    joined[t1] = lines[t1] + "  " + lines[t1 + 1].split(". ", 1)[1]
    del joined[t1 + 1]
    with pytest.raises(RecordError, match=r"numbered line|out of order") as e:
        load("\n".join(joined))
    assert e.value.line is not None


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('[Format "bigtwo-record/1"]', '[Format "pgn"]'), r"line 1: format 'pgn'"),
        (lambda t: t.replace("[Players 4]", "[Players 9]"), "9 players"),
        (lambda t: t.replace("[Players 4]", "[Players four]"), "is not a value"),
        (lambda t: t.replace('[Rules "classic"]\n', '[Rules "classic"]\n[Rule suit_order "XYZW"]\n'), "suit_order"),
        (lambda t: t.replace('[Rules "classic"]\n', '[Rules "classic"]\n[Rule colour 3]\n'), "unknown rules setting"),
        (lambda t: t.replace("1. ", "7. ", 1), "trick 7 is out of order"),
        (lambda t: t.replace("[Round 1]", "[Round 2]"), "round 2 is out of order"),
        (lambda t: t.replace(": pass", ": pass {maybe}", 1), r"\{maybe\} is not a note"),
        (lambda t: t.replace(": pass", ": pass {last card}", 1), "does not go with a pass"),
        (lambda t: t.replace('[Dealer "P3"]', '[Dealer "P7"]'), "not at this 4-player table"),
        (lambda t: t.replace('[Dealer "P3"]', '[Dealer "P2"]'), "P3 is not to move|is dealt|deal of"),
        (lambda t: t.replace("[Result", "[Outcome"), r"header has no \[Result\]"),
        (lambda t: t.replace("[Round 1]", "hello"), "neither a tag nor a numbered trick"),
        (lambda t: t.replace("[Seed ", "[Seed -"), "at least 0"),
        (lambda t: t + '[Totals "+1 +2"]\n', "Totals needs 4 numbers"),
        (lambda t: t.replace('[Deal P0 "', '[Deal P0 "XX '), "'XX' is not a card"),
        (lambda t: t + '[Totals "+1 +2 +3 +4"]\n', "a single round has no"),
    ],
)
def test_malformed_records_name_their_line(sample, edit, message):
    _g, text = sample
    bad = edit(text)
    assert bad != text
    with pytest.raises(RecordError, match=message) as e:
        load(bad)
    assert e.value.line is not None and str(e.value).startswith(f"line {e.value.line}: ")


def test_an_automatic_pass_left_out_is_caught():
    rules = rules_named("bga-skip")
    for seed in range(40):
        g = random_round(rules, seed)
        if "auto" in g.history_notes:
            break
    text = format_text(record_of(g))
    assert "{auto}" in text
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if "{auto}" in line)
    lines[i] = "  ".join(part for part in lines[i].split("  ") if "{auto}" not in part)
    with pytest.raises(RecordError, match=r"automatic pass|skip") as e:
        load("\n".join(lines))
    assert e.value.line is not None


def test_json_errors_name_the_line_or_the_path(sample):
    g, _ = sample
    text = to_json(record_of(g))
    with pytest.raises(RecordError, match="line 3: not valid JSON"):
        from_json(text.replace('"type"', "type", 1))
    data = json.loads(text)
    data["rounds"][0]["game"]["tricks"][1][0]["seat"] = "north"
    with pytest.raises(RecordError, match=r"rounds\[0\]\.game\.tricks\[1\]\[0\]\.seat: expected a seat"):
        record_from_dict(data)
    data = json.loads(text)
    data["rounds"][0]["game"]["scores"][2] += 5
    with pytest.raises(RecordError, match=r"rounds\[0\]\.game\.scores: the scores are"):
        replay(record_from_dict(data))


# --- fuzzing: the parser never fails but with RecordError ----------------------------------------------------


def _fuzz_sources():
    out = []
    for rules, kind, seed in [("classic", "game", 2), ("president", "match", 4), ("bga-skip", "game", 9)]:
        r = rules_named(rules)
        played = random_round(r, seed) if kind == "game" else random_match(r, seed, rounds=2)
        rec = record_of(played, names=names(played.n), date=DATE)
        out.append(format_text(rec))
        out.append(to_json(rec, indent=None))
    out.append(format_text(record_of(random_round(rules_named("two-player-draw"), 3))))
    return out


SOURCES = _fuzz_sources()
ATOMS = ["[", "]", '"', "{", "}", ":", ".", " ", "\n", "P9", "P1", "3D", "pass", "{auto}", "[Round 2]", "-1", "1e9"]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["cut", "insert", "swap-lines", "drop-line", "dup-line", "truncate"]))
        lines = text.split("\n")
        if op == "cut" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + draw(st.integers(1, 8)) :]
        elif op == "insert":
            i = draw(st.integers(0, len(text)))
            piece = draw(st.one_of(st.sampled_from(ATOMS), st.text(max_size=6)))
            text = text[:i] + piece + text[i:]
        elif op == "swap-lines" and len(lines) > 1:
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif op == "drop-line":
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
        elif op == "dup-line":
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_fuzzed_records_raise_only_record_errors(text):
    try:
        replay(read_record(text))
    except RecordError as e:
        assert str(e)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_record_errors(text):
    for candidate in (text, "[Format " + text, '{"format": ' + text):
        with contextlib.suppress(RecordError):
            replay(read_record(candidate))


def _json_values():
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**20), st.text(max_size=8))
    return st.recursive(leaves, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids))


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_fuzzed_json_records_raise_only_record_errors(data):
    base = json.loads(data.draw(st.sampled_from([s for s in SOURCES if s.startswith("{")])))
    node = base
    path = []
    for _ in range(data.draw(st.integers(1, 6))):  # walk somewhere into the record and replace a value
        if isinstance(node, dict) and node:
            key = data.draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            key = data.draw(st.integers(0, len(node) - 1))
        else:
            break
        path.append((node, key))
        node = node[key]
    if path:
        parent, key = path[-1]
        parent[key] = data.draw(_json_values())
    with contextlib.suppress(RecordError):
        replay(record_from_dict(base))


def test_two_deck_copies_are_named_exactly_where_they_matter():
    """The first 3D's holder leads: a record says which copy an exchange moved (3D' is the second copy)."""
    from bigtwo.record.notation import read_cards, write_cards

    ev = rules_named("two-decks").engine_for(6)
    both = read_cards("3D 3D'")
    assert read_cards("3D 3D") == both and write_cards(ev, both) == "3D 3D'"
    assert read_cards("3D'") == 1 << (54 + 0) and write_cards(ev, read_cards("3D'")) == "3D'"
    m = random_match(rules_named("two-decks"), 27, players=6, rounds=2)  # a 3D changes hands in round 2
    _text, again = round_trip(m)
    assert again.totals == m.totals
    assert Match.replay(m.to_json()).totals == m.totals


def test_match_json_replays_skip_automatic_passes():
    m = random_match(rules_named("bga-skip"), 0, rounds=2)
    assert any(n == "auto" for rec in m.records for n in rec.game.history_notes)
    assert Match.replay(m.to_json()).totals == m.totals
