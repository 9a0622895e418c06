"""The lab: the research pipelines that fitted the shipped networks, run as ``bigtwo lab ...``.

The product (everything else under :mod:`bigtwo`) never imports this package: ``bigtwo`` finds the ``lab`` command
through the ``bigtwo.cli`` entry point group, so a player's install reads no line of it. What each pipeline made,
and the verdicts of the experiments that were removed, are kept in the lab log (``lab/`` at the repository's root).
"""
