"""Capture the browser table for the docs: ``python docs/browser_screenshots.py`` writes
docs/images/table-{1280x720,390x844}-{light,dark}.png.

A table of bots from the lobby's *Play now* on a seeded deal, mid-round: you led 3♦, the bots answered, and it is
your turn again with a card selected. Needs Playwright and Debian's chromium (``apt-get install chromium``); the
PNGs are reduced to a palette (Pillow) so that each stays under 200 KB.
"""

import io
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # the repository: the tests' live server (the package ships none)

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from tests.server_support import LiveServer  # noqa: E402

from bigtwo.match import Match  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
SIZES = {"1280x720": {"width": 1280, "height": 720}, "390x844": {"width": 390, "height": 844}}
THEMES = ("light", "dark")


def leading_seed() -> int:
    """A deal where seat 0 (the guest) holds the lead card (3♦) at a four-player classic table."""
    return next(s for s in range(1, 200) if Match("classic", players=4, seed=s, rounds=3).game.to_move == 0)


def table_mid_round(page, url: str) -> None:
    """Play now, lead 3♦, wait for the bots to answer and your turn to come back, and select a card."""
    page.goto(f"{url}/")
    page.click("#play-now")
    page.wait_for_url("**/room/**")
    page.wait_for_function(
        "() => window.bigtwo && window.bigtwo.view && window.bigtwo.view.match"
        " && window.bigtwo.view.match.to_move === 0",
        timeout=30000,
    )
    page.click('#hand .card[data-card="3D"]')
    page.click("#play")
    page.wait_for_function("() => window.bigtwo.view.match.to_move !== 0", timeout=10000)
    page.wait_for_function(
        "() => window.bigtwo.view.match.to_move === 0 && !!window.bigtwo.view.match.trick", timeout=30000
    )
    page.click("#hand .card >> nth=-1")
    page.mouse.move(0, 0)  # no hover left on a card
    page.wait_for_timeout(400)  # the arrival animations end


def small_png(data: bytes) -> bytes:
    """The screenshot with its colours reduced to a palette: the same picture at a fraction of the size."""
    image = Image.open(io.BytesIO(data)).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    out = HERE / "images"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, LiveServer(str(Path(tmp) / "shots.sqlite3")) as live:
        seed = leading_seed()
        live.rooms.new_seed = lambda: seed
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for size, viewport in SIZES.items():
                for theme in THEMES:
                    context = browser.new_context(viewport=viewport, color_scheme=theme)
                    page = context.new_page()
                    table_mid_round(page, live.url)
                    path = out / f"table-{size}-{theme}.png"
                    path.write_bytes(small_png(page.screenshot()))
                    print(f"{path.relative_to(HERE.parent)}: {path.stat().st_size // 1024} KB")
                    context.close()
            browser.close()


if __name__ == "__main__":
    main()
