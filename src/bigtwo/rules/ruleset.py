"""The Ruleset: every dimension of the rules as one frozen, validated value, loadable from and savable to TOML.

Field defaults are the encyclopedia's main rules (the ``classic`` preset). A preset or a house-rules file only
lists what differs; ``base = "taiwan"`` in a file starts from another preset. The engine never asks a ruleset
its name: it asks the fields.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import tomli_w
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from bigtwo.cards import RANK_CHARS, SUIT_CHARS, card
from bigtwo.errors import CardParseError, RulesError, read_text_file
from bigtwo.rules.choices import (
    UNORDERED_SUITS,
    BgaBase,
    BgaMode,
    BombTarget,
    BombVsBomb,
    Dealer,
    DealMode,
    Direction,
    ExchangeMode,
    FiveCardBeating,
    FlushOrder,
    FourTwos,
    FreeTradeEnd,
    HighJoker,
    JokerMode,
    LastPlayForbidden,
    LaterLead,
    Leftover,
    MatchBy,
    MatchEnd,
    MatchPointsSide,
    Measure,
    PokerTwos,
    PresidentGives,
    RedealRequest,
    RoundEnd,
    Scoring,
    StraightOrder,
    TrickEnd,
)
from bigtwo.rules.kinds import KINDS, Kind
from bigtwo.rules.straights import STRAIGHT_TABLES

if TYPE_CHECKING:
    from bigtwo.combos.evaluator import Evaluator

PRESET_DIR = Path(__file__).with_name("presets")
# The combos layer, above this one, registers how rules compile into an evaluator (see ``compile_with``):
# the rules ask no upward import of their own.
_COMPILER: Callable[[Ruleset, int, bool], Evaluator] | None = None


def compile_with(compiler: Callable[[Ruleset, int, bool], Evaluator]) -> None:
    """Register the function that compiles a ruleset for a player count (the combos layer's Evaluator)."""
    global _COMPILER
    _COMPILER = compiler


SECTIONS = ("cards", "deal", "combinations", "play", "scoring", "exchange", "match")
LOWEST_CARD = "lowest"  # lead_card's one word: the lowest card dealt leads, whichever it is
LARGEST_HAND = 54  # the most cards a deal gives one hand: two decks with jokers (108 cards) between two players


class BombRule(BaseModel):
    """One kind of bomb: which combinations, and what (besides a lower bomb) they may be played on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = Field(description="The combination that acts as a bomb")
    length: StrictInt | None = Field(
        None, description="For pair/triple straights: exactly this many pairs/triples (none: any length)"
    )
    beats: tuple[BombTarget, ...] = Field(
        (BombTarget.ANY,), description="What it may be played on regardless of kind and size"
    )

    def __str__(self) -> str:
        """As a rules file writes it (``rules show`` lists the bombs so, not as pydantic's repr)."""
        length = "" if self.length is None else f", length = {self.length}"
        beats = ", ".join(f'"{b}"' for b in self.beats)
        return f'{{ kind = "{self.kind}"{length}, beats = [{beats}] }}'

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, v: str) -> str:
        k = v.strip().lower().replace("-", "_").replace(" ", "_")
        if k not in KINDS:
            raise ValueError(f"unknown kind {v!r}; allowed: {', '.join(KINDS)}")
        return k


def _f(default: Any, section: str, doc: str, **kw: Any) -> Any:
    return Field(default, json_schema_extra={"section": section}, description=doc, **kw)


class Ruleset(BaseModel):
    """A complete, validated set of rules. Immutable: use :meth:`replace` for house rules."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    name: str = Field("custom", description="Short name shown to players")
    description: str = Field("", description="One line on what these rules are")

    # --- cards ---------------------------------------------------------------------------------------
    suit_order: str = _f(
        "DCHS",
        "cards",
        "Suits from lowest to highest (any order of D C H S), or 'none': equal ranks never beat each other",
    )
    decks: StrictInt = _f(
        1, "cards", "Packs shuffled together (two decks for 5-8 players and five of a kind)", ge=1, le=2
    )
    jokers: StrictInt = _f(0, "cards", "Jokers in each pack (0-2)", ge=0, le=2)
    joker_mode: JokerMode = _f(
        JokerMode.HIGH,
        "cards",
        "high: jokers rank above the 2s (singles, and a pair of jokers); "
        "wild: a joker stands for any card, ranking above the natural card it replaces; "
        "valueless: a joker is played alone, beats any single card, and any single card beats it",
    )
    high_joker: HighJoker = _f(HighJoker.RED, "cards", "Which joker ranks above the other")

    # --- deal ----------------------------------------------------------------------------------------
    deal: DealMode = _f(
        DealMode.EQUAL,
        "deal",
        "equal: as many cards each as the pack allows (the rest is the leftover); all: the whole pack, hands "
        "differing by at most one; fixed: hand_size cards each; ghost: hand_size cards to one more hand than "
        "there are players, the extra hand dead and unseen",
    )
    hand_size: StrictInt = _f(13, "deal", "Cards each for the 'fixed' and 'ghost' deals", ge=1, le=LARGEST_HAND)
    leftover: Leftover = _f(
        Leftover.LEAD_HOLDER,
        "deal",
        "Undealt cards: to the lead card's holder (or, if it is undealt, the next lowest card's), to the "
        "highest card's holder, to the lowest diamond's holder, to the dealer; set aside unseen; the lowest cards "
        "taken out before the deal (so the 2S is never left over); set aside face up; a stock drawn from on "
        "passes; or shown, with the lead card's holder offered a swap",
    )
    leftover_shown: StrictBool = _f(False, "deal", "Leftover cards are shown to everyone before they are claimed")
    draw_on_pass: StrictBool = _f(False, "deal", "A player who passes draws a card from the stock (two players)")
    redeal_requests: tuple[RedealRequest, ...] = _f(
        (),
        "deal",
        "Hands a player may show to ask for a new deal: low-points (J=1 Q=2 K=3 A=4 2=5 totals at most "
        "redeal_points), no-faces (no J, Q or K)",
    )
    redeal_points: StrictInt = _f(3, "deal", "Highest point total of a 'low-points' hand", ge=0, le=100)
    four_twos: FourTwos = _f(
        FourTwos.PLAY, "deal", "A hand with all four 2s: play on, must be redealt, wins at once, or the deal is a draw"
    )
    malta_dragon: StrictBool = _f(
        False, "deal", "Six pairs and a single in the first 13 cards win at once (with a pair of 3s: lose at once)"
    )
    dealt_bomb_twos_low: StrictBool = _f(
        False,
        "deal",
        "A four of a kind in any dealt hand makes the 2s the lowest cards of that round (the 2 of diamonds lowest)",
    )

    # --- combinations --------------------------------------------------------------------------------
    combinations: tuple[str, ...] = _f(
        (
            Kind.SINGLE,
            Kind.PAIR,
            Kind.TRIPLE,
            Kind.STRAIGHT,
            Kind.FLUSH,
            Kind.FULL_HOUSE,
            Kind.FOUR_OF_A_KIND,
            Kind.STRAIGHT_FLUSH,
        ),
        "combinations",
        "Enabled kinds, from lowest to highest where kinds of the same size compete",
    )
    straight_table: Literal[tuple(STRAIGHT_TABLES)] = _f(  # type: ignore[valid-type]
        "hong-kong", "combinations", "Which rank sequences are straights and how they rank"
    )
    straight_lengths: tuple[StrictInt, ...] = _f((5,), "combinations", "Allowed straight lengths in cards")
    straight_suit_tiebreak: StrictBool = _f(
        True, "combinations", "Equal straights are split by suit (false: a straight must win by a full rank)"
    )
    straight_order: StraightOrder = _f(
        StraightOrder.TABLE,
        "combinations",
        "How straights (and straight flushes) compare: by their place in the straight table, or by their "
        "highest card (rank, then suit), whatever the table's order",
    )
    poker_suit_tiebreak: StrictBool = _f(
        True,
        "combinations",
        "Equal poker hands (straights, flushes, full houses, fours, their flushes) are split by suit; false: "
        "a hand must win exactly, as in traditional poker (singles and pairs still rank by suit)",
    )
    poker_twos: PokerTwos = _f(
        PokerTwos.HIGH,
        "combinations",
        "Inside five-card poker hands other than straights, the 2s rank high, or low as in traditional poker "
        "(a full house of 2s still tops the full houses)",
    )
    flush_order: FlushOrder = _f(
        FlushOrder.RANKS_THEN_SUIT,
        "combinations",
        "How flushes compare: all ranks high to low then suit, suit first, or the highest card alone",
    )
    five_card_beating: FiveCardBeating = _f(
        FiveCardBeating.CATEGORY,
        "combinations",
        "Five-card hands: a higher category beats a lower one; only the same category ('no poker rules'); "
        "or any five over any five by card value",
    )
    straight_lengths_five_plus: tuple[StrictInt, ...] | None = _f(
        None, "combinations", "Allowed straight lengths with five or more players (none: as straight_lengths)"
    )
    pair_straight_min: StrictInt = _f(3, "combinations", "Fewest pairs in a pair straight", ge=2, le=13)
    triple_straight_min: StrictInt = _f(2, "combinations", "Fewest triples in a triple straight", ge=2, le=13)
    pair_straight_max: StrictInt = _f(13, "combinations", "Most pairs in a pair straight", ge=2, le=13)
    triple_straight_max: StrictInt = _f(13, "combinations", "Most triples in a triple straight", ge=2, le=13)

    bombs: tuple[BombRule, ...] = _f(
        (),
        "combinations",
        "Bombs, weakest first: each a kind (and, for pair/triple straights, a length) and what it may be "
        "played on besides a lower bomb",
    )
    bomb_vs_bomb: BombVsBomb = _f(
        BombVsBomb.RANKED,
        "combinations",
        "ranked: any later bomb in the list beats an earlier one (then more cards, then higher); same-kind: only "
        "a higher bomb of the same kind and length",
    )
    equal_beats: StrictBool = _f(False, "combinations", "A play equal to the one on the table beats it (two decks)")

    # --- play ----------------------------------------------------------------------------------------
    players: StrictInt = _f(4, "play", "Default number of players", ge=2, le=8)
    min_players: StrictInt = _f(2, "play", "Fewest players these rules allow", ge=2, le=8)
    max_players: StrictInt = _f(4, "play", "Most players these rules allow", ge=2, le=8)
    direction: Direction = _f(
        Direction.COUNTER_CLOCKWISE,
        "play",
        "Which way play goes round the table: clockwise passes to the left, counter-clockwise to the right",
    )
    match: MatchBy = _f(
        MatchBy.COUNT,
        "play",
        "What a play must share with the lead: its number of cards, or its kind and length",
    )
    pass_locks_out: StrictBool = _f(False, "play", "A player who passes may not play again in the same trick")
    trick_end: TrickEnd = _f(
        TrickEnd.ALL_PASS, "play", "A trick ends when all other players pass in succession, or after one pass"
    )
    trick_ends_on_out: StrictBool = _f(False, "play", "A trick ends the moment someone goes out; the next player leads")
    round_end: RoundEnd = _f(
        RoundEnd.FIRST_OUT,
        "play",
        "The round ends when the first player goes out, or plays on until one player is left",
    )
    lead_card: str = _f("3D", "play", "The card whose holder leads the first trick ('lowest': the lowest card dealt)")
    lead_card_must_be_played: StrictBool = _f(True, "play", "The first play must contain the lead card")
    last_play_forbidden: LastPlayForbidden = _f(
        LastPlayForbidden.NONE,
        "play",
        "What may not be a player's last play: a single 2 or pair of 2s, a single 2, the highest card "
        "as a single, or any play holding the highest card",
    )

    auto_skip: StrictBool = _f(
        False,
        "play",
        "Skip, as a pass, a player who cannot possibly beat the play on the table, judged from public "
        "information (the cards already played) and the player's card count",
    )
    three_threes_force_twos: StrictBool = _f(
        False,
        "play",
        "After a lead of three 3s, the next player holding three 2s may not pass when they are the only answer",
    )
    last_card_call: StrictBool = _f(
        False, "play", "A player left with one card must call 'last card'; a winner who forgot pays the penalty"
    )
    horse_game: Literal[0, 2, 3] = _f(
        0,
        "play",
        "The Horse Game: 2 or 3 people share the table's six hands alternately (0: off). Hands lie face down; "
        "before its turn an owner may pass blind or look, and a hand looked at must play or takes the last free "
        "place; a person's places are summed",
    )

    # --- scoring -------------------------------------------------------------------------------------
    scoring: Scoring = _f(
        Scoring.ENCYCLOPEDIA,
        "scoring",
        "encyclopedia: losers pay the winner per card left (x2 at the threshold, x3 when untouched); "
        "winner: the same counts taken when the winner goes out, though play goes on to find the loser; "
        "twos-count-double: 1 a card, each 2 left counts twice; face-value: cards left by face value "
        "(10 and faces 10, A 1); bga: Board Game Arena's modes and bases (bga_* settings); "
        "ranking: finishing order only",
    )
    double_at: dict[int, StrictInt] = _f(
        {13: 10, 17: 12, 18: 12},
        "scoring",
        "Cards left from which a loser pays double, by cards dealt (13 -> 10; 17 or 18 -> 12)",
    )
    triple_when_untouched: StrictBool = _f(True, "scoring", "A loser who played no card pays triple")
    double_unused_twos: StrictBool = _f(
        False, "scoring", "encyclopedia: each 2 left in a loser's hand doubles what that loser pays (doubles stack)"
    )
    double_unused_bombs: StrictBool = _f(
        False,
        "scoring",
        "encyclopedia: each four of a kind or five-card straight flush left in a loser's hand doubles what "
        "that loser pays",
    )
    double_finishing_play: StrictBool = _f(
        False,
        "scoring",
        "encyclopedia: going out with a play holding a 2, or with a four of a kind or a straight flush, doubles "
        "every payment once",
    )
    bga_mode: BgaMode = _f(
        BgaMode.CUMULATIVE,
        "scoring",
        "bga: every loser takes penalty points (not zero-sum); all pay the winner; or each player pays every "
        "higher-ranked player",
    )
    bga_base: BgaBase = _f(
        BgaBase.CARDS,
        "scoring",
        "bga: base penalty of a hand: 1 point a card, the sum of its ranks (3 = 1 ... 2 = 13), or 1 point",
    )
    bga_multiplier: StrictBool = _f(
        True,
        "scoring",
        "bga: multiply the base by the cards left (x2 from the double_at threshold, x3 with every card left)",
    )
    assistance_penalty: StrictBool = _f(
        False,
        "scoring",
        "A player whose single the winner beat with a last single card, while holding a single that would have "
        "stopped it, also pays what the other losers owe (they pay nothing); not with ranking or pay-higher",
    )
    teams: StrictBool = _f(
        False,
        "scoring",
        "Team play, 4 players, partners opposite: the team holding fewer cards when someone goes out wins "
        "(+1 each, the others -1); a tie is settled by five-card shoot-outs",
    )

    # --- exchange ------------------------------------------------------------------------------------
    exchange: ExchangeMode = _f(
        ExchangeMode.NONE,
        "exchange",
        "Cards changing hands after the deal: none; the house code's mandatory trading (roles, the president "
        "steals from the bum and gives back); the encyclopedia's Big Two President (lowest cards down, highest "
        "up); Winner's loser gives the highest card for one of the winner's choice (shown to all); "
        "pass-around (every player passes cards to the next); higher-bid-auction (each face-up out card is sold "
        "for a card of higher rank, which is auctioned in turn until nobody pays); free-bid-auction (out cards "
        "sold at any price, the payments auctioned again, auction_rounds times)",
    )
    auction_rounds: StrictInt = _f(
        3, "exchange", "free-bid-auction: rounds of auctions (the payments of one are sold in the next)", ge=1, le=10
    )
    trade_requests: StrictBool = _f(
        False,
        "exchange",
        "mandatory-trading: a bum who leaves the give-back to the president may ask for particular cards, "
        "which the president grants or refuses",
    )
    free_trade: StrictBool = _f(
        False,
        "exchange",
        "After the other exchanges, players trade freely: in turn each may offer cards for as many named cards "
        "of another player, who accepts or declines (hands keep their sizes)",
    )
    free_trade_end: FreeTradeEnd = _f(
        FreeTradeEnd.ALL_PASS,
        "exchange",
        "When free trade ends: when every player lets it end; or when a majority does, or at once when the lead "
        "card's holder starts play",
    )
    free_trade_cards: StrictInt = _f(1, "exchange", "free trade: most cards on each side of one offer", ge=1, le=3)
    free_trade_offers: StrictInt = _f(
        3, "exchange", "free trade: offers each player may make (so trading always ends)", ge=1, le=20
    )
    steal_small_table: StrictInt = _f(
        2, "exchange", "mandatory-trading with 2 or 3 players: cards the president steals (1 or 2)", ge=1, le=2
    )
    president_gives: PresidentGives = _f(
        PresidentGives.LOWEST,
        "exchange",
        "big-two-president: the president and vice-president give their lowest cards, or any cards once they "
        "have received theirs",
    )
    pass_count: StrictInt = _f(3, "exchange", "pass-around: cards each player passes to the next", ge=1, le=6)

    # --- match ---------------------------------------------------------------------------------------
    match_end: MatchEnd = _f(
        MatchEnd.ROUNDS, "match", "A match lasts match_rounds rounds, or until a total reaches match_points"
    )
    match_rounds: StrictInt = _f(5, "match", "Rounds in a match (Board Game Arena offers 5, 10 or 20)", ge=1, le=10000)
    match_points: StrictInt = _f(100, "match", "Points target of a match that ends on points", ge=1)
    match_points_side: MatchPointsSide = _f(
        MatchPointsSide.EITHER,
        "match",
        "A points match ends when a seat's total gains the target, loses it, or either",
    )
    later_lead: LaterLead = _f(
        LaterLead.LEAD_CARD,
        "match",
        "Who leads rounds after the first: the lead card's holder again, or the previous winner, leading freely",
    )
    dealer: Dealer = _f(
        Dealer.NEXT_SEAT,
        "match",
        "Who deals the next round (the dealer receives the first card, so the extra one of an uneven deal): "
        "the next seat, or the previous round's loser",
    )

    _engine: Any = PrivateAttr(default=None)

    def __copy__(self) -> Ruleset:
        # a copy may be given other settings (``model_copy(update=...)`` copies, then sets them): it compiles
        # its own engine rather than share the original's cache
        copied = super().__copy__()
        copied._engine = None
        return copied

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Ruleset:
        copied = super().__deepcopy__(memo)
        copied._engine = None
        return copied

    # --- validation ----------------------------------------------------------------------------------
    @field_validator("suit_order")
    @classmethod
    def _check_suit_order(cls, v: str) -> str:
        s = v.strip().upper().replace(" ", "").replace(",", "").replace("<", "")
        if s == UNORDERED_SUITS.upper():
            return UNORDERED_SUITS
        if len(s) != 4 or sorted(s) != sorted(SUIT_CHARS):
            raise ValueError(f"{v!r} is not a suit order; allowed: any order of D, C, H, S, or 'none'")
        return s

    @field_validator("combinations")
    @classmethod
    def _check_combinations(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        names = tuple(k.strip().lower().replace("-", "_").replace(" ", "_") for k in v)
        for k in names:
            if k not in KINDS:
                hint = difflib.get_close_matches(k, KINDS, n=1)
                more = f" (did you mean {hint[0]!r}?)" if hint else ""
                raise ValueError(f"unknown kind {k!r}{more}; allowed: {', '.join(KINDS)}")
        if len(set(names)) != len(names):
            raise ValueError("a kind is listed twice")
        if not names:
            raise ValueError("at least one kind must be enabled")
        return names

    @field_validator("straight_lengths", "straight_lengths_five_plus")
    @classmethod
    def _check_lengths(cls, v: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if v is None:
            return None
        if not v or any(not 3 <= n <= 14 for n in v):
            raise ValueError(f"{list(v)} is not allowed; straight lengths are whole numbers from 3 to 14")
        return tuple(sorted(set(v)))

    @field_validator("lead_card")
    @classmethod
    def _check_lead_card(cls, v: str) -> str:
        if v.strip().lower() == LOWEST_CARD:
            return LOWEST_CARD
        try:
            return str(card(v))
        except CardParseError:
            raise ValueError(f"{v!r} is not a card; allowed: a card such as 3D or 3C, or 'lowest'") from None

    @field_validator("horse_game", mode="before")
    @classmethod
    def _horse_game_is_a_number(cls, v: Any) -> Any:
        if not isinstance(v, int) or isinstance(v, bool):  # false, 2.0 or "2" would pass for a number
            raise ValueError(f"{_written(v)} is not allowed; allowed: 0 (off), 2 or 3")
        return v

    @field_validator("double_at")
    @classmethod
    def _check_double_at(cls, v: dict[int, int]) -> dict[int, int]:
        for size, at in v.items():
            if not 1 <= size <= LARGEST_HAND:
                raise ValueError(
                    f"{size} = {at}: no hand is dealt {size} cards; the keys are hand sizes from 1 to {LARGEST_HAND}"
                )
            if at < 1:
                raise ValueError(f"{size} = {at}: a loser pays double from a positive number of cards left")
        return dict(sorted(v.items()))

    @model_validator(mode="after")
    def _check_consistency(self) -> Ruleset:
        if not self.min_players <= self.players <= self.max_players:
            raise ValueError(
                f"players={self.players} must lie within min_players={self.min_players} "
                f"and max_players={self.max_players}"
            )
        table = STRAIGHT_TABLES[self.straight_table]
        uses_straights = {Kind.STRAIGHT, Kind.STRAIGHT_FLUSH} & set(self.combinations)
        too_long = [n for n in self.straight_lengths if n > table.max_length()]
        if uses_straights and too_long:
            raise ValueError(
                f"straight_lengths {too_long} are longer than the {self.straight_table!r} table allows "
                f"({table.max_length()} ranks)"
            )
        if Kind.ROYAL_FLUSH in self.combinations and 5 not in self.straight_lengths:
            raise ValueError("royal_flush needs five-card straights (straight_lengths must include 5)")
        for bomb in self.bombs:
            if bomb.kind not in self.combinations:
                raise ValueError(
                    f"bomb kind {bomb.kind!r} is not among the enabled combinations: add it to combinations, "
                    "or leave that bomb out"
                )
        if self.draw_on_pass and self.leftover != Leftover.STOCK:
            raise ValueError("draw_on_pass needs leftover = 'stock' (the cards to draw from)")
        if self.pair_straight_min > self.pair_straight_max:
            raise ValueError(
                f"pair_straight_min={self.pair_straight_min} is above pair_straight_max={self.pair_straight_max}"
            )
        if self.triple_straight_min > self.triple_straight_max:
            raise ValueError(
                f"triple_straight_min={self.triple_straight_min} is above "
                f"triple_straight_max={self.triple_straight_max}"
            )
        if not set(self.combinations) - set(self.kinds_not_played):
            raise ValueError("no kind listed in combinations can be played with this pack")
        hand_default = type(self).model_fields["hand_size"].default
        if self.deal not in (DealMode.FIXED, DealMode.GHOST) and self.hand_size != hand_default:
            # a house rule that would change nothing: refused, so a table never shows a change it does not make
            raise ValueError(
                f"hand_size={self.hand_size} counts only where deal is 'fixed' or 'ghost'; these rules deal "
                f"{self.deal!r}: set deal = 'fixed' too, or leave hand_size at {hand_default}"
            )
        if self.deal in (DealMode.FIXED, DealMode.GHOST):
            pack = self.decks * (52 + self.jokers)
            extra = 1 if self.deal == DealMode.GHOST else 0
            if self.hand_size * (self.min_players + extra) > pack:
                raise ValueError(
                    f"hand_size={self.hand_size} for {self.min_players + extra} hands needs more than the "
                    f"{pack}-card pack"
                )
        if self.horse_game and not self.min_players <= 6 <= self.max_players:
            raise ValueError("horse_game needs a table of six hands (min_players to max_players must allow 6)")
        if self.teams and not self.min_players <= 4 <= self.max_players:
            raise ValueError("teams need a four-player table (partners sit opposite)")
        if self.match_end == MatchEnd.POINTS and self.scoring == Scoring.RANKING and not self.teams:
            raise ValueError("match_end 'points' needs a scoring system with points; 'ranking' has none")
        return self

    # --- construction --------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "rules") -> Ruleset:
        """Build from a flat or sectioned mapping (as in TOML); errors name the setting and allowed values."""
        flat = _flatten(data, source)
        try:
            return cls(**flat)
        except ValidationError as e:
            raise _rules_error(e, source) from None

    def replace(self, **changes: Any) -> Ruleset:
        """A new Ruleset with some settings changed: ``rules.replace(suit_order="CDHS")``."""
        data = self.model_dump()
        for key in changes:
            if key not in type(self).model_fields:
                raise RulesError(_unknown_field_message(key, f"changes to {self.name}"), field=key)
        data.update(changes)
        return Ruleset.from_dict(data, source=f"changes to {self.name}")

    # --- TOML ----------------------------------------------------------------------------------------
    def to_dict(self, *, only_changes: bool = False, sectioned: bool = True) -> dict[str, Any]:
        """Settings as plain data; ``only_changes`` keeps the ones that differ from the defaults."""
        data = self.model_dump(mode="json")
        defaults = Ruleset.model_construct().model_dump(mode="json")
        out: dict[str, Any] = {"name": data["name"], "description": data["description"]}
        for key, _field in type(self).model_fields.items():
            if key in ("name", "description"):
                continue
            if only_changes and data[key] == defaults[key]:
                continue
            value = _tomlable(data[key])
            if value is None:
                continue  # TOML has no null: an absent key reads back as the default None
            if sectioned:
                out.setdefault(field_section(key), {})[key] = value
            else:
                out[key] = value
        return out

    def to_toml(self, *, only_changes: bool = False) -> str:
        return tomli_w.dumps(self.to_dict(only_changes=only_changes))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_toml(), encoding="utf-8")

    def changes(self) -> dict[str, Any]:
        """The settings that differ from the defaults, flat: what a record's header must state."""
        return self.to_dict(only_changes=True, sectioned=False)

    def __eq__(self, other: object) -> bool:
        # settings only: the compiled engine cached on an instance is not part of its value
        if isinstance(other, Ruleset):
            return self.model_dump() == other.model_dump()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.model_dump_json())

    # --- questions about these rules, so a setting's meaning is written once ---------------------------
    @property
    def ranks_only(self) -> bool:
        """Rounds give no points: a match ranks players by their places (team play scores the teams)."""
        return self.scoring == Scoring.RANKING and not self.teams

    @property
    def leads_lowest(self) -> bool:
        """Whether the first trick is led by the holder of the lowest card dealt (``lead_card = "lowest"``)
        rather than of a named card."""
        return self.lead_card == LOWEST_CARD

    @property
    def payment_mode(self) -> BgaMode:
        """Who pays whom: ``winner-takes-all`` (every loser pays the winner: all points systems but BGA's own
        modes), BGA's ``cumulative`` penalties, or ``pay-higher`` (each pays every better-placed player)."""
        return self.bga_mode if self.scoring == Scoring.BGA else BgaMode.WINNER_TAKES_ALL

    @property
    def plays_to_last(self) -> bool:
        """The round goes on after the first player goes out, until one player is left."""
        return self.round_end != RoundEnd.FIRST_OUT

    @property
    def one_pass_ends_trick(self) -> bool:
        return self.trick_end == TrickEnd.ONE_PASS

    @property
    def previous_winner_leads(self) -> bool:
        """Later rounds are led freely by the previous round's winner (not by the lead card's holder)."""
        return self.later_lead == LaterLead.PREVIOUS_WINNER

    @property
    def loser_deals(self) -> bool:
        return self.dealer == Dealer.LOSER

    @property
    def wild_jokers(self) -> bool:
        return self.jokers > 0 and self.joker_mode == JokerMode.WILD

    def people(self, seats: int) -> int:
        """How many people sit at a table of ``seats`` hands (the Horse Game shares six among 2 or 3)."""
        return self.horse_game or seats

    def owner(self, seat: int) -> int:
        """The person playing ``seat``'s hand: alternate hands in the Horse Game, else the seat itself."""
        return seat % self.horse_game if self.horse_game else seat

    @property
    def valueless_jokers(self) -> bool:
        return self.jokers > 0 and self.joker_mode == JokerMode.VALUELESS

    @property
    def kinds_not_played(self) -> dict[Kind, str]:
        """Listed kinds the pack cannot make, with why: they drop out by themselves (004: "Jokers may be kept
        or removed" is one setting, ``jokers = 0``)."""
        out: dict[Kind, str] = {}
        if Kind.JOKER_PAIR in self.combinations:
            if self.jokers * self.decks < 2:
                out[Kind.JOKER_PAIR] = "the pack has no pair of jokers"
            elif self.joker_mode == JokerMode.VALUELESS:
                out[Kind.JOKER_PAIR] = "valueless jokers are played alone"
        return out

    @property
    def match_set(self) -> tuple[int | None, int | None] | None:
        """The match these rules ask for, as (rounds, points), where they set its length (``match_end``,
        ``match_rounds`` or ``match_points`` changed from classic's, as a group's rules file does); None where
        they leave it to the table (every preset: a table plays one round unless asked for a match)."""
        keys = ("match_end", "match_rounds", "match_points")
        classic = load_rules("classic")
        if all(getattr(self, k) == getattr(classic, k) for k in keys):
            return None
        return (self.match_rounds, None) if self.match_end == MatchEnd.ROUNDS else (None, self.match_points)

    @property
    def settings_without_effect(self) -> dict[str, str]:
        """Settings changed from the defaults that these rules never read, with the setting they depend on (a
        house rule written for another system: bga_mode without bga scoring, pass_count without the pass-around).
        Allowed, since a group may switch the system off and keep the rest, but ``rules show`` says so."""
        defaults = type(self).model_construct()
        depends = {
            ("bga_mode", "bga_base", "bga_multiplier"): (self.scoring == Scoring.BGA, 'scoring = "bga"'),
            ("double_unused_twos", "double_unused_bombs", "double_finishing_play"): (
                self.scoring == Scoring.ENCYCLOPEDIA,
                'scoring = "encyclopedia"',
            ),
            ("auction_rounds",): (self.exchange == ExchangeMode.FREE_BID_AUCTION, 'exchange = "free-bid-auction"'),
            ("trade_requests", "steal_small_table"): (
                self.exchange == ExchangeMode.MANDATORY_TRADING,
                'exchange = "mandatory-trading"',
            ),
            ("president_gives",): (self.exchange == ExchangeMode.BIG_TWO_PRESIDENT, 'exchange = "big-two-president"'),
            ("pass_count",): (self.exchange == ExchangeMode.PASS_AROUND, 'exchange = "pass-around"'),
            ("free_trade_end", "free_trade_cards", "free_trade_offers"): (self.free_trade, "free_trade = true"),
            ("joker_mode", "high_joker"): (self.jokers > 0, "jokers"),
            ("redeal_points",): ("low-points" in self.redeal_requests, 'redeal_requests with "low-points"'),
            ("pair_straight_min", "pair_straight_max"): (
                Kind.PAIR_STRAIGHT in self.combinations,
                'combinations with "pair_straight"',
            ),
            ("triple_straight_min", "triple_straight_max"): (
                Kind.TRIPLE_STRAIGHT in self.combinations,
                'combinations with "triple_straight"',
            ),
            ("straight_lengths_five_plus",): (self.max_players >= 5, "max_players of 5 or more"),
        }
        return {
            key: needs
            for keys, (used, needs) in depends.items()
            if not used
            for key in keys
            if getattr(self, key) != getattr(defaults, key)
        }

    def settings(self) -> dict[str, Any]:
        """Every setting but the name and description, as JSON reads it back: the game these rules play,
        whatever they are called (a trained network records it, and is compared by it)."""
        data = self.to_dict(sectioned=False)
        del data["name"], data["description"]
        settings: dict[str, Any] = json.loads(json.dumps(data, sort_keys=True))
        return settings

    def digest(self) -> str:
        """The sha256 (hex) of :meth:`settings`: one word for the game these rules play, whatever they are called,
        and another for any setting changed. A network trained for these rules is installed under it, so that
        it is found for exactly these rules (a renamed copy shares it; a house rule does not)."""
        return settings_digest(self.settings())

    def differing(self, other: Ruleset | Mapping[str, Any]) -> list[str]:
        """The settings, by name and in their order here, whose values differ from ``other``'s: another ruleset,
        or its :meth:`settings` as stored (where a setting a newer or older version lacks counts as differing)."""
        mine = self.settings()
        theirs = other.settings() if isinstance(other, Ruleset) else dict(other)
        known = [k for k in type(self).model_fields if k not in ("name", "description")]
        extra = sorted((mine.keys() | theirs.keys()) - set(known))
        return [k for k in known + extra if mine.get(k) != theirs.get(k)]

    def suit_relabeling(self, other: Ruleset, *, scoring: bool = True) -> tuple[int, ...] | None:
        """The renaming of suits under which these rules are ``other``'s, or None where no renaming makes them so:
        ``result[s]`` is the suit (index in D C H S) of ``other``'s game that this game's suit ``s`` plays as.
        Taiwan's C<D<H<S with the 3C leading is classic's D<C<H<S with the 3D leading, clubs as diamonds and
        diamonds as clubs: the same game, so what was learned on one plays the other. Equal settings give the
        identity; a rule that names a suit of its own (the lowest diamond's holder takes the leftover, the 2 of
        diamonds lowest) holds only where that suit keeps its name. ``scoring=False``: what a round is worth and
        how a match runs may differ too (the scoring and match settings, but teams): rounds played alike, as
        Pusoy Dos's are classic's with cards left paid by face value."""
        differ = set(self.differing(other)) - {"suit_order", "lead_card"}
        if not scoring:
            differ = {k for k in differ if k == "teams" or field_section(k) not in ("scoring", "match")}
        if differ:
            return None
        if UNORDERED_SUITS in (self.suit_order, other.suit_order):  # suits without an order: only the names equal
            same = self.suit_order == other.suit_order and self.lead_card == other.lead_card
            return (0, 1, 2, 3) if same else None
        relabel = [0] * 4
        for mine, theirs in zip(self.suit_order, other.suit_order, strict=True):
            relabel[SUIT_CHARS.index(mine)] = SUIT_CHARS.index(theirs)
        if self.leads_lowest != other.leads_lowest:
            return None
        if not self.leads_lowest:
            lead, wanted = card(self.lead_card), card(other.lead_card)
            if lead.rank != wanted.rank or lead.suit is None or relabel[lead.suit] != wanted.suit:
                return None
        names_diamonds = self.leftover == Leftover.LOWEST_DIAMOND_HOLDER or self.dealt_bomb_twos_low
        if names_diamonds and relabel[SUIT_CHARS.index("D")] != SUIT_CHARS.index("D"):
            return None
        return tuple(relabel)

    def settings_presets(self) -> tuple[str, ...]:
        """The presets whose settings these are, under whatever name and description, its own name first (some
        presets share their settings: classic, hong-kong and singapore). A house rules file that only renames
        one plays it: its networks and measured strength apply. (Derived on each call from the presets' cached
        settings: a cache on the instance would follow it into a ``model_copy`` with other settings.)"""
        mine = self.settings()
        return tuple(
            name for name in sorted(list_presets(), key=lambda n: (n != self.name, n)) if _preset_settings(name) == mine
        )

    def game_presets(self, *, scoring: bool = True) -> Iterator[str]:
        """The presets whose game these rules are, lazily: those with these settings (:meth:`settings_presets`),
        then those that are these rules with the suits renamed (:meth:`suit_relabeling`, with ``scoring``)."""
        same = self.settings_presets()
        yield from same
        for name in list_presets():
            if name not in same and self.suit_relabeling(load_rules(name), scoring=scoring) is not None:
                yield name

    def described_preset(self) -> Ruleset | None:
        """The preset whose description this ruleset carries (by its name, else by the words), if any."""
        presets = list_presets()
        if self.name in presets and load_rules(self.name).description == self.description:
            return load_rules(self.name)
        for name in presets:
            preset = load_rules(name)
            if preset.description == self.description:
                return preset
        return None

    def changes_from_preset(self) -> dict[str, Any]:
        """The settings that differ from the preset whose description this ruleset carries (empty for the
        preset itself, or for a ruleset described in words of its own): what ``replace()`` or a file with
        ``base = "..."`` changed."""
        preset = self.described_preset()
        if preset is None:
            return {}
        return {key: getattr(self, key) for key in self.differing(preset)}

    def shown_description(self) -> str:
        """The description, honest when settings were changed under a preset's description: "<preset> with
        changes: jokers = 0", the kinds that dropped out with them, then the preset's own words (which may
        name what the changes removed)."""
        if not self.description:  # a rules file of settings alone: what it changes from classic's, which it starts from
            classic = load_rules("classic")
            listed = ", ".join(f"{k} = {_shown(getattr(self, k))}" for k in self.differing(classic))
            return f"classic's settings with changes: {listed}" if listed else "classic's settings"
        changes = self.changes_from_preset()
        preset = self.described_preset()
        if not changes or preset is None:
            return self.description
        listed = ", ".join(f"{k} = {_shown(v)}" for k, v in changes.items())
        before = preset.kinds_not_played
        gone = [f"{KINDS[k].plural} ({why})" for k, why in self.kinds_not_played.items() if k not in before]
        out = f"{preset.name} with changes: {listed}."
        if gone:
            out += f" Dropped out with them: {', '.join(gone)}."
        return f"{out} The preset is described as: {self.description}"

    def notes(self) -> list[str]:
        """What a reader of the settings should know that no single setting says (shown by ``rules show``)."""
        notes = [f"{KINDS[k].plural.capitalize()} are not played: {why}." for k, why in self.kinds_not_played.items()]
        notes += [f"{key} has no effect without {needs}." for key, needs in self.settings_without_effect.items()]
        return notes

    @property
    def leftover_on_table(self) -> bool:
        """A leftover card lies face up on the table (set aside face up, or on offer for the lead card)."""
        return self.leftover in (Leftover.FACE_UP, Leftover.SWAP)

    @property
    def leftover_to_stock(self) -> bool:
        """Undealt cards form a stock to draw from."""
        return self.leftover == Leftover.STOCK

    @property
    def offers_deal_decisions(self) -> bool:
        """A seat may be asked at the deal: for a new deal (a poor hand), or to swap for the leftover card."""
        return bool(self.redeal_requests) or self.leftover == Leftover.SWAP

    @property
    def play_measure(self) -> Measure:
        """What a player plays for under these rules: the rules' payments (``score``), or the finishing
        order (``place``) when rounds give no points."""
        return Measure.PLACE if self.ranks_only else Measure.SCORE

    # --- the compiled engine --------------------------------------------------------------------------
    @property
    def engine(self) -> Evaluator:
        """The compiled evaluator for these rules at the default player count (cached on the instance)."""
        return self.engine_for(self.players)

    def engine_for(self, players: int, twos_low: bool = False) -> Evaluator:
        """The compiled evaluator for ``players`` players (straight lengths may depend on the count);
        ``twos_low``: for a round whose deal made the 2s the lowest cards (``dealt_bomb_twos_low``)."""
        # every Game asks this a few times: the table size's own entry, read without pydantic's attribute hook
        cache = self.__pydantic_private__.get("_engine") if self.__pydantic_private__ else None
        if cache is not None:
            known: Evaluator | None = cache.get(("seats", players, bool(twos_low)))
            if known is not None:
                return known
        five_plus = self.people(players) >= 5 and self.straight_lengths_five_plus is not None
        if self._engine is None:
            self._engine = {}  # private attributes may be set on a frozen model
        key = (five_plus, bool(twos_low))
        ev: Evaluator | None = self._engine.get(key)
        if ev is None:
            if _COMPILER is None:
                raise RulesError("no rules compiler is registered: import bigtwo (its combos layer compiles rules)")
            ev = _COMPILER(self, players, bool(twos_low))
            self._engine[key] = ev
        self._engine[("seats", players, bool(twos_low))] = ev
        return ev

    def classify(self, cards: Any) -> Any:
        """The combination ``cards`` make under these rules (a Combo with ``.kind``), or None."""
        return self.engine.classify_cards(cards)

    def beats(self, new: Any, old: Any) -> bool:
        """May ``new`` be played on ``old``? Both are card sets (or Combos); a non-combination never beats."""
        return self.engine.beats_cards(new, old)

    def why_not(self, new: Any, old: Any = None) -> str | None:
        """Why ``new`` may not be played on ``old`` (None: on a lead), in words; None when it may."""
        return self.engine.why_not(new, old)

    def sort_cards(self, cards: Any) -> list[Any]:
        """Cards from lowest to highest under these rules."""
        return self.engine.sort_cards(cards)


