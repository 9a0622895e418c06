"""The message catalogs: ``bigtwo.pot`` (the template, extracted from the code) and one
``<language>/LC_MESSAGES/bigtwo.po`` a language; :mod:`bigtwo.i18n` compiles and loads them."""

from pathlib import Path

FOLDER = Path(__file__).parent  # where the catalogs are, installed or in a checkout
