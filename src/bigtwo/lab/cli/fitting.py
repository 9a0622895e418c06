"""``bigtwo lab fitting``: the heuristic's weights fitted to a search's choices (:mod:`bigtwo.lab.fitting`)."""

from __future__ import annotations

import typer


def fitting(ctx: typer.Context) -> None:
    """Fit the heuristic's weights to a bot's choices: collect its decisions, then fit them.

    Two steps, each with options of its own: the words from the step on go to the fitting's command line as they
    are (bigtwo lab fitting collect --help lists collect's).

    \b
    Examples:
      bigtwo lab fitting collect search-11.pkl --decisions 4000 --seed 11   # four search(iterations=60) by default
      bigtwo lab fitting fit fitted.json search-11.pkl                      # the heuristic's weights, as JSON
    """
    from bigtwo.lab.fitting import main

    main(list(ctx.args))