def _tomlable(value: Any) -> Any:
    """Plain data TOML can hold: dict keys as strings, None dropped."""
    if isinstance(value, dict):
        return {str(k): _tomlable(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_tomlable(v) for v in value if v is not None]
    return value


def field_section(key: str) -> str:
    extra = Ruleset.model_fields[key].json_schema_extra or {}
    return str(extra.get("section", "meta")) if isinstance(extra, dict) else "meta"


def _unknown_field_message(key: str, source: str) -> str:
    """A misspelt setting gets the setting it is closest to; a name made of settings' words gets those settings
    (``direction_of_play``: 'direction'); anything else the command that lists them all, where a distant guess
    (``wrap_straights``: 'triple_straight_min') would mislead."""
    names = list(Ruleset.model_fields)
    hint = difflib.get_close_matches(key, names, n=1, cutoff=0.75)
    if not hint:
        words = set(key.lower().split("_"))
        hint = [n for n in names if set(n.split("_")) <= words or words <= set(n.split("_"))][:3]
    if len(hint) == 1:
        more = f"; did you mean {hint[0]!r}?"
    elif hint:
        more = f"; did you mean one of {', '.join(repr(h) for h in hint)}?"
    else:
        more = "; bigtwo rules show classic lists every setting, with what it means"
    return f"{source}: unknown rules setting {key!r}{more}"


def _unknown_section_message(key: str, source: str) -> str:
    hint = difflib.get_close_matches(key, SECTIONS, n=1)
    more = f" (did you mean [{hint[0]}]?)" if hint else ""
    return f"{source}: unknown section [{key}]{more}; sections: {', '.join(SECTIONS)}"


def _flatten(data: dict[str, Any], source: str) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if key in SECTIONS and isinstance(value, dict):
            for k, v in value.items():
                if k == "base":
                    raise RulesError(
                        f"{source}: 'base' belongs at the top of the file, before [{key}] or any other section",
                        field="base",
                    )
                if k in Ruleset.model_fields and field_section(k) != key:
                    raise RulesError(f"{source}: setting {k!r} belongs in [{field_section(k)}], not [{key}]", field=k)
                flat[k] = v
        elif key == "base":
            continue
        elif key not in Ruleset.model_fields and isinstance(value, dict):
            raise RulesError(_unknown_section_message(key, source), field=key)
        elif key not in Ruleset.model_fields:
            raise RulesError(_unknown_field_message(key, source), field=key)
        else:
            flat[key] = value
    unknown = [k for k in flat if k not in Ruleset.model_fields]
    if unknown:
        raise RulesError(_unknown_field_message(unknown[0], source), field=unknown[0])
    return flat


# pydantic's words for a value of the wrong type, as a player reads them
_TYPE_WORDS = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "bool_parsing": "true or false",
    "bool_type": "true or false",
    "float_parsing": "a number",
    "float_type": "a number",
    "string_type": "text",
    "tuple_type": "a list",
    "list_type": "a list",
    "dict_type": "a table of settings",
}
# values people write that mean one of a setting's own words, where spelling alone would suggest another
_SAME_MEANING = {
    "anticlockwise": "counter-clockwise",
    "anti-clockwise": "counter-clockwise",
    "counterclockwise": "counter-clockwise",
}
_BOMB_EXAMPLE = '{ kind = "four_of_a_kind", beats = ["any"] }'


