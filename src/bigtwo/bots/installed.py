"""Networks trained on this machine (``bigtwo train``), installed where ``learned`` and ``isearch`` find them.

The package ships networks for a few tables (``bots/weights/``); a group with its own house rules, or a table size
no shipped network covers, trains its own with one command, and the result is installed in the user's data
directory (platformdirs' ``user_data_dir("bigtwo")``, or ``$BIGTWO_DATA_DIR`` where that is set) under
``weights/<digest>-<players>p.npz``: the digest is the rules' settings' sha256 (:meth:`Ruleset.digest`), so a file
is found for exactly the rules and table size it was trained for, under whatever name the rules go by, and never
for a house rule that differs by one setting. The file's own description must name the same digest and table
size, or it is not used (a file copied in by hand under another name is not read as another table's).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bigtwo.rules.ruleset import Ruleset, settings_digest

DATA_DIR_VARIABLE = "BIGTWO_DATA_DIR"
DIGEST_CHARS = 16  # of the sha256's 64 in a file's name (the description keeps all of it, and is checked)


def data_dir() -> Path:
    """The user's data directory for bigtwo: ``$BIGTWO_DATA_DIR`` where set (tests, a shared install), else the
    platform's own (``~/.local/share/bigtwo`` on Linux)."""
    given = os.environ.get(DATA_DIR_VARIABLE)
    if given:
        return Path(given).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("bigtwo", appauthor=False))


def weights_dir() -> Path:
    """Where installed networks are kept."""
    return data_dir() / "weights"


def installed_path(rules: Ruleset, players: int) -> Path:
    """The file a network for these rules at this table size is installed as (whether or not it exists)."""
    return weights_dir() / f"{rules.digest()[:DIGEST_CHARS]}-{players}p.npz"


def network_digest(meta: dict[str, Any]) -> str | None:
    """The digest of the rules a network (its weights' ``meta``) was trained for, from the settings it records;
    None where it records none (weights from before they did)."""
    settings = meta.get("rules_settings")
    return None if not isinstance(settings, dict) else settings_digest(settings)


def trained_for(meta: dict[str, Any], rules: Ruleset, players: int) -> bool:
    """Whether a network (its weights' ``meta``) was trained for exactly these rules at this table size."""
    return network_digest(meta) == rules.digest() and meta.get("players") == players


__all__ = [
    "DATA_DIR_VARIABLE",
    "data_dir",
    "installed_path",
    "network_digest",
    "trained_for",
    "weights_dir",
]
