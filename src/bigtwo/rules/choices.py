"""The fixed vocabularies of the rules: one string enum per Ruleset setting that takes one of a few words.

Each member equals the word a rules file writes (``Deal.GHOST == "ghost"``), so TOML files, JSON records and
saved games keep their text, while the engine compares members, not string literals a typo would break
silently. A member's ``repr`` is its word's, so messages that quote a setting read as before.
"""

from __future__ import annotations

from bigtwo.vocabulary import Vocabulary


class Choice(Vocabulary):
    """A setting's word: a ``str`` (equal to and formatted as its text) whose ``repr`` is the text's."""


# ``suit_order``'s word for suits without an order (its other values are orders of the suit letters, "DCHS")
UNORDERED_SUITS = "none"


class JokerMode(Choice):
    """The words of ``joker_mode`` (see the Ruleset field for what each means)."""

    HIGH = "high"
    WILD = "wild"
    VALUELESS = "valueless"


class HighJoker(Choice):
    """The words of ``high_joker`` (see the Ruleset field for what each means)."""

    RED = "red"
    BLACK = "black"


class DealMode(Choice):
    """The words of ``deal`` (see the Ruleset field for what each means)."""

    EQUAL = "equal"
    ALL = "all"
    FIXED = "fixed"
    GHOST = "ghost"


class Leftover(Choice):
    """The words of ``leftover`` (see the Ruleset field for what each means)."""

    LEAD_HOLDER = "lead-holder"
    HIGHEST_HOLDER = "highest-holder"
    LOWEST_DIAMOND_HOLDER = "lowest-diamond-holder"
    DEALER = "dealer"
    DISCARD = "discard"
    REMOVE_LOWEST = "remove-lowest"
    FACE_UP = "face-up"
    STOCK = "stock"
    SWAP = "swap"


class RedealRequest(Choice):
    """The words of ``redeal_requests`` (see the Ruleset field for what each means)."""

    LOW_POINTS = "low-points"
    NO_FACES = "no-faces"


class FourTwos(Choice):
    """The words of ``four_twos`` (see the Ruleset field for what each means)."""

    PLAY = "play"
    REDEAL = "redeal"
    WIN = "win"
    DRAW = "draw"


class StraightOrder(Choice):
    """The words of ``straight_order`` (see the Ruleset field for what each means)."""

    TABLE = "table"
    HIGHEST_CARD = "highest-card"


class PokerTwos(Choice):
    """The words of ``poker_twos`` (see the Ruleset field for what each means)."""

    HIGH = "high"
    LOW = "low"


class FlushOrder(Choice):
    """The words of ``flush_order`` (see the Ruleset field for what each means)."""

    RANKS_THEN_SUIT = "ranks-then-suit"
    SUIT_THEN_RANKS = "suit-then-ranks"
    TOP_CARD = "top-card"


class FiveCardBeating(Choice):
    """The words of ``five_card_beating`` (see the Ruleset field for what each means)."""

    CATEGORY = "category"
    SAME_CATEGORY = "same-category"
    CARD_VALUE = "card-value"


class BombVsBomb(Choice):
    """The words of ``bomb_vs_bomb`` (see the Ruleset field for what each means)."""

    RANKED = "ranked"
    SAME_KIND = "same-kind"


class Direction(Choice):
    """The words of ``direction`` (see the Ruleset field for what each means)."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class MatchBy(Choice):
    """The words of ``match`` (see the Ruleset field for what each means)."""

    COUNT = "count"
    KIND = "kind"


class TrickEnd(Choice):
    """The words of ``trick_end`` (see the Ruleset field for what each means)."""

    ALL_PASS = "all-pass"
    ONE_PASS = "one-pass"


class RoundEnd(Choice):
    """The words of ``round_end`` (see the Ruleset field for what each means)."""

    FIRST_OUT = "first-out"
    LAST_STANDING = "last-standing"


class Scoring(Choice):
    """The words of ``scoring`` (see the Ruleset field for what each means)."""

    ENCYCLOPEDIA = "encyclopedia"
    WINNER = "winner"
    TWOS_COUNT_DOUBLE = "twos-count-double"
    FACE_VALUE = "face-value"
    BGA = "bga"
    RANKING = "ranking"


class BgaMode(Choice):
    """The words of ``bga_mode`` (see the Ruleset field for what each means)."""

    CUMULATIVE = "cumulative"
    WINNER_TAKES_ALL = "winner-takes-all"
    PAY_HIGHER = "pay-higher"


class BgaBase(Choice):
    """The words of ``bga_base`` (see the Ruleset field for what each means)."""

    CARDS = "cards"
    RANKS = "ranks"
    ONE = "one"


class ExchangeMode(Choice):
    """The words of ``exchange`` (see the Ruleset field for what each means)."""

    NONE = "none"
    MANDATORY_TRADING = "mandatory-trading"
    BIG_TWO_PRESIDENT = "big-two-president"
    LOSER_TO_WINNER = "loser-to-winner"
    PASS_AROUND = "pass-around"
    HIGHER_BID_AUCTION = "higher-bid-auction"
    FREE_BID_AUCTION = "free-bid-auction"


class FreeTradeEnd(Choice):
    """The words of ``free_trade_end`` (see the Ruleset field for what each means)."""

    ALL_PASS = "all-pass"
    LEAD_CARD_OR_VOTE = "lead-card-or-vote"


class PresidentGives(Choice):
    """The words of ``president_gives`` (see the Ruleset field for what each means)."""

    LOWEST = "lowest"
    ANY_AFTER_RECEIVING = "any-after-receiving"


class MatchEnd(Choice):
    """The words of ``match_end`` (see the Ruleset field for what each means)."""

    ROUNDS = "rounds"
    POINTS = "points"


class MatchPointsSide(Choice):
    """The words of ``match_points_side`` (see the Ruleset field for what each means)."""

    EITHER = "either"
    GAIN = "gain"
    LOSS = "loss"


class LaterLead(Choice):
    """The words of ``later_lead`` (see the Ruleset field for what each means)."""

    LEAD_CARD = "lead-card"
    PREVIOUS_WINNER = "previous-winner"


class Dealer(Choice):
    """The words of ``dealer`` (see the Ruleset field for what each means)."""

    NEXT_SEAT = "next-seat"
    LOSER = "loser"


class LastPlayForbidden(Choice):
    """The words of ``last_play_forbidden`` (see the Ruleset field for what each means)."""

    NONE = "none"
    TWO_SINGLE_OR_PAIR = "two-single-or-pair"
    TWO_SINGLE = "two-single"
    HIGHEST_SINGLE = "highest-single"
    HIGHEST_CARD = "highest-card"


class BombTarget(Choice):
    """The words of ``beats`` (see the Ruleset field for what each means)."""

    ANY = "any"
    SINGLES_AND_PAIRS = "singles-and-pairs"
    HIGHEST_SINGLE = "highest-single"
    SINGLE_TWO = "single-two"
    PAIR_OF_TWOS = "pair-of-twos"
    THREE_TWOS = "three-twos"


class Measure(Choice):
    """What a finished round is worth to a seat (``bigtwo.utilities`` computes each): the rules' payments
    (``score``), one point a card left (``cards``), the finishing order as zero-sum points (``place``) or a win
    (``win``). A ruleset's ``play_measure`` is the one its players play for."""

    SCORE = "score"
    CARDS = "cards"
    PLACE = "place"
    WIN = "win"
