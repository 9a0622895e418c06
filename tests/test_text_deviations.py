"""Issue 16: where the engine read a rule text differently, each test citing the sentence it now follows.

000 = Winner, 002 = the encyclopedia's Big Two, 003 = the written house code, 004 = the card club's rules
(the texts are in ../shared/seeds/).
"""

import random

import pytest
from typer.testing import CliRunner

from bigtwo import Game, Match, load_rules
from bigtwo.bots import make
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.observation import Observation
from bigtwo.state import legal_actions

CLASSIC = load_rules("classic")


def play_out(m: Match, bot: str = "greedy") -> Match:
    players = [make(bot, seed=s) for s in range(m.n)]
    return m.play_out(players)


# --- 1. Winner's pair straights ----------------------------------------------------------------------


def test_000_pair_straights_are_6_8_10_or_12_cards():
    # 000 Valid Combinations, Pair Straight: "6, 8, 10, or 12 cards that are both in a pair and a part of a
    # straight"; "Three of a kind straight: Same as pair straight, but with triples"
    r = load_rules("winner")
    pairs = ["3D 3C", "4D 4C", "5D 5C", "6D 6C", "7D 7C", "8D 8C", "9D 9C"]
    assert r.classify(" ".join(pairs[:3])).kind == "pair_straight"
    assert r.classify(" ".join(pairs[:6])).kind == "pair_straight"  # 12 cards
    assert r.classify(" ".join(pairs)) is None  # 14 cards
    triples = ["3D 3C 3H", "4D 4C 4H", "5D 5C 5H", "6D 6C 6H", "7D 7C 7H"]
    assert r.classify(" ".join(triples[:4])).kind == "triple_straight"  # 12 cards
    assert r.classify(" ".join(triples)) is None  # 15 cards
    # and a 14-card pair straight is never offered
    hand = " ".join(pairs)
    g = Game(r, hands=[hand, "3H 3S 4H 4S 5H 5S 6H 6S 7H 7S 8H 8S 9H 9S"])
    assert g.to_move == 0 and max(p.size for p in g.legal_plays()) == 12


# --- 2. The house code's Big Two -----------------------------------------------------------------------


def test_003_house_code_is_big_two_all_players_equivalent_no_trading():
    # 003 1.2: "In Big Two, all players are considered equivalent"; 3.2: mandatory trading "takes place ...
    # in President. It does not take place in Big Two."
    m = Match("house-code", players=4, seed=3, rounds=2)
    greedy = [make("greedy", seed=s) for s in range(4)]
    while m.round_index == 0:
        m.apply(greedy[m.to_move].choose(m.rules, m.observe(m.to_move)))
    assert m.current.roles is None and m.phase == "play"
    p = Match("president", players=4, seed=3, rounds=2)
    while p.round_index == 0:
        p.apply(greedy[p.to_move].choose(p.rules, p.observe(p.to_move)))
    assert p.current.roles is not None and p.phase == "exchange"  # President keeps its roles and trading
    # the same play rules otherwise
    same = load_rules("president").model_dump()
    same.update(name="house-code", description=load_rules("house-code").description, exchange="none")
    assert same == load_rules("house-code").model_dump() | {"steal_small_table": same["steal_small_table"]}


# --- 3. Chor Dai Di's straights ------------------------------------------------------------------------


def test_004_chor_dai_di_straights_determined_by_highest_card():
    # 004 Chor Dai Di, Hands: "Straight, determined by highest card", "Straight Flush, determined by highest
    # card", and "A card's value is determined first by number, then by suit" (2 is the highest number)
    r = load_rules("chor-dai-di")
    assert r.beats("2S 3D 4C 5H 6D", "AD 2H 3C 4S 5D")  # both 2-high: the 2S beats the 2H
    assert not r.beats("AD 2H 3C 4S 5D", "2S 3D 4C 5H 6D")
    assert r.beats("2D 3C 4C 5C 6C", "TS JS QS KS AH")  # 2-high over ace-high
    assert r.beats("4D 5D 6D 7D 8C", "3S 4S 5S 6S 7H")
    assert r.beats("2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H")  # straight flushes likewise
    assert not r.beats("AH 2H 3H 4H 5H", "2S 3S 4S 5S 6S")
    # the classic Hong Kong table is unchanged: A-2-3-4-5 is its highest straight
    assert CLASSIC.beats("AD 2H 3C 4S 5D", "2S 3D 4C 5H 6D")


# --- 4. Zheng Shangyou without jokers ------------------------------------------------------------------


