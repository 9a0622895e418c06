"""The terminal's width is read when a command runs, not when the command-line module was imported."""

import importlib
import sys

from typer.testing import CliRunner


def test_a_command_prints_at_the_width_of_its_own_moment(monkeypatch):
    """Importing the command line under a narrow COLUMNS must not narrow later commands (rich keeps the width a
    console was made with)."""
    monkeypatch.setenv("COLUMNS", "30")
    for name in [m for m in sys.modules if m.startswith("bigtwo.cli")]:
        monkeypatch.delitem(sys.modules, name)
    app = importlib.import_module("bigtwo.cli.app").app
    monkeypatch.setenv("COLUMNS", "200")
    res = CliRunner().invoke(app, ["rules", "list"])
    assert res.exit_code == 0, res.output
    widest = max(len(line) for line in res.output.splitlines())
    assert widest > 100, res.output