def _written(value: Any) -> str:
    """A value as the TOML file wrote it (``true``, not Python's ``True``); text keeps its quotes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_written(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _did_you_mean(got: Any, allowed: list[str]) -> str:
    """ "; did you mean 'x'?" for a text close to one of the allowed words (spelling, case, spaces, hyphens)."""
    if not isinstance(got, str) or not allowed:
        return ""
    said = got.strip().lower()
    if said in _SAME_MEANING and _SAME_MEANING[said] in allowed:
        return f"; did you mean {_SAME_MEANING[said]!r}?"

    def plain(word: str) -> str:
        return word.lower().replace("-", "").replace("_", "").replace(" ", "")

    same = [a for a in allowed if plain(a) == plain(said)]
    hint = same or difflib.get_close_matches(said, allowed, n=1)
    return f"; did you mean {hint[0]!r}?" if hint else ""


def _rules_error(e: ValidationError, source: str) -> RulesError:
    err = e.errors()[0]
    loc = list(err.get("loc", ()))
    field = str(loc[0]) if loc else None
    kind = err.get("type")
    msg = err.get("msg", "invalid value").removeprefix("Value error, ")
    got = err.get("input")
    ctx = err.get("ctx") or {}
    if field == "bombs" and kind in ("model_type", "model_attributes_type", "dict_type"):
        msg = f"{_written(got)} is not a bomb; a bomb is a table such as {_BOMB_EXAMPLE}"
        loc = loc[:2]
    elif field == "bombs" and kind == "extra_forbidden":
        key = str(loc[-1])
        hint = difflib.get_close_matches(key, list(BombRule.model_fields), n=1)
        more = f" (did you mean {hint[0]!r}?)" if hint else ""
        msg = f"{key!r} is not a bomb's setting{more}; a bomb has a kind, a length and what it beats"
        loc = loc[:2]
    elif field == "bombs" and kind == "missing":
        msg = f"a bomb needs its {loc[-1]}, as in {_BOMB_EXAMPLE}"
        loc = loc[:2]
    elif "expected" in ctx:
        allowed = re.findall(r"'([^']*)'", str(ctx["expected"]))
        msg = f"{_written(got)} is not allowed; allowed: {ctx['expected']}{_did_you_mean(got, allowed)}"
    elif kind in _TYPE_WORDS:
        msg = f"{_written(got)} is not {_TYPE_WORDS[kind]}"
        bare = got.strip().lower() if isinstance(got, str) else None
        if bare is not None and (bare in ("true", "false") if kind.startswith("bool") else bare.isdigit()):
            msg = f"{_written(got)} is text, not {_TYPE_WORDS[kind]}: write {bare} without quotes"
    elif kind == "greater_than_equal":
        msg = f"{_written(got)} is not allowed; allowed: at least {ctx['ge']}"
    elif kind == "less_than_equal":
        msg = f"{_written(got)} is not allowed; allowed: at most {ctx['le']}"
    if not field:  # settings that contradict each other: the sentence names them
        return RulesError(f"{source}: {msg}")
    where = f"setting {field!r}"
    if len(loc) > 1:
        # list items counted from 1, as a person counts them; a table's key as written
        parts = [f"item {p + 1}" if isinstance(p, int) else str(p) for p in loc[1:]]
        where += f" ({', '.join(parts)})"
    return RulesError(f"{source}: {where}: {msg}", field=field)


# --- presets and files -------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    """A setting's value as a person reads it (TOML-like: strings bare, lists comma-separated)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    return str(value)


