"""Table setup: what a new table is allowed to be, checked before anything is built or stored. Its rules (a
preset, house rules on top), their bounds (hand size, plays in a turn, match length), its bots (which exist,
which can play these rules, the strength a table gets unless it asks), its guests' names, and its seats.

Every check refuses in words (:class:`~bigtwo.server.referee.Rejected`), so a host learns what to change."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bigtwo import bots as bot_registry
from bigtwo.bots import make as make_bot
from bigtwo.bots.registry import bot_words, cannot_play
from bigtwo.bots.strength import strongest_bot
from bigtwo.bounds import legal_play_bound, max_hand_size
from bigtwo.errors import BigTwoError
from bigtwo.match import Match
from bigtwo.rules.ruleset import SECTIONS, Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.server import ratings
from bigtwo.server.inputs import BadInput, check_house_rules, house_rules_toml
from bigtwo.server.messages import MAX_POINTS, MAX_ROUNDS, CreateRoom, text_problem
from bigtwo.server.names import bot_shaped, skeleton
from bigtwo.server.referee import Rejected, Seat, SeatKind, bot_name
from bigtwo.server.settings import Settings
from bigtwo.words import plural, spec_name

DEFAULT_BOT_DELAY = 0.8  # a new table's bot delay unless it asks (CreateRoom.bot_delay)


def available_bots() -> dict[str, str]:
    """Every registered bot, with what it is in a player's words (:func:`bigtwo.bots.registry.bot_words`)."""
    make_bot("random")  # importing the built-in bots registers them
    return {name: bot_words(name) for name in bot_registry.BOTS}


def default_bot(
    rules: Ruleset | None = None,
    players: int | None = None,
    delay: float = DEFAULT_BOT_DELAY,
    budget_ms: float | None = None,
) -> str:
    """The strength a table gets unless it asks: the strongest bot that answers within the table's bot delay
    (:func:`bigtwo.bots.registry.strongest_bot`: a searching bot starts thinking when its turn begins and stops
    within the delay, or within ``budget_ms``, the server's thinking budget, if that is less; the learned bot only
    where it has weights for the table). Without a table: a classic table at the default delay."""
    available_bots()  # importing the built-in bots registers them
    rules = rules or load_rules("classic")
    return strongest_bot(rules, players or rules.players, delay, budget_ms)[0]


def person_name(name: str) -> str:
    """A guest's name, refused where it reads as a bot's (``Dev (random)``: a name, then a bot in brackets), the
    shape the tables give their bots, so that no one at a table passes for one: read by its skeleton
    (:func:`bigtwo.server.names.skeleton`), so a zero-width joiner, fullwidth brackets or a look-alike letter
    do not make it another name."""
    split = bot_shaped(skeleton(name))
    if split is not None and spec_name(split[1]) in bot_registry.BOTS:
        raise Rejected(f"{name} reads as a bot's name (a name, then a bot in brackets): choose another name")
    return name


def check_bot(name: str | None, default: str, rules: Ruleset, players: int) -> str:
    """The bot for a seat, by name (or the table's default), refused in words if it cannot play this table."""
    name = name or default
    names = available_bots()
    if name not in names:
        raise Rejected(f"no bot named {name!r}; bots: {', '.join(names)}")
    why = cannot_play(name, rules, players)
    if why:
        raise Rejected(why)
    return name


def build_rules(spec: CreateRoom, settings: Settings | None = None) -> tuple[Ruleset, dict[str, Any]]:
    """The room's ruleset: a preset, a TOML file's text on top of it, then single setting changes; every part
    bounded (size, nesting, text length, characters) before the engine reads it."""
    settings = settings or Settings()
    limits = (settings.max_rules_items, settings.max_rules_text_chars)
    presets = list_presets()
    if spec.preset not in presets:
        raise Rejected(f"no preset named {spec.preset!r}; presets: {', '.join(presets)}")
    base = load_rules(spec.preset)
    try:
        rules = base
        if spec.rules_toml:
            data = house_rules_toml(
                spec.rules_toml, settings.max_rules_toml_bytes, settings.max_rules_toml_depth, *limits
            )
            named = data.get("base", spec.preset)
            if named not in presets:
                raise Rejected(f"house rules TOML: base {named!r} is not a preset; presets: {', '.join(presets)}")
            text = spec.rules_toml if "base" in data else f'base = "{spec.preset}"\n{spec.rules_toml}'
            rules = rules_from_toml(text, source="house rules TOML")
        if spec.rules:
            check_house_rules(spec.rules, "house rules", *limits)
            flat = rules.to_dict(sectioned=False)
            for key, value in spec.rules.items():
                if key in SECTIONS and isinstance(value, dict):
                    flat.update(value)
                else:
                    flat[key] = value
            if "name" not in spec.rules:
                flat["name"] = f"{base.name} (house rules)"
            rules = Ruleset.from_dict(flat, source="house rules")
    except BadInput as e:
        raise Rejected(str(e), e.status) from None
    except BigTwoError as e:
        raise Rejected(str(e)) from None
    for what, text in (("name", rules.name), ("description", rules.description)):
        if text == getattr(base, what):
            continue
        if len(text) > settings.max_rules_text_chars:
            raise Rejected(
                f"house rules: the {what} is {len(text):,} characters long; at most {settings.max_rules_text_chars}",
                422,
            )
        problem = text_problem(text)
        if problem:
            raise Rejected(f"house rules: the {what}: {problem}", 422)
    base_flat = base.to_dict(sectioned=False)
    changes = {
        k: v for k, v in rules.to_dict(sectioned=False).items() if base_flat.get(k) != v and k not in ("description",)
    }
    return rules, changes


