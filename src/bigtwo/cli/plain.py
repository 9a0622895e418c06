"""A line-by-line table for ``bigtwo play``: one human seat, computer players for the rest."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console

from bigtwo.bots import make as make_bot
from bigtwo.cards import CARDS, SUIT_CHARS, CardParseError, to_mask
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset

_RED = {"D", "H", "♦", "♥"}
HELP = (
    "Type the cards to play, e.g. [bold]3D[/bold] or [bold]9h 9s[/bold] or [bold]10c jc qc kc ac[/bold]; "
    "[bold]pass[/bold]; [bold]legal[/bold] lists every legal play; [bold]undo[/bold] takes back your last "
    "turn; [bold]quit[/bold] leaves."
)


def card_markup(token: str, ascii_cards: bool = False) -> str:
    """Rich markup for one card: red suits in red, symbols unless ``ascii_cards``."""
    c = CARDS[to_mask(token).bit_length() - 1]
    text = str(c) if ascii_cards else c.symbol()
    suit = str(c)[-1]
    colour = "red" if suit in _RED and suit in SUIT_CHARS else "bold"
    if c.is_joker:
        colour = "magenta"
    return f"[{colour}]{text}[/{colour}]"


class PlainTable:
    def __init__(
        self,
        rules: Ruleset,
        players: int | None = None,
        seat: int = 0,
        bots: str = "greedy",
        seed: int | None = None,
        delay: float = 0.4,
        ascii_cards: bool = False,
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
    ):
        self.rules = rules
        self.game = Game(rules, players=players, seed=seed)
        n = self.game.n
        if not 0 <= seat < n:
            raise BigTwoError(f"--seat {seat} is not a seat at a {n}-player table (0-{n - 1})")
        self.seat = seat
        names = [b.strip() for b in bots.split(",") if b.strip()] or ["greedy"]
        if len(names) == 1:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise BigTwoError(f"--bots lists {len(names)} players; this table needs {n - 1} (or one name)")
        self.bots = {}
        others = [s for s in range(n) if s != seat]
        for i, (s, name) in enumerate(zip(others, names, strict=True)):
            self.bots[s] = make_bot(name, seed=None if seed is None else seed * 31 + i)
        self.delay = delay
        self.ascii = ascii_cards
        self.console = console or Console(highlight=False)
        self.input = input_fn

    def name(self, s: int) -> str:
        return "You" if s == self.seat else f"Seat {s} ({self.bots[s].name})"

    def cards(self, tokens: list[str]) -> str:
        return " ".join(card_markup(t, self.ascii) for t in tokens)

    def show_table(self) -> None:
        g, obs = self.game, self.game.observation(self.seat)
        sizes = obs["hand_sizes"]
        parts = []
        for s in range(g.n):
            tag = f"{self.name(s)}: {sizes[s]}"
            if s in obs["finished"]:
                tag += f" (out, {obs['finished'].index(s) + 1})"
            elif s in obs["passed"]:
                tag += " (passed)"
            parts.append(tag)
        self.console.print("[dim]" + " | ".join(parts) + "[/dim]")
        if obs["trick"]:
            t = obs["trick"]
            self.console.print(f"To beat: {self.cards(t['cards'])}  ({t['kind']}, by {self.name(t['seat'])})")
        else:
            self.console.print("You lead: play any combination.")
        if obs["required_card"]:
            self.console.print(f"The first play must contain {self.cards([obs['required_card']])}.")
        self.console.print(f"Your hand: {self.cards(obs['hand'])}")

    def run(self) -> None:
        g = self.game
        self.console.print(f"[bold]{self.rules.name}[/bold] - {self.rules.description}")
        self.console.print(HELP)
        while not g.is_over:
            s = g.to_move
            if s == self.seat:
                if not self.human_turn():
                    self.console.print("Bye.")
                    return
            else:
                if self.delay:
                    time.sleep(self.delay)
                p = self.bots[s].choose(self.rules, g.observe(s))
                g.play(p)
                what = "passes" if p.is_pass else f"plays {self.cards([str(c) for c in g.ev.sort_cards(p.mask)])}"
                self.console.print(f"{self.name(s)} {what}" + ("  [bold]goes out![/bold]" if not g.hand(s) else ""))
        self.show_result()

    def human_turn(self) -> bool:
        g = self.game
        self.show_table()
        while True:
            try:
                text = self.input("> ").strip()
            except EOFError:
                return False
            low = text.lower()
            if low in ("quit", "exit", "q"):
                return False
            if low in ("help", "?", "h"):
                self.console.print(HELP)
                continue
            if low == "legal":
                plays = g.legal_plays()
                self.console.print(", ".join("pass" if p.is_pass else str(p) for p in plays))
                continue
            if low == "undo":
                if not self.undo_turn():
                    self.console.print("[yellow]Nothing of yours to undo yet.[/yellow]")
                    continue
                self.show_table()
                continue
            if not text:
                continue
            try:
                self.apply(text)
            except CardParseError as e:
                self.console.print(f"[red]{e}[/red]")
                continue
            except BigTwoError as e:
                self.console.print(f"[red]Not allowed: {e}[/red]")
                continue
            return True

    def apply(self, text: str) -> None:
        """Carry out the human's typed play (a match routes it through the match instead)."""
        self.game.play(text)

    def undo_turn(self) -> bool:
        """Undo back to before the human's previous action (the bots' replies go with it)."""
        g = self.game
        hist = g.history
        mine = [i for i, (s, _p) in enumerate(hist) if s == self.seat]
        if not mine:
            return False
        for _ in range(len(hist) - mine[-1]):
            g.undo()
        return True

    def show_result(self) -> None:
        res = self.game.result
        assert res is not None
        self.console.print("[bold]Round over.[/bold]")
        for place, s in enumerate(res.finishing_order, 1):
            self.console.print(f"{place}. {self.name(s)}: {res.cards_left[s]} cards left, score {res.scores[s]:+d}")