def _preset_settings(name: str) -> dict[str, Any]:
    """A preset's :meth:`Ruleset.settings`, computed once (presets are the package's own files)."""
    cached = _PRESET_SETTINGS.get(name)
    if cached is None:
        cached = _PRESET_SETTINGS[name] = load_rules(name).settings()
    return cached


def list_presets() -> list[str]:
    """Names of the presets shipped with the package."""
    return sorted(p.stem for p in PRESET_DIR.glob("*.toml"))


def _read_toml(path: Path) -> dict[str, Any]:
    """A rules file's TOML; a file that cannot be read as UTF-8 text is a RulesError naming it, not a traceback."""
    text = read_text_file(path, RulesError, "rules", "a rules file", "rules files")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{path}: not valid TOML: {e}") from None


def _resolve(data: dict[str, Any], source: str, seen: tuple[str, ...]) -> dict[str, Any]:
    base = data.get("base")
    merged: dict[str, Any] = {}
    if base is not None and not isinstance(base, str):
        raise RulesError(
            f'{source}: base = {_written(base)} is not a preset\'s name; write it as text, e.g. base = "classic"',
            field="base",
        )
    if base is not None:
        if base in seen:
            raise RulesError(f"{source}: 'base' chain loops through {base!r}", field="base")
        path = _preset_path(base, source)
        merged = _flatten(_resolve(_read_toml(path), str(path), (*seen, base)), str(path))
    merged.update(_flatten(data, source))
    return merged


