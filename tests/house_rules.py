"""A hypothesis strategy for random house rules: a preset with a handful of settings changed at random.

Every choice-valued setting draws from the values the Ruleset itself declares, so a new value is covered
as soon as it exists; combinations of settings the ruleset refuses are rejected, not repaired.
"""

import enum
import typing

from hypothesis import assume
from hypothesis import strategies as st

from bigtwo import RulesError, Ruleset, list_presets, load_rules
from bigtwo.rules.kinds import KINDS

# settings a house rule changes freely; the deal sizes, decks and jokers follow from the presets
CHOICES = (
    "suit_order",
    "joker_mode",
    "leftover",
    "leftover_shown",
    "draw_on_pass",
    "four_twos",
    "malta_dragon",
    "straight_table",
    "straight_suit_tiebreak",
    "flush_order",
    "five_card_beating",
    "bomb_vs_bomb",
    "equal_beats",
    "match",
    "pass_locks_out",
    "trick_end",
    "trick_ends_on_out",
    "round_end",
    "lead_card",
    "lead_card_must_be_played",
    "last_play_forbidden",
    "auto_skip",
    "three_threes_force_twos",
    "last_card_call",
    "scoring",
    "exchange",
    "later_lead",
    "dealer",
    "redeal_requests",
)
SUIT_ORDERS = ("DCHS", "CDHS", "CDSH", "CSHD", "SCDH", "none")
LEAD_CARDS = ("3D", "3C", "3H", "3S", "lowest")


def _values(name: str) -> st.SearchStrategy:
    if name == "suit_order":
        return st.sampled_from(SUIT_ORDERS)
    if name == "lead_card":
        return st.sampled_from(LEAD_CARDS)
    if name == "redeal_requests":
        return st.sampled_from([(), ("low-points",), ("no-faces",), ("low-points", "no-faces")])
    hint = typing.get_type_hints(Ruleset)[name]
    if hint is bool:
        return st.booleans()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):  # a fixed vocabulary: its words, as a file writes
        return st.sampled_from([m.value for m in hint])
    args = typing.get_args(hint)
    if args and all(isinstance(a, str) for a in args):
        return st.sampled_from(args)
    raise AssertionError(f"no strategy for setting {name!r}")


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[Ruleset, int]:
    """A ruleset (a preset plus random changes) and a player count it allows."""
    base = load_rules(draw(st.sampled_from(list_presets())))
    # sorted: a set's order follows the process's string hashing, and a draw must replay the same in any process
    names = sorted(draw(st.sets(st.sampled_from(CHOICES), max_size=6)))
    changes = {name: draw(_values(name)) for name in names}
    if draw(st.booleans()):
        kinds = draw(st.sets(st.sampled_from([k for k in KINDS if k not in ("joker_pair", "dragon")]), min_size=1))
        changes["combinations"] = tuple(k for k in KINDS if k in kinds)
        changes["bombs"] = ()
    try:
        rules = base.replace(**changes)
    except RulesError:
        assume(False)
        raise
    players = draw(st.integers(rules.min_players, min(rules.max_players, 6)))
    return rules, players
