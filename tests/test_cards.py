"""Cards and notation (issue: engine core, item 1)."""

import pytest

from bigtwo import Card, CardParseError, CardSet, card, parse_cards


def test_parse_every_accepted_form():
    assert str(parse_cards("3D 10h 2♠")) == "3D TH 2S"
    assert parse_cards("td") == parse_cards("10D") == parse_cards("T♦") == parse_cards("♦10")
    # suit-first, as the rule texts write it ("H3", "D6 > S4" in seed 004)
    assert parse_cards("H3") == parse_cards("3H")
    assert parse_cards("d6 S4") == parse_cards("6D 4S")
    assert parse_cards("3♣, 3♥") == parse_cards("3C 3H")
    assert parse_cards("BJ rj") == CardSet([card("BJ"), card("RJ")])


def test_canonical_str_and_order():
    c = card("10d")
    assert str(c) == "TD" and c.symbol() == "T♦"
    assert str(card("2s")) == "2S"
    # iteration is rank-major, D C H S inside a rank
    assert [str(c) for c in parse_cards("2S 3D 3S 3C")] == ["3D", "3C", "3S", "2S"]
    assert card("3D").rank == 0 and card("2S").rank == 12 and card("3D").suit == 0 and card("3S").suit == 3
    assert isinstance(card("3D"), Card) and int(card("4D")) == 4


@pytest.mark.parametrize("bad", ["3X", "1D", "11H", "ZZ", "33", "DD", "10", "S", "2SS", "joker"])
def test_bad_tokens_name_the_token(bad):
    with pytest.raises(CardParseError) as e:
        parse_cards(f"3D {bad}")
    assert e.value.token == bad
    assert repr(bad) in str(e.value)
    assert isinstance(e.value, ValueError)


def test_cardset_is_a_bitmask_with_set_operations():
    a, b = parse_cards("3D 4D 5D"), parse_cards("5D 6D")
    assert (a | b).mask == a.mask | b.mask
    assert str(a & b) == "5D" and str(a - b) == "3D 4D" and len(a | b) == 4
    assert "4D" in a and card("6D") not in a and "zz" not in a
    assert parse_cards("3D").issubset(a) and not b.issubset(a)
    assert hash(a) == hash(parse_cards("5D 4D 3D")) and a == parse_cards("5D 4D 3D")
    assert len(CardSet.deck()) == 52 and len(CardSet.deck(jokers=2, decks=2)) == 108


def test_repeated_token_means_the_second_deck_copy():
    two = parse_cards("3D 3D")
    assert len(two) == 2 and {c.copy for c in two} == {0, 1}
    assert str(two) == "3D 3D"
    with pytest.raises(CardParseError):
        parse_cards("3D 3D 3D")