def test_004_zheng_shangyou_jokers_removed_by_one_setting(tmp_path):
    # 004 Zheng Shangyou: "Jokers may be kept or removed"
    r = load_rules("zheng-shangyou").replace(jokers=0)
    assert "joker_pair" not in r.engine.kinds and "joker_pair" in r.combinations
    assert [b[0] for b in r.engine.bomb_rules] == ["triple", "quad"]
    assert r.classify("5D 5C 5H").kind == "triple"
    with pytest.raises(BigTwoError, match="BJ is not in the pack"):
        r.classify("BJ")
    m = play_out(Match(r, players=4, seed=2, rounds=1))
    assert m.is_over
    path = tmp_path / "no-jokers.toml"
    path.write_text('base = "zheng-shangyou"\n\n[cards]\njokers = 0\n')
    from bigtwo.cli import app

    res = CliRunner().invoke(app, ["rules", "show", str(path)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Pairs of jokers are not played: the pack has no pair of jokers." in res.output
    assert "zheng-shangyou with changes: jokers = 0. Dropped out with them: pairs of jokers" in res.output


def test_004_rules_show_says_what_a_setting_changed_in_the_preset_it_describes():
    # 004 Zheng Shangyou: "Jokers may be kept or removed"; the preset's own description names the jokers, so
    # a ruleset without them must not be shown as that description alone
    from bigtwo.cli import app

    preset = load_rules("zheng-shangyou")
    assert "jokers" in preset.description and preset.shown_description() == preset.description
    shown = preset.replace(jokers=0).shown_description()
    assert shown.startswith("zheng-shangyou with changes: jokers = 0. Dropped out with them: pairs of jokers")
    assert shown.endswith(f"The preset is described as: {preset.description}")
    assert preset.replace(jokers=0, description="Ours, no jokers").shown_description() == "Ours, no jokers"
    res = CliRunner().invoke(app, ["rules", "show", "zheng-shangyou", "--set", "jokers=0"], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    first = res.output.splitlines()[0]
    assert first.startswith("zheng-shangyou with changes: jokers = 0. Dropped out with them: pairs of jokers")
    assert "Pairs of jokers are not played" in res.output
    res = CliRunner().invoke(app, ["rules", "show", "classic", "--set", "suit_order=CDHS", "--set", "jokers=1"])
    assert res.exit_code == 0 and "classic with changes: suit_order = CDHS, jokers = 1." in " ".join(res.output.split())
    import tomllib

    from bigtwo.rules.ruleset import Ruleset

    # as a file, the house rules carry their own name and the honest description, and load back as the same rules
    res = CliRunner().invoke(app, ["rules", "show", "zheng-shangyou", "--set", "jokers=0", "--toml"])
    assert res.exit_code == 0, res.output
    data = tomllib.loads(res.output)
    assert data["name"] == "zheng-shangyou (house rules)"
    assert data["description"] == preset.replace(jokers=0).shown_description()
    named = {k: data[k] for k in ("name", "description")}
    assert Ruleset.from_dict(data, source="ours") == preset.replace(jokers=0, **named)
    res = CliRunner().invoke(app, ["rules", "show", "zheng-shangyou", "--set", "jokes=0"])
    assert res.exit_code == 2 and "did you mean 'jokers'" in res.output
    res = CliRunner().invoke(app, ["rules", "show", "zheng-shangyou", "--set", "jokers"])
    assert res.exit_code == 2 and "write KEY=VALUE" in res.output


# --- 5. The valueless joker ----------------------------------------------------------------------------


def valueless():
    return CLASSIC.replace(jokers=2, joker_mode="valueless")


def test_002_the_valueless_joker_beats_any_card_and_any_card_beats_it():
    # 002 Variations, Joker rules: "Another variation sets the joker as valueless: it can be played to beat
    # any card, but any card can be played to beat the joker(s)."
    r = valueless()
    assert r.beats("BJ", "2S") and r.beats("RJ", "3D")
    assert r.beats("3D", "BJ") and r.beats("RJ", "BJ") and r.beats("BJ", "RJ")
    assert r.classify("BJ RJ") is None and r.classify("BJ 3D") is None  # played alone
    g = Game(r, hands=["3D 4D BJ", "2S 5C", "RJ 6H"])
    g.play("3D")
    assert [str(p) for p in g.legal_plays()] == ["5C", "2S", "pass"]
    g.play("2S")
    assert [str(p) for p in g.legal_plays()] == ["RJ", "pass"]  # the joker beats the 2S; the 6H does not
    g.play("RJ")
    assert [str(p) for p in g.legal_plays()] == ["BJ", "4D", "pass"]  # anything beats the joker
    obs = g.observe(g.to_move)
    assert [str(p) for p in legal_actions(r, obs)] == ["BJ", "4D", "pass"]


# --- 6. A dealt four of a kind makes the 2s lowest -----------------------------------------------------


def bomb_low():
    return CLASSIC.replace(dealt_bomb_twos_low=True)


def test_002_a_dealt_four_of_a_kind_makes_the_twos_lowest():
    # 002 Four-of-a-kind + One card: "In some variations, when a bomb was dealt, it immediately makes the 2s to
    # be the lowest cards in the game (with 2 of diamonds becoming the lowest)"
    hands = ["3D 5D 5C 5H 5S", "2D 2S 4C", "AS 4D 6C"]
    rules = bomb_low()
    g = Game(rules, hands=hands)
    assert g.twos_low and g.observe(1).twos_low
    g.play("3D")
    assert [str(p) for p in g.legal_plays()] == ["4C", "pass"]  # a 2 no longer beats the 3D
    assert str(g.ev.sort_cards("2D 3D 2S AS")[0]) == "2D"  # the 2 of diamonds is the lowest card
    obs = g.observe(1)
    assert [str(p) for p in legal_actions(rules, Observation.from_json(obs.to_json(), rules))] == ["4C", "pass"]
    plain = Game(rules, hands=["3D 5D 5C 5H 6S", "2D 2S 4C", "AS 4D 6C"])
    plain.play("3D")
    assert not plain.twos_low and "2D" in [str(p) for p in plain.legal_plays()]
    assert not Game(CLASSIC, hands=hands).twos_low  # only with the setting


# --- 7. Traditional poker rules ------------------------------------------------------------------------


def poker():
    return CLASSIC.replace(poker_suit_tiebreak=False)


def test_002_traditional_poker_rules_a_hand_must_be_won_exactly():
    # 002 Variations: "Some players rank all poker hands with traditional poker rules, except for the full
    # house 2, which is higher than full house ace, and a hand must be won exactly, not just by a tiebreaker
    # of suit."
    r = poker()
    assert not r.beats("AS KS 9S 7S 5S", "AH KH 9H 7H 5H") and not r.beats("AH KH 9H 7H 5H", "AS KS 9S 7S 5S")
    assert r.beats("AH KH 9H 7H 6H", "AS KS 9S 7S 5S")
    assert not r.beats("3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H")  # straight flushes too
    assert not r.beats("3S 4D 5D 6D 7D", "3H 4H 5C 6C 7C")  # and straights
    assert CLASSIC.beats("AS KS 9S 7S 5S", "AH KH 9H 7H 5H")  # the default splits by suit
    # singles and pairs still rank by suit
    assert r.beats("AS", "AH") and r.beats("KS KD", "KH KC")
    low = r.replace(poker_twos="low")
    assert low.beats("AH KH 9H 7H 3H", "AS KS 9S 7S 2S")  # a 2 is the lowest card of a flush
    assert low.beats("3D 3C 3H 3S 4D", "2D 2C 2H 2S 5D")  # four 2s are the lowest four of a kind
    assert low.beats("2D 2C 2H 3D 3C", "AD AC AH KD KC")  # "except for the full house 2"
    assert low.beats("2S", "AS") and low.beats("2D 2C", "AS AH")  # outside poker hands 2s stay high


def test_poker_settings_agree_with_generation():
    """The generator's keys are the classifier's under the new settings (every answer is a real answer)."""
    from bigtwo.moves import all_combos

    rng = random.Random(5)
    low = bomb_low()
    for rules in (poker().replace(poker_twos="low"), load_rules("chor-dai-di"), valueless(), low):
        ev = rules.engine_for(4, twos_low=rules is low)
        for _ in range(20):
            hand = sum(1 << c for c in rng.sample(range(52 + rules.jokers), 9))
            for p in all_combos(ev, hand):
                q = ev.classify(p.mask)
                assert (q.kind, q.key, q.order) == (p.kind, p.key, p.order), str(p)


# --- 8. Bad input --------------------------------------------------------------------------------------


def test_a_card_written_twice_under_one_deck_is_an_error_naming_it():
    with pytest.raises(BigTwoError, match="4D appears twice"):
        CLASSIC.classify("4D 4D")
    with pytest.raises(BigTwoError, match="4D appears twice"):
        CLASSIC.beats("4D 4D", "3D 3C")
    assert "4D appears twice" in CLASSIC.why_not("4D 4D")
    g = Game("classic", seed=1)
    before = g.observe(g.to_move)
    with pytest.raises(IllegalPlay, match="3D appears twice"):
        g.play("3D 3D")
    assert g.observe(g.to_move) == before
    two = load_rules("house-code").replace(decks=2, max_players=8)
    assert two.classify("4D 4D").kind == "pair"  # two decks hold two 4Ds


@pytest.mark.parametrize("bad", [None, 3.5, object(), -1, [None], {"x": 1}, "3D 3D", "BJ", 1 << 200, b"3D"])
def test_every_bad_argument_is_an_error_in_words_and_changes_nothing(bad):
    g = Game("classic", seed=1)
    m = Match("classic", seed=1, rounds=1)
    before = (g.observe(g.to_move), m.observe(m.to_move))
    for act in (g.play, m.apply, CLASSIC.classify, lambda x: CLASSIC.beats(x, "3D")):
        with pytest.raises(BigTwoError) as e:
            act(bad)
        assert "Error" not in str(e.value) and "<" not in str(e.value)
    assert isinstance(g.why_not(bad), str) and isinstance(m.why_not(bad), str)
    assert (g.observe(g.to_move), m.observe(m.to_move)) == before
    for call in (
        lambda: g.observe("0"),
        lambda: m.observe(9),
        lambda: Game("classic", players="4"),
        lambda: Game("classic", hands="3D 4D"),
        lambda: Match("classic", rounds="3"),
        lambda: Game("classic", seed=[1]),
    ):
        with pytest.raises(BigTwoError):
            call()


def test_a_thing_that_is_not_cards_is_named_with_its_article():
    with pytest.raises(BigTwoError) as e:
        Game("classic", seed=1).play(object())
    assert str(e.value).startswith("an object is not a set of cards"), str(e.value)
