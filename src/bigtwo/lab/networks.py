"""What the lab's training pipelines share: a network named on the command line, its digest, and settings checked
in words (the Q network itself, :class:`bigtwo.rl.networks.QNet`, belongs to the product's trainer)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.arena.provenance import DIGEST
from bigtwo.bots.learned import QPolicy, load_weights, policy_for
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import load_rules


def named_network(name: str, rules: str | None, players: int | None, role: str) -> tuple[QPolicy, str]:
    """The network ``name`` gives (a weights file, or ``shipped``: the package's for ``rules`` and ``players``)
    and the name messages and records give it; ``role`` is the option's word in messages (``teacher``)."""
    if name != "shipped":
        if not Path(name).is_file():
            raise BigTwoError(f"{role} {name}: no such weights file (a network's .npz, or 'shipped')")
        return load_weights(name), name
    if rules is None:
        raise BigTwoError(f"{role} 'shipped' needs the rules (and players) whose network it is")
    ruleset = load_rules(rules)
    n = ruleset.players if players is None else players
    return policy_for(ruleset, n), f"shipped {ruleset.name} {n}p"


def network_digest(net: QPolicy) -> str:
    """A short digest of the network's weights (as played, whatever file they were read from): what tells two
    teachers apart when a name (``shipped``) stays the same while the package's network changes."""
    h = hashlib.sha256()
    for w, b in net.layers():
        for part in (w, b):
            h.update(np.ascontiguousarray(part, dtype=np.float32).tobytes())
    return h.hexdigest()[:DIGEST]


def check_settings(checks: tuple[tuple[str, Any, bool, str], ...]) -> None:
    """Refuse the first setting whose check fails: ``(name, value, ok, rule)``, the rule in words ("be 1 or
    more")."""
    for name, value, ok, rule in checks:
        if not ok:
            raise BigTwoError(f"{name}={value}: must {rule}")


__all__ = ["check_settings", "named_network", "network_digest"]
