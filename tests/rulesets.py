"""House-rule variants the tests run beside the presets: every engine feature a preset does not switch on."""

from bigtwo import list_presets, load_rules
from bigtwo.rules.kinds import KINDS

HOUSE_RULES = {
    # wild jokers (002 Joker rules; 003 5.3), five of a kind above the straight flush
    "wild-jokers": lambda: load_rules("classic").replace(
        jokers=2,
        joker_mode="wild",
        combinations=(
            "single",
            "pair",
            "triple",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
            "five_of_a_kind",
        ),
    ),
    # two decks with equal plays allowed to beat each other (002 Variations)
    "two-decks": lambda: load_rules("house-code").replace(
        decks=2,
        equal_beats=True,
        combinations=(*load_rules("house-code").combinations, "five_of_a_kind"),
        max_players=8,
    ),
    # the encyclopedia's bombs on singles and pairs, and smack-down with smack-back
    "bombs": lambda: load_rules("classic").replace(
        bombs=(
            {"kind": "four_of_a_kind", "beats": ["singles-and-pairs"]},
            {"kind": "straight_flush", "beats": ["singles-and-pairs"]},
        ),
    ),
    "smack-down": lambda: load_rules("classic").replace(
        combinations=(*load_rules("classic").combinations, "quad", "pair_straight"),
        bombs=({"kind": "quad", "beats": ["highest-single"]}, {"kind": "pair_straight", "beats": ["highest-single"]}),
        bomb_vs_bomb="same-kind",
    ),
    # 2 players drawing on every pass (002 Variations; 003 5.1)
    "two-player-draw": lambda: load_rules("classic").replace(
        deal="fixed", leftover="stock", draw_on_pass=True, lead_card="lowest", players=2, max_players=2
    ),
    # three players with the ghost hand (002 Variations)
    "ghost": lambda: load_rules("classic").replace(deal="ghost", players=3, max_players=3, min_players=3),
    # the BGA automatic turn skip with its bombs, and the end restrictions
    "bga-skip": lambda: load_rules("bga").replace(
        auto_skip=True,
        bombs=({"kind": "four_of_a_kind"}, {"kind": "straight_flush"}),
        last_play_forbidden="two-single-or-pair",
    ),
    "sisters-butterflies": lambda: load_rules("classic").replace(
        combinations=(
            "single",
            "pair",
            "triple",
            "two_pairs",
            "sisters",
            "two_pair_junk",
            "triple_junk",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
            "royal_flush",
            "pair_straight",
            "triple_straight",
        ),
        pair_straight_min=2,
    ),
}


def every_ruleset():
    return [*list_presets(), *HOUSE_RULES]


def rules_named(name):
    return HOUSE_RULES[name]() if name in HOUSE_RULES else load_rules(name)


# the procedures before play, and the Horse Game (issue 16): name -> (rules, table size)
def _zsy(**changes):
    return load_rules("zheng-shangyou").replace(**changes)


PROCEDURES = {
    "higher-bid-auction": lambda: (_zsy(exchange="higher-bid-auction", jokers=0), 5),
    "free-bid-auction": lambda: (_zsy(exchange="free-bid-auction", auction_rounds=2), 4),
    "zsy-free-trade": lambda: (_zsy(exchange="none", free_trade=True, free_trade_end="lead-card-or-vote"), 4),
    "house-free-trade": lambda: (load_rules("house-code").replace(free_trade=True), 3),
    "president-requests": lambda: (load_rules("president").replace(trade_requests=True, free_trade=True), 4),
    "horse-2": lambda: (_zsy(horse_game=2, players=6, exchange="none"), 6),
    "horse-3": lambda: (_zsy(horse_game=3, players=6, jokers=0, exchange="higher-bid-auction"), 6),
}


def _wild(name, **changes):
    return load_rules(name).replace(jokers=2, joker_mode="wild", **changes)


# tables with wild jokers that between them play every kind: every kind there is (on classic), and long straights
# and runs of pairs and triples (Winner's, Tien Len's); the wild-joker tests run on them beside the house rule
WILD_TABLES = {
    "every kind, wild": lambda: _wild("classic", combinations=tuple(KINDS)),
    "winner, wild": lambda: _wild("winner"),
    "tien-len, wild": lambda: _wild("tien-len"),
}


def renamed_cards(mask: int, relabel: tuple[int, ...]) -> int:
    """A card set with its suits renamed (``relabel[s]``: the new suit of suit ``s``; rank * 4 + suit)."""
    out = 0
    for c in range(52):
        if mask >> c & 1:
            out |= 1 << ((c & ~3) + relabel[c & 3])
    return out
