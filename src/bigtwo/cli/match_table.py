"""A line-by-line match for ``bigtwo play --rounds N`` (or ``--points P``): rounds, exchanges, a score table.

The human makes exchange decisions by typing cards (or a question, or a choice); decisions with a single legal
answer are made for them and shown. The match logic lives in :mod:`bigtwo.match`; this is only the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from bigtwo.bots import make as make_bot
from bigtwo.cards import CardParseError
from bigtwo.cli.plain import HELP, PlainTable
from bigtwo.errors import BigTwoError
from bigtwo.exchange import legal_exchange_choices
from bigtwo.game import Game
from bigtwo.match import Match, RoundRecord
from bigtwo.rules.ruleset import Ruleset

ASK_HELP = (
    "Ask the bum a question; you must take what it reveals: [bold]lowest[/bold], [bold]highest[/bold], "
    "[bold]highest S[/bold] / [bold]lowest S[/bold] (a suit), [bold]highest pair[/bold], [bold]have 9S[/bold], "
    "[bold]any S[/bold] (then you must take a spade), [bold]two S[/bold], and once bound to a suit "
    "[bold]give S[/bold] (the bum picks). [bold]legal[/bold] lists every question you may ask now."
)


def _ordinal(n: int) -> str:
    return f"{n}{'tsnrhtdd'[(n // 10 % 10 != 1) * (n % 10 < 4) * n % 10 :: 4]}"


class MatchTable(PlainTable):
    """One human seat and computer players for the rest, over a whole match."""

    def __init__(
        self,
        rules: Ruleset,
        players: int | None = None,
        seat: int = 0,
        bots: str = "greedy",
        seed: int | None = None,
        rounds: int | None = None,
        points: int | None = None,
        delay: float = 0.4,
        ascii_cards: bool = False,
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
    ):
        self.rules = rules
        self.match = Match(rules, players=players, seed=seed, rounds=rounds, points=points)
        n = self.match.n
        if not 0 <= seat < n:
            raise BigTwoError(f"--seat {seat} is not a seat at a {n}-player table (0-{n - 1})")
        self.seat = seat
        names = [b.strip() for b in bots.split(",") if b.strip()] or ["greedy"]
        if len(names) == 1:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise BigTwoError(f"--bots lists {len(names)} players; this table needs {n - 1} (or one name)")
        others = [s for s in range(n) if s != seat]
        self.bots = {
            s: make_bot(name, seed=None if seed is None else seed * 31 + i)
            for i, (s, name) in enumerate(zip(others, names, strict=True))
        }
        self.delay = delay
        self.ascii = ascii_cards
        self.console = console or Console(highlight=False)
        self.input = input_fn
        self._shown_events = 0

    @property
    def game(self) -> Game:  # type: ignore[override]
        g = self.match.game
        assert g is not None
        return g

    def apply(self, text: str) -> None:
        self.match.act(text, seat=self.seat)

    def name(self, s: int) -> str:
        roles = self.match.current.roles
        role = roles[s] if roles and roles[s] != "neutral" else None
        if s == self.seat:
            return f"You ({role})" if role else "You"
        return f"Seat {s} ({self.bots[s].name}, {role})" if role else f"Seat {s} ({self.bots[s].name})"

    def verb(self, s: int, third_person: str) -> str:
        """'asks' for another seat, 'ask' for you."""
        if s != self.seat:
            return third_person
        head, _, rest = third_person.partition(" ")
        return (head[:-1] + (" " + rest if rest else "")).strip()

    # --- the match loop ----------------------------------------------------------------------------------
    def run(self) -> None:
        m = self.match
        length = f"{m.max_rounds} rounds" if m.max_rounds else ""
        if m.points:
            length += (" or " if length else "") + f"{m.points} points"
        self.console.print(f"[bold]{self.rules.name}[/bold] - {self.rules.description}")
        self.console.print(f"A match of {length}. {HELP}")
        header_done = play_started = -1
        while not m.is_over:
            rec = m.current
            if rec.index != header_done:
                header_done, self._shown_events = rec.index, 0
                self.round_header(rec)
            done_before = len(m.completed)
            if m.phase == "exchange":
                ok = self.exchange_step()
            else:
                if rec.index != play_started:
                    play_started = rec.index
                    self.start_of_play(rec)
                ok = self.play_step()
            if not ok:
                self.console.print("Bye.")
                return
            if len(m.completed) > done_before:
                self.show_round_result(m.completed[-1])
                self.show_scores()
        self.show_final()

    def round_header(self, rec: RoundRecord) -> None:
        m = self.match
        total = f" of {m.max_rounds}" if m.max_rounds else ""
        self.console.rule(f"Round {rec.index + 1}{total}")
        self.console.print(f"{self.name(rec.dealer)} {self.verb(rec.dealer, 'deals')}.")
        if rec.roles:
            roles = ", ".join(self.name(s) for s in range(m.n) if rec.roles[s] != "neutral")
            self.console.print(f"Roles from the last round: {roles}")

    def start_of_play(self, rec: RoundRecord) -> None:
        """Once the exchanges are over: what the human received, and who leads."""
        for e in rec.exchange.events_for(self.seat):
            if e["type"] == "give" and e["to"] == self.seat:
                self.console.print(f"You received {self.cards(e['cards'])} from {self.name(e['from'])}.")
        if rec.first is not None:
            self.console.print(f"{self.name(rec.first)} won the last round and leads freely.")

    def exchange_step(self) -> bool:
        m = self.match
        seat = m.to_move
        assert seat is not None
        if seat == self.seat:
            ok = self.human_exchange()
        else:
            if self.delay:
                time.sleep(self.delay)
            m.act(self.bots[seat].choose(self.rules, m.observe(seat)))
            ok = True
        self.show_new_events()
        return ok

    def play_step(self) -> bool:
        m = self.match
        g = self.game
        s = g.to_move
        if s == self.seat:
            return self.human_turn()
        if self.delay:
            time.sleep(self.delay)
        p = m.act(self.bots[s].choose(self.rules, m.observe(s)))
        what = "passes" if p.is_pass else f"plays {self.cards([str(c) for c in g.ev.sort_cards(p.mask)])}"
        self.console.print(f"{self.name(s)} {what}" + ("  [bold]goes out![/bold]" if not g.hand(s) else ""))
        return True

    # --- exchanges -----------------------------------------------------------------------------------------
    def show_new_events(self) -> None:
        events = self.match.current.exchange.events_for(self.seat)
        for e in events[self._shown_events :]:
            party = self.seat in (e.get("from"), e.get("to"))
            if e["type"] == "give" and party and e["reason"].startswith("stolen"):
                continue  # the question's answer already showed it
            if e["type"] == "give":
                cards = f": {self.cards(e['cards'])}" if "cards" in e else ""
                n = e["count"]
                self.console.print(
                    f"{self.name(e['from'])} {self.verb(e['from'], 'gives')} {n} card{'s' if n > 1 else ''} to "
                    f"{self.name(e['to'])}{cards}  [dim]({e['reason']})[/dim]"
                )
            elif e["type"] == "question":
                taken = f" {self.cards(e['cards'])}" if e["cards"] else ""
                who = self.name(e["from"])
                self.console.print(f"{who} {self.verb(e['from'], 'asks')} '{e['question']}': {e['answer']}{taken}")
            elif e["type"] in ("surrender", "decline"):
                what = "the highest cards" if e["type"] == "surrender" else ""
                verb = self.verb(e["from"], "surrenders" if e["type"] == "surrender" else "declines to surrender")
                self.console.print(f"{self.name(e['from'])} {verb} {what}".rstrip() + ".")
            elif e["type"] == "demand":
                verb = self.verb(e["from"], "demands")
                self.console.print(f"{self.name(e['from'])} {verb} {e['choice']} cards back.")
        self._shown_events = len(events)

    def human_exchange(self) -> bool:
        m = self.match
        obs = m.observation(self.seat)
        d = obs["decision"]
        legal = legal_exchange_choices(self.rules, obs)
        self.console.print(f"Your hand: {self.cards(obs['hand'])}")
        prompt = self.describe_decision(d)
        self.console.print(prompt)
        if len(legal) == 1:
            only = legal[0]
            self.console.print(f"[dim](the only choice: {only})[/dim]")
            m.act(only, seat=self.seat)
            return True
        while True:
            try:
                text = self.input("> ").strip()
            except EOFError:
                return False
            low = text.lower()
            if low in ("quit", "exit", "q"):
                return False
            if low in ("help", "?", "h"):
                self.console.print(ASK_HELP if d["kind"] == "ask" else prompt)
                continue
            if low == "legal":
                shown = [str(c) if str(c) else "(nothing: decline)" for c in legal[:40]]
                more = f" ... and {len(legal) - 40} more" if len(legal) > 40 else ""
                self.console.print(", ".join(shown) + more)
                continue
            if not text:
                continue
            try:
                m.act(text, seat=self.seat)
            except CardParseError as e:
                self.console.print(f"[red]{e}[/red]")
                continue
            except BigTwoError as e:
                self.console.print(f"[red]Not allowed: {e}[/red]")
                continue
            return True

    def describe_decision(self, d: dict[str, Any]) -> str:
        k = d["count"]
        cards = f"{k} card{'s' if k > 1 else ''}"
        kind = d["kind"]
        if kind == "give":
            which = {"highest": "your highest", "lowest": "your lowest", "any": "any"}[d["must"]]
            suit = f" {d['suit']}" if d.get("suit") else ""
            return f"Give {which}{suit} {cards} to {self.name(d['to'])}: type the cards. [dim]({d['reason']})[/dim]"
        if kind == "surrender":
            return (
                f"Surrender your {k} highest cards to {self.name(d['to'])}? Type [bold]surrender[/bold] or "
                f"[bold]decline[/bold] (then they steal by questions). [dim]({d['reason']})[/dim]"
            )
        if kind == "ask":
            lines = [f"Steal {cards} from {self.name(d['from'])} by questions."]
            if d.get("suit"):
                lines.append(f"You must take {d['committed']} {d['suit']} card(s) first.")
            for a in d.get("answers", []):
                taken = f" {' '.join(a['cards'])}" if a["cards"] else ""
                lines.append(f"  asked '{a['question']}': {a['answer']}{taken}")
            if not d.get("answers"):
                lines.append(ASK_HELP)
            return "\n".join(lines)
        if kind == "demand":
            return (
                f"Demand the lowest {cards} of {self.name(d['from'])}? Type [bold]lowest[/bold], or "
                f"[bold]any[/bold] to let them choose. [dim]({d['reason']})[/dim]"
            )
        return str(d)

    # --- results -------------------------------------------------------------------------------------------
    def show_round_result(self, rec: RoundRecord) -> None:
        res = rec.result
        assert res is not None and rec.game is not None
        self.console.print(f"[bold]Round {rec.index + 1} over.[/bold]")
        for place, s in enumerate(res.finishing_order, 1):
            self.console.print(f"{place}. {self.name(s)}: {res.cards_left[s]} cards left, score {res.scores[s]:+d}")
        for line in res.details:
            self.console.print(f"[dim]{line}[/dim]")

    def show_scores(self) -> None:
        m = self.match
        ranking = m.rules.ranks_only
        t = Table(title=f"Scores after round {len(m.completed)}" + (f" of {m.max_rounds}" if m.max_rounds else ""))
        t.add_column("round", justify="right")
        for s in range(m.n):
            t.add_column("You" if s == self.seat else f"Seat {s}", justify="right")
        for rec in m.completed:
            assert rec.result is not None
            places = rec.result.places
            cells = [
                _ordinal(places[s]) if ranking else f"{rec.result.scores[s]:+d} ({_ordinal(places[s])})"
                for s in range(m.n)
            ]
            t.add_row(str(rec.index + 1), *cells)
        t.add_section()
        if ranking:
            t.add_row("places", *[str(p) for p in m.places], style="bold")
        else:
            t.add_row("total", *[f"{x:+d}" for x in m.totals], style="bold")
        self.console.print(t)

    def show_final(self) -> None:
        m = self.match
        self.console.print("[bold]Match over.[/bold]")
        ranking = m.rules.ranks_only
        for place, s in enumerate(m.standings(), 1):
            score = f"{m.places[s]} places" if ranking else f"{m.totals[s]:+d}"
            self.console.print(f"{place}. {'You' if s == self.seat else f'Seat {s} ({self.bots[s].name})'}: {score}")