def _preset_path(name: str, source: str | None = None) -> Path:
    """A preset's file; ``source`` (a file whose ``base`` names it) begins the error for a name that is none."""
    path = PRESET_DIR / f"{name}.toml"
    if not path.exists():
        hint = difflib.get_close_matches(name, list_presets(), n=1)
        more = f" (did you mean {hint[0]!r}?)" if hint else ""
        where = f"{source}: " if source else ""
        raise RulesError(f"{where}no preset named {name!r}{more}; presets: {', '.join(list_presets())}")
    return path


_PRESET_CACHE: dict[str, Ruleset] = {}
_PRESET_SETTINGS: dict[str, dict[str, Any]] = {}


def settings_digest(settings: Mapping[str, Any]) -> str:
    """The sha256 (hex) of rules' settings as :meth:`Ruleset.settings` gives them (or as a network records them):
    their JSON with sorted keys, so the same settings give the same digest in any process or version of Python."""
    text = json.dumps(dict(settings), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def load_rules(name_or_path: str | Path | Ruleset) -> Ruleset:
    """A preset by name (``"classic"``) or a ruleset from a ``.toml`` file path."""
    if isinstance(name_or_path, Ruleset):
        return name_or_path
    text = str(name_or_path)
    is_path = isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text
    if not is_path:
        cached = _PRESET_CACHE.get(text)
        if cached is None:
            path = _preset_path(text)
            cached = Ruleset.from_dict(_resolve(_read_toml(path), str(path), (text,)), source=f"preset {text!r}")
            _PRESET_CACHE[text] = cached
        return cached
    path = Path(text)
    if not path.exists():
        raise RulesError(f"no rules file at {path}")
    settings = _resolve(_read_toml(path), str(path), ())
    settings.setdefault("name", path.stem)  # a file of settings alone is known by its name: our-rules
    return Ruleset.from_dict(settings, source=str(path))


def rules_from_toml(text: str, *, source: str = "rules TOML") -> Ruleset:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{source}: not valid TOML: {e}") from None
    return Ruleset.from_dict(_resolve(data, source, ()), source=source)


__all__ = ["RANK_CHARS", "Ruleset", "list_presets", "load_rules", "rules_from_toml", "settings_digest"]
