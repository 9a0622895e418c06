"""One command line for players and one for the lab (issue 85): ``bigtwo --help`` lists the product's commands,
play first, ``bigtwo lab`` the research pipelines (a plugin the product names nowhere), and every help shows a
flag as a flag, with no placeholder for a value it does not take."""

import subprocess
import sys
import types
from importlib.metadata import entry_points

import pytest
import typer
from typer.testing import CliRunner

from bigtwo.cli import app
from bigtwo.cli.group import ORDER

runner = CliRunner()
ENV = {"COLUMNS": "200"}
PIPELINES = ["dmc", "imitate", "distill", "expert", "average", "fitting", "standin", "beliefs"]


def listed(output: str) -> list[str]:
    """The command names a help's Commands panel lists, in order."""
    lines = output.split("Commands")[1].splitlines()[1:]
    return [line.strip("│ ").split()[0] for line in lines if line.startswith("│ ") and line[2] != " "]


def every_command(group, path=()):
    out = [path]
    if hasattr(group, "commands"):
        ctx = typer.Context(group)
        for name in group.list_commands(ctx):
            out += every_command(group.get_command(ctx, name), (*path, name))
    return out


def test_the_top_level_lists_the_product_play_first_and_the_lab_last():
    res = runner.invoke(app, ["--help"], env=ENV)
    assert res.exit_code == 0, res.output
    names = listed(res.output)
    assert names == [*ORDER, "lab"] and len(names) <= 12  # learn joined play (issue 89)
    assert names[0] == "play" and not set(PIPELINES) & set(names)


def test_the_lab_lists_its_pipelines():
    res = runner.invoke(app, ["lab", "--help"], env=ENV)
    assert res.exit_code == 0, res.output
    assert sorted(listed(res.output)) == sorted(PIPELINES)
    for name in PIPELINES:
        assert runner.invoke(app, [name, "--help"], env=ENV).exit_code != 0  # not at the top level any more


def test_the_lab_is_a_plugin_of_the_command_line():
    """The lab registers itself through the ``bigtwo.cli`` entry point group; the product loads it only when a
    command is listed or named that is not its own (``bigtwo rules list`` imports no lab module)."""
    (point,) = [p for p in entry_points(group="bigtwo.cli") if p.name == "lab"]
    assert point.value == "bigtwo.lab.cli:app"
    script = (
        "import sys; from typer.testing import CliRunner; from bigtwo.cli import app; "
        "r = CliRunner().invoke(app, ['rules', 'list']); assert r.exit_code == 0, r.output; "
        "print(sorted(m for m in sys.modules if m.startswith('bigtwo.lab')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_flags_show_no_placeholder_in_any_help():
    """A flag takes no value, so its help shows none (typer 0.29 writes ``<bool>`` beside every flag, ``--help``
    included); an option that takes a value keeps its type."""
    paths = every_command(typer.main.get_command(app))
    assert ("lab", "standin", "collect") in paths
    for path in paths:
        res = runner.invoke(app, [*path, "--help"], env=ENV)
        assert res.exit_code == 0, (path, res.output)
        assert "<bool>" not in res.output, (path, res.output)
    simulate = runner.invoke(app, ["simulate", "--help"], env=ENV).output
    assert "--quiet" in simulate and "--duplicate" in simulate and "<int>" in simulate


def test_bigtwo_alone_starts_a_game():
    """``bigtwo`` with no command is ``bigtwo play`` (here at the line-by-line table: not in a terminal)."""
    done = subprocess.run([sys.executable, "-m", "bigtwo"], input="quit\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Your hand:" in done.stdout and done.stdout.rstrip().endswith("Bye.")


def test_the_fitting_command_hands_its_arguments_to_the_fitting(monkeypatch):
    """``bigtwo lab fitting ...`` runs what ``python -m bigtwo.bots.fitting ...`` ran, with the same words."""
    seen = []
    fake = types.ModuleType("bigtwo.lab.fitting")
    fake.main = lambda argv=None: seen.append(argv)
    monkeypatch.setitem(sys.modules, "bigtwo.lab.fitting", fake)
    argv = ["collect", "out.pkl", "--bot", "search(iterations=2)", "--decisions", "5", "--seed", "3"]
    res = runner.invoke(app, ["lab", "fitting", *argv], env=ENV)
    assert res.exit_code == 0, res.output
    assert seen == [argv]
    res = runner.invoke(app, ["lab", "fitting", "--help"], env=ENV)  # the command's help, with its examples
    assert res.exit_code == 0 and "bigtwo lab fitting collect" in res.output and len(seen) == 1
    assert runner.invoke(app, ["lab", "fitting", "fit", "--help"], env=ENV).exit_code == 0
    assert seen[-1] == ["fit", "--help"]  # a step's help is the fitting's own


@pytest.mark.parametrize("name", ["imitate", "distill", "expert", "average"])
def test_each_pipeline_s_help_names_it_under_the_lab(name):
    res = runner.invoke(app, ["lab", name, "--help"], env=ENV)
    assert res.exit_code == 0 and f"bigtwo lab {name}" in res.output, res.output
