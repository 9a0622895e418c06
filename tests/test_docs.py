"""The documentation site builds, strictly, and its reference tables are the code's.

``mkdocs build --strict`` fails on a broken link, a link to a missing anchor, a page left out of the navigation
or an API reference that does not resolve; the tables of settings, server limits and bot options are generated
by ``docs/hooks.py`` as the site builds, so each must name everything the code has."""

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, (
        "mkdocs build --strict failed (pip install -e '.[docs]' installs it):\n" + build.stdout + build.stderr
    )
    return out


def page_text(site: Path, page: str) -> str:
    """A built page's text, tags left out, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", " ", (site / page / "index.html").read_text(encoding="utf-8")))


def test_every_ruleset_setting_is_in_the_house_rules_reference(site):
    from bigtwo.rules.ruleset import Ruleset

    text = page_text(site, "house-rules")
    text = " ".join(text.split())
    missing = [
        name
        for name, f in Ruleset.model_fields.items()
        if name not in text or " ".join((f.description or "").split()) not in text
    ]
    assert not missing, missing


def test_every_server_limit_is_on_the_hosting_page_with_its_default(site):
    from bigtwo.server.settings import ENV_PREFIX, SCHEMA_LIMITS, Settings

    text = " ".join(page_text(site, "hosting").split())
    for name, f in Settings.model_fields.items():
        assert f"{ENV_PREFIX}{name.upper()}" in text, name
        default = f.get_default(call_default_factory=True)
        if isinstance(default, int) and not isinstance(default, bool):
            assert re.search(rf"\b{name}\b {default}\b", text), (name, default)
    assert all(name in text for name in SCHEMA_LIMITS)


def test_every_bot_and_option_is_on_the_bots_page(site):
    import inspect

    from bigtwo.bots.registry import BOTS

    text = page_text(site, "bots")
    for name, factory in BOTS.items():
        assert name in text, name
        for option in inspect.signature(factory).parameters:
            if option not in ("self", "seed", "options", "kwargs"):
                assert option in text, (name, option)


def test_the_readme_is_a_front_door():
    """At most 400 lines, and the first screen says what bigtwo is and how to install, play and test it."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400
    first_screen = "\n".join(lines[:24])
    for command in (
        "python3 -m venv .venv && . .venv/bin/activate",
        "pip install -e . && bigtwo play",
        'pip install -e ".[test,rl]" && python -m pytest',
    ):
        assert command in first_screen, command


PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
EXAMPLE_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]  # the lab log's pages are history


@pytest.mark.slow
@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.name)
def test_every_python_example_runs(page, tmp_path, monkeypatch):
    """Each page's ```python blocks run, in order, in one namespace (a later block may use an earlier one's
    names), in an empty directory: an example that names a retired API or a file that is not there fails here."""
    monkeypatch.chdir(tmp_path)
    text = page.read_text(encoding="utf-8")
    namespace: dict = {"__name__": "__doc_example__"}
    for block in PYTHON_BLOCK.finditer(text):
        line = text[: block.start()].count("\n") + 2
        exec(compile(block.group(1), f"{page.name}:{line}", "exec"), namespace)
