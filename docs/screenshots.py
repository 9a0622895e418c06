"""Capture the table for the README: ``python docs/screenshots.py`` writes docs/table.svg and docs/table.txt.

A seeded game, a few turns in, with a hint shown, at 80x24 (the size the table is designed for).
"""

import asyncio
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # the repository: the tests' screen capture (the package ships none)

from tests.screen import screen_text  # noqa: E402

from bigtwo import load_rules  # noqa: E402
from bigtwo.cli.session import TableSession  # noqa: E402
from bigtwo.cli.tui import TableApp  # noqa: E402


async def main() -> None:
    session = TableSession(load_rules("classic"), seed=2024, bots="greedy,random,greedy", date="2025-06-01")
    app = TableApp(session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(30):  # turns played as the hint suggests until you lead and hold a pair
            g = session.game
            pairs = [p for p in g.legal_plays() if p.kind == "pair"] if g.trick is None else []
            if pairs:
                app.hand.select_mask(pairs[-1].mask)  # selected and explained, not yet played
                await pilot.press("e")
                break
            await pilot.press("h")
            await pilot.press("enter" if app.hand.selected_mask else "p")
            await pilot.pause()
        await pilot.pause()
        svg = app.export_screenshot(title="bigtwo play", simplify=True)
        (HERE / "table.svg").write_text(svg, encoding="utf-8")
        (HERE / "table.txt").write_text(screen_text(app), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
