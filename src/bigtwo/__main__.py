"""``python -m bigtwo`` is the ``bigtwo`` command."""

from bigtwo.cli import main

main()
