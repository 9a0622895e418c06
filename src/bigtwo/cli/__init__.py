"""The ``bigtwo`` command: play, rules, and (as they land) simulate, replay, serve."""

from bigtwo.cli.app import app, main

__all__ = ["app", "main"]