def check_hand_size(rules: Ruleset, players: int, most: int) -> None:
    """Refuse, in words, rules that can put more than ``most`` cards in one hand at ``players`` seats (the
    leftover or a stock counted): a turn's plays grow about tenfold with every three cards, and every bot, hint
    and check at the table would list them."""
    cards = max_hand_size(rules, players)
    if cards > most:
        raise Rejected(
            f"these rules can give one player {cards} cards at a table of {players}; a hand here holds at most "
            f"{most} (a larger one has too many possible plays to work through): play with more players, or "
            "give the cards left over from the deal another way",
            422,
        )


def check_table_plays(rules: Ruleset, players: int, most: int) -> None:
    """Refuse, in words, rules under which one turn can offer more than ``most`` legal plays (the engine's upper
    bound, :func:`bigtwo.bounds.legal_play_bound`, worked out from the rules alone when the table is opened):
    every bot, hint and list of legal plays at the table works through them, and the time that takes grows
    with them, so such a table would hold the bots' workers for minutes a question."""
    bound = legal_play_bound(rules, players)
    if bound > most:
        raise Rejected(
            f"these rules can offer one player up to {bound:,} different plays in a turn at a table of {players}; "
            f"a table here allows at most {most:,} (working through more takes too long for the bots and the "
            "hints): deal fewer cards, play with more players, or allow fewer kinds of combination, wild jokers "
            "or long straights",
            422,
        )


def check_match_length(rounds: int | None, points: int | None) -> None:
    """Refuse, in words, a match longer than a table may ask for (house rules' ``match_rounds`` and
    ``match_points`` included): the same caps as the API's ``rounds`` and ``points``."""
    if rounds is not None and rounds > MAX_ROUNDS:
        raise Rejected(f"a match here lasts at most {MAX_ROUNDS} rounds, not {rounds:,}", 422)
    if points is not None and points > MAX_POINTS:
        raise Rejected(f"a match here plays to at most {MAX_POINTS:,} points, not {points:,}", 422)


@dataclass(frozen=True)
class TablePlan:
    """A new table's settings, every one checked: its rules and their changes from the preset, its seats, its
    deal's seed, and the bot its seats get unless they ask."""

    rules: Ruleset
    changes: dict[str, Any]
    players: int
    seed: int
    bot: str


def plan_table(spec: CreateRoom, settings: Settings, signed_in: bool, new_seed: Callable[[], int]) -> TablePlan:
    """Check a new table's settings (``signed_in``: its host has an account; ``new_seed`` draws its deal's seed,
    once the rules are known good) and return them, or refuse in words what is wrong."""
    rules, changes = build_rules(spec, settings)
    if spec.rated:
        if not signed_in:
            raise Rejected("a rated table needs a signed-in host: sign in first", 403)
        if changes or ratings.family_of(spec.preset) is None:
            raise Rejected("a rated table plays a preset as it is: house rules make a table unrated", 422)
    players = rules.players if spec.players is None else spec.players
    seed = new_seed()
    try:
        match = Match(rules, players=players, seed=seed, rounds=spec.rounds, points=spec.points)
    except BigTwoError as e:
        raise Rejected(str(e)) from None
    check_match_length(match.max_rounds, match.points)
    check_hand_size(rules, players, settings.max_hand_cards)
    check_table_plays(rules, players, settings.max_table_plays)
    default = check_bot(spec.bot, default_bot(rules, players, spec.bot_delay, settings.bot_budget_ms), rules, players)
    specs = spec.seats or []
    if specs and len(specs) != players:
        raise Rejected(f"seats lists {plural(len(specs), 'seat')} but the table has {players}")
    return TablePlan(rules, changes, players, seed, default)


def table_seats(spec: CreateRoom, players: int, rules: Ruleset, default: str, host: Seat | None) -> list[Seat]:
    """A new table's seats: the host at seat 0 when they sit (``host``), the bots asked for (each checked, named
    around the people), the rest open."""
    specs = spec.seats or []
    seat_list: list[Seat] = []
    for i in range(players):
        sp = specs[i] if specs else None
        if i == 0 and host is not None:
            if sp is not None and sp.kind == "bot":
                check_bot(sp.bot, default, rules, players)  # refused in words, as it always was
            s = host
        elif sp is not None and sp.kind == "bot":
            s = Seat(i, SeatKind.BOT, "", check_bot(sp.bot, default, rules, players))
            s.name = bot_name(s, [*seat_list, *([host] if host is not None else [])])
        else:
            s = Seat(i, SeatKind.OPEN, "empty")
        seat_list.append(s)
    return seat_list
