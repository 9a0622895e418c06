"""``bigtwo lab``: the research pipelines, registered with the ``bigtwo`` command as a plugin (the ``bigtwo.cli``
entry point group in pyproject.toml), so that the product's command line names no lab module."""

from __future__ import annotations

import typer

from bigtwo.lab.cli.beliefs import beliefs_app
from bigtwo.lab.cli.dmc import dmc
from bigtwo.lab.cli.fitting import fitting
from bigtwo.lab.cli.pipelines import average, distill, expert, imitate
from bigtwo.lab.cli.standin import standin_app

app = typer.Typer(
    help="Research pipelines: how the shipped networks were fitted (the rl extra; see the lab log).",
    no_args_is_help=True,
    add_completion=False,
)
app.command()(dmc)
app.command()(imitate)
app.command()(distill)
app.command()(expert)
app.command()(average)
app.add_typer(standin_app, name="standin")
app.add_typer(beliefs_app, name="beliefs")
# every word from the step on (``collect ...``, ``fit ...``, their ``--help`` too) is the fitting's own command line's
app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "allow_interspersed_args": False},
)(fitting)

__all__ = ["app"]
