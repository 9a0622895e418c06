"""The words module's quantities: a count or a setting with its unit, singular for one, never in powers of ten."""

from __future__ import annotations

from bigtwo.words import plural


def test_a_quantity_with_its_unit_is_singular_for_one_and_may_be_fractional():
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards" and plural(0, "card") == "0 cards"
    assert plural(3, "match", "matches") == "3 matches" and plural(1, "match", "matches") == "1 match"
    # a setting in minutes is a float: one reads as one, a whole one as a whole number, a fraction as a decimal
    assert plural(1.0, "minute") == "1 minute"
    assert plural(2.0, "minute") == "2 minutes" and plural(30.0, "minute") == "30 minutes"
    assert plural(0.5, "minute") == "0.5 minutes" and plural(1.5, "minute") == "1.5 minutes"
    assert plural(0.00001, "minute") == "0.00001 minutes" and plural(1e6, "minute") == "1000000 minutes"
