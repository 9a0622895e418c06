"""The message catalogs: ``bigtwo.pot`` (the template, extracted from the code) and one
``<language>/LC_MESSAGES/bigtwo.po`` a language; :mod:`bigtwo.i18n` compiles and loads them."""
