"""``bigtwo lab fitting``: the heuristic's weights fitted to a search's choices (:mod:`bigtwo.lab.fitting`)."""

from __future__ import annotations

import typer


def fitting(ctx: typer.Context) -> None:
    """Fit the heuristic's weights to a bot's choices: collect its decisions, then fit (--help for the steps).

    The arguments go to the fitting's own command line as they are.

    \b
    Examples:
      bigtwo lab fitting collect search.pkl --bot 'search(iterations=60)' --decisions 2000 --seed 1
      bigtwo lab fitting fit weights.json search.pkl
    """
    from bigtwo.lab.fitting import main

    main(list(ctx.args))
