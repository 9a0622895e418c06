"""The guided first round: a fixed deal under the classic rules, every move scripted, that teaches leading with
the lead card, beating a single and a pair, passing, a five-card hand and going out.

The terminal (``bigtwo learn``) and the browser (``/learn``) walk the same steps, so they teach the same thing in
the same words. The script is played through the real engine each time it is built (:func:`lesson`): a scripted
move the rules would refuse raises, so the lesson can never teach a move the table would not accept. The
computer players' moves are part of the script, so the round always unfolds the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bigtwo.cards import parse_cards
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.i18n import _, ngettext
from bigtwo.rules.kinds import KINDS, Kind
from bigtwo.rules.ruleset import load_rules
from bigtwo.words import TABLE_NAMES, Wording

RULES = "classic"
YOU = 0
HANDS = ("3D KS 6C 6H 8D 9C TH JS QD", "4C 5H 7S TC AC", "9D 5C 7H JC QH", "JD 2D 4D 4S 8C KH")


@dataclass(frozen=True)
class Scripted:
    """One move of the script: a seat, its cards in record notation (None: a pass), and what the lesson says
    about it: for your moves, what to do and why; for the others', what just happened."""

    seat: int
    cards: str | None
    say: str  # a whole sentence whose {placeholders} name cards (record notation in ``shown``) or seats
    shown: dict[str, str] = field(default_factory=dict)  # placeholder -> cards, written in the table's notation
    seats: dict[str, int] = field(default_factory=dict)  # placeholder -> seat, written as its name

    def said(self, words: Wording) -> str:
        """The lesson's words for this move, its cards as the table writes them (3♦, or 3D with --ascii)."""
        if not self.say:
            return ""
        cards = {k: words.cards(v.split()) for k, v in self.shown.items()}
        return self.say.format(**cards, **{k: words.name(s) for k, s in self.seats.items()})


def _script() -> tuple[Scripted, ...]:
    """The moves, in order of play (built when asked, so the words are in the player's language)."""
    return (
        Scripted(
            0,
            "3D",
            _(
                "You hold {lead}, the lowest card, so you lead the first trick, and your first play must include "
                "it. Play {lead}."
            ),
            {"lead": "3D"},
        ),
        Scripted(1, "4C", _("A single is beaten by a higher single.")),
        Scripted(2, "9D", _("Higher again.")),
        Scripted(3, "JD", ""),
        Scripted(
            0,
            "KS",
            _("The {card} on the table is a single, so only a higher single beats it. Your {yours} does: play it."),
            {"card": "JD", "yours": "KS"},
        ),
        Scripted(1, None, _("Passing is always allowed.")),
        Scripted(2, None, ""),
        Scripted(3, "2D", _("The 2s are the highest rank of all.")),
        Scripted(
            0,
            None,
            _(
                "Nothing in your hand beats a 2, so pass: passing costs nothing, and you may play again when your "
                "turn comes back."
            ),
        ),
        Scripted(1, None, ""),
        Scripted(
            2, None, _("Everyone else has passed, so {name} wins the trick and leads anything."), seats={"name": 3}
        ),
        Scripted(3, "4D 4S", _("A pair: now only a higher pair can beat it.")),
        Scripted(0, "6C 6H", _("Beat the pair with a higher pair: play {cards}."), {"cards": "6C 6H"}),
        Scripted(1, None, ""),
        Scripted(2, None, ""),
        Scripted(3, None, _("Nobody beat your pair, so you win the trick and lead anything.")),
        Scripted(
            0,
            "8D 9C TH JS QD",
            _(
                "Five cards in a row make a straight, a five-card hand: only another five-card hand can beat it. "
                "Play {cards}: they are your last cards, so you go out and win the round."
            ),
            {"cards": "8D 9C TH JS QD"},
        ),
    )


@dataclass
class Step:
    """One move of the lesson, with the table as it stood before it: ``yours`` steps wait for the player."""

    seat: int
    name: str
    yours: bool
    cards: list[str]  # record notation; empty for a pass
    said: str  # the move in the table's words: "Ana plays 4♣", "You pass"
    teach: str
    hand: list[str]  # your hand before the move, lowest first
    trick: list[str]  # the play on the table before the move (empty: a new trick to lead)
    trick_by: str | None
    hand_sizes: list[int]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Lesson:
    """The whole guided round: the seats' names, the steps, and how it ended."""

    rules: str
    names: list[str]
    steps: list[Step] = field(default_factory=list)
    result: list[str] = field(default_factory=list)
    intro: str = ""
    done: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "names": self.names,
            "intro": self.intro,
            "done": self.done,
            "result": self.result,
            "steps": [s.as_dict() for s in self.steps],
        }


