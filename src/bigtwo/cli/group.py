"""The ``bigtwo`` command group: its commands in the order a newcomer needs them, flags shown as flags, and the
commands other packages add (the lab's ``bigtwo lab``) found through an entry point group, so that the product
names none of them.

A package adds a command group by naming a Typer app in its metadata::

    [project.entry-points."bigtwo.cli"]
    lab = "bigtwo.lab.cli:app"

It is loaded only when its name is asked for or the commands are listed: ``bigtwo play`` imports none of them.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import typer
import typer.main
from typer.core import TyperGroup

PLUGINS = "bigtwo.cli"  # the entry point group
# the order ``bigtwo --help`` lists the commands in: play first, research (plugins) last
ORDER = ("play", "learn", "serve", "replay", "rules", "bots", "simulate", "benchmark", "results", "ladder", "train")


def plugin_commands() -> dict[str, Any]:
    """The command groups installed packages register under :data:`PLUGINS`, by name."""
    found: dict[str, Any] = {}
    for point in entry_points(group=PLUGINS):
        target = point.load()
        command = typer.main.get_command(target) if isinstance(target, typer.Typer) else target
        command.name = point.name  # the name it is invoked by (a Typer app built alone has none)
        found[point.name] = command
    return found


def _mark_flags(params: list[Any]) -> None:
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


def show_flags_as_flags(command: Any, ctx: typer.Context) -> None:
    """Give every flag of ``command`` (and of the commands under it) an empty metavar, its help option too.

    Typer's rich help (0.29) writes a parameter's type beside every option, a flag's as ``<bool>``: a placeholder
    for a value that a flag does not take (``--help <bool>``). An option's own metavar takes the type's place,
    so an empty one leaves the column blank for flags and changes nothing else (a flag's usage has no metavar)."""
    _mark_flags(command.get_params(ctx))
    for sub in getattr(command, "commands", {}).values():
        show_flags_as_flags(sub, ctx)


class CommandGroup(TyperGroup):
    """The root group: commands in :data:`ORDER` (any others after them), plugins loaded when first needed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plugins_loaded = False

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for name, command in plugin_commands().items():
            self.commands.setdefault(name, command)  # a plugin never replaces one of bigtwo's own commands

    def list_commands(self, ctx: Any) -> list[str]:
        self._load_plugins()
        names = list(self.commands)
        return [n for n in ORDER if n in self.commands] + [n for n in names if n not in ORDER]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            self._load_plugins()
        command = self.commands.get(cmd_name)
        if command is not None:
            show_flags_as_flags(command, ctx)
        return command

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))
        _mark_flags(params)
        return params
