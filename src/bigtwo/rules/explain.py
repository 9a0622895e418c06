"""A rule set explained to a player: what beats what, who leads, passing, going out and scoring, read from the
Ruleset's own fields (never from its name), so a house rule changes the explanation as it changes the game.

Two readers share it: ``bigtwo rules show`` prints :func:`summary` (a dozen lines) above the full settings table,
and the browser's rules page draws :func:`explain`'s points with card pictures. Examples are written in record
notation (``"8C 8D 8S 4H 4S"``) and each is checked against the rules' own classifier before it is shown, so an
example never shows a hand these rules would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Literal

from babel import Locale
from babel.lists import format_list

from bigtwo.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, parse_cards
from bigtwo.i18n import N_, PSEUDO, _, current, ngettext, pseudo
from bigtwo.rules.choices import (
    UNORDERED_SUITS,
    DealMode,
    FiveCardBeating,
    JokerMode,
    LaterLead,
    MatchBy,
    RoundEnd,
    Scoring,
    TrickEnd,
)
from bigtwo.rules.kinds import KINDS, Kind
from bigtwo.rules.ruleset import Ruleset
from bigtwo.rules.straights import STRAIGHT_TABLES


@dataclass(frozen=True)
class Point:
    """One thing a player must know: a short ``topic`` ("Leading"), a sentence, and example plays (each a
    space-separated list of cards in record notation, lowest example first)."""

    topic: str
    text: str
    examples: tuple[str, ...] = field(default=())
    ordered: bool = False  # each example beats the one before it (the page writes "<" between them)

    def as_dict(self) -> dict[str, object]:
        return {"topic": self.topic, "text": self.text, "examples": list(self.examples), "ordered": self.ordered}


# candidate examples for each kind, tried in order: the first these rules classify as that kind is shown
_EXAMPLES: dict[Kind, tuple[str, ...]] = {
    Kind.SINGLE: ("3D",),
    Kind.PAIR: ("5C 5H",),
    Kind.TRIPLE: ("7D 7C 7S",),
    Kind.QUAD: ("9D 9C 9H 9S",),
    Kind.TWO_PAIRS: ("4D 4S 8C 8H",),
    Kind.TWO_PAIR_JUNK: ("4D 4S 8C 8H 6D",),
    Kind.TRIPLE_JUNK: ("6C 6D 6H 9S 4D",),
    Kind.STRAIGHT: ("3D 4C 5H 6S 7D", "4D 5C 6H 7S 8D"),
    Kind.FLUSH: ("3H 6H 8H JH KH",),
    Kind.FULL_HOUSE: ("8C 8D 8S 4H 4S",),
    Kind.FOUR_OF_A_KIND: ("JD JC JH JS 3C",),
    Kind.STRAIGHT_FLUSH: ("5S 6S 7S 8S 9S",),
    Kind.ROYAL_FLUSH: ("TS JS QS KS AS",),
    Kind.PAIR_STRAIGHT: ("3D 3C 4H 4S 5D 5C",),
    Kind.TRIPLE_STRAIGHT: ("6D 6C 6H 7D 7C 7H",),
    Kind.JOKER_PAIR: ("BJ RJ",),
}


def example(rules: Ruleset, kind: Kind) -> str | None:
    """A play of ``kind`` under these rules (record notation), or None where no stock example is one."""
    for text in _EXAMPLES.get(kind, ()):
        try:
            combo = rules.classify(parse_cards(text))
        except ValueError:  # a card these rules' pack lacks (a joker without jokers)
            continue
        if combo is not None and combo.kind == kind:
            return text
    return None


def _label(kind: str, rules: Ruleset | None = None) -> str:
    if kind == Kind.FOUR_OF_A_KIND and rules is not None and Kind.QUAD in rules.combinations:
        return _("four of a kind and one card")  # beside the bare four of a kind
    info = KINDS.get(Kind(kind))
    return _(info.label) if info else kind.replace("_", " ")


# what a bomb may be played on besides its own kind (the rules' BombTarget words)
_TARGETS = {
    "any": N_("any play"),
    "singles-and-pairs": N_("a single or a pair"),
    "highest-single": N_("the highest single"),
    "single-two": N_("a single 2"),
    "pair-of-twos": N_("a pair of 2s"),
    "three-twos": N_("three 2s"),
}


def _listed(items: list[str], style: Literal["standard", "or"] = "standard") -> str:
    """Items as a list in the player's language ("a, b, and c"; ``style="or"``: "a, b, or c"; 甲、乙和丙), by
    CLDR's list patterns rather than commas and an English "and" glued on. In the pseudo-language the patterns'
    own words are marked too, so the checks see a list as translated."""
    code = current()
    if code != PSEUDO:
        return format_list(items, style=style, locale=code)
    patterns = {k: pseudo(v) for k, v in Locale.parse("en").list_patterns[style].items()}
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return patterns["2"].format(*items)
    out = patterns["end"].format(items[-2], items[-1])
    for item in reversed(items[1:-2]):
        out = patterns["middle"].format(item, out)
    return patterns["start"].format(items[0], out)


def _sentences(parts: list[str]) -> str:
    """Whole sentences one after another: a space between them, none after a full-width stop (Chinese)."""
    out = ""
    for part in (p for p in parts if p):
        out += part if not out or out.endswith(("\u3002", "\uff01", "\uff1f", "\uff1a")) else " " + part
    return out


def _bomb(rules: Ruleset, kind: str, length: int | None, beats: tuple[str, ...]) -> str:
    if length and kind == Kind.PAIR_STRAIGHT:
        what = ngettext("A run of {n} pair", "A run of {n} pairs", length).format(n=length)
    elif length and kind == Kind.TRIPLE_STRAIGHT:
        what = ngettext("A run of {n} triple", "A run of {n} triples", length).format(n=length)
    else:
        what = _label(kind, rules)
    targets = _listed([_(_TARGETS.get(str(t), str(t))) for t in beats], style="or")
    said = _("{bomb} beats {targets}.").format(bomb=what, targets=targets)
    return said[:1].upper() + said[1:]


def _rising_pairs(rules: Ruleset) -> tuple[str, ...]:
    """Pairs from low to high under these rules: the lowest and the highest pair of 5s (where the suits tell
    them apart), then a pair of 9s."""
    fives = [f"5{a} 5{b}" for i, a in enumerate(SUIT_CHARS) for b in SUIT_CHARS[i + 1 :]]

    def order(x: str, y: str) -> int:
        cx, cy = parse_cards(x), parse_cards(y)
        return 1 if rules.beats(cx, cy) else -1 if rules.beats(cy, cx) else 0

    ranked = sorted(fives, key=cmp_to_key(order))
    low, high = ranked[0], ranked[-1]
    chain = [low, high] if order(high, low) > 0 else [low]
    return (*chain, "9C 9D")


def _card(token: str) -> str:
    """A card as the tables write it: 10♦, 3♣, JOKER."""
    if token in ("BJ", "RJ"):
        return token
    rank, suit = token[:-1], token[-1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUIT_CHARS.index(suit)]


def _rank(r: str) -> str:
    return "10" if r == "T" else r


def _deal(rules: Ruleset, players: int) -> str:
    """Who plays with what, and how many cards each is dealt: whole sentences (a count picks the form)."""
    parts = [
        ngettext("{players} players, {n} pack.", "{players} players, {n} packs.", rules.decks).format(
            players=players, n=rules.decks
        )
    ]
    if rules.jokers:
        parts.append(_("The jokers are in the pack."))
    if rules.deal == DealMode.ALL:
        parts.append(_("The whole pack is dealt."))
    else:
        each = (
            rules.hand_size
            if rules.deal in (DealMode.FIXED, DealMode.GHOST)
            else rules.decks * (52 + rules.jokers) // players
        )
        parts.append(ngettext("{n} card each.", "{n} cards each.", each).format(n=each))
    return _sentences(parts)


def _five_card_kinds(rules: Ruleset) -> list[str]:
    return [k for k in rules.combinations if (ex := example(rules, Kind(k))) is not None and len(ex.split()) == 5]


def straight_order(rules: Ruleset) -> list[str]:
    """The five-card straights from lowest to highest, as the tables write them (``3-4-5-6-7``)."""
    table = STRAIGHT_TABLES.get(rules.straight_table)
    if table is None or 5 not in rules.straight_lengths:
        return []
    return ["-".join(_rank(RANK_CHARS[r]) for r in ranks) for ranks, _tie in table.sequences(5)]


def explain(rules: Ruleset, players: int | None = None) -> list[Point]:
    """The rules as a player needs them, one point a topic, in the order a first round meets them."""
    n = players or rules.players
    points: list[Point] = []
    if rules.round_end == RoundEnd.FIRST_OUT:
        aim = _("Be first to play every card in your hand: the first out wins the round.")
    else:
        aim = _("Go out early: play goes on until one player is left holding cards.")
    points.append(Point(_("The aim"), aim))
    points.append(Point(_("The deal"), _deal(rules, n)))
    ranks = ", ".join(_rank(r) for r in RANK_CHARS)
    order = [_("Low to high: {ranks}.").format(ranks=ranks)]
    if rules.jokers and rules.joker_mode == JokerMode.HIGH:
        order.append(_("The jokers rank above the 2s."))
    elif rules.jokers and rules.joker_mode == JokerMode.WILD:
        order.append(_("A joker stands for any card you need."))
    if rules.suit_order == UNORDERED_SUITS:
        order.append(_("Suits do not count: an equal rank never beats."))
        singles: tuple[str, ...] = ("3D", "4D", "AS", "2C")
    else:
        suits = " < ".join(SUIT_SYMBOLS[SUIT_CHARS.index(s)] for s in rules.suit_order)
        order.append(_("Suits break ties: {suits}.").format(suits=suits))
        singles = (*(f"3{s}" for s in rules.suit_order), f"2{rules.suit_order[-1]}")
    points.append(Point(_("Card order"), _sentences(order), singles, ordered=rules.suit_order != UNORDERED_SUITS))
    must = rules.lead_card_must_be_played
    if rules.leads_lowest and must:
        lead = [_("Whoever holds the lowest card leads first and must play it, alone or in a combination.")]
    elif rules.leads_lowest:
        lead = [_("Whoever holds the lowest card leads first, with any play.")]
    elif must:
        lead = [_("Whoever holds {card} leads first and must play it, alone or in a combination.")]
    else:
        lead = [_("Whoever holds {card} leads first, with any play.")]
    if not rules.leads_lowest:
        lead[0] = lead[0].format(card=_card(rules.lead_card))
    if rules.later_lead == LaterLead.PREVIOUS_WINNER:
        lead.append(_("Later rounds: the last winner leads."))
    points.append(Point(_("Leading"), _sentences(lead)))
    kinds = list(rules.combinations)
    plays = _listed([_label(k, rules) for k in kinds])
    points.append(
        Point(
            _("What you may play"),
            _("{plays}.").format(plays=plays),
            tuple(ex for k in kinds if (ex := example(rules, Kind(k))) is not None),
        )
    )
    if rules.match == MatchBy.COUNT:
        beat = _("Beat a play with as many cards, higher: a pair on a pair, five cards on five.")
    else:
        beat = _("Beat a play with the same kind, as long, higher: a pair on a pair, a run on a run.")
    pairs = _rising_pairs(rules)
    if len(pairs) == 3:
        beat = _sentences([beat, _("Equal pairs: the higher card decides.")])
    points.append(Point(_("Beating a play"), beat, pairs, ordered=True))
    five = _five_card_kinds(rules)
    if len(five) > 1 and rules.match == MatchBy.COUNT:  # matched by kind, five-card hands never meet
        if rules.five_card_beating == FiveCardBeating.CATEGORY:
            text = _("Low to high: {order}; a higher kind beats any lower one.")
        elif rules.five_card_beating == FiveCardBeating.SAME_CATEGORY:
            text = _("{order}: each beats only its own kind.")
        else:
            text = _("{order}: compared by their cards, whatever the kind.")
        points.append(
            Point(
                _("Five-card hands"),
                text.format(order=" < ".join(_label(k, rules) for k in five)),
                tuple(example(rules, Kind(k)) or "" for k in five),
                ordered=rules.five_card_beating == FiveCardBeating.CATEGORY,
            )
        )
    straights = straight_order(rules)
    if straights:
        shown = straights if len(straights) <= 4 else [*straights[:2], "…", *straights[-3:]]
        ends = tuple(
            " ".join(f"{r}{s}" for r, s in zip(run.replace("10", "T").split("-"), "DCHSD", strict=True))
            for run in (straights[0], straights[-1])
        )
        said = _("Low to high: {order}.").format(order=" < ".join(shown))
        if tuple(rules.straight_lengths) != (5,):
            lengths = sorted(rules.straight_lengths)
            said = _("{low} to {high} cards; five-card ones from low to high: {order}.").format(
                low=lengths[0], high=lengths[-1], order=" < ".join(shown)
            )
        points.append(
            Point(
                _("Straights"),
                said,
                tuple(ex for ex in ends if rules.classify(parse_cards(ex)) is not None),
                ordered=True,
            )
        )
    if rules.bombs:
        bombs = _sentences([_bomb(rules, b.kind, b.length, tuple(b.beats)) for b in rules.bombs])
        points.append(Point(_("Bombs"), bombs))
    passing = [_("You may always pass.")]
    if rules.pass_locks_out:
        passing.append(_("Once you pass, you are out of that trick."))
    else:
        passing.append(_("You may play again when your turn comes back."))
    if rules.trick_end == TrickEnd.ALL_PASS:
        passing.append(_("When all the others pass, the last to play leads anything."))
    else:
        passing.append(_("One pass ends the trick; the last to play leads anything."))
    points.append(Point(_("Passing"), _sentences(passing)))
    points.append(Point(_("Scoring"), _scoring(rules)))
    return points


def _scoring(rules: Ruleset) -> str:
    if rules.ranks_only or rules.scoring == Scoring.RANKING:
        return _("By the order players go out in: first out is best.")
    if rules.scoring == Scoring.ENCYCLOPEDIA:
        if rules.double_at:
            n = min(rules.double_at.values())
            if rules.triple_when_untouched:
                return ngettext(
                    "Losers pay the winner a point a card left, double from {n} card, triple if they played none.",
                    "Losers pay the winner a point a card left, double from {n} cards, triple if they played none.",
                    n,
                ).format(n=n)
            return ngettext(
                "Losers pay the winner a point a card left, double from {n} card.",
                "Losers pay the winner a point a card left, double from {n} cards.",
                n,
            ).format(n=n)
        if rules.triple_when_untouched:
            return _("Losers pay the winner a point a card left, triple if they played none.")
        return _("Losers pay the winner a point a card left.")
    if rules.scoring == Scoring.FACE_VALUE:
        return _("Losers pay by the cards left in hand, counted by their face values.")
    if rules.scoring == Scoring.BGA:
        return _("Losers take penalty points for the cards left in hand; the lowest total wins the match.")
    if rules.scoring == Scoring.TWOS_COUNT_DOUBLE:
        return _("Losers pay a point a card left, two for each 2.")
    return _("Losers pay the winner for the cards left in hand.")


def summary(rules: Ruleset, players: int | None = None) -> list[str]:
    """The rules in a few lines (``Topic: sentence``), for the top of ``bigtwo rules show``."""
    return [_("{topic}: {text}").format(topic=p.topic, text=p.text) for p in explain(rules, players)]


__all__ = ["Point", "example", "explain", "straight_order", "summary"]