def _kind_words(rules: Any, cards: str) -> str:
    kind = rules.classify(parse_cards(cards)).kind
    info = KINDS.get(Kind(kind))
    return _(info.label) if info else str(kind)


def lesson(ascii_cards: bool = False) -> Lesson:
    """The guided round, played through the engine: every scripted move is checked to be legal and in turn."""
    rules = load_rules(RULES)
    names = ["You", *TABLE_NAMES[: len(HANDS) - 1]]
    words = Wording(YOU, names, ascii_cards)
    game = Game(rules, hands=list(HANDS))
    out = Lesson(
        rules=RULES,
        names=[_("You"), *names[1:]],
        intro=_(
            "A first round of Big Two against three computer players, step by step. Get rid of all your cards "
            "first to win. The lesson tells you what to play and why; the others' moves are always the same."
        ),
    )
    for move in _script():
        if game.to_move != move.seat:
            raise BigTwoError(f"the lesson's script has seat {move.seat} move, but it is seat {game.to_move}'s turn")
        trick = game.trick
        step = Step(
            seat=move.seat,
            name=words.name(move.seat),
            yours=move.seat == YOU,
            cards=move.cards.split() if move.cards else [],
            said="",
            teach=move.said(words),
            hand=[str(c) for c in rules.sort_cards(game.hand(YOU))],
            trick=[str(c) for c in rules.sort_cards(trick.cards)] if trick is not None else [],
            trick_by=words.name(game.trick_seat) if trick is not None and game.trick_seat is not None else None,
            hand_sizes=list(game.hand_sizes()),
        )
        if move.cards is None:
            game.pass_turn()
            step.said = words.said(move.seat, _("You pass"), _("{who} passes"))
        else:
            why = game.why_not(move.cards)
            if why is not None:
                raise BigTwoError(f"the lesson's script plays {move.cards}, which the rules refuse: {why}")
            game.play(move.cards)
            played = words.cards(move.cards.split())
            if rules.classify(parse_cards(move.cards)).kind == Kind.SINGLE:
                step.said = words.said(move.seat, _("You play {cards}"), _("{who} plays {cards}"), cards=played)
            else:  # the combination named, as the tables' log does
                you, other = _("You play {cards} ({kind})"), _("{who} plays {cards} ({kind})")
                step.said = words.said(move.seat, you, other, cards=played, kind=_kind_words(rules, move.cards))
        out.steps.append(step)
    result = game.result
    if result is None or result.finishing_order[0] != YOU:
        raise BigTwoError("the lesson's script must end with you going out first")
    left = game.hand_sizes()
    out.result = [
        words.said(
            s,
            ngettext("You pay {points} for {n} card left", "You pay {points} for {n} cards left", left[s]),
            ngettext("{who} pays {points} for {n} card left", "{who} pays {points} for {n} cards left", left[s]),
            points=-result.scores[s],
            n=left[s],
        )
        for s in range(len(left))
        if result.scores[s] < 0
    ]
    out.done = _(
        "You went out first and won the round. The others pay for the cards they still hold. That is the whole "
        "game: lead, beat the play with the same number of cards, or pass, until someone goes out."
    )
    return out


def check(step: int, answer: str, ascii_cards: bool = False) -> str | None:
    """Whether ``answer`` (cards in any notation the tables read, or ``pass``) is the move the lesson asks for at
    your ``step`` (its index in :attr:`Lesson.steps`): None when it is, else what to say: the rules' own reason
    when the table would refuse it, or what the lesson wants instead."""
    rules = load_rules(RULES)
    names = ["You", *TABLE_NAMES[: len(HANDS) - 1]]
    words = Wording(YOU, names, ascii_cards)
    script = _script()
    if not 0 <= step < len(script) or script[step].seat != YOU:
        raise BigTwoError(f"step {step} of the lesson is not one of your moves")
    game = Game(rules, hands=list(HANDS))
    for move in script[:step]:
        game.pass_turn() if move.cards is None else game.play(move.cards)
    wanted = script[step].cards
    text = answer.strip()
    if text.lower() in ("pass", "p"):
        if wanted is None:
            return None
        if not game.pass_allowed():
            return _("You lead this trick: you cannot pass, play something.")
        return _("You could pass, but this lesson plays {cards} here.").format(cards=words.cards(wanted.split()))
    try:
        cards = parse_cards(text)
    except (ValueError, BigTwoError) as e:
        return words.render(str(e))
    if wanted is not None and cards == parse_cards(wanted):
        return None
    why = game.why_not(cards)
    if why is not None:
        return words.render(why)
    if wanted is None:
        return _("That is allowed, but this lesson passes here: press Pass.")
    return _("That is allowed, but this lesson plays {cards} here.").format(cards=words.cards(wanted.split()))


__all__ = ["HANDS", "Lesson", "Step", "check", "lesson"]
