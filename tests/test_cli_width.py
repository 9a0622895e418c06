"""The console of the command line: its width read when a command runs, its text printed as written."""

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


def test_text_between_colons_is_printed_as_written():
    """A name such as 'a:thumbs_up:b' in an error stays as typed: no ':name:' becomes an emoji."""
    res = CliRunner().invoke(importlib.import_module("bigtwo.cli.app").app, ["rules", "show", "a:thumbs_up:b"])
    assert res.exit_code == 2
    assert "'a:thumbs_up:b'" in res.output, res.output
