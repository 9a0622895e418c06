"""What a plain ``pip install bigtwo`` runs: the terminal table, the bots and the simulator need none of the extras
(the research environments' gymnasium and pettingzoo, training's torch, the server's web stack), and the server
needs its own extra alone. Each check runs in a fresh interpreter in which importing an extra's packages fails,
as it would where they are not installed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

ENV = ("gymnasium", "pettingzoo")
RL = ("torch", "matplotlib")
SERVER = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "argon2", "openskill")
TEST = ("ray", "playwright", "httpx", "hypothesis", "pytest")

BLOCKER = """
import importlib.abc
import sys

BLOCKED = set({blocked!r})


class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (not installed here)", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
"""


def run_without(blocked: tuple[str, ...], code: str) -> str:
    """Run ``code`` in a fresh interpreter where importing any of ``blocked`` fails; returns its output."""
    script = BLOCKER.format(blocked=sorted(blocked)) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_blocker_blocks():
    """The check can fail: an extra's package is refused inside it."""
    with pytest.raises(AssertionError, match="not installed here"):
        run_without(ENV, "import gymnasium")


def test_the_terminal_table_and_the_bots_need_no_extra():
    """``bigtwo play`` against its default opponents (a hint and the list of plays asked for), ``bigtwo bots``,
    ``bigtwo rules``, ``bigtwo simulate`` with the thinking bots and ``bigtwo benchmark`` (its board without the
    plot, which says why), all on the base install; ``serve``, ``ladder`` and ``train`` name the extra they need."""
    out = run_without(
        ENV + RL + SERVER + TEST,
        """
        import tempfile

        from typer.testing import CliRunner
        from bigtwo.cli.app import app

        runner = CliRunner()
        for args, typed in (
            (["play", "--seed", "1", "--delay", "0", "--ascii"], "legal\\nhint\\nquit\\n"),
            (["bots"], ""),
            (["rules", "list"], ""),
            (["simulate", "--games", "1", "--bots", "learned,isearch:iterations=2,search:iterations=2,heuristic"], ""),
            (["benchmark", "--bot", "greedy", "--opponents", "random", "--deals", "2", "--workers", "1", "-q",
              "--out", tempfile.mkdtemp()], ""),
        ):
            res = runner.invoke(app, args, input=typed)
            assert res.exit_code == 0, (args, res.output, res.exception)
            print(res.output)
        trained = tempfile.mkdtemp()
        for args, needs in (
            (["serve"], "needs the server extra"),
            (["ladder", "show"], "needs the server extra"),
            (["train", "--out", trained], "needs the rl extra"),
        ):
            res = runner.invoke(app, args)
            assert res.exit_code == 2 and needs in res.output, (args, res.output, res.exception)
            print(res.output)
        """,
    )
    assert "Bye." in out and "isearch" in out and "classic" in out
    assert "leaderboard.json" in out and "plot: not drawn, it needs matplotlib" in out
    assert 'pip install "bigtwo[server]"' in out


def test_the_server_needs_only_its_own_extra():
    """The server's app is built and its tables' limits read without the research or training extras."""
    run_without(
        ENV + RL + ("ray",),
        """
        from bigtwo.server.app import create_app
        from bigtwo.server.settings import Settings

        create_app("sqlite://", Settings())
        """,
    )
