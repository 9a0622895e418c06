"""Every example in every command's --help runs (issue 14): the examples are read from the help texts as a
user sees them, then run with small sizes where they play games (fewer games, rounds and search iterations,
no delay; the human at a table follows the hint), so an example that breaks fails here."""

import glob
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from importlib import resources

import pytest
import typer
from typer.testing import CliRunner

from bigtwo.bots.learned import shipped_weights
from bigtwo.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "200"}  # wide enough that no example line wraps


def commands(group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's path (a group's subcommands included)."""
    out = [path]
    if hasattr(group, "commands"):  # a group (typer brings its own click); plugins (``lab``) listed on demand
        ctx = typer.Context(group)
        for name in group.list_commands(ctx):
            out += commands(group.get_command(ctx, name), (*path, name))
    return out


def help_examples() -> dict[tuple[str, ...], list[str]]:
    """Each command's example lines (``bigtwo ...``) as its --help prints them."""
    found = {}
    for path in commands(typer.main.get_command(app)):
        res = runner.invoke(app, [*path, "--help"], env=ENV)
        assert res.exit_code == 0, res.output
        found[path] = [line.strip() for line in res.output.splitlines() if line.strip().startswith("bigtwo ")]
    return found


def without(argv: list[str], *options: str) -> list[str]:
    """``argv`` less the given options and the word after each (their values)."""
    return [a for i, a in enumerate(argv) if a not in options and not (i and argv[i - 1] in options)]


def small(argv: list[str]) -> list[str]:
    """The example at a test's size: at most 2 rounds, 4 games (one duplicate deal), 2 search iterations (or
    deals a searched candidate), a benchmark of 2 deals, a stand-in's collection of 60 positions, a fitting's of
    12 decisions."""
    out = []
    for i, a in enumerate(argv):
        a = re.sub(r"iterations=\d+", "iterations=2", a)
        if i and argv[i - 1] == "--rounds":
            a = str(min(int(a), 2))
        if i and argv[i - 1] in ("--games", "-g"):
            a = "4"
        if i and argv[i - 1] == "--iterations":
            a = "2"
        if i and argv[i - 1] == "--decisions":
            a = "12"
        out.append(a)
    if out[:1] == ["play"] and "--delay" not in out:
        out += ["--delay", "0"]
    if out[:1] == ["simulate"]:
        out += ["--workers", "1", "--quiet"] + ([] if {"--games", "-g"} & set(out) else ["--games", "4"])
    if out[:3] == ["lab", "standin", "collect"]:  # a few dozen positions in this process, not an hour on two
        out = [*without(out, "--minutes", "--workers", "-w", "--positions"), "--positions", "60", "--workers", "1"]
    if out[:1] == ["train"]:  # a few dozen frames and evaluations of two deals, installed in the test's data folder
        kept = without(out, "--minutes", "-m", "--frames", "--eval-deals")
        out = [*kept, "--frames", "64", "--eval-deals", "2"]
    if out[:1] == ["benchmark"]:  # two deals against greedy, on local processes (the Ray path: test_benchmark.py)
        kept = without(out, "--ray", "--workers", "-w", "--deals", "-d", "--opponents")
        out = [*kept, "--deals", "2", "--opponents", "greedy", "--workers", "1", "--quiet", "--no-plot"]
    return out


USER_BOT = """
from bigtwo.bots import make


class StrongBot:
    def __init__(self, seed=None):
        self.bot = make("heuristic", seed=seed)

    def choose(self, rules, observation):
        return self.bot.choose(rules, observation)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_serve(argv: list[str], cwd) -> None:
    """The server example in a process of its own, on a free port: it must answer, then it is stopped."""
    port = free_port()
    argv = [str(port) if i and argv[i - 1] == "--port" else a for i, a in enumerate(argv)]
    proc = subprocess.Popen([sys.executable, "-m", "bigtwo", *argv], cwd=cwd, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # a loaded machine can take a while to import the server
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    assert r.status == 200
                    return
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.1)
        raise AssertionError(f"bigtwo {' '.join(argv)} did not answer on port {port}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_every_help_example_runs(tmp_path, monkeypatch):
    examples = help_examples()
    for path in [("play",), ("replay",), ("simulate",), ("bots",), ("serve",), ("rules", "list"), ("rules", "show")]:
        assert examples[path], f"bigtwo {' '.join(path)} --help shows no example"
    # the play examples mention the rules file the rules examples write, the replay ones the record play saves
    order = sorted(examples, key=lambda p: {"rules": 0, "play": 1, "replay": 2}.get(p[0] if p else "", 3))
    monkeypatch.chdir(tmp_path)
    # what the benchmark's examples name: a user's bot class, and weights where training writes them
    (tmp_path / "mybots.py").write_text(USER_BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "runs" / "classic").mkdir(parents=True)
    weights = resources.files("bigtwo.bots") / "weights" / shipped_weights()[("classic", 4)]
    for name in ("best.npz", "latest.npz"):
        (tmp_path / "runs" / "classic" / name).write_bytes(weights.read_bytes())
    ran = 0
    for path in order:
        for line in examples[path]:
            words = shlex.split(line, comments=True)
            assert words[0] == "bigtwo"
            # wildcards expand as a shell would, in the directory the examples run in
            words = [w for a in words for w in (sorted(glob.glob(a)) or [a] if "*" in a else [a])]
            argv, redirect = words[1:], None
            if ">" in argv:
                argv, redirect = argv[: argv.index(">")], argv[argv.index(">") + 1]
            argv = small(argv)
            if argv[:1] == ["serve"]:
                run_serve(argv, tmp_path)
                ran += 1
                continue
            res = runner.invoke(app, argv, input="hint\n\n" * 400, env=ENV)
            assert res.exit_code == 0, f"{line}\n{res.output}"
            out = res.output
            assert "Not allowed" not in out and "Traceback" not in out, f"{line}\n{out}"
            if argv[0] == "play":  # played to the end, following the hint
                assert "Round over:" in out or "Match over." in out, f"{line}\n{out}"
            if redirect:
                (tmp_path / redirect).write_text(out, encoding="utf-8")
            ran += 1
    assert ran >= 12
