"""House rules that exercise what no preset uses, for the environment tests: two decks, wild jokers, automatic
skips, stock draws, publicly known cards, the leftover swap."""

from bigtwo import load_rules

HOUSE_RULES = {
    # 5-8 players with two packs shuffled together: hands of 17, copies of every card
    "two-decks": (load_rules("house-code").replace(name="two decks", decks=2, players=6, min_players=5), 6),
    # jokers that stand for any card (five of a kind becomes possible)
    "wild-jokers": (
        load_rules("classic").replace(
            name="wild jokers",
            jokers=2,
            joker_mode="wild",
            combinations=("single", "pair", "triple", "straight", "full_house", "five_of_a_kind"),
        ),
        4,
    ),
    # Board Game Arena's automatic turn skip: a seat that cannot possibly beat the table is passed for
    "auto-skip": (load_rules("bga").replace(name="bga skipping", auto_skip=True), 4),
    # two players, 13 cards each, the rest a stock: a player who passes draws
    "stock": (
        load_rules("classic").replace(
            name="stock", players=2, deal="fixed", leftover="stock", draw_on_pass=True, scoring="face-value"
        ),
        2,
    ),
    # three players: the dealer takes the 52nd card, shown to everyone first
    "known-leftover": (
        load_rules("classic").replace(name="shown leftover", players=3, leftover="dealer", leftover_shown=True),
        3,
    ),
}
