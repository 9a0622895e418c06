"""Two kinds of bad input, told apart as python-chess tells a move it cannot read from an illegal one: text that
is not cards at all raises :class:`CardParseError`, a well-formed play or answer the rules refuse raises
:class:`IllegalPlay`. Both are :class:`BigTwoError`s whose message says what was wrong in words, and neither
changes the state."""

import pytest

from bigtwo import Game, IllegalPlay, load_rules
from bigtwo.cards import CARDS
from bigtwo.errors import BigTwoError, CardParseError
from bigtwo.match import Match

CLASSIC = load_rules("classic")


def opening(seed: int = 1) -> Game:
    return Game(CLASSIC, players=4, seed=seed)


@pytest.mark.parametrize("text", ["3X", "hello", "3D 4Z", "11H"])
def test_text_that_is_not_cards_is_a_parse_error(text):
    g = opening()
    before = g.observe(g.to_move)
    with pytest.raises(CardParseError) as e:
        g.play(text)
    assert not isinstance(e.value, IllegalPlay) and isinstance(e.value, BigTwoError)
    assert "not a card" in str(e.value) and "Traceback" not in str(e.value)
    assert g.observe(g.to_move) == before
    assert g.why_not(text) == str(e.value)  # asked first, the same words


def test_a_well_formed_play_the_rules_refuse_is_illegal():
    g = opening()
    seat = g.to_move
    held = g.hand(seat)
    lead = next(c for c in held if str(c) == "3D")
    other = next(c for c in held if str(c) != "3D")
    with pytest.raises(IllegalPlay) as e:
        g.play(str(other))  # the first play must hold the 3D
    assert not isinstance(e.value, CardParseError) and isinstance(e.value, BigTwoError)
    assert "3D" in str(e.value)
    nobody = next(c for s in range(g.n) if s != seat for c in g.hand(s))
    with pytest.raises(IllegalPlay, match=f"does not hold {nobody}"):
        g.play(f"{lead} {nobody}")  # a card another seat holds: readable, refused


def test_cards_this_pack_does_not_hold_are_refused_not_unreadable():
    """A joker without jokers, or a card written twice with one deck, is well formed: the rules refuse it."""
    g = opening()
    with pytest.raises(IllegalPlay, match="not in the pack"):
        g.play("RJ")
    with pytest.raises(IllegalPlay, match="appears twice"):
        g.play("3D 3D'")


def test_answers_keep_the_distinction():
    """An exchange answer too: unreadable text is a parse error, readable cards the seat does not hold are
    refused by the rules."""
    rules = CLASSIC.replace(exchange="pass-around")
    m = Match(rules, players=4, seed=3, rounds=2)
    while m.pending is None or m.pending.kind != "give":
        m.apply(m.legal_actions()[0])
    with pytest.raises(CardParseError):
        m.apply("3X 4Y 5Z")
    assert m.why_not("3X 4Y 5Z") is not None
    hand = m.observe(m.to_move).hand
    mine = [str(CARDS[c]) for c in range(52) if hand >> c & 1][:2]
    not_held = next(str(CARDS[c]) for c in range(52) if not hand >> c & 1)
    with pytest.raises(IllegalPlay) as e:
        m.apply(" ".join([*mine, not_held]))
    assert not isinstance(e.value, CardParseError)
